"""How particular Chinese lines read: the wording a native review asked for, held in place.

tests/test_chinese_views.py reads every view for English and half-width punctuation; this file
holds the lines whose wording was fixed one by one: values quoted 「x」 (never 'x', never
「'x'」), the 繁體 edition notes written as the 简体 ones are, an extracted passage's citation,
and compare's line on 半.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from catalog_entries import entries

opencc = pytest.importorskip("opencc", reason="the notes test converts with OpenCC (i18n extra)")

SCORES = Path(__file__).resolve().parent.parent / "drumscore" / "scores"
PREFIX = {"zh-Hant": "drumscore：錯誤：", "zh-Hans": "drumscore：错误："}
#: A value in ASCII quotes beside Chinese text, or a 「」 quotation holding ASCII quotes.
ASCII_QUOTED = re.compile(r"'[^'\s]*'|「'")


def refusal(cli, lang: str, *argv: object) -> str:
    """The one line of a refusal in `lang` (exit 2, the language's prefix, no traceback)."""
    code, _out, err = cli("--lang", lang, *argv)
    assert code == 2, (code, err)
    assert err.startswith(PREFIX[lang]) and err.count("\n") == 1 and "Traceback" not in err
    return err.removeprefix(PREFIX[lang]).strip()


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["render", "lu", "-o", "x.wav", "--section", "nosuch"], ["「nosuch」", "「touhu」、"]),
        (["render", "lu", "-o", "x.wav", "--duration", "13h"], ["--duration「13h」"]),
        (["render", "lu", "-o", "x.wav", "--humanize", "-3"], ["「-3」"]),
        (["compare", "lu", "xue", "--reading", "zheng,mao"], ["--reading「zheng,mao」"]),
        (["render", "lu", "-o", "x.wav", "--bpm", "1" * 40], ["--bpm「1111"]),
    ],
)
def test_a_refused_value_is_quoted_once_in_corner_brackets(cli, tmp_path, lang, argv, quoted):
    argv = [str(tmp_path / a) if a == "x.wav" else a for a in argv]
    said = refusal(cli, lang, *argv)
    assert not ASCII_QUOTED.search(said), said
    for text in quoted:
        assert text in said, said


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh-Hant", "「{name}」是二進位檔案"), ("zh-Hans", "「{name}」是二进制文件")],
)
def test_a_binary_passage_is_named_in_corner_brackets(cli, tmp_path, lang, expected):
    path = tmp_path / "take.wav"
    path.write_bytes(b"RIFF\x00\x00\x00\x00WAVE")
    said = refusal(cli, lang, "extract", path)
    assert said.startswith(expected.format(name=path)), said


