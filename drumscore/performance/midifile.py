"""The strokes of a MIDI performance (e-drum pads, a sequencer, a render): note-ons read with
mido, their times in seconds through the file's own tempo changes."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from drumscore.errors import PerformanceError
from drumscore.files.headers import check_midi_header
from drumscore.files.reading import read_input
from drumscore.i18n import _, ngettext
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.render.midimap import GM_DRUM_NAMES, MidiMap


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
                "MIDI File (.mid) or a recording (.wav, .flac, .ogg)"
            ).format(path=str(path), reason=exc)
        ) from None
    now = 0.0
    notes = []
    for msg in messages:
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            notes.append((now, msg.note))
    return from_notes(notes, now, midimap, str(path))


def from_notes(
    notes: Iterable[tuple[float, int]],
    duration: float,
    midimap: MidiMap,
    path: str,
    *,
    option: str = "midi_notes",
) -> Performance:
    """The performance of note-ons (time in seconds, note), from a file or a live input port
    (`path` names it; `option` is the parameter that gives its map of notes): the notes of
    `midimap`'s 鼙 and 鼓 as strokes, any other note counted in the performance's notes."""
    strokes = []
    others: Counter[int] = Counter()
    for now, note in notes:
        drum = midimap.drum(note)
        if drum is None:
            others[note] += 1
        else:
            strokes.append(HeardStroke(now, drum))
    mapping = _("MIDI notes {pair}").format(pair=midimap.pair)
    if not strokes:
        found = ", ".join(
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
    remarks: tuple[str, ...] = ()
    if others:
        ignored = sum(others.values())
        keys = ", ".join(str(n) for n in sorted(others))
        left_out = ngettext(
            "{n} note on other keys ({keys}) left out",
            "{n} notes on other keys ({keys}) left out",
            ignored,
        )
        remarks = (left_out.format(n=ignored, keys=keys),)
    strokes.sort(key=lambda s: s.time)
    return Performance(path, "midi", tuple(strokes), duration, mapping, notes=remarks)
