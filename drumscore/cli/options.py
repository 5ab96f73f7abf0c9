"""Options that several commands share: which score, which section, what tempo."""

from __future__ import annotations

import argparse

from ..model import Section


def add_score_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "score",
        metavar="SCORE",
        help="lu, xue, 魯/2, xue/2@benyi, raw notation such as '○□○半○□', or a file",
    )
    parser.add_argument(
        "--section",
        default=None,
        choices=[s.value for s in Section],
        help="touhu: 投壺, the strokes after 半; she: 射, the whole pattern (default); "
        "head: the strokes before 半",
    )


def add_tempo_options(parser: argparse.ArgumentParser) -> None:
    tempo = parser.add_mutually_exclusive_group()
    tempo.add_argument("--bpm", metavar="N", help="strokes per minute (default 60: one a second)")
    tempo.add_argument("--interval", metavar="SECONDS", help="seconds between strokes")
    parser.add_argument(
        "--repeat", metavar="N", type=int, default=1, help="play the section N times (default 1)"
    )