def _notes() -> list[tuple[str, str, str, str]]:
    """(edition, field, 繁體, 简体) for every note and date basis the edition files give."""
    found = []
    for path in sorted(SCORES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for field, texts in (("note", data.get("note")), ("basis", data["date"].get("basis"))):
            if isinstance(texts, dict) and "zh-Hant" in texts and "zh-Hans" in texts:
                found.append((path.stem, field, texts["zh-Hant"], texts["zh-Hans"]))
    return found


NOTES = _notes()


def _unquoted(text: str) -> str:
    """`text` with what its 「」 quote taken out (quotations keep their printed form)."""
    return re.sub(r"「[^」]*」", "「」", text)


def test_every_edition_gives_its_note_and_basis_in_both_scripts():
    assert len(NOTES) >= 30
    assert {field for _e, field, _t, _s in NOTES} == {"note", "basis"}


@pytest.mark.parametrize(
    ("edition", "field", "hant", "hans"), NOTES, ids=[f"{e}-{f}" for e, f, _t, _s in NOTES]
)
def test_a_traditional_note_says_what_the_simplified_one_says(edition, field, hant, hans):
    """The 繁體 note and date basis are the 简体 ones in traditional characters: titles in
    《》, parts joined by 、 and ；, no half-width space between two Chinese words."""
    t2s = opencc.OpenCC("t2s")
    assert t2s.convert(_unquoted(hant)) == t2s.convert(_unquoted(hans)), (hant, hans)
    assert not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", _unquoted(hant)), hant
    assert "四庫全書" not in hant or "《四庫全書》" in hant, hant


@pytest.mark.parametrize(
    ("lang", "source"),
    # the name the passage gives is cited as a work, in 書名號 (as 《禮記·投壺》 would be)
    [
        ("zh-Hant", "來源：《投壺》（錄文 passage.txt）"),
        ("zh-Hans", "来源：《投壶》（录文 passage.txt）"),
    ],
)
def test_an_extracted_passage_cites_its_work_and_file_in_chinese(cli, tmp_path, lang, source):
    passage = tmp_path / "passage.txt"
    passage.write_text(
        "投壺\n魯鼓\n○□○○□□○□○○□半○□○□○○○□□○□○\n薛鼓\n○□○○○□□○□○○□□○□○○□□○半○□○○○□□○\n",
        encoding="utf-8",
    )
    code, out, err = cli("--lang", lang, "extract", passage)
    assert code == 0, err
    assert out.splitlines()[1] == source


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("zh-Hant", "「半」位置不同：A 在第 11 擊之後，B 在第 20 擊之後"),
        ("zh-Hans", "「半」位置不同：A 在第 11 击之后，B 在第 20 击之后"),
    ],
)
def test_compare_says_where_half_stands_in_each(cli, lang, line):
    code, out, err = cli("--lang", lang, "compare", "lu", "xue")
    assert code == 0, err
    assert line in out.splitlines()
    assert "移動了" not in out and "移动了" not in out and "編輯距離" not in out


@pytest.mark.parametrize(
    ("lang", "stated", "quoted"),
    [
        ("zh-Hant", "徐伯魯，投壺：鼙 7 鼓 5（見本義、本義四庫本所引）——相符", "李光坡，射（述"),
        ("zh-Hans", "徐伯鲁，投壶：鼙 7 鼓 5（见本义、本义四库本所引）——相符", "李光坡，射（述"),
    ],
)
def test_show_cites_the_editions_quoting_a_count_by_their_short_names(cli, lang, stated, quoted):
    """As the 校勘記 cites them (本義, 述註), never by siglum (benyi, shuzhu) in Chinese prose."""
    code, out, err = cli("--lang", lang, "show", "lu")
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines()]
    assert stated in lines
    assert any(line.startswith(quoted) for line in lines)
    assert "benyi" not in out.split("版本")[0] and "shuzhu" not in out


@pytest.mark.parametrize(
    ("lang", "missed", "wrong"),
    [
        ("zh-Hant", "漏擊       第 1 擊 ○ 鼙、第 2 擊 □ 鼓、", "擊錯鼓     第 19 擊（應為 □ 鼓，"),
        ("zh-Hans", "漏击       第 1 击 ○ 鼙、第 2 击 □ 鼓、", "击错鼓     第 19 击（应为 □ 鼓，"),
    ],
)
def test_check_numbers_the_strokes_it_lists(cli, tmp_path, lang, missed, wrong):
    """A missed or wrong stroke is 第 N 擊, never a bare number beside a drum."""
    take = tmp_path / "lu.mid"
    assert cli("render", "lu", "-o", take, "-q")[0] == 0
    code, out, _err = cli("--lang", lang, "check", take, "xue")
    assert code == 2
    lines = out.splitlines()
    assert any(line.startswith(missed) for line in lines), out
    assert any(line.startswith(wrong) for line in lines), out


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("value", ["lots", "80", "-3"])
def test_humanize_out_of_range_or_not_a_number_says_the_range_once(cli, tmp_path, lang, value):
    """0 is taken, so the refusal never asks for a positive number (正數); it gives the range
    once, with ～, and one example (例如) only."""
    said = refusal(cli, lang, "render", "lu", "-o", tmp_path / "x.wav", "--humanize", value)
    assert "0～50" in said and said.count("例如") == 1 and "正數" not in said, said
    assert "正数" not in said and f"「{value}」" in said, said


# --- ranges, separators and spaces, in every entry and in the views -----------------------------

