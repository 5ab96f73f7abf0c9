"""The strokes of a MIDI performance (e-drum pads, a sequencer, a render): note-ons read with
mido, their times in seconds through the file's own tempo changes, read as a drummer plays them.

Pads and drummers send more note-ons than strokes: a double trigger (a second note-on a few
milliseconds after the first) is merged into the first, as a recording's onsets are merged
within MERGE_SECONDS; a flam (a soft grace note just before the stroke, or after it) is one
stroke, the louder note, and its grace note is reported; a ghost note far softer than the drum's
strokes is left out and counted.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise
from pathlib import Path
from statistics import median

from drumscore.errors import PerformanceError
from drumscore.files.format_choice import suffixes
from drumscore.files.headers import check_midi_header
from drumscore.files.reading import read_input
from drumscore.i18n import _, list_text, ngettext, seconds
from drumscore.model import Drum
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.render.midimap import GM_DRUM_NAMES, MidiMap

#: Note-ons this close after the first of a group are one stroke (a double trigger), as a
#: recording's onsets close together are one (performance.onsets' wider MERGE_SECONDS).
MERGE_SECONDS = 0.02
#: A softer note this close to a louder one is the grace note of a flam...
FLAM_SECONDS = 0.05
#: ...and both windows are at most this share of the median gap between notes, so that the
#: strokes of a fast score are never taken for one.
WINDOW_SHARE = 0.25
#: A note softer than this share of its drum's median velocity is a ghost note, left out.
GHOST_SHARE = 0.25

#: A note-on: time in seconds, note, and its velocity where known (a live port gives none).
Note = tuple[float, int] | tuple[float, int, int]


def read_midi(path: str | Path, midimap: MidiMap | None = None) -> Performance:
    """Every note-on (velocity above 0) of the 鼙 and 鼓 notes of `midimap` (default the
    project's own, render.midimap), on any channel; other notes (a count-in, a click) are left
    out and counted in the performance's notes."""
    import mido

    midimap = midimap or MidiMap()
    data = read_input(path, "MIDI performance")
    check_midi_header(data, str(path))
    try:
        midi = mido.MidiFile(file=io.BytesIO(data))
        messages = list(midi)  # merged tracks, times in seconds
    except (OSError, EOFError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise PerformanceError(
            _(
                "performance {path!r} cannot be read as a MIDI file ({reason}); give a Standard "
                "MIDI File ({midi}) or a recording ({audio})"
            ).format(path=str(path), reason=exc, midi=suffixes("midi"), audio=suffixes("audio"))
        ) from None
    now = 0.0
    notes: list[Note] = []
    for msg in messages:
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            notes.append((now, msg.note, msg.velocity))
    return from_notes(notes, now, midimap, str(path))


def from_notes(
    notes: Iterable[Note],
    duration: float,
    midimap: MidiMap,
    path: str,
    *,
    option: str = "midi_notes",
) -> Performance:
    """The performance of note-ons (time in seconds, note, velocity if known), from a file or a
    live input port (`path` names it; `option` is the parameter that gives its map of notes):
    the notes of `midimap`'s 鼙 and 鼓 as strokes (ghost notes, double triggers and flams read
    as played_strokes reads them), any other note counted in the performance's notes."""
    played: list[tuple[float, Drum, int | None]] = []
    others: Counter[int] = Counter()
    for note_on in notes:
        now, note = note_on[0], note_on[1]
        drum = midimap.drum(note)
        if drum is None:
            others[note] += 1
        else:
            played.append((now, drum, note_on[2] if len(note_on) > 2 else None))
    strokes, read_as = played_strokes(played)
    mapping = _("鼙 on MIDI note {pi}, 鼓 on {gu}").format(pi=midimap.pi_note, gu=midimap.gu_note)
    if not strokes:
        found = list_text(
            f"{note} {GM_DRUM_NAMES.get(note, '')}".rstrip() + f" ×{n}"
            for note, n in others.most_common(4)
        )
        pair = midimap.pair
        if found:
            two = ",".join(str(n) for n, _ in others.most_common(2))
            raise PerformanceError(
                _(
                    "{option} {pair} finds no note of 鼙 or 鼓 in performance {path!r}; it holds "
                    "notes {found}: give the notes its drums play, 鼙 first, such as {two}"
                ).format(option=option, pair=pair, path=path, found=found, two=two),
                option=option,
            )
        raise PerformanceError(
            _(
                "performance {path!r} holds no notes at all: there is nothing to check; give the "
                "MIDI file of a performance, or its recording"
            ).format(path=path)
        )
    remarks: tuple[str, ...] = read_as
    if others:
        ignored = sum(others.values())
        keys = list_text(str(n) for n in sorted(others))
        left_out = ngettext(
            "{n} note on other keys ({keys}) left out",
            "{n} notes on other keys ({keys}) left out",
            ignored,
        )
        remarks = (*remarks, left_out.format(n=ignored, keys=keys))
    return Performance(path, "midi", tuple(strokes), duration, mapping, notes=remarks)


def played_strokes(
    notes: Sequence[tuple[float, Drum, int | None]],
) -> tuple[list[HeardStroke], tuple[str, ...]]:
    """The strokes of the drums' note-ons (time, drum, velocity if known), as a drummer plays
    them, and what was read so (for the report's notes):

    - a ghost note, softer than GHOST_SHARE of its drum's median velocity, is left out;
    - note-ons within MERGE_SECONDS of a group's first are one stroke, the first (a double
      trigger);
    - a group spread up to FLAM_SECONDS is a flam: the loudest note is the stroke, the others
      its grace notes.

    Both windows are at most WINDOW_SHARE of the median gap between the notes (those longer
    than FLAM_SECONDS, where there are any: the gaps between strokes, not grace notes).
    """
    ordered = sorted(notes, key=lambda n: n[0])
    floors: dict[Drum, float] = {}
    for drum in Drum:
        known = [v for _t, d, v in ordered if d is drum and v is not None]
        if known:
            floors[drum] = GHOST_SHARE * median(known)
    kept = [n for n in ordered if n[2] is None or n[2] >= floors.get(n[1], 0.0)]
    ghosts = len(ordered) - len(kept)
    gaps = [b[0] - a[0] for a, b in pairwise(kept) if b[0] > a[0]]
    strokes_apart = [g for g in gaps if g > FLAM_SECONDS] or gaps  # grace notes' gaps aside
    spread = WINDOW_SHARE * median(strokes_apart) if strokes_apart else 0.0
    merge, flam = min(MERGE_SECONDS, spread), min(FLAM_SECONDS, spread)
    strokes: list[HeardStroke] = []
    merged, flams = 0, []
    i = 0
    while i < len(kept):
        j = i + 1
        while j < len(kept) and kept[j][0] - kept[i][0] <= flam:
            j += 1
        group = kept[i:j]
        if all(t - group[0][0] <= merge for t, _d, _v in group):
            strokes.append(HeardStroke(group[0][0], group[0][1]))
            merged += len(group) - 1
        else:
            loudest = max(group, key=lambda n: -1 if n[2] is None else n[2])
            # a grace note before the stroke: how long before (one after it is none)
            before = max(0.0, (loudest[0] - group[0][0]) * 1000)
            strokes.append(HeardStroke(loudest[0], loudest[1], grace_ms=before))
            flams += [n[0] for n in group if n is not loudest]
        i = j
    read: list[str] = []
    if flams:
        at = list_text([seconds(f"{t:.3f}") for t in flams[:6]] + (["…"] if len(flams) > 6 else []))
        read.append(
            ngettext(
                "{n} flam: its grace note (at {at}) left out, the louder note taken for the stroke",
                "{n} flams: their grace notes (at {at}) left out, the louder note taken for "
                "the stroke",
                len(flams),
            ).format(n=len(flams), at=at)
        )
    if merged:
        read.append(
            ngettext(
                "{n} double trigger (a second note-on within {ms} ms) merged into its stroke",
                "{n} double triggers (a second note-on within {ms} ms) merged into their strokes",
                merged,
            ).format(n=merged, ms=f"{merge * 1000:.0f}")
        )
    if ghosts:
        read.append(
            ngettext(
                "{n} ghost note (below a quarter of its drum's median velocity) left out",
                "{n} ghost notes (below a quarter of their drum's median velocity) left out",
                ghosts,
            ).format(n=ghosts)
        )
    return strokes, tuple(read)
