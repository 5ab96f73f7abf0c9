"""cli/reports/compare.py: the comparison's counts in the right number, and in Chinese."""

from __future__ import annotations

from drumscore import parse
from drumscore.analysis.compare import compare
from drumscore.cli.reports.compare import format_comparison
from drumscore.model import Score


def test_one_difference_is_singular():
    c = compare(Score(parse("○□○半○")), Score(parse("○□□半○")))
    text = format_comparison(c)
    assert "1 difference —" in text and "1 differences" not in text


def test_compare_in_traditional_chinese(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = cli("compare", "lu", "xue")
    assert code == 0
    assert "處差異——" in out and "處僅見於 B（+）" in out
    header = next(line for line in out.splitlines() if "編輯距離" in line)
    assert header.split() == ["段", "A", "B", "編輯距離", "結論"]
    assert "不同" in out and "differs" not in out