#: What a message shows as typed, read as typed: a quotation 「…」, a flag and its value, an
#: example after 如 / 例如, a setting NAME=value.
_TYPED = re.compile(r"「[^」]*」|--[a-z-]+ \S+|(?:例如|如) [^，；）、]+|\b[A-Za-z_{}]+=\S+")
#: A range of numbers with an ASCII hyphen (1-127, {first}-{last}).
_HYPHEN_RANGE = re.compile(r"(?:\d|\})\s*-\s*(?:\d|\{)")
#: ` · ` between two words, as English separates the parts of a line (not in a list of the
#: characters a terminal draws: ○ □ — · │).
_DOT = re.compile(r"[^\s○□—│] · [^\s○□—│]")
#: A half-width space between two Chinese characters.
_CJK_SPACE = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")


@pytest.mark.parametrize("language", ["zh_Hant", "zh_Hans"])
def test_no_chinese_entry_writes_a_range_with_a_hyphen_parts_with_a_dot_or_a_space_in_words(
    language,
):
    """A range of numbers takes ～ (第 3～4 擊, 1～127), as docs/languages.md writes it; the
    parts of a line are joined as Chinese joins them, never by ` · `; no half-width space
    stands between two Chinese words. What is typed stays as typed (--strokes 5-12)."""
    wrong = []
    for msgid, msgstr in entries(language):
        prose = _TYPED.sub("「」", msgstr)
        for rule in (_HYPHEN_RANGE, _DOT, _CJK_SPACE):
            if rule.search(prose):
                wrong.append(f"{rule.pattern}: {msgstr}  ({msgid})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("lang", "date", "lines"),
    [("zh-Hant", "642～653", "第 437～452 行"), ("zh-Hans", "642～653", "第 437～452 行")],
)
def test_list_and_show_write_dates_and_lines_as_ranges(cli, lang, date, lines):
    code, out, err = cli("--lang", lang, "list")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.rstrip().endswith("lu/1@zhushu"))
    assert f" {date} " in row and "642-653" not in out
    code, out, err = cli("--lang", lang, "show", "lu")
    assert code == 0, err
    assert lines in out and f"：{date}（" in out and not re.search(r"\d-\d", out), out


def test_english_keeps_its_hyphen():
    code, out, _err = cli_english("list")
    assert code == 0 and " 642-653 " in out


def cli_english(*argv: str) -> tuple[int, str, str]:
    import contextlib
    import io

    from drumscore.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["--lang", "en", *argv])
    return code, out.getvalue(), ""


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    """A site of one edition in both scripts (without MusicXML): the index and its pages."""
    from drumscore import corpus
    from drumscore.site.build import build_site

    out = tmp_path_factory.mktemp("zh-site") / "out"
    build_site(
        out,
        [corpus.find_edition("zhushu"), corpus.find_edition("benyi")],
        corpus_editions=False,
        musicxml=False,
        languages=("zh-Hant", "zh-Hans"),
    )
    return out


@pytest.mark.parametrize(("tag", "heading"), [("zh-Hant", "魯鼓第一圖"), ("zh-Hans", "鲁鼓第一图")])
def test_the_site_heads_a_collation_as_show_does_and_joins_no_part_with_a_dot(
    small_site, tag, heading
):
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, name: str, attrs: object) -> None:
            self.skip += name in ("script", "style")

        def handle_endtag(self, name: str) -> None:
            self.skip -= name in ("script", "style")

        def handle_data(self, data: str) -> None:
            if not self.skip:
                self.parts.append(data)

    index = (small_site / tag / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="h-lu-1">(.*?)</h2>', index)
    assert [re.sub(r"<[^>]+>", "", h) for h in headings] == [heading]
    for page in [small_site / tag / "index.html", *sorted((small_site / tag / "score").glob("*"))]:
        reader = Text()
        reader.feed(page.read_text(encoding="utf-8"))
        text = "".join(reader.parts)
        assert not _DOT.search(text), (page.name, _DOT.search(text))
        assert not re.search(r"\d-\d", _TYPED.sub("", text).replace("KR1d", "")), page.name
