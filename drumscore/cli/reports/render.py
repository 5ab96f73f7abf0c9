"""What `drumscore render --json` prints: the file, the reading, the tempo and every stroke as
rendered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drumscore.conductor.track import Track
    from drumscore.model import Reading


def reading_data(reading: Reading) -> dict[str, Any]:
    """A reading of the signs as JSON keys: its id (always, 鄭玄's too), its name, and the drum
    each sign strikes."""
    return {
        "reading": reading.id,
        "reading_name": reading.name,
        "signs": {sign: drum.value for sign, drum in reading.mapping},
    }


def render_data(track: Track, output: str, rate: int) -> dict[str, Any]:
    """What `drumscore render --json` prints: the file, the reading and tempo, and every stroke
    as rendered (laid out at `rate` frames a second): its numbers (over every pass, its pass,
    in the pass, in the section), its sign as printed and the drum it strikes under the
    reading, its time, the humanizing offset applied to it, its velocity, and whether it was
    muted."""
    timeline = track.first
    tempo = timeline.tempo
    expression = timeline.expression
    humanize = expression.humanize_ms if expression is not None else 0.0
    return {
        "output": output,
        "key": timeline.score.key,
        "description": timeline.description,
        "section": timeline.section.value,
        "repeats": timeline.repeats,
        "tempo_bpm": float(tempo.bpm),
        "interval_s": float(tempo.interval),
        "humanize_ms": humanize,
        "seed": expression.seed if expression is not None and humanize else None,
        **reading_data(timeline.reading),
        "strokes": [
            {
                "index": hit.k + 1,
                "pass": hit.pass_no,
                "stroke": hit.in_pass,
                "number": hit.number,
                "sign": hit.sign,
                "drum": hit.drum.value,
                "time_s": hit.frame / rate,
                "offset_ms": hit.offset * 1000,
                "velocity": hit.velocity,
                "muted": hit.muted,
            }
            for hit in track.hits(rate)
            if hit.drum is not None
        ],
    }
