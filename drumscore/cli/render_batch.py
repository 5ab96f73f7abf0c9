"""render with many scores in one process: SCORE... or --all, a list of sections, a name template.

`drumscore render lu xue --section touhu,she -o 'out/{key}-{section}.wav'` renders every score in
every section, one file each, named by the template. Each file is rendered exactly as a single
render of that score and section would render it (the same code, so the same bytes); one progress
bar counts the files, one summary line ends the run. A score or section that fails reports its
error and the others are still written; the exit status is then 2 if every failure was bad
input, else 1.
"""

from __future__ import annotations

import argparse
import copy
import os
import string
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from drumscore.cli.options import check_new, error_message
from drumscore.conductor.timeline import check_length
from drumscore.conductor.track import Track
from drumscore.corpus import resolve, scores
from drumscore.errors import DrumscoreError, OptionError, OutputError
from drumscore.files.atomic import check_not_inputs
from drumscore.files.format_choice import choose
from drumscore.i18n import _, carried, list_text, ngettext
from drumscore.model import STATE_SLUGS, Score, Section
from drumscore.timing import split_list

#: The placeholders of an output template and what they stand for.
PLACEHOLDERS = {
    "key": "the score's name, '/' and '@' written '_' (lu_1_zhushu)",
    "edition": "the edition id (zhushu; 'notation' for raw notation)",
    "figure": "the figure, 1 or 2 (0 for raw notation)",
    "state": "the state, lu or xue ('notation' for raw notation)",
    "section": "the section: she, touhu or head",
}


@dataclass(frozen=True, slots=True)
class Item:
    """One file to render: the score's name and section, and where it goes."""

    score: str
    section: str
    output: str


def sections_of(text: str | None) -> list[str]:
    """--section's list, such as 'touhu,she'; each checked, none twice. None: the default."""
    if text is None:
        return [Section.SHE.value]
    names = split_list(
        text,
        parameter="section",
        form="NAME[,NAME...]",
        example="touhu,she",
        unique=lambda name: Section.parse(name).value,
    )
    return [Section.parse(name).value for name in names]


def is_batch(args: argparse.Namespace) -> bool:
    """Whether this render is several files: more scores, --all, a section list or a template."""
    return bool(args.more or args.all or "," in (args.section or "") or _fields(args.output))


def _fields(template: str) -> list[str]:
    try:
        parsed = string.Formatter().parse(template)
        return [name for _text, name, _spec, _conversion in parsed if name is not None]
    except ValueError as exc:
        raise OptionError(
            _(
                "output template {template!r} is malformed ({reason}); write {key}, {section}…, "
                "and double a brace that is meant literally: {brace}"
            ).format(template=template, reason=exc, key="{key}", section="{section}", brace="{{"),
            option="output",
        ) from None


def names_for(score: Score) -> dict[str, str]:
    """The template's placeholders filled in for one score (section added per item)."""
    if not score.edition_id:
        return {"key": score.key, "edition": "notation", "figure": "0", "state": "notation"}
    return {
        "key": score.key.replace("/", "_").replace("@", "_"),
        "edition": score.edition_id,
        "figure": str(score.figure),
        "state": STATE_SLUGS.get(score.state, score.state),
    }


def plan(args: argparse.Namespace) -> list[Item]:
    """Every (score, section) with its output path; refused before any work if names collide."""
    template = args.output
    fields = _fields(template)
    unknown = sorted(set(fields) - set(PLACEHOLDERS))
    if unknown:
        known = list_text("{" + k + "}" for k in PLACEHOLDERS)
        raise OptionError(
            _("output template {template!r} has unknown placeholder {unknown}; use {known}").format(
                template=template, unknown="{" + unknown[0] + "}", known=known
            ),
            option="output",
        )
    if args.all and (args.score is not None or args.more):
        raise OptionError(
            _(
                "all renders every score of the corpus; leave the SCORE names out, or leave "
                "--all out"
            ),
            option="all",
        )
    names = [s.key for s in scores()] if args.all else [args.score, *args.more]
    sections = sections_of(args.section)
    items: list[Any] = []
    seen: dict[Any, Any] = {}
    for name in names:
        try:
            fill = names_for(resolve(name))
        except DrumscoreError:
            fill = None  # reported when the item is rendered; the others go on
        for section in sections:
            if fill is None:
                items.append(Item(name, section, ""))
                continue
            output = _fill(template, {**fill, "section": section}, name)
            if output in seen:
                raise OptionError(
                    _(
                        "output template {template!r} names {output!r} for both {first} and "
                        "{second}; add {key} and {section} to the template so each file has its "
                        "own name"
                    ).format(
                        template=template,
                        output=output,
                        first=seen[output],
                        second=f"{name} {section}",
                        key="{key}",
                        section="{section}",
                    ),
                    option="output",
                )
            seen[output] = f"{name} {section}"
            items.append(Item(name, section, output))
    return items


def template_folder(template: str) -> str:
    """The folder a template writes into: the folder part before its first placeholder."""
    head = template.split("{", 1)[0].replace("}}", "}")
    return os.path.dirname(head) if "{" in template else os.path.dirname(template)


