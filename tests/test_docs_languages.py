"""Every guide in docs/ has a 繁體 and a 简体 version with its options and sound links.

The Chinese guides are docs/zh-Hant/<name>.md and docs/zh-Hans/<name>.md. Each names every option
(`--flag`) its English guide names, opens with links to the other script and to the English guide,
and every relative link in it reaches a file, and the anchor in that file when one is given. A
section of an English guide that README or another guide links into has the same anchor in both
Chinese versions, so the link has a Chinese counterpart.
"""

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCRIPTS = ("zh-Hant", "zh-Hans")
GUIDES = sorted(p.stem for p in DOCS.glob("*.md"))

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]+`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
EXPLICIT_ID = re.compile(r"""<a\s+(?:name|id)=["']([^"']+)["']""")


def without_code(text: str) -> str:
    """The text without fenced blocks and code spans (a link's look-alike in code is code)."""
    return CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, code marks and punctuation dropped, - for space."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"<[^>]+>", "", text)
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    found = set(EXPLICIT_ID.findall(text))
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return frozenset(found)


def chinese(guide: str, script: str) -> Path:
    return DOCS / script / f"{guide}.md"


def options(path: Path) -> set[str]:
    return set(OPTION.findall(path.read_text(encoding="utf-8")))


def test_the_guides_are_found() -> None:
    assert {"extract", "compare", "check", "rendering", "languages"} <= set(GUIDES)


@pytest.mark.parametrize("guide", GUIDES)
def test_every_guide_has_both_chinese_versions(guide: str) -> None:
    missing = [script for script in SCRIPTS if not chinese(guide, script).is_file()]
    assert not missing, f"docs/{guide}.md has no {' or '.join(missing)} version"


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("guide", GUIDES)
def test_the_chinese_guide_names_every_option_of_the_english(guide: str, script: str) -> None:
    path = chinese(guide, script)
    if not path.is_file():
        pytest.fail(f"docs/{script}/{guide}.md is missing")
    lacking = sorted(options(DOCS / f"{guide}.md") - options(path))
    assert not lacking, f"docs/{script}/{guide}.md does not mention {', '.join(lacking)}"


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("guide", GUIDES)
def test_every_relative_link_of_the_chinese_guide_resolves(guide: str, script: str) -> None:
    path = chinese(guide, script)
    if not path.is_file():
        pytest.fail(f"docs/{script}/{guide}.md is missing")
    broken = []
    for target in LINK.findall(without_code(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_file():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no such anchor)")
    assert not broken, f"docs/{script}/{guide}.md: " + "; ".join(broken)


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("guide", GUIDES)
def test_the_chinese_guide_opens_with_links_to_the_other_versions(guide: str, script: str) -> None:
    path = chinese(guide, script)
    if not path.is_file():
        pytest.fail(f"docs/{script}/{guide}.md is missing")
    first = next(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    other = SCRIPTS[1 - SCRIPTS.index(script)]
    targets = set(LINK.findall(first))
    assert {f"../{other}/{guide}.md", f"../{guide}.md"} <= targets, first


def links_into(guide: str) -> set[str]:
    """The anchors of docs/<guide>.md that README or another English guide links to."""
    found = set()
    for source in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in LINK.findall(without_code(source.read_text(encoding="utf-8"))):
            file_part, _, anchor = target.partition("#")
            if anchor and file_part and Path(file_part).name == f"{guide}.md":
                found.add(anchor)
    return found


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("guide", GUIDES)
def test_a_section_linked_in_english_has_its_anchor_in_chinese(guide: str, script: str) -> None:
    path = chinese(guide, script)
    if not path.is_file():
        pytest.fail(f"docs/{script}/{guide}.md is missing")
    english = anchors(DOCS / f"{guide}.md")
    wanted = {a for a in links_into(guide) if a in english}
    lacking = sorted(wanted - anchors(path))
    assert not lacking, f"docs/{script}/{guide}.md has no anchor {', '.join(lacking)}"
