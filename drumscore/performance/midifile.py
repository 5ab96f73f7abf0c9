"""The strokes of a MIDI performance (e-drum pads, a sequencer, a render): note-ons read with
mido, their times in seconds through the file's own tempo changes."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from drumscore.errors import PerformanceError
from drumscore.files.reading import read_input
from drumscore.i18n import _, ngettext
from drumscore.model import Drum
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.render.midimap import GM_DRUM_NAMES, MidiMap


def read_midi(path: str | Path, midimap: MidiMap | None = None) -> Performance:
    """Every note-on (velocity above 0) of the 鼙 and 鼓 notes of `midimap` (default the
    project's own, render.midimap), on any channel; other notes (a count-in, a click) are left
    out and counted in the performance's notes."""
    import mido

    midimap = midimap or MidiMap()
    data = read_input(path, "MIDI performance")
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
    drums = {midimap.pi_note: Drum.PI, midimap.gu_note: Drum.GU}
    now = 0.0
    strokes = []
    others: Counter[int] = Counter()
    for msg in messages:
        now += msg.time
        if msg.type != "note_on" or msg.velocity == 0:
            continue
        drum = drums.get(msg.note)
        if drum is None:
            others[msg.note] += 1
        else:
            strokes.append(HeardStroke(now, drum))
    mapping = _("MIDI notes {pi},{gu}").format(pi=midimap.pi_note, gu=midimap.gu_note)
    if not strokes:
        found = ", ".join(
            f"{note} {GM_DRUM_NAMES.get(note, '')}".rstrip() + f" ×{n}"
            for note, n in others.most_common(4)
        )
        pair = f"{midimap.pi_note},{midimap.gu_note}"
        if found:
            two = ",".join(str(n) for n, _ in others.most_common(2))
            raise PerformanceError(
                _(
                    "midi_notes {pair} finds no note of 鼙 or 鼓 in performance {path!r}; it holds "
                    "notes {found}: give the notes its drums play, 鼙 first, such as {two}"
                ).format(pair=pair, path=str(path), found=found, two=two),
                option="midi_notes",
            )
        raise PerformanceError(
            _(
                "performance {path!r} holds no notes at all: there is nothing to check; give the "
                "MIDI file of a performance, or its recording"
            ).format(path=str(path))
        )
    notes: tuple[str, ...] = ()
    if others:
        ignored = sum(others.values())
        keys = ", ".join(str(n) for n in sorted(others))
        left_out = ngettext(
            "{n} note on other keys ({keys}) left out",
            "{n} notes on other keys ({keys}) left out",
            ignored,
        )
        notes = (left_out.format(n=ignored, keys=keys),)
    strokes.sort(key=lambda s: s.time)
    return Performance(str(path), "midi", tuple(strokes), now, mapping, notes=notes)
