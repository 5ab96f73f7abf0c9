"""The script of the 简体 site's prose: the names the corpus gives in traditional characters (its
editions, their citations, the commentators, the readings and the states' drums) written in
simplified characters on a zh-Hans page, as a reader in Beijing reads prose and labels.
Quotations, the notation, printed text and variant readings stay as printed: they never pass
through here.

One table serves every view: drumscore.apparatus.names holds the two scripts' characters (drawn
from OpenCC's t2s; tests/site/test_script.py checks the names against OpenCC over the whole
corpus), so the site needs no converter of its own.
"""

from __future__ import annotations

from drumscore.apparatus.names import prose

__all__ = ["prose"]
