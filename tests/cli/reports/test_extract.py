"""cli/reports/extract.py: the extraction's table, its counts in the right number."""

from __future__ import annotations

from drumscore.cli.reports.extract import extraction_table
from drumscore.editions.extract import extract


def test_an_extraction_of_one_score_says_1_score():
    extraction = extract("魯鼓\n○□○○半○□○\n", partial=True)
    assert ": 1 score (" in extraction_table(extraction, "p.txt", "utf-8")
