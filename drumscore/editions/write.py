"""Writing an extraction as an edition file for scores/, in the format corpus.load_edition reads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from drumscore.corpus import edition_from_dict, is_plain_id
from drumscore.editions.extract import Extraction, line_range
from drumscore.errors import CorpusError, ExtractError, InputFileError, OptionError
from drumscore.files.reading import parse_toml, read_input_text
from drumscore.i18n import _
from drumscore.model import Dating, Wording

#: Line breaks and other control characters, which a TOML comment line cannot hold.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class Kept:
    """What an existing edition file holds that a passage cannot give: it is written again."""

    id: str
    aliases: tuple[str, ...]
    note: Wording
    counts: tuple[dict, ...]
    date: Dating | None = None
    #: The short name a Chinese view cites the edition by, per script.
    short: Wording = field(default_factory=Wording)


def kept_from(path: str | Path) -> Kept:
    """The id, aliases, note, date, short name and [[count]] entries of the edition file at `path`.

    The file must be an edition file that loads; anything else is refused rather than replaced.
    """
    try:
        data = parse_toml(read_input_text(path, "edition file"), str(path), CorpusError)
        edition = edition_from_dict(data, where=str(path))
    except (InputFileError, CorpusError) as exc:
        reason = exc
        raise CorpusError(
            _(
                "-o {path!r} exists but cannot be read as an edition file ({reason}), so its "
                "counts, aliases and note cannot be kept; fix it, remove it, or choose another "
                "-o file"
            ).format(path=str(path), reason=reason)
        ) from None
    return Kept(
        edition.id,
        edition.aliases,
        edition.note,
        tuple(data.get("count", ())),
        edition.date,
        edition.short,
    )


def comment_text(text: str) -> str:
    """`text` fit for one TOML comment line: line breaks and control characters become spaces."""
    return _CONTROL.sub(" ", text)


def edition_toml(
    extraction: Extraction,
    edition_id: str,
    *,
    name: str = "",
    script: str = "",
    aliases: tuple[str, ...] = (),
    note: str | Wording = "",
    counts: Sequence[dict] = (),
    date: Dating | None = None,
    short: str | Wording = "",
) -> str:
    """The TOML text of an edition file holding every labelled score of `extraction`, in
    `script` (by default the script the passage is written in).

    `counts` are [[count]] tables (as corpus.load_edition reads them), written after the scores.
    The glyph mapping the passage was read with is written as the [glyphs] table, so that each
    score's `printed` keeps the signs of the text and still reads as notation.
    """
    import tomli_w

    if not is_plain_id(edition_id):
        raise OptionError(
            _(
                "edition id {id!r} must be letters, digits, '-' and '_', starting with a letter "
                "or digit, e.g. 'benyi-skqs'"
            ).format(id=edition_id),
            option="id",
        )
    unlabelled = [f for f in extraction.scores if not f.score.state]
    if unlabelled:
        where = line_range(*unlabelled[0].lines, words=True)
        raise ExtractError(
            _(
                "the pattern on {lines} has no 魯鼓/薛鼓 label beside it, so it cannot go into "
                "an edition file; list what was found to see it"
            ).format(lines=where)
        )
    doubtful = [f for f in extraction.scores if f.doubtful]
    if doubtful:
        raise ExtractError(
            _(
                "the reading is partial ({doubt}), so it cannot go into an edition file; settle "
                "what is doubtful in the passage first"
            ).format(doubt=doubtful[0].doubts[0])
        )
    name = name or extraction.name
    script = script or extraction.script or "traditional"
    prov = extraction.provenance
    source = {
        "citation": prov.written,
        "work": prov.work,
        "page": prov.page,
        "kanripo": prov.kanripo,
        "kanripo_file": prov.kanripo_file,
        "lines": prov.lines,
        "transcription": prov.transcription,
        "file": prov.file,
        "commit": prov.commit,
        "licence": prov.licence,
    }
    scores = []
    for found in sorted(extraction.scores, key=lambda f: (f.score.figure, f.score.state != "魯")):
        entry: dict[str, object] = {
            "figure": found.score.figure,
            "state": found.score.state,
            "label": found.label,
            "printed": found.score.printed,
            "file_lines": line_range(*found.lines),
        }
        kanripo_lines = extraction.kanripo_lines(found)
        if kanripo_lines:
            entry["kanripo_lines"] = kanripo_lines
        if found.notes:
            entry["notes"] = [
                {"after": n.after, "text": n.text, **({"line": n.line} if n.line else {})}
                for n in found.notes
            ]
        scores.append(entry)
    dated: dict[str, object] = {}
    if date is not None:
        if date.earliest == date.latest:
            dated["year"] = date.earliest
        else:
            dated.update({"from": date.earliest, "to": date.latest})
        dated["basis"] = date.basis.to_data()
    data = {
        "id": edition_id,
        "name": name,
        "aliases": list(aliases),
        "script": script,
        "short": Wording.of(short).to_data(),
        "note": Wording.of(note).to_data(),
        "date": dated,
        "source": {k: v for k, v in source.items() if v},
        "glyphs": dict(extraction.glyphs),
        "score": scores,
        "count": [dict(c) for c in counts],
    }
    for key in ("aliases", "short", "note", "date", "glyphs", "count"):
        if not data[key]:
            del data[key]
    head = (
        f"# {comment_text(name)}: written by 'drumscore extract {comment_text(prov.file)}'. "
        "Counts that the edition states go in [[count]] entries, each with its quote.\n"
    )
    return head + tomli_w.dumps(data, multiline_strings=False)
