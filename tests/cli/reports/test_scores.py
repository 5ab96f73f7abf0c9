"""cli/reports/scores.py: show and list in Chinese, lined up by display width."""

from __future__ import annotations

from speaking import column_of


def test_show_in_simplified_chinese(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = cli("show", "lu")
    assert code == 0
    assert "注家所述的击数：" in out and "各版本原文所述的击数：" in out
    # the quotes as the editions print them (traditional kept); the commentators named simplified
    assert "徐伯鲁，射（本义四库本）：「其全則鼙聲十三鼔聲十」" in out
    assert "徐伯鲁，投壶：鼙 7 鼓 5（见本义、本义四库本所引）——相符" in out
    header = next(line for line in out.splitlines() if "击数" in line)
    assert header.split() == ["段", "击数", "○", "鼙", "□", "鼓"]
    fields = {line.split("：")[0].strip(): line for line in out.splitlines() if "：" in line[:8]}
    assert {"版本", "来源", "提交", "许可协议", "年代"} <= set(fields)
    # the values after the names start in one column, each name two columns a character
    values = {k: fields[k].split("：", 1)[1].strip() for k in ("版本", "来源", "许可协议")}
    assert len({column_of(fields[k], values[k]) for k in values}) == 1
    assert "擊數" not in out and "the stated counts" not in out


def test_list_in_simplified_chinese_lines_up_by_display_width(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = cli("list")
    assert code == 0
    header, _rule, *rows = out.splitlines()
    assert header.split()[:4] == ["版本", "年代", "图", "鼓"]
    assert header.split()[-1] == "名称"
    # 礼记注疏 is eight columns wide: every row's date starts where the header's does
    assert {column_of(row, "642～653") for row in rows if "礼记注疏" in row} == {
        column_of(header, "年代")
    }
