"""Programme files: items in order, each a score's section at its tempo, count-in and pause."""

from __future__ import annotations

from fractions import Fraction

import pytest
from speaking import refused

from drumscore import i18n
from drumscore.errors import DrumscoreError, ProgrammeError
from drumscore.files.programme import builtin_programmes, load_programme
from drumscore.model import Section
from drumscore.timing import Tempo


def test_the_built_in_programmes_are_listed():
    assert "rite" in builtin_programmes()


def test_the_built_in_rite_follows_the_yishu_reading():
    track = load_programme("rite", state="xue")
    keys = [i.timeline.score.key for i in track.items]
    assert keys == ["xue/1@yishu", "xue/2@yishu", "xue/2@yishu"]
    assert all(i.timeline.section is Section.TOUHU for i in track.items)
    assert [bool(i.pause) for i in track.items] == [True, True, False]


def test_a_programme_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        '[[item]]\nscore = "lu"\nsection = "touhu"\nbpm = 90\nduration = "30s"\ncount_in = 2\n'
        'pause = 5\n\n[[item]]\nscore = "○□○"\ninterval = 0.5\n',
        encoding="utf-8",
    )
    track = load_programme(str(path), tempo=Tempo.from_bpm(120))
    first, second = track.items
    assert first.timeline.tempo.bpm == 90 and first.count_in == 2 and first.pause == 5
    assert first.timeline.repeats == 30 * 90 // 60 // 12
    assert second.timeline.tempo.interval == Fraction(1, 2) and str(second.label) == "item 2"


# --- bad input ---------------------------------------------------------------------------------


def test_an_unknown_state_names_the_states():
    with pytest.raises(ProgrammeError, match="choose lu or xue") as err:
        load_programme("rite", state="qi")
    assert err.value.option == "state"


def test_a_missing_programme_names_the_built_in_ones(tmp_path):
    with pytest.raises(ProgrammeError, match="rite"):
        load_programme(str(tmp_path / "none.toml"))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[[item]]\nscore = "lu"\ntempo = 3\n', "unknown key 'tempo'"),
        ("title = 'x'\n", "[[item]]"),
        ('[[item]]\nscore = "lu"\nrepeats = 2\nduration = "1m"\n', "not both"),
        ('[[item]]\nscore = "lu"\nbpm = 0\n', "item 1: bpm"),
        ('[[item]]\nscore = "nowhere"\n', "item 1: unknown score 'nowhere'"),
        ('[[item]]\nscore = "lu"\npause = "soon"\n', "pause"),
        ('[[item]]\nscore = "lu"\ncount_in = -1\n', "count_in"),
        ("[[item]\n", "not valid TOML"),
    ],
)
def test_a_bad_programme_says_where(tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProgrammeError) as err:
        load_programme(str(path))
    assert needle in str(err.value)


