"""The apparatus as data: JSON-ready dictionaries and CSV (the alignment table and the places)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from drumscore.apparatus.places import Apparatus, Place, Reading, Variant, Witness
from drumscore.apparatus.wording import years
from drumscore.i18n import _, aside, chinese, written
from drumscore.model import HALF


def _witness(a: Apparatus, w: Witness) -> dict:
    p = w.provenance
    return {
        "siglum": w.siglum,
        # how the reader's view names it: the siglum in English, 注疏本 or 底本《…》 in Chinese
        "cited": a.cite(w.siglum),
        "edition": w.name,
        "reported_by": w.reported_by or None,
        "quote": w.quote or None,
        "key": "" if w.reported else w.score.key,
        "script": w.script,
        "notation": w.notation,
        "printed": w.score.printed,
        "date": w.date.text if w.date else None,
        "date_shown": years(w.date.text) if w.date else None,
        "source": {
            "citation": p.citation if p else "",
            "file": p.file if p else "",
            "kanripo": p.kanripo if p else "",
            "lines": p.lines if p else "",
            "commit": p.commit if p else "",
            "licence": p.licence if p else "",
        },
    }


def place_data(number: int, p: Place) -> dict:
    return {
        "place": number,
        "position": p.position,
        "label": p.label,
        "section": p.section_name,
        "section_shown": p.section_shown,
        "editions_part": p.editions_part,
        "columns": [p.start, p.stop],
        "run": {"symbol": p.run.symbol, "first": p.run.first, "last": p.run.last}
        if p.run
        else None,
        "lemma": _variant(p.lemma),
        "variants": [_variant(v) for v in p.variants],
    }


def _variant(v: Variant) -> dict:
    return {
        "text": v.text,
        "sigla": list(v.sigla),
        "printed": list(v.printed),
        "description": v.description,
        "first_in": {"siglum": v.first, "date": v.first_date} if v.first else None,
        "reported": [
            {"siglum": r.siglum, "reported_by": r.reported_by, "quote": r.quote} for r in v.reports
        ],
    }


def reading_data(r: Reading) -> dict:
    """One distinct printed reading of the majority view: its editions and its departures."""
    return {
        "notation": r.notation,
        "sigla": list(r.sigla),
        "keys": [w.score.key for w in r.witnesses],
        "editions": [w.name for w in r.witnesses],
        "differences": list(r.differences),
    }


def summary_data(a: Apparatus) -> dict:
    """The two numbers every view states, and the sentence that states them."""
    return {"places": len(a.parting), "reported": len(a.reports), "text": a.summary}


def apparatus_data(a: Apparatus) -> dict:
    """One score's apparatus: witnesses, the alignment table, places, notes, count checks.

    Its keys and kinds are fixed; its sentences (summary, labels, descriptions) are in the
    reader's language, as the text report is."""
    labels = [a.column_label(k) for k in range(len(a.columns))]
    return {
        "score": a.key,
        "figure": a.figure,
        "state": a.state,
        "base": a.base.siglum,
        "base_cited": a.cite(a.base.siglum),
        "summary": summary_data(a),
        "agreements": list(a.agreements),
        "readings": [reading_data(r) for r in a.readings],
        "witnesses": [_witness(a, w) for w in a.witnesses],
        "columns": [
            {
                "label": labels[k],
                "base_position": c.base,
                "section": c.section.value if c.section else HALF,
                "varies": c.varies,
            }
            for k, c in enumerate(a.columns)
        ],
        "alignment": {w.siglum: list(a.row(i)) for i, w in enumerate(a.witnesses)},
        "places": [place_data(n, p) for n, p in enumerate(a.places, 1)],
        "notes": [
            {"siglum": n.siglum, "after": n.after, "text": n.text, "why_not_a_reading": n.reason}
            for n in a.notes
        ],
        "stated_counts": [s.to_data() for s in a.counts],
    }


def csv_name(a: Apparatus, w: Witness) -> str:
    """A witness's name in the alignment table: a reported text says who reports it; a Chinese
    table names an edition as its apparatus cites it (注疏本, 底本《禮記注疏》)."""
    if w.reported:
        return aside(a.cite(w.siglum) if chinese() else w.name, a.described(w))
    return a.cite(w.siglum) if chinese() else w.name


def csv_text(apparatuses: Sequence[Apparatus]) -> str:
    """Three tables, one after the other with a blank row between: the alignment (per score, a
    row of column labels, a row of sections, a row of place numbers, then one row per witness,
    a text known only from a note among them), the two numbers of each score, and the places
    (one row per reading). Its headers are fixed, its sentences in the reader's language."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for a in apparatuses:
        n = len(a.columns)
        place_of = a.place_of_column()
        writer.writerow([a.key, "column", "", *(a.column_label(k) for k in range(n))])
        writer.writerow(
            [a.key, "section", "", *((c.section.value if c.section else HALF) for c in a.columns)]
        )
        writer.writerow([a.key, "place", "", *(place_of.get(k, "") for k in range(n))])
        for i, w in enumerate(a.witnesses):
            # a siglum is an edition's id, or the name of a text a note reports (大戴禮): a name,
            # in the reader's script as every name of the prose (大戴礼 in 简体)
            writer.writerow([a.key, written(w.siglum), csv_name(a, w), *a.row(i)])
    writer.writerow([])
    writer.writerow(
        ["score", "places where the printed editions part", "readings reported by notes"]
    )
    for a in apparatuses:
        writer.writerow([a.key, len(a.parting), len(a.reports)])
    writer.writerow([])
    writer.writerow(
        ["score", "place", "position", "section", "lemma", "reading", "sigla", "description"]
    )
    for a in apparatuses:
        for number, p in enumerate(a.places, 1):
            for v in (p.lemma, *p.variants):
                what = _("lemma") if v is p.lemma else v.description
                for r in v.reports:
                    what = _("{description}; {siglum} reported in {by}: {quote}").format(
                        description=what,
                        siglum=a.cite(r.siglum),
                        by=a.cite(r.reported_by),
                        quote=r.quote,
                    )
                writer.writerow(
                    [
                        a.key,
                        number,
                        p.label,
                        p.section_name,
                        p.lemma.text,
                        v.text,
                        " ".join(written(siglum) for siglum in v.sigla),
                        what,
                    ]
                )
    return out.getvalue()
