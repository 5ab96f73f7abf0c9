"""Writing an extraction as an edition file for scores/, in the format corpus.load_edition reads."""

from __future__ import annotations

import re

from .errors import ExtractError, OptionError
from .extract import Extraction

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def edition_toml(
    extraction: Extraction,
    edition_id: str,
    *,
    name: str = "",
    script: str = "traditional",
    aliases: tuple[str, ...] = (),
    note: str = "",
) -> str:
    """The TOML text of an edition file holding every labelled score of `extraction`."""
    import tomli_w

    if not _ID.match(edition_id):
        raise OptionError(
            f"edition id {edition_id!r} must be lower-case letters, digits and '-', "
            "e.g. 'benyi-skqs'"
        )
    unlabelled = [f for f in extraction.scores if not f.score.state]
    if unlabelled:
        a, b = unlabelled[0].lines
        raise ExtractError(
            f"the pattern on lines {a}-{b} has no 魯鼓/薛鼓 label beside it, so it cannot go into "
            "an edition file; use --json to see what was found"
        )
    name = name or extraction.name
    prov = extraction.provenance
    source = {
        "citation": prov.citation,
        "file": prov.file,
        "kanripo": prov.kanripo,
        "lines": prov.lines,
        "commit": prov.commit,
        "licence": prov.licence,
    }
    scores = []
    for found in sorted(extraction.scores, key=lambda f: (f.score.figure, f.score.state != "魯")):
        a, b = found.lines
        entry = {
            "figure": found.score.figure,
            "state": found.score.state,
            "label": found.label,
            "printed": found.score.printed,
            "file_lines": f"{a}-{b}" if a != b else str(a),
        }
        kanripo_lines = extraction.kanripo_lines(found)
        if kanripo_lines:
            entry["kanripo_lines"] = kanripo_lines
        scores.append(entry)
    data = {
        "id": edition_id,
        "name": name,
        "aliases": list(aliases),
        "script": script,
        "note": note,
        "source": {k: v for k, v in source.items() if v},
        "score": scores,
    }
    if not data["aliases"]:
        del data["aliases"]
    if not note:
        del data["note"]
    head = (
        f"# {name}: written by 'drumscore extract {prov.file}'. Counts that the edition states "
        "go in [[count]] entries, each with its quote.\n"
    )
    return head + tomli_w.dumps(data, multiline_strings=False)
