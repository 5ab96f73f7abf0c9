"""drumscore: hear, compare and export the drum scores of the 禮記 投壺 chapter."""

from drumscore.errors import (
    CorpusError,
    DrumscoreError,
    NotationError,
    OptionError,
    OutputError,
    ScoreNotFoundError,
    TempoError,
)
from drumscore.model import (
    Counts,
    Drum,
    Edition,
    Pattern,
    Position,
    Score,
    Section,
    StatedCount,
    Stroke,
)
from drumscore.notation import parse, tokenize
from drumscore.timing import Tempo

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
