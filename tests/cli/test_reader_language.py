"""What the data and the code add to a view, in the reader's language: an edition's note and its
date's basis, citations composed from their parts, the kit's name, and the sections' names."""

import csv
import io
import json
import re

import pytest
from cli_run import expect_error, run_cli

from drumscore import i18n
from drumscore.corpus import builtin_editions, edition_from_dict
from drumscore.errors import CorpusError
from drumscore.model import READINGS, Provenance, Section, Wording, Work

#: English words of the edition notes and bases (a Chinese text holding one is English left over).
ENGLISH = re.compile(
    r"\b(the|and|of|text|wrote|printed|from|completed|issued|dates|copy|fewer|more|stroke|"
    r"page|figure|first|second|compiled|presented|reads?|is|has|one)\b",
    re.I,
)
#: Characters only the simplified script writes, and their traditional forms, that the notes use.
SIMPLIFIED_ONLY = set("图击谱页书为于与见简换间编进录续后个两记说则紧从并")


@pytest.mark.parametrize("edition", builtin_editions(), ids=lambda e: e.id)
def test_every_built_in_edition_gives_its_note_and_basis_in_each_language(edition):
    texts = {}
    for language in i18n.LANGUAGES:
        with i18n.speaking(language):
            assert edition.date is not None
            texts[language] = (str(edition.note), str(edition.date.basis))
    en, hant, hans = texts["en"], texts["zh_Hant"], texts["zh_Hans"]
    for text in (*hant, *hans):
        assert text and not ENGLISH.search(text), text
        assert re.search(r"[\u4e00-\u9fff]", text)
    assert ENGLISH.search(" ".join(en))  # the English is English
    # 繁體 writes no character that only 简体 writes
    assert not SIMPLIFIED_ONLY.intersection("".join(hant))
    if SIMPLIFIED_ONLY.intersection("".join(hans)):
        assert hans != hant


@pytest.mark.parametrize(
    ("lang", "basis", "note", "source"),
    [
        (
            "zh_TW.UTF-8",
            "642 年成書，653 年頒行",
            "第一圖的薛鼓中間有換頁",
            "《禮記注疏》卷五十八〈投壺〉，文淵閣《四庫全書》本，Kanseki Repository KR1d0053，"
            "檔案 KR1d0053_058.txt，第 437～452 行",
        ),
        (
            "zh_CN.UTF-8",
            "642 年成书，653 年颁行",
            "第一图的薛鼓中间有换页",
            "《礼记注疏》卷五十八〈投壶〉，文渊阁《四库全书》本，Kanseki Repository KR1d0053，"
            "文件 KR1d0053_058.txt，第 437～452 行",
        ),
        (
            "C.UTF-8",
            "completed 642 and issued 653",
            "A page break falls inside the first 薛 pattern",
            "禮記注疏 卷五十八 投壺 四庫全書文淵閣本, Kanseki Repository KR1d0053, "
            "file KR1d0053_058.txt, lines 437-452",
        ),
    ],
)
def test_show_gives_the_editions_data_in_the_readers_language(
    monkeypatch, capsys, lang, basis, note, source
):
    monkeypatch.setenv("LANG", lang)
    code, out, _ = run_cli(["show", "lu"], capsys)
    assert code == 0 and basis in out and note in out and source in out
    code, out, _ = run_cli(["show", "lu", "--json"], capsys)
    data = json.loads(out)
    assert basis in data["date"]["basis"] and note in data["edition_note"]


def test_a_transcriptions_citation_is_composed_with_its_page():
    work = Work("禮經本義", author="蔡德晉", chapter="投壺")
    prov = Provenance(work=work, page="38", transcription="001_a.txt", lines="3")
    expected = {
        "en": "蔡德晉 禮經本義 投壺, p.38 (transcription 001_a.txt)",
        "zh_Hant": "蔡德晉《禮經本義》〈投壺〉，第 38 頁（錄文 001_a.txt）",
        "zh_Hans": "蔡德晋《礼经本义》〈投壶〉，第 38 页（录文 001_a.txt）",
    }
    for language, text in expected.items():
        with i18n.speaking(language):
            assert prov.citation == text


def test_a_reading_is_cited_in_the_readers_language():
    mao = READINGS[1]
    with i18n.speaking("zh_Hant"):
        said = mao.read_as
    assert said.startswith("依毛奇齡《經問》卷十六的釋讀（毛奇齡《經問》卷十六，第 17a 頁，")
    assert said.endswith("檔案 KR1g0022_016.txt，第 298～299 行）")
    with i18n.speaking("en"):
        assert mao.read_as.startswith(
            "read as 毛奇齡 經問 卷十六 reads it (毛奇齡 經問 卷十六, p.17a,"
        )


def _user_edition(**fields):
    data = {
        "id": "mine",
        "name": "我的本",
        "score": [{"figure": 1, "state": "魯", "printed": "○□半○"}],
        **fields,
    }
    return edition_from_dict(data, where="mine.toml")


