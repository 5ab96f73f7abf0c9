"""drumscore: hear, compare and export the drum scores of the 禮記 投壺 chapter.

○ strikes 鼙 (the small drum), □ strikes 鼓 (the big drum), 半 divides the pattern.

The public API, in the order a render uses it (every name is importable from `drumscore`; the
names load their module, and numpy, mido or music21, only when first used):

    parse(text) -> Pattern                  read notation such as "○□○○半○□○"
    resolve(name) -> Score                  a score by name ("xue/2@benyi"), notation or file
    arrange(score, section, tempo, repeats) -> Timeline   where every stroke falls
    render_audio(timeline) -> ndarray       the mix, float32 (frames, 2); also of a Track
                                            (count-in, programme, practice: conductor.track)
    write_audio(path, audio, rate)          WAV, FLAC or OGG, written atomically
    to_midi(timeline) -> mido.MidiFile      a type-1 file on the percussion channel; or a Track
    musicxml_bytes(timeline) -> bytes       staff notation (music21)
    compare(a, b) -> Comparison             two readings aligned stroke by stroke
    collate() -> tuple[Apparatus, ...]      the apparatus: every edition aligned, the stated counts
    extract(text) -> Extraction             the scores printed in an edition's passage

The model (Pattern, Score, Drum, State, Section, Tempo…) is immutable. Every error is a
DrumscoreError; RuntimeFailure and MissingDependencyError mark the ones that are not bad input.
"""

from __future__ import annotations

import sys

if sys.argv[:1] == ["-m"] or sys.argv[0].endswith(("/drumscore", "\\drumscore")):
    # the console script or python -m drumscore: its signal policy holds from the first import
    from drumscore.files import signals

    signals.install()

import importlib
from typing import TYPE_CHECKING, Any

from drumscore import errors
from drumscore.errors import *  # noqa: F403  (every exception class, as errors.__all__ lists)

if TYPE_CHECKING:
    from drumscore.analysis.compare import compare
    from drumscore.apparatus.gather import collate
    from drumscore.conductor.expression import Expression
    from drumscore.conductor.timeline import Timeline, arrange
    from drumscore.corpus import resolve
    from drumscore.editions.extract import extract
    from drumscore.files.audio import write_audio
    from drumscore.model import (
        Counts,
        Drum,
        Edition,
        Pattern,
        Position,
        Score,
        Section,
        State,
        StatedCount,
        Stroke,
    )
    from drumscore.notation import parse, tokenize
    from drumscore.performance.check import check
    from drumscore.render.midi import to_midi
    from drumscore.render.mix import render_audio
    from drumscore.render.musicxml import musicxml_bytes
    from drumscore.timing import Tempo

__version__ = "0.1.0"

#: The names loaded on first use (PEP 562), and the module each comes from: even the model waits
#: for its first use, so that `drumscore --help` (which imports this package) loads none of it.
_LAZY = {
    **dict.fromkeys(
        (
            "Counts",
            "Drum",
            "Edition",
            "Pattern",
            "Position",
            "Score",
            "Section",
            "State",
            "StatedCount",
            "Stroke",
        ),
        "drumscore.model",
    ),
    "parse": "drumscore.notation",
    "tokenize": "drumscore.notation",
    "Tempo": "drumscore.timing",
    "resolve": "drumscore.corpus",
    "arrange": "drumscore.conductor.timeline",
    "Timeline": "drumscore.conductor.timeline",
    "Expression": "drumscore.conductor.expression",
    "render_audio": "drumscore.render.mix",
    "write_audio": "drumscore.files.audio",
    "to_midi": "drumscore.render.midi",
    "musicxml_bytes": "drumscore.render.musicxml",
    "compare": "drumscore.analysis.compare",
    "collate": "drumscore.apparatus.gather",
    "extract": "drumscore.editions.extract",
    "check": "drumscore.performance.check",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'drumscore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Counts",
    "Drum",
    "Edition",
    "Expression",
    "Pattern",
    "Position",
    "Score",
    "Section",
    "State",
    "StatedCount",
    "Stroke",
    "Tempo",
    "Timeline",
    "__version__",
    "arrange",
    "check",
    "collate",
    "compare",
    "extract",
    "musicxml_bytes",
    "parse",
    "render_audio",
    "resolve",
    "to_midi",
    "tokenize",
    "write_audio",
]
__all__ += errors.__all__  # every exception class
