"""What was played: the strokes of a performance, each a time and a drum, from audio or MIDI."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from drumscore.files.format_choice import suffixes
from drumscore.i18n import _
from drumscore.model import Drum

if TYPE_CHECKING:
    from drumscore.render.kit import Kit
    from drumscore.render.midimap import MidiMap

#: File endings read as a MIDI performance; any other is read as audio (WAV, FLAC, OGG).
MIDI_SUFFIXES = tuple(suffixes("midi").split())


@dataclass(frozen=True, slots=True)
class HeardStroke:
    """One stroke of a performance: when it starts (seconds from the start of the file), on
    which drum, and whether that drum is doubtful (its sound lies between the two drums').
    A `count` onset sounds like the count sound (a count stroke or a click of the take), not a
    drum: it is taken for one of those, never for a stroke. A flam was heard with a grace
    note `grace_ms` milliseconds before it (0: not a flam), and is timed at its main stroke."""

    time: float
    drum: Drum
    doubtful: bool = False
    count: bool = False
    grace_ms: float = 0.0

    @property
    def flam(self) -> bool:
        return self.grace_ms > 0


@dataclass(frozen=True, slots=True)
class Performance:
    """The strokes of one performance, in time order, and how they were found.

    `how` says, as a phrase of its own, how the drums were told apart ("鼙 on MIDI note 41,
    鼓 on 45", "the drums told by the sound of the kit 'built-in'", "the drums told by two
    groups of the strokes' own sound…"). When `swappable`, the drums are two groups whose names
    are a guess: the check may swap them if the score says so. When not `apart`, the drums
    could not be told apart at all: the check names none of them wrong. When a recording's
    drums were told by groups (or not at all), the check tells them again by each drum's
    sound as the score's strokes have it (`colours`; see performance.drums.by_score).
    """

    path: str
    kind: str  # "audio" or "midi"
    strokes: tuple[HeardStroke, ...]
    duration: float
    how: str
    swappable: bool = False
    notes: tuple[str, ...] = ()
    apart: bool = True
    #: A recording's strokes' colours (performance.bands.shapes: dB in each band, less their
    #: mean), for the check to learn each drum's sound from the strokes of the score.
    colours: tuple[tuple[float, ...], ...] = field(default=(), compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.strokes)

    def swapped(self) -> Performance:
        """The same strokes with 鼙 and 鼓 exchanged (for a split whose naming was a guess)."""
        other = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}
        strokes = tuple(replace(s, drum=other[s.drum]) for s in self.strokes)
        return replace(self, strokes=strokes, swappable=False)

    def untold(self) -> Performance:
        """The same strokes with their drums not told apart (two groups of sounds that do not
        follow the score's drums either way round), every one doubtful, and a note saying so."""
        strokes = tuple(replace(s, doubtful=True) for s in self.strokes)
        return replace(self, strokes=strokes, notes=(*self.notes, untold_note()), apart=False)


def untold_note() -> str:
    """The note of a performance whose two groups of sounds are not the drums (untold)."""
    return _(
        "the two groups of sounds do not follow the score's drums either way round: the "
        "drums are not told apart, and no stroke is called wrong"
    )


def is_midi(path: str | Path) -> bool:
    """Whether a performance file is read as MIDI (by its ending), else as audio."""
    return Path(path).suffix.lower() in MIDI_SUFFIXES


def read_performance(
    path: str | Path,
    *,
    midimap: MidiMap | None = None,
    kit: Kit | None = None,
    drums: str = "kit",
    count_sound: bool = False,
    click_velocity: int | None = None,
) -> Performance:
    """The strokes of an audio file (WAV, FLAC, OGG) or a MIDI file, chosen by its ending.

    `midimap` (render.midimap.MidiMap) says which MIDI notes are 鼙 and 鼓; `kit` and `drums`
    ("kit" or "split") how the drums of a recording are told apart; `count_sound` and
    `click_velocity` what of the kit's count sound the take holds (see listen.read_audio).
    """
    if is_midi(path):
        from drumscore.performance.midifile import read_midi  # it imports this module

        return read_midi(path, midimap)
    from drumscore.performance.listen import read_audio  # numpy, soundfile

    return read_audio(
        path, kit=kit, drums=drums, count_sound=count_sound, click_velocity=click_velocity
    )