def test_state_on_a_programme_that_names_its_scores_is_refused(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[[item]]\nscore = "lu"\n', encoding="utf-8")
    with pytest.raises(DrumscoreError, match="does nothing"):
        load_programme(str(path), state="xue")


def programme(tmp_path, items: int, duration: str, extra: str = "") -> str:
    path = tmp_path / "long.toml"
    entry = f'[[item]]\nscore = "lu"\nduration = "{duration}"\n{extra}\n'
    path.write_text(entry * items, encoding="utf-8")
    return str(path)


def test_the_whole_programme_is_one_render_budget(tmp_path):
    with pytest.raises(DrumscoreError) as err:
        load_programme(programme(tmp_path, 3, "5h"))
    assert "would last 14 h 59 min 18 s by item 3" in str(
        err.value
    )  # 3 × 782 passes of 23 s and "12 hours" in str(err.value)


def test_ten_thousand_long_items_are_refused_at_the_second(tmp_path):
    with pytest.raises(DrumscoreError, match="by item 2 of"):
        load_programme(programme(tmp_path, 10_000, "12h"))


def test_count_ins_and_pauses_count_toward_the_budget(tmp_path):
    """Two items of 5 h 59 min fit; their count-ins and pauses push them past 12 hours."""
    assert load_programme(programme(tmp_path, 2, "5h59m"))
    with pytest.raises(DrumscoreError, match="count-ins and pauses included"):
        load_programme(programme(tmp_path, 2, "5h59m", 'count_in = 4\npause = "2m"'))


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "找不到檔案「nosuch.toml」（曲目單檔案）；請指定 TOML 檔案或內建曲目單：rite"),
        ("zh_Hans", "找不到文件「nosuch.toml」（曲目单文件）；请指定 TOML 文件或内置曲目单：rite"),
        (
            "en",
            "programme file 'nosuch.toml' does not exist; "
            "give a TOML file or a built-in programme: rite",
        ),
    ],
)
def test_a_missing_programme_file_in_each_language(cli, monkeypatch, tmp_path, language, expected):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    argv = ("render", "--programme", "nosuch.toml", "-o", out / "x.wav")
    assert refused(cli, monkeypatch, language, out, *argv).startswith(expected)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "曲目單「p.toml」第 1 項：未知的鍵「tempo」；請用 label、score"),
        ("zh_Hans", "曲目单「p.toml」第 1 项：未知的键「tempo」；请用 label、score"),
        ("en", "programme 'p.toml', item 1: unknown key 'tempo'; use label, score"),
    ],
)
def test_a_programme_error_names_the_item_in_each_language(
    cli, monkeypatch, tmp_path, language, expected
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text('[[item]]\nscore = "lu"\ntempo = 3\n', encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    argv = ("render", "--programme", "p.toml", "-o", out / "x.wav")
    assert refused(cli, monkeypatch, language, out, *argv).startswith(expected)


# --- the programme's own texts in each language -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "state", "title", "labels"),
    [
        (
            "zh-Hant",
            "lu",
            "投壺三投（依《欽定禮記義疏》之說）・魯鼓",
            ["初投：第一圖", "再投：第二圖", "三投：第二圖"],
        ),
        (
            "zh-Hans",
            "xue",
            "投壶三投（依《钦定礼记义疏》之说）・薛鼓",
            ["初投：第一图", "再投：第二图", "三投：第二图"],
        ),
        (
            "en",
            None,
            "投壺 in three rounds (欽定禮記義疏's reading) (lu)",
            ["round 1 (初投): figure 1", "round 2 (再投): figure 2", "round 3 (三投): figure 2"],
        ),
    ],
)
def test_the_rite_is_titled_and_labelled_in_the_readers_language(language, state, title, labels):
    track = load_programme("rite", state=state)
    with i18n.speaking(language):
        assert track.description == title
        assert [str(item.label) for item in track.items] == labels
        assert "《" in str(track.citation) or language == "en"


def test_a_programme_file_gives_its_texts_by_language(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        '[title]\nen = "an afternoon"\nzh-Hant = "午後一局"\n\n'
        '[[item]]\nlabel = { en = "first", zh-Hans = "第一局" }\nscore = "lu"\n\n'
        '[[item]]\nlabel = "second"\nscore = "xue"\n',
        encoding="utf-8",
    )
    track = load_programme(str(path))
    with i18n.speaking("zh-Hant"):  # a language a text lacks falls back to English
        assert (track.description, [str(i.label) for i in track.items]) == (
            "午後一局",
            ["first", "second"],
        )
    with i18n.speaking("zh-Hans"):
        assert (track.description, str(track.items[0].label)) == ("an afternoon", "第一局")


def test_an_item_without_a_label_is_numbered_in_the_readers_language(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[[item]]\nscore = "lu"\n\n[[item]]\nscore = "xue"\n', encoding="utf-8")
    second = load_programme(str(path)).items[1]
    said = {}
    for language in ("en", "zh-Hant", "zh-Hans"):
        with i18n.speaking(language):
            said[language] = str(second.label)
    assert said == {"en": "item 2", "zh-Hant": "第 2 項", "zh-Hans": "第 2 项"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('title = { fr = "x" }\n[[item]]\nscore = "lu"\n', "'fr'"),
        ('[[item]]\nscore = "lu"\nlabel = 3\n', "label"),
        ('citation = ["a"]\n[[item]]\nscore = "lu"\n', "citation"),
    ],
)
def test_a_text_in_no_language_or_not_a_text_is_refused_in_one_line(tmp_path, text, said):
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProgrammeError) as raised:
        load_programme(str(path))
    message = str(raised.value)
    assert "p.toml" in message and said in message and "\n" not in message
