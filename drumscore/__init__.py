"""drumscore: hear, compare and export the drum scores of the 禮記 投壺 chapter."""

from .errors import (
    CorpusError,
    DrumscoreError,
    NotationError,
    OptionError,
    OutputError,
    ScoreNotFoundError,
    TempoError,
)
from .model import Counts, Drum, Edition, Pattern, Position, Score, Section, StatedCount, Stroke
from .notation import parse, tokenize
from .timing import Tempo

__version__ = "0.1.0"

__all__ = [
    "CorpusError",
    "Counts",
    "Drum",
    "DrumscoreError",
    "Edition",
    "NotationError",
    "OptionError",
    "OutputError",
    "Pattern",
    "Position",
    "Score",
    "ScoreNotFoundError",
    "Section",
    "StatedCount",
    "Stroke",
    "Tempo",
    "TempoError",
    "__version__",
    "parse",
    "tokenize",
]
