"""The names of the sources, one name under both scripts.

The notes and counts of the editions name texts and commentators (吳澄本, 大戴禮, 徐伯魯); an
edition in simplified script names them 吴澄本, 大戴礼, 徐伯鲁. They are one source: matched by
their folded form (drumscore.scripts) and shown by the name the corpus and the notes use.
"""

from __future__ import annotations

from drumscore.scripts import folded

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
_BY_KEY = {folded(name): name for name in KNOWN}


def key(name: str) -> str:
    """What `name` is matched by: the same for 吳澄本 and 吴澄本."""
    return folded(name.strip())


def shown(name: str) -> str:
    """The name a source is shown by: the corpus's spelling where it has one (吴澄本 → 吳澄本),
    else the name as written."""
    return _BY_KEY.get(key(name), name.strip())
