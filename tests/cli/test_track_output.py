"""cli/track_output.py: the line that ends a render, in each language, and its errors."""

from __future__ import annotations

import pytest

#: Characters that are written one way in zh_Hant and another in zh_Hans (none a source term).
HANT_ONLY = ("寫", "擊", "鐘", "體", "聲", "組", "規")


def test_the_render_summary_in_traditional_chinese(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, err = cli("render", "lu", "-o", tmp_path / "x.wav")
    assert code == 0 and err == ""
    assert out.startswith(f"已寫入 {tmp_path / 'x.wav'}：禮記注疏 · 魯鼓")
    # 魯鼓 figure 1 in 禮記注疏: 13 鼙 and 10 鼓, at the default 60 strokes a minute
    for said in ("，23 擊，", "每分鐘 60 擊（相隔 1 秒）", "Hz 立體聲", "，內建鼓組，"):
        assert said in out, said
    assert "峰值正規化至 -1 dBFS" in out
    assert "wrote" not in out and "strokes" not in out


def test_the_render_summary_in_simplified_chinese(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, err = cli("render", "lu", "-o", tmp_path / "x.wav")
    assert code == 0 and err == ""
    assert out.startswith("已写入 ")
    for said in ("，23 击，", "每分钟 60 击（相隔 1 秒）", "Hz 立体声", "峰值归一化至 -1 dBFS"):
        assert said in out, said
    assert "禮記注疏" in out  # the edition's name as printed, in traditional characters
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
    assert "23 擊及 4 擊預備拍" in out and "MIDI 第 10 通道：" in out


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "argv", "said"),
    [
        ("zh_TW.UTF-8", ["lu", "--state", "xue"], "--state 'xue' 用於選擇 --programme"),
        ("zh_CN.UTF-8", ["lu", "--state", "xue"], "--state 'xue' 用于选择 --programme"),
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