def test_a_user_edition_in_one_language_is_shown_as_it_is_written_in_every_language():
    edition = _user_edition(
        note="只有一種語言的注",
        date={"year": 1748, "basis": "序"},
        source={"citation": "my copy, p. 3"},
    )
    for language in i18n.LANGUAGES:
        with i18n.speaking(language):
            assert str(edition.note) == "只有一種語言的注"
            assert edition.date is not None and str(edition.date.basis) == "序"
            assert edition.provenance.citation == "my copy, p. 3"


def test_a_user_edition_lacking_a_language_falls_back_to_english():
    edition = _user_edition(note={"en": "my note", "zh-Hant": "我的注"})
    shown = {}
    for language in i18n.LANGUAGES:
        with i18n.speaking(language):
            shown[language] = str(edition.note)
    assert shown == {"en": "my note", "zh_Hant": "我的注", "zh_Hans": "my note"}
    assert Wording.of({"en": "my note", "zh-Hant": "我的注"}).to_data() == {
        "en": "my note",
        "zh-Hant": "我的注",
    }


# -- bad input ----------------------------------------------------------------------------------


def test_a_note_in_a_language_drumscore_does_not_speak_is_refused_naming_file_and_key():
    with pytest.raises(CorpusError) as info:
        _user_edition(note={"en": "my note", "fr": "ma note"})
    message = str(info.value)
    assert message.startswith("mine.toml: note") and "'fr'" in message
    assert "en, zh-Hant, zh-Hans" in message


def test_a_user_file_with_such_a_note_stops_the_command_with_exit_2(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text(
        'id = "mine"\nname = "我的本"\n[date]\nyear = 1748\nbasis.de = "Vorwort"\n'
        '[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□半○"\n',
        encoding="utf-8",
    )
    err = expect_error(["show", str(path)], capsys)
    assert "[date] basis" in err and "'de'" in err


def test_a_note_that_is_neither_text_nor_a_table_of_texts_is_refused(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text(
        'id = "mine"\nname = "我的本"\nnote = 3\n[[score]]\nfigure = 1\nstate = "魯"\n'
        'printed = "○□半○"\n',
        encoding="utf-8",
    )
    err = expect_error(["show", str(path)], capsys)
    assert "note" in err and "3" in err


# -- the kit, the CSV's sentences ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "named"),
    [("zh_TW.UTF-8", "內建鼓組"), ("zh_CN.UTF-8", "内置鼓组"), ("C", "the built-in kit")],
)
def test_the_built_in_kit_is_named_in_the_readers_language(
    monkeypatch, capsys, tmp_path, lang, named
):
    monkeypatch.setenv("LANG", lang)
    code, out, err = run_cli(["render", "lu", "-o", str(tmp_path / "lu.wav")], capsys)
    assert code == 0 and named in out + err and "'built-in'" not in out + err


def test_collate_csv_says_who_reports_a_reading_in_the_readers_language(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = run_cli(["collate", "lu/1", "--format", "csv"], capsys)
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    start = next(i for i, r in enumerate(rows) if r[:2] == ["score", "place"])
    places = rows[start + 1 :]
    described = [r[-1] for r in places]
    reported = [d for d in described if "吳澄本" in d]
    assert reported and all("，見" in d and "所引：「" in d for d in reported)
    assert not [d for d in described if "reported in" in d or d == "lemma"]
    # the section column keeps its ids, as the CSV's headers and kinds do
    assert {r[3] for r in places} <= {"head", "touhu", "she", "半"}


# -- the sections' names ------------------------------------------------------------------------

SECTION_IDS = re.compile(r"(?<![\w/@-])(touhu|she|head)(?![\w/@-])")


@pytest.mark.parametrize(
    ("lang", "names"),
    [("zh_TW.UTF-8", ("半以前", "投壺", "射")), ("zh_CN.UTF-8", ("半以前", "投壶", "射"))],
)
def test_chinese_views_name_the_sections_not_their_ids(monkeypatch, capsys, lang, names):
    monkeypatch.setenv("LANG", lang)
    head, touhu, she = names
    code, out, _ = run_cli(["show", "lu"], capsys)
    assert code == 0 and not SECTION_IDS.search(out)
    rows = [line.split() for line in out.splitlines()[6:9]]
    assert [r[0] for r in rows] == [head, touhu, she]
    assert f"{'徐伯魯' if head and touhu == '投壺' else '徐伯鲁'}，{touhu}：鼙 7 鼓 5" in out
    code, out, _ = run_cli(["list"], capsys)
    assert code == 0 and not SECTION_IDS.search(out.splitlines()[0])
    assert all(n in out.splitlines()[0] for n in names)
    code, out, _ = run_cli(["compare", "lu", "lu/2"], capsys)
    assert code == 0 and not SECTION_IDS.search(out)
    # the ids stay in the JSON
    code, out, _ = run_cli(["show", "lu", "--json"], capsys)
    assert set(json.loads(out)["counts"]) == {"head", "touhu", "she"}


def test_each_section_has_one_name_per_language():
    names = {}
    for language in i18n.LANGUAGES:
        with i18n.speaking(language):
            names[language] = [s.shown for s in Section.in_order()]
            labels = [s.label for s in Section.in_order()]
            if language != "en":
                assert labels == names[language]
    assert names == {
        "en": ["head", "touhu", "she"],
        "zh_Hant": ["半以前", "投壺", "射"],
        "zh_Hans": ["半以前", "投壶", "射"],
    }
