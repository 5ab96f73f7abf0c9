"""cli/report.py: counts take the right number, strokes are numbered from 1 in text and JSON."""

import pytest

from drumscore import parse
from drumscore.analysis.compare import compare
from drumscore.cli import report
from drumscore.editions.extract import extract
from drumscore.model import Score


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [(0, "reading", "0 readings"), (1, "reading", "1 reading"), (2, "stroke", "2 strokes")],
)
def test_plural(count, noun, expected):
    assert report.plural(count, noun) == expected


def test_one_difference_is_singular():
    c = compare(Score(parse("○□○半○")), Score(parse("○□□半○")))
    text = report.format_comparison(c)
    assert "1 difference —" in text and "1 differences" not in text


def test_an_extraction_of_one_score_says_1_score():
    extraction = extract("魯鼓\n○□○○半○□○\n", partial=True)
    assert ": 1 score (" in report.extraction_table(extraction, "p.txt", "utf-8")


def test_a_one_stroke_render_says_1_stroke(tmp_path, capsys):
    from cli_run import run_cli

    code, out, _ = run_cli(["render", "○", "-o", str(tmp_path / "x.mid")], capsys)
    assert code == 0 and "1 stroke," in out and "1 strokes" not in out
