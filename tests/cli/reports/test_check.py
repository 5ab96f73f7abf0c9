"""cli/reports/check.py: the check report's fields in Chinese, lined up."""

from __future__ import annotations


def test_a_check_report_in_traditional_chinese(monkeypatch, tmp_path, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert cli("render", "○□○○□○", "-o", tmp_path / "p.mid")[0] == 0
    code, out, _ = cli("check", tmp_path / "p.mid", "○□○○□○")
    assert code == 0, out
    lines = out.splitlines()
    assert "秒內讀到 6 擊（MIDI；" in lines[0] and lines[1].endswith("：6 擊")
    fields = [line.split()[0] for line in lines[3:9]]
    assert fields == ["速度", "偏差", "漂移", "漏擊", "多擊", "擊錯鼓"]
    assert "漏擊   無" in lines  # the values line up after the widest name (擊錯鼓, six columns)
    assert lines[10].split() == ["擊", "應為", "聽到", "偏差"]