def _fill(template: str, fill: dict[str, str], name: str) -> str:
    """The template filled in for one item, each value a plain name and the path inside the
    template's folder: a value from a file (an edition id) never leads elsewhere."""
    for field, value in fill.items():
        if not value or value in (".", "..") or any(c in value for c in ("/", os.sep, "\0")):
            raise OptionError(
                _(
                    "{name}: the {field} of the output template would be {value!r}, which is not "
                    "a plain file name; use another placeholder"
                ).format(name=name, field="{" + field + "}", value=value[:60]),
                option="output",
            )
    output = template.format(**fill)
    root = os.path.realpath(template_folder(template) or ".")
    where = os.path.realpath(os.path.dirname(output) or ".")
    if where != root and not where.startswith(root.rstrip(os.sep) + os.sep):
        raise OptionError(
            _(
                "output template {template!r} names {output!r} for {name}, outside the folder "
                "{folder!r} it writes into; put the placeholders in names below that folder"
            ).format(
                template=template, output=output, name=name, folder=template_folder(template) or "."
            ),
            option="output",
        )
    return output


#: Audio and MIDI items are rendered this many at a time (numpy, libsndfile and the file system
#: work outside Python's lock); notation one at a time, as music21 keeps global state.
MAX_WORKERS = 4


def workers_for(output: str) -> int:
    if choose("score", output, "output")[0] not in ("audio", "midi"):
        return 1
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def _make_folders(items: list[Item]) -> None:
    """The folders a template names are made for it, as a template may name one per edition."""
    for folder in sorted({Path(item.output).parent for item in items if item.output}):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OutputError(
                _("cannot make the output folder {folder!r}: {reason}").format(
                    folder=str(folder), reason=e.strerror or e
                )
            ) from None


def single(args: argparse.Namespace, item: Item) -> argparse.Namespace:
    """The options of one item's render: its score, section and output, quiet."""
    one = copy.copy(args)
    one.score, one.section, one.output = item.score, item.section, item.output
    one.more, one.all, one.quiet = [], False, True
    return one


def check_budget(
    args: argparse.Namespace,
    items: list[Item],
    track_of: Callable[[argparse.Namespace], Track],
) -> None:
    """Refuse at once a batch whose files together last longer than one render may (README,
    "Limits"); an item that cannot be made is left to report its own error."""
    total = Fraction(0)
    for item in items:
        if not item.output:
            continue
        try:
            total += track_of(single(args, item)).seconds
        except DrumscoreError:
            continue  # reported when the item is rendered; the others go on
        together = ngettext(" for {n} file together", " for {n} files together", len(items))
        check_length(total, together.format(n=len(items)))


def run(
    args: argparse.Namespace,
    render_one: Callable[[argparse.Namespace], int],
    track_of: Callable[[argparse.Namespace], Track],
) -> int:
    """Render every item with `render_one(args)` (the single render); one bar, one summary.

    The whole batch is one render budget (check_budget, with `track_of` making each item's
    track). Errors are reported in the order of the items, whatever order they finish in.
    """
    from concurrent.futures import ThreadPoolExecutor

    items = plan(args)
    check_budget(args, items, track_of)
    check_not_inputs(item.output for item in items if item.output)
    for item in items:  # every file there already refused before any is written
        if item.output:
            check_new(item.output, args.force)
    _make_folders(items)
    started = time.perf_counter()
    failed = 0
    written: list[str] = []

    statuses: set[int] = set()

    def one(item: Item) -> DrumscoreError | None:
        try:
            if not item.output:
                resolve(item.score)  # raises the reason the score cannot be named
            render_one(single(args, item))
        except DrumscoreError as exc:
            return exc
        return None

    with _bar(len(items), args.quiet) as tick, ThreadPoolExecutor(workers_for(args.output)) as pool:
        futures = [pool.submit(carried(one), item) for item in items]  # in this language
        try:
            for item, future in zip(items, futures, strict=True):
                exc = future.result()
                if exc is not None:
                    failed += 1
                    statuses.add(exc.exit_status)
                    message = f"{item.score} {item.section}: {error_message(exc)}"
                    print(_("drumscore: error: {message}").format(message=message), file=sys.stderr)
                else:
                    written.append(item.output)
                tick()
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    seconds = time.perf_counter() - started
    if not args.quiet:
        folders = sorted({str(Path(p).parent) for p in written})
        n, took = len(written), f"{seconds:.1f}"
        if len(folders) == 1:
            line = ngettext(
                "wrote {n} file in {folder} in {seconds} s",
                "wrote {n} files in {folder} in {seconds} s",
                n,
            ).format(n=n, folder=folders[0], seconds=took)
        else:
            line = ngettext("wrote {n} file in {seconds} s", "wrote {n} files in {seconds} s", n)
            line = line.format(n=n, seconds=took)
        if failed:
            line += ngettext(
                "; {n} item failed (see above)", "; {n} items failed (see above)", failed
            ).format(n=failed)
        print(line)
    # bad input everywhere is the command's fault (2); any runtime failure makes it 1
    return min(statuses, default=0)


class _bar:
    """One progress bar over the files, on a terminal only (and never with --quiet)."""

    bar: Any  # a tqdm bar, or None

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.quiet, self.bar = total, quiet, None

    def __enter__(self) -> Callable[..., object]:
        if not self.quiet and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(
                total=self.total, unit=_("file"), file=sys.stderr, desc=_("rendering"), leave=False
            )
            return self.bar.update
        return lambda n=1: None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()
