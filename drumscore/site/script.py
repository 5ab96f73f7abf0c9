"""The script of the 简体 site's prose: the names the corpus gives in traditional characters (its
editions, their citations, the commentators, the readings and the states' drums) written in
simplified characters on a zh-Hans page, as a reader in Beijing reads prose and labels.
Quotations, the notation, printed text and variant readings stay as printed: they never pass
through here.

The table holds only the characters those names use, each as OpenCC's t2s converts it in them
(tests/site/test_script.py checks it against OpenCC over the whole corpus), so the site needs no
converter of its own.
"""

from __future__ import annotations

from drumscore.i18n import language

_TRADITIONAL = "傳儀問圖壺庫晉書樂欽淵禮經綱義衛訓記註說講鄭閣陳魯齡"
_SIMPLIFIED = "传仪问图壶库晋书乐钦渊礼经纲义卫训记注说讲郑阁陈鲁龄"
SIMPLIFIED = str.maketrans(_TRADITIONAL, _SIMPLIFIED)


def prose(text: str) -> str:
    """`text`, a name in the page's prose, in the script of the language speaking: simplified
    on a zh-Hans page, as given in any other."""
    return text.translate(SIMPLIFIED) if language() == "zh_Hans" else text
