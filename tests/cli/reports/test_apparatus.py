"""cli/reports/apparatus.py: collate's text in Chinese, names and sigla as written."""

from __future__ import annotations

from speaking import column_of


def test_collate_in_traditional_chinese_keeps_names_and_sigla(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = cli("collate", "lu")
    assert code == 0
    lines = out.splitlines()
    assert "底本《禮記注疏》（zhushu）" in lines[0] and "個版本" in lines[0]
    key = lines[lines.index("版本代號：") + 1 : lines.index("所述擊數：") - 1]
    names = {line.split()[0]: line for line in key}
    # sigla as written in the witnesses, edition names as printed
    for siglum, name in [
        ("zhushu", "禮記注疏（642-653）——"),
        ("benyi-skqs", "禮經本義（四庫全書本）"),
        ("yueshu-118", "樂書（卷一百十八）"),
        ("吳澄本", "見於 yishu"),
    ]:
        assert name in names[siglum], siglum
    # the descriptions line up, 吳澄本 counted six columns wide
    assert len({column_of(line, line.split()[1]) for line in key}) == 1
    assert "相符：zhushu benyi benyi-skqs" in out
    assert "不符：wuli——" in out
    assert "□ ] ○ 吳澄本（見於 yishu：「吳澄本作○」" in out
    assert "sigla:" not in out and "agree:" not in out
