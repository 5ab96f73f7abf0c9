"""check's report in plain words, on takes that render writes: which note is which drum, a
perfect take on time (never early, late or -0.0), an extra stroke before the first, and every
column of the table named; the old wording cannot appear, in English or in Chinese."""

from __future__ import annotations

import json
import re

import pytest

from drumscore.corpus import resolve

LU = resolve("lu").pattern
NOTATION = "".join(s.drum.symbol for s in LU.strokes)
#: What the report said before, which it must never say again.
OLD = ("drums told MIDI", "; drums told", "after stroke 0", "-0.0", "+0.00 ", "-0.00 ")


@pytest.fixture
def rendered(cli, tmp_path):
    """render's take of `score` in `name` (with render's options), its path."""

    def render(score: str, name: str, *options: str):
        path = tmp_path / name
        code, _, err = cli("render", score, "-q", "-o", str(path), *options)
        assert code == 0, err
        return path

    return render


def report(cli, *argv: str) -> str:
    code, out, err = cli("check", *argv)
    assert code == 0, err
    for old in OLD:
        assert old not in out, old
    return out


def rows(out: str) -> list[list[str]]:
    """The table's rows (after its header and rule), each cut at its runs of spaces."""
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("------"))
    return [re.split(r"\s{2,}", line.strip()) for line in lines[rule + 1 :] if line.strip()]


def test_a_perfect_midi_take_is_on_time_and_says_which_note_is_which_drum(cli, rendered):
    take = rendered("lu", "lu.mid")
    out = report(cli, str(take), "lu")
    first = out.splitlines()[0]
    assert first.endswith("(MIDI; 鼙 on MIDI note 41, 鼓 on 45)")
    summary = dict(line.split(None, 1) for line in out.splitlines()[3:9])
    assert summary["offsets"] == "every stroke on time (each within 0.05 ms of the even beat)"
    assert summary["drift"].startswith(
        "from the first stroke to the last, the tempo changes by 0.00/min"
    )
    assert "early" not in out and "late" not in out
    table = rows(out)
    assert len(table) == len(LU.strokes)
    assert {row[3] for row in table} == {"0.0 ms"}
    # JSON: no offset is negative zero either
    code, text, _ = cli("check", str(take), "lu", "--json")
    assert code == 0 and "-0.0" not in text
    assert all(s["offset_ms"] == 0 for s in json.loads(text)["strokes"])


def test_the_notes_said_are_those_the_take_was_rendered_with(cli, rendered):
    take = rendered("lu", "pads.mid", "--midi-notes", "38,36")
    out = report(cli, str(take), "lu", "--midi-notes", "38,36")
    assert out.splitlines()[0].endswith("(MIDI; 鼙 on MIDI note 38, 鼓 on 36)")


def test_an_extra_stroke_before_the_first_is_before_stroke_1(cli, rendered):
    take = rendered("□" + NOTATION, "extra.mid")
    out = report(cli, str(take), "lu")
    assert "extra      □ 鼓 at 0.000 s (before stroke 1)" in out


def test_the_fault_column_is_named(cli, rendered):
    wrong = NOTATION[:-2] + ("○" if NOTATION[-2] == "□" else "□")  # the last but one other, the
    take = rendered(wrong, "faults.mid")  # last left out
    out = report(cli, str(take), "lu")
    lines = out.splitlines()
    header = lines[next(i for i, line in enumerate(lines) if line.startswith("------")) - 1]
    assert header.split() == ["stroke", "expected", "heard", "offset", "fault"]
    table = rows(out)
    assert table[-2][-1] == "wrong drum" and table[-1][-1] == "missed"
    assert len(table[-1]) == 4  # stroke, drum, —, missed: no offset for a stroke not played


def test_a_humanized_take_names_its_largest_offset_early_or_late_as_the_table_signs_it(
    cli, rendered
):
    take = rendered("lu", "h.mid", "--humanize", "20", "--seed", "3")
    out = report(cli, str(take), "lu")
    said = re.search(r"largest (\d+\.\d) ms \(stroke (\d+), (early|late)\)", out)
    assert said is not None, out
    size, stroke, side = said.groups()
    row = next(r for r in rows(out) if r[0] == stroke)
    assert row[3] == ("\u2212" if side == "early" else "+") + f"{size} ms"
    assert float(size) > 1  # humanized by up to 20 ms


