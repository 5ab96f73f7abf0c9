"""What `drumscore render --json` prints: the file, the reading, the tempo and every stroke as
rendered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drumscore.conductor.track import Track


def render_data(track: Track, output: str, rate: int) -> dict[str, Any]:
    """What `drumscore render --json` prints: the file, the reading and tempo, and every stroke
    as rendered (laid out at `rate` frames a second): its time, the humanizing offset applied
    to it, its velocity, and whether it was muted."""
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
        "strokes": [
            {
                "index": hit.k + 1,
                "drum": hit.drum.symbol,
                "time_s": hit.frame / rate,
                "offset_ms": hit.offset * 1000,
                "velocity": hit.velocity,
                "muted": hit.muted,
            }
            for hit in track.hits(rate)
            if hit.drum is not None and not hit.click
        ],
    }
