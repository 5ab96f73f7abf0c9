"""The General MIDI notes and velocities that stand for 鼙 and 鼓 (for MIDI and MusicXML)."""

from __future__ import annotations

from dataclasses import dataclass

from drumscore.conductor.expression import DEFAULT_VELOCITY, drum_pair
from drumscore.errors import OptionError
from drumscore.i18n import _, clause_text
from drumscore.model import READINGS, Drum, Reading

#: MIDI channel 10 (0-based 9): the General MIDI percussion channel.
PERCUSSION_CHANNEL = 9

GM_DRUM_NAMES = {
    35: "Acoustic Bass Drum", 36: "Bass Drum 1", 37: "Side Stick", 38: "Acoustic Snare",
    39: "Hand Clap", 40: "Electric Snare", 41: "Low Floor Tom", 42: "Closed Hi-Hat",
    43: "High Floor Tom", 44: "Pedal Hi-Hat", 45: "Low Tom", 46: "Open Hi-Hat",
    47: "Low-Mid Tom", 48: "Hi-Mid Tom", 49: "Crash Cymbal 1", 50: "High Tom",
    51: "Ride Cymbal 1", 52: "Chinese Cymbal", 53: "Ride Bell", 54: "Tambourine",
    55: "Splash Cymbal", 56: "Cowbell", 57: "Crash Cymbal 2", 58: "Vibraslap",
    59: "Ride Cymbal 2", 60: "Hi Bongo", 61: "Low Bongo", 62: "Mute Hi Conga",
    63: "Open Hi Conga", 64: "Low Conga", 65: "High Timbale", 66: "Low Timbale",
    67: "High Agogo", 68: "Low Agogo", 69: "Cabasa", 70: "Maracas", 71: "Short Whistle",
    72: "Long Whistle", 73: "Short Guiro", 74: "Long Guiro", 75: "Claves", 76: "Hi Wood Block",
    77: "Low Wood Block", 78: "Mute Cuica", 79: "Open Cuica", 80: "Mute Triangle",
    81: "Open Triangle",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class MidiMap:
    """Note and velocity per drum. Default, after the 釋文 (鼙 其聲下, 鼓 其聲高) as the built-in
    kit reads it: 鼙 → 41 Low Floor Tom, soft and low; 鼓 → 45 Low Tom, loud and higher."""

    pi_note: int = 41
    gu_note: int = 45
    pi_velocity: int = DEFAULT_VELOCITY[Drum.PI]
    gu_velocity: int = DEFAULT_VELOCITY[Drum.GU]
    #: General MIDI 76, Hi Wood Block: the count-in's note, apart from both drums' notes.
    count_note: int = 76

    def note(self, drum: Drum) -> int:
        return self.pi_note if drum is Drum.PI else self.gu_note

    def hit_note(self, drum: Drum | None) -> int:
        """The note a hit sounds: its drum's, or count_note for a count stroke (no drum)."""
        return self.count_note if drum is None else self.note(drum)

    def drum(self, note: int) -> Drum | None:
        """The drum a note plays, or None for a note of neither."""
        return Drum.PI if note == self.pi_note else Drum.GU if note == self.gu_note else None

    @property
    def pair(self) -> str:
        """The notes as midi_notes writes them, 鼙 first: "41,45"."""
        return f"{self.pi_note},{self.gu_note}"

    def velocity(self, drum: Drum) -> int:
        return self.pi_velocity if drum is Drum.PI else self.gu_velocity

    @classmethod
    def from_option(cls, text: str | None, option: str = "midi_notes") -> MidiMap:
        """Parse midi_notes 'PI,GU', e.g. '41,45' (鼙 first, then 鼓); `option` names the
        parameter in errors."""
        if text is None:
            return cls()
        pi, gu = drum_pair(text, option=option, what=_("MIDI notes"), example=cls().pair)
        if pi == gu:
            raise OptionError(
                _(
                    "{option} {value!r} gives both drums note {note}; choose two different notes"
                ).format(option=option, value=text, note=pi),
                option=option,
            )
        return cls(pi_note=pi, gu_note=gu)

    def describe(self, reading: Reading = READINGS[0]) -> str:
        """Each drum, with the sign that strikes it in `reading`, and its note: "鼙 ○ → 41 Low
        Floor Tom; 鼓 □ → 45 Low Tom"."""

        def one(drum: Drum) -> str:
            n = self.note(drum)
            return f"{reading.label(drum)} → {n} {GM_DRUM_NAMES.get(n, '')}".rstrip()

        return clause_text([one(Drum.PI), one(Drum.GU)])
