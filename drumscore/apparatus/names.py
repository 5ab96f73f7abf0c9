"""The names of the sources, one name under both scripts.

The notes and counts of the editions name texts and commentators (吳澄本, 大戴禮, 徐伯魯); an
edition in simplified script names them 吴澄本, 大戴礼, 徐伯鲁. They are one source: matched by
their simplified form (drumscore.i18n's one table of the two scripts), and shown by the name the
corpus and the notes use. The same table tells the script a passage is written in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from drumscore.i18n import SIMPLIFIED, TRADITIONAL, chinese, simplified, written

if TYPE_CHECKING:
    from drumscore.model import Edition, Wording

#: Characters only the traditional script writes, and only the simplified one.
_ONLY_TRADITIONAL = frozenset(TRADITIONAL) - frozenset(SIMPLIFIED)
_ONLY_SIMPLIFIED = frozenset(SIMPLIFIED) - frozenset(TRADITIONAL)

Script = Literal["traditional", "simplified"]


def script_of(text: str) -> Script | None:
    """The script `text` is written in, by which script's own characters it holds more of; None
    when it holds none of either (notation, or characters both scripts write alike)."""
    traditional = sum(1 for c in text if c in _ONLY_TRADITIONAL)
    simple = sum(1 for c in text if c in _ONLY_SIMPLIFIED)
    if traditional == simple:
        return None
    return "traditional" if traditional > simple else "simplified"


#: The names of sources that the corpus's notes and counts and the project's notes use, as
#: they write them: a name in the other script is shown as one of these.
KNOWN = (
    "吳澄本",
    "吳澄",
    "大戴禮",
    "大戴禮記",
    "朱子",
    "朱熹",
    "徐伯魯",
    "郝仲輿",
    "鄭玄",
    "鄭康成",
    "孔穎達",
    "陸德明",
    "陸佃",
    "毛奇齡",
    "朱載堉",
    "陳暘",
    "王應麟",
)
_BY_KEY = {simplified(name): name for name in KNOWN}


def key(name: str) -> str:
    """What `name` is matched by: the same for 吳澄本 and 吴澄本."""
    return simplified(name.strip())


def shown(name: str) -> str:
    """The name a source is shown by: the corpus's spelling where it has one (吴澄本 → 吳澄本),
    else the name as written."""
    return _BY_KEY.get(key(name), name.strip())


def sigla(pool: Sequence[Edition]) -> dict[int, str]:
    """A short, unique siglum for each edition (by id(edition)): its id (a user's edition that
    repeats an id, or whose id is not a plain name, gets a suffix or a cleaned form)."""
    taken: dict[str, str] = {}
    out = {}
    for edition in pool:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in edition.id).strip("-.")
        if not stem or not (stem[0].isalpha() or stem[0] == "_"):
            stem = f"ed-{stem}" if stem else "ed"
        siglum, n = stem, 2
        while siglum in taken:
            siglum, n = f"{stem}-{n}", n + 1
        taken[siglum] = edition.id
        out[id(edition)] = siglum
    return out


def cited(name: str, short: Wording) -> str:
    """An edition as a Chinese view cites it: its short name in the reader's script (as 阮元's
    校勘記 cites 閩本、監本、毛本), or 《name》 for an edition without one."""
    return str(short) or f"《{written(name)}》"


def cited_siglum(siglum: str) -> str:
    """An edition named by its siglum (one that quotes a count, say) as the reader's view names
    it: the siglum in English; in Chinese the short name the 校勘記 cites it by (本義), 《name》
    without one, the siglum for an edition outside the corpus."""
    if not chinese():
        return siglum
    from drumscore.corpus import editions

    edition = next((e for e in editions() if e.id == siglum), None)
    return cited(edition.name, edition.short) if edition else siglum