def test_a_recording_says_how_its_drums_were_told(cli, rendered):
    take = rendered("lu", "lu.wav")
    out = report(cli, str(take), "lu")
    first = out.splitlines()[0]
    assert "(audio; the drums told by " in first and first.count("told") == 1


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("zh_TW.UTF-8", ("鼙在 MIDI 音符 41，鼓在 45", "每一擊都準時", "第 1 擊之前", "問題")),
        ("zh_CN.UTF-8", ("鼙在 MIDI 音符 41，鼓在 45", "每一击都准时", "第 1 击之前", "问题")),
    ],
)
def test_the_report_in_chinese(cli, rendered, monkeypatch, locale, said):
    take = rendered("□" + NOTATION[:-1], "zh.mid")  # an extra first stroke, the last missed
    monkeypatch.setenv("LANG", locale)
    out = report(cli, str(take), "lu")
    for words in said:
        assert words in out, words
    assert "辨鼓方式" not in out and "第 0 " not in out


# --- as a Chinese reader reads it -------------------------------------------------------------

#: Per script: the words of the report that differ between 繁體 and 简体.
ZH = {
    "zh_TW.UTF-8": {
        "heard": "秒內聽到",
        "read": "秒內讀到",
        "drift": "漂移   由首擊至末擊，速度變化 0.00 擊／分鐘"
        "（60.00 → 60.00 擊／分鐘；間隔 1.0000 → 1.0000 秒）",
        "count": "不計   預備拍 4 下，全數聽到",
        "clicks": "不計   節拍聲 124 下，聽到 62 下（與鼓擊同時者併入該擊）",
        "fit": "較合的鼓譜 此次演奏與 lu/1@zhushu（射）全合，與 xue/1@zhushu（射）有 11 處不合",
        "refusal": "；請改用 lu/1@zhushu 的射段檢查",
    },
    "zh_CN.UTF-8": {
        "heard": "秒内听到",
        "read": "秒内读到",
        "drift": "漂移   从首击到末击，速度变化 0.00 击／分钟"
        "（60.00 → 60.00 击／分钟；间隔 1.0000 → 1.0000 秒）",
        "count": "不计   预备拍 4 下，全部听到",
        "clicks": "不计   节拍声 124 下，听到 62 下（与鼓击同时者并入该击）",
        "fit": "较合的鼓谱 此次演奏与 lu/1@zhushu（射）全合，与 xue/1@zhushu（射）有 11 处不合",
        "refusal": "；请改用 lu/1@zhushu 的射段检查",
    },
}
#: What a Chinese report never shows: English units, section ids, a repeated "left out".
NEVER = ("/min", " ms", " s ", " s)", "touhu", " she", "head", "不計入", "不计入", "不列入")


def chinese_lines(out: str) -> list[str]:
    """The report's lines, each checked for what a Chinese report never shows."""
    for line in out.splitlines():
        for english in NEVER:
            assert english not in line.replace("xue/2@zhushu", ""), (english, line)
    return out.splitlines()


@pytest.mark.parametrize("lang", list(ZH))
def test_a_take_with_count_in_and_clicks_reads_in_chinese(monkeypatch, cli, rendered, lang):
    take = rendered("xue/2", "take.wav", "--count-in", "4", "--click", "2", "--repeat", "2")
    monkeypatch.setenv("LANG", lang)
    lines = chinese_lines(
        report(cli, str(take), "xue/2", "--count-in", "4", "--click", "2", "--repeat", "2")
    )
    said = ZH[lang]
    assert said["heard"] in lines[0] and ("（音訊；" in lines[0] or "（音频；" in lines[0])
    for key in ("drift", "count", "clicks"):
        assert said[key] in lines, (key, lines)
    assert sum(line.startswith(("不計", "不计")) for line in lines) == 2  # once each
    rule = next(i for i, line in enumerate(lines) if re.fullmatch(r"-+(  -+)+", line))
    offsets = [re.split(r"\s{2,}", line.strip())[3] for line in lines[rule + 1 :] if line]
    assert len(offsets) == 62 and all(re.fullmatch(r"[+−]?\d+\.\d 毫秒", o) for o in offsets)


@pytest.mark.parametrize("lang", list(ZH))
def test_a_midi_take_is_read_and_a_better_fit_is_named_by_its_section(
    monkeypatch, cli, rendered, lang
):
    take = rendered("lu", "lu.mid")
    monkeypatch.setenv("LANG", lang)
    said = ZH[lang]
    lines = chinese_lines(report(cli, str(take), "lu"))
    assert lines[0].startswith(f"{take}：22.5 {said['read']} 23 ")
    code, out, err = cli("check", str(take), "xue/1")
    assert code == 2
    assert said["fit"] in out.splitlines()
    assert err.rstrip("\n").endswith(said["refusal"]) and err.count("\n") == 1
    assert "lu/1@zhushu（射）全合" in err and " she" not in err
