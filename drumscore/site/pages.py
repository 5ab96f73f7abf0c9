"""The site's three kinds of page (a score's, the index, the compare view), each rendered from
its template with what the build gathered for it, and the links to its copies in the site's
other languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from drumscore import i18n
from drumscore.i18n import _, written
from drumscore.model import STATE_SLUGS, Edition, Section
from drumscore.site import data as sitedata
from drumscore.site.templating import render, stream


@dataclass(frozen=True, slots=True)
class Alternates:
    """The languages a page is built in beside its own (a site in one language: none)."""

    tags: tuple[str, ...] = ()

    def links(self, root: str, page: str) -> list[dict]:
        """Each language's copy of `page` (its path in a language's site), with the language's
        own name, linked from a page whose way to the top of its language's site is `root`."""
        names = {tag: name for tag, name in i18n.LANGUAGES.values()}
        return [{"tag": t, "name": names[t], "href": f"{root}../{t}/{page}"} for t in self.tags]


#: A site in one language: no copies to link.
ONE_LANGUAGE = Alternates()


def score_page(
    score: dict, shared: dict, partner: dict | None, alternates: Alternates = Alternates()
) -> str:
    """A score's page: notation, player, staff, counts and checks, source, downloads."""
    root = "../"
    strings = shared["strings"]
    query = {"a": score["key"]}
    compare_with = _("Compare this reading with another")
    if partner is not None:
        query["b"] = partner["key"]
        standing = score["apparatus"] or {}
        if partner["notation"] == score["notation"]:
            compare_with = _("Compare this reading with another edition's (they read alike)")
        elif standing.get("reading") not in (None, "A"):  # the partner is the majority's
            compare_with = _("Compare this reading with the majority reading")
        else:
            compare_with = _("Compare this reading with the reading that differs most")
    return render(
        "score.html",
        title=score["title"],
        root=root,
        script="score.js",
        languages=alternates.links(root, f"score/{score['slug']}.html"),
        score=score,
        files=score["files"],
        tempo=shared["tempo"],
        play=shared["play"],
        readings=shared["readings"],
        strings=strings,
        section_order=sitedata.section_order(),
        compare_query=query,
        compare_with=compare_with,
        page_data={"root": root, "score": score, **shared},
    )


def index_page(
    scores: list[dict],
    apparatuses: list[dict],
    pool: tuple[Edition, ...],
    alternates: Alternates = Alternates(),
) -> Iterator[str]:
    """The index: every edition with its scores, and the apparatus of each figure and drum; in
    pieces as it is made (a site of thousands of editions has a long one)."""
    blocks = []
    for a in apparatuses:
        readings = [
            {
                **r,
                "letter": chr(ord("A") + i),
                "links": [
                    {**s, "edition_name": written(name)}
                    for s, name in zip(r["scores"], r["editions"], strict=True)
                ],
            }
            for i, r in enumerate(a["readings"])
        ]
        blocks.append(
            {
                **a,
                "slug": STATE_SLUGS.get(a["state"], a["state"]),
                "readings": readings,
                "total": sum(len(r["scores"]) for r in a["readings"]),
                "majority_key": a["readings"][0]["keys"][0] if a["readings"] else "",
                "witnesses_by_siglum": _by_siglum(a),
            }
        )
    by_edition: dict[str, list[dict]] = {}
    for s in scores:
        by_edition.setdefault(s["edition"], []).append(s)
    editions = [
        {
            "name": written(e.name),
            "id": e.id,
            "citation": written(e.provenance.citation),
            "scores": by_edition.get(e.id, []),
        }
        for e in pool
    ]
    return stream(
        "index.html",
        title=_("The drum scores of 投壺"),
        root="",
        script=None,
        languages=alternates.links("", "index.html"),
        editions=editions,
        apparatuses=blocks,
    )


def _by_siglum(apparatus: dict) -> dict[str, dict]:
    return {w["siglum"]: w for w in apparatus["witnesses"]}


def compare_page(
    scores: list[dict],
    shared: dict,
    extra: dict,
    alternates: Alternates = Alternates(),
) -> Iterator[str]:
    """The compare view: two names in, their strokes aligned in the page (by align.js, from
    each chosen score's data file, see score_script), and A/B playback; in pieces as it is
    made. `scores` are listed (sitedata.listed_score): their names, pages and notation."""
    return stream(
        "compare.html",
        title=_("Compare two readings"),
        root="",
        script="compare.js",
        languages=alternates.links("", "compare.html"),
        scores=scores,
        tempo=shared["tempo"],
        play=shared["play"],
        sections={s.value: s.description for s in Section},
        marks=sitedata.marks(),
        page_data={
            "root": "",
            "scores": scores,
            "marks": sitedata.marks(),
            **shared,
            **extra,
        },
    )


#: Where a score's data file is, from the top of its language's site (see score_script).
DATA = "data"


def score_script(data: dict) -> str:
    """A score's data file (DATA/SLUG.js), which the compare page loads when the score is
    chosen: a plain script that hands the score's data (sitedata.score_data) to the page's
    drumscoreScore. A script element loads it where the site is served and where it is opened
    from its folder (file://, where a browser refuses to fetch a file)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"drumscoreScore({text});\n"
