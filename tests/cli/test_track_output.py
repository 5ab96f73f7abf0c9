"""cli/track_output.py: the line that ends a render, in each language, and its errors."""

from __future__ import annotations

import pytest

#: Characters that are written one way in zh_Hant and another in zh_Hans (none a source term).
HANT_ONLY = ("寫", "擊", "鐘", "體", "聲", "組", "規")


def test_the_render_summary_in_traditional_chinese(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, err = cli("render", "lu", "-o", tmp_path / "x.wav")
    assert code == 0 and err == ""
    assert out.startswith(f"已寫入 {tmp_path / 'x.wav'}：《禮記注疏》魯鼓第一圖・射（lu/1@zhushu）")
    # 魯鼓 figure 1 in 禮記注疏: 13 鼙 and 10 鼓, at the default 60 strokes a minute
    for said in ("，23 擊，", "每分鐘 60 擊（相隔 1 秒）", "赫茲立體聲", "，內建鼓組，"):
        assert said in out, said
    assert "峰值正規化至 -1 dBFS" in out
    assert "wrote" not in out and "strokes" not in out


def test_the_render_summary_in_simplified_chinese(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, err = cli("render", "lu", "-o", tmp_path / "x.wav")
    assert code == 0 and err == ""
    assert out.startswith("已写入 ")
    for said in ("，23 击，", "每分钟 60 击（相隔 1 秒）", "赫兹立体声", "峰值归一化至 -1 dBFS"):
        assert said in out, said
    assert "《礼记注疏》鲁鼓第一图" in out  # the edition's name and label in simplified prose
    assert not [c for c in HANT_ONLY if c in out]


def test_the_render_summary_in_english(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    code, out, _ = cli("render", "lu", "-o", tmp_path / "x.wav")
    assert code == 0
    assert out.startswith(f"wrote {tmp_path / 'x.wav'}: ")
    assert ", 23 strokes, 60/min (1 s apart), " in out
    assert "Hz stereo, the built-in kit, peak-normalised to -1 dBFS" in out


def test_a_midi_render_with_a_count_in_in_traditional_chinese(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = cli("render", "lu", "--count-in", "4", "-o", tmp_path / "x.mid")
    assert code == 0
    assert "23 擊及預備拍 4 下" in out and "MIDI 第 10 通道：" in out


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "argv", "said"),
    [
        ("zh_TW.UTF-8", ["lu", "--state", "xue"], "--state「xue」用於選擇 --programme"),
        ("zh_CN.UTF-8", ["lu", "--state", "xue"], "--state「xue」用于选择 --programme"),
        ("zh_TW.UTF-8", ["--loopable", "lu"], "--loopable 只用於音訊與 MIDI 檔案"),
    ],
)
def test_errors_in_chinese_keep_the_flag_first(monkeypatch, cli, tmp_path, lang, argv, said):
    monkeypatch.setenv("LANG", lang)
    suffix = ".musicxml" if "--loopable" in argv else ".wav"
    code, out, err = cli("render", *argv, "-o", tmp_path / f"x{suffix}")
    assert code == 2 and out == ""
    assert err.startswith("drumscore：")
    assert said in err
    assert list(tmp_path.iterdir()) == []


# --- the built-in programme, as each reader reads it --------------------------------------------

#: What an English unit or list looks like inside a Chinese line.
ASCII_UNITS = ("/min", " s ", " s,", " ms", ", ", ": ", "figure", "round")


@pytest.mark.parametrize(
    ("lang", "title", "first", "last"),
    [
        (
            "zh_TW.UTF-8",
            "投壺三投（依《欽定禮記義疏》之說）・魯鼓",
            "0.00 秒  初投：第一圖，lu/1@yishu 投壺 ×4，每分鐘 60 擊，預備拍 4 下，之後停 10 秒",
            "128.00 秒  三投：第二圖，lu/2@yishu 投壺 ×4，每分鐘 60 擊，預備拍 4 下",
        ),
        (
            "zh_CN.UTF-8",
            "投壶三投（依《钦定礼记义疏》之说）・鲁鼓",
            "0.00 秒  初投：第一图，lu/1@yishu 投壶 ×4，每分钟 60 击，预备拍 4 下，之后停 10 秒",
            "128.00 秒  三投：第二图，lu/2@yishu 投壶 ×4，每分钟 60 击，预备拍 4 下",
        ),
    ],
)
def test_the_rite_is_summed_up_in_chinese(monkeypatch, cli, tmp_path, lang, title, first, last):
    monkeypatch.setenv("LANG", lang)
    code, out, err = cli("render", "--programme", "rite", "-o", tmp_path / "rite.mid")
    assert code == 0 and err == ""
    head, *items = out.splitlines()
    assert head.startswith(f"{'已寫入' if 'TW' in lang else '已写入'} {tmp_path / 'rite.mid'}：")
    assert f"：{title}，" in head
    assert head.endswith(("預備拍音符 76", "预备拍音符 76"))
    assert [line.strip() for line in (items[0], items[-1])] == [first, last]
    for line in out.splitlines():
        for english in ASCII_UNITS:
            assert english not in line.split("：", 1)[-1], (english, line)


def test_the_rite_is_summed_up_in_english_as_before(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    code, out, _ = cli("render", "--programme", "rite", "--state", "xue", "-o", tmp_path / "r.wav")
    assert code == 0
    head, *items = out.splitlines()
    assert ": 投壺 in three rounds (欽定禮記義疏's reading) (xue), 112 strokes and 12 " in head
    assert ", 44100 Hz stereo, " in head
    assert items[0].strip() == (
        "0.00 s  round 1 (初投): figure 1: xue/1@yishu touhu ×4, 60/min, count-in 4, "
        "then 10 s pause"
    )


def test_the_rites_midi_file_is_the_same_in_every_language(monkeypatch, cli, tmp_path):
    import mido

    texts = {}
    for lang in ("en_GB.UTF-8", "zh_TW.UTF-8", "zh_CN.UTF-8"):
        monkeypatch.setenv("LANG", lang)
        path = tmp_path / f"rite-{lang}.mid"
        assert cli("render", "--programme", "rite", "-q", "-o", path)[0] == 0
        texts[lang] = [  # mido reads the bytes as latin-1; the file writes UTF-8
            (m.type, (m.name if m.type == "track_name" else m.text).encode("latin-1").decode())
            for m in mido.MidiFile(path).tracks[0]
            if m.type in ("marker", "text", "track_name")
        ]
    assert texts["zh_TW.UTF-8"] == texts["en_GB.UTF-8"] == texts["zh_CN.UTF-8"]
    english = texts["en_GB.UTF-8"]
    assert english[0] == ("track_name", "投壺 in three rounds (欽定禮記義疏's reading) (lu)")
    markers = [text for kind, text in english if kind == "marker" and text.startswith("round")]
    assert markers == [
        "round 1 (初投): figure 1",
        "round 2 (再投): figure 2",
        "round 3 (三投): figure 2",
    ]


def test_a_one_stroke_render_says_1_stroke(cli, tmp_path):
    code, out, _ = cli("render", "○", "-o", tmp_path / "x.mid")
    assert code == 0 and "1 stroke," in out and "1 strokes" not in out
