"""The site's three kinds of page (a score's, the index, the compare view), each rendered from
its template with what the build gathered for it, and the links to its copies in the site's
other languages."""

from __future__ import annotations

from dataclasses import dataclass

from drumscore import i18n
from drumscore.i18n import _, written
from drumscore.model import STATE_SLUGS, Edition, Section
from drumscore.site import data as sitedata
from drumscore.site.templating import render


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
) -> str:
    """The index: every edition with its scores, and the apparatus of each figure and drum."""
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
    return render(
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
) -> str:
    """The compare view: two names in, their strokes aligned (in the page, by align.js, from the
    scores and `extra`'s collations), and A/B playback."""
    return render(
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
