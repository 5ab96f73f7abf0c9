"""cli/report.py: counts take the right number, strokes are numbered from 1 in text and JSON."""

from drumscore import parse
from drumscore.analysis.compare import compare
from drumscore.cli import report
from drumscore.editions.extract import extract
from drumscore.model import Score


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


# --- in the reader's language -------------------------------------------------------------------


def _column(line: str, text: str) -> int:
    """The terminal column where `text` starts in `line` (CJK two columns wide)."""
    from drumscore.display import width

    return width(line[: line.index(text)])


def test_show_in_simplified_chinese(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = cli("show", "lu")
    assert code == 0
    assert "注家所述的击数：" in out and "各版本原文所述的击数：" in out
    # the quotes as the editions print them, traditional characters kept; the names simplified
    assert "徐伯鲁，射（benyi-skqs）：「其全則鼙聲十三鼔聲十」" in out
    assert "徐伯鲁，投壶：鼙 7 鼓 5（见 benyi、benyi-skqs 所引）——相符" in out
    header = next(line for line in out.splitlines() if "击数" in line)
    assert header.split() == ["段", "击数", "○", "鼙", "□", "鼓"]
    fields = {line.split("：")[0].strip(): line for line in out.splitlines() if "：" in line[:8]}
    assert {"版本", "来源", "提交", "许可协议", "年代"} <= set(fields)
    # the values after the names start in one column, each name two columns a character
    values = {k: fields[k].split("：", 1)[1].strip() for k in ("版本", "来源", "许可协议")}
    assert len({_column(fields[k], values[k]) for k in values}) == 1
    assert "擊數" not in out and "the stated counts" not in out


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
    assert len({_column(line, line.split()[1]) for line in key}) == 1
    assert "相符：zhushu benyi benyi-skqs" in out
    assert "不符：wuli——" in out
    assert "□ ] ○ 吳澄本（見於 yishu：「吳澄本作○」" in out
    assert "sigla:" not in out and "agree:" not in out


def test_compare_in_traditional_chinese(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = cli("compare", "lu", "xue")
    assert code == 0
    assert "處差異——" in out and "處僅見於 B（+）" in out
    header = next(line for line in out.splitlines() if "編輯距離" in line)
    assert header.split() == ["段", "A", "B", "編輯距離", "結論"]
    assert "不同" in out and "differs" not in out


def test_list_in_simplified_chinese_lines_up_by_display_width(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = cli("list")
    assert code == 0
    header, _rule, *rows = out.splitlines()
    assert header.split()[:4] == ["版本", "年代", "图", "鼓"]
    assert header.split()[-1] == "名称"
    # 礼记注疏 is eight columns wide: every row's date starts where the header's does
    assert {_column(row, "642-653") for row in rows if "礼记注疏" in row} == {
        _column(header, "年代")
    }


def test_a_check_report_in_traditional_chinese(monkeypatch, tmp_path, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert cli("render", "○□○○□○", "-o", tmp_path / "p.mid")[0] == 0
    code, out, _ = cli("check", tmp_path / "p.mid", "○□○○□○")
    assert code == 0, out
    lines = out.splitlines()
    assert "秒內聽到 6 擊（MIDI；" in lines[0] and lines[1].endswith("：6 擊")
    fields = [line.split()[0] for line in lines[3:9]]
    assert fields == ["速度", "偏差", "漂移", "漏擊", "多擊", "擊錯鼓"]
    assert "漏擊   無" in lines  # the values line up after the widest name (擊錯鼓, six columns)
    assert lines[10].split() == ["擊", "應為", "聽到", "偏差"]
