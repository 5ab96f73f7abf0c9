"""The corpus: every stored pattern is checked against its source text; names find scores."""

import re
import tomllib

import pytest
from sourcefiles import SOURCES, source_text
from speaking import refused

from drumscore import CorpusError, EncodingError, NotationError, ScoreNotFoundError, Section, corpus
from drumscore.corpus import find_edition, load_edition, resolve

EDITION_FILES = sorted(corpus.SCORES_DIR.glob("*.toml"))
NOTATION = "○□半〇◯口"


def flattened_source(name: str) -> str:
    """The source as one line: Kanripo headers, markup, indents, line ends and notes removed.

    Done here by hand, apart from drumscore's own Kanripo cleaner, as an independent check."""
    text = source_text(name)
    if text.startswith("# edition:"):
        lines = [ln.lstrip("\u3000") for ln in text.splitlines(True) if not ln.startswith("#")]
        text = "".join(lines)
        text = re.sub(r"<pb:[^>]*>", "", text)
        text = re.sub(r"\([^)]*\)", "", text.replace("¶", "").replace("\n", ""))
    return text


def stored_scores():
    for path in EDITION_FILES:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data["score"]:
            yield pytest.param(data, entry, id=f"{data['id']}-{entry['state']}{entry['figure']}")


@pytest.mark.parametrize(("edition", "entry"), list(stored_scores()))
def test_stored_pattern_is_printed_in_its_source_beside_its_label(edition, entry):
    text = flattened_source(edition["source"]["file"])
    printed, label = entry["printed"], entry["label"]
    # figure 1: the label follows its pattern; figure 2: the label precedes it
    needle = printed + label if entry["figure"] == 1 else label + printed
    at = text.find(needle)
    assert at >= 0, f"{needle!r} is not in {edition['source']['file']}"
    # the stored pattern is the whole run of notation, not part of a longer one
    if entry["figure"] == 1:
        assert at == 0 or text[at - 1] not in NOTATION
    else:
        end = at + len(needle)
        assert end == len(text) or text[end] not in NOTATION


def test_the_default_edition_is_the_standard_text():
    assert corpus.editions()[0].name == "禮記注疏"
    assert resolve("lu").edition_name == "禮記注疏"


def test_every_edition_has_both_figures_for_both_states():
    for edition in corpus.editions():
        assert {(s.state, s.figure) for s in edition.scores} >= {
            ("魯", 1),
            ("魯", 2),
            ("薛", 1),
            ("薛", 2),
        }


def test_every_edition_names_its_source():
    for edition in corpus.editions():
        assert edition.provenance.citation
        assert (SOURCES / edition.provenance.file).is_file()


def test_stated_counts_are_data():
    benyi = find_edition("benyi")
    half = [c for c in benyi.counts if c.figure == 1 and c.state == "魯"]
    assert {(c.section, c.pi, c.gu) for c in half} == {(Section.TOUHU, 7, 5), (Section.SHE, 13, 10)}
    for count in benyi.counts:
        assert count.quote in flattened_source(benyi.provenance.file)


@pytest.mark.parametrize(
    ("name", "state", "figure", "edition"),
    [
        ("lu", "魯", 1, "zhushu"),
        ("魯", "魯", 1, "zhushu"),
        ("鲁/2", "魯", 2, "zhushu"),
        ("xue", "薛", 1, "zhushu"),
        ("辥/2", "薛", 2, "zhushu"),
        ("XUE/2@benyi", "薛", 2, "benyi"),
        ("lu/2@禮記訓纂", "魯", 2, "xunzuan"),
        ("lu @ KR1d0053", "魯", 1, "zhushu"),
    ],
)
def test_names_find_scores(name, state, figure, edition):
    score = resolve(name)
    assert (score.state, score.figure, score.edition_id) == (state, figure, edition)


def test_a_key_resolves_back_to_its_score():
    for score in corpus.scores():
        assert resolve(score.key) == score


def test_raw_notation_is_a_score_without_edition():
    score = resolve("○□半○")
    assert score.edition_id == "" and score.pattern.notation == "○□半○"


def test_a_text_file_of_notation_is_a_score(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("○□○\n半○□\n", encoding="utf-8")
    assert resolve(str(path)).pattern.notation == "○□○半○□"


def test_an_edition_file_path_works(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'id = "mine"\nname = "mine"\n[[score]]\nfigure = 1\nstate = "lu"\nprinted = "○□半○"\n',
        encoding="utf-8",
    )
    assert resolve(str(path)).pattern.notation == "○□半○"
    score = resolve(f"lu@{path}")
    assert score.edition_name == "mine"
    assert resolve(score.key) == score  # cited by its path, it is found again


def test_an_edition_file_never_passes_for_a_builtin_of_the_same_id(tmp_path):
    path = tmp_path / "zhushu.toml"
    path.write_text(
        'id = "zhushu"\nname = "mine"\n[source]\ncitation = "my copy"\n'
        '[[score]]\nfigure = 1\nstate = "lu"\nprinted = "○□半○"\n',
        encoding="utf-8",
    )
    score = resolve(str(path))
    assert score.key == f"lu/1@{path}"
    assert score.source.citation == "my copy"
    assert resolve("lu").source.kanripo == "KR1d0053"


def test_an_empty_section_is_refused():
    from drumscore import OptionError
    from drumscore.conductor.timeline import arrange

    with pytest.raises(OptionError, match=r"'head' section .* is empty"):
        arrange(resolve("半○□"), "head")
    with pytest.raises(OptionError, match="is empty"):
        arrange(resolve("○□半"), "touhu")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("☐▢◻", "□□□"), ("〇口", "○□"), ("囗 半 〇", "□半○")],
)
def test_notation_of_any_accepted_glyph_is_recognised(name, expected):
    assert resolve(name).pattern.notation == expected


@pytest.mark.parametrize(
    ("name", "bad"), [("ロ", "KATAKANA"), ("●○", "BLACK CIRCLE"), ("△", "UP-POINTING TRIANGLE")]
)
def test_shapes_that_are_not_notation_get_a_hint_not_unknown_score(name, bad):
    with pytest.raises(NotationError, match=bad) as err:
        resolve(name)
    assert "hint:" in str(err.value)


def test_a_folder_is_not_a_score(tmp_path):
    with pytest.raises(ScoreNotFoundError, match="is a folder"):
        resolve(str(tmp_path))


def test_split_name_tells_corpus_names_from_the_rest():
    from drumscore.corpus import split_name

    assert split_name("xue/2@benyi") == ("薛", 2, "benyi")
    assert split_name(" 魯 ") == ("魯", 1, None)
    assert split_name("○□半○") is None
    assert split_name("drumscore/scores/benyi.toml") is None


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("", "empty score name"),
        ("nope", "unknown score 'nope'"),
        ("lu@nowhere", "unknown edition 'nowhere'"),
    ],
)
def test_unknown_names_list_what_exists(name, expected):
    with pytest.raises(ScoreNotFoundError) as err:
        resolve(name)
    assert expected in str(err.value)
    assert "zhushu" in str(err.value)


@pytest.mark.parametrize("name", ["lu/3", "lu/x", "xue/0@benyi"])
def test_unknown_figures_say_which_exist(name):
    with pytest.raises(ScoreNotFoundError, match="figures 1 and 2"):
        resolve(name)


def test_notation_with_a_bad_character_points_at_it():
    with pytest.raises(NotationError) as err:
        resolve("○□X")
    assert err.value.column == 3


def test_a_bad_notation_file_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("○□\n○x", encoding="utf-8")
    with pytest.raises(NotationError) as err:
        resolve(str(path))
    assert str(path) in str(err.value)
    assert (err.value.line, err.value.column) == (2, 2)


def test_a_non_utf8_notation_file_is_refused(tmp_path):
    path = tmp_path / "gbk.txt"
    path.write_bytes("○□半○".encode("gb18030"))
    with pytest.raises(EncodingError, match="not UTF-8"):
        resolve(str(path))


HEAD = 'id = "x"\nname = "x"\n[[score]]\n'


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("id = ", "not valid TOML"),
        ('id = "x"\nname = "x"\nscore = 5', "[[score]] tables"),
        ('id = "x"\nname = "x"\nscore = [1]', "[[score]] tables"),
        ('id = "x"\nname = "x"\n[[count]]\nsection = 3', "touhu, she or head"),
        ('name = "x"', "missing key 'id'"),
        (HEAD + 'figure = 3\nstate = "lu"\nprinted = "○"', "figure 1"),
        (HEAD + 'figure = 1\nstate = "lu"\nprinted = "○X"', "bad notation"),
    ],
)
def test_a_malformed_edition_file_is_a_corpus_error(tmp_path, content, expected):
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_edition(path)
    assert expected in str(err.value) and str(path) in str(err.value)


@pytest.mark.parametrize(
    ("table", "value", "key"),
    [
        ("note", "zh_TW = 5", "zh_TW"),
        ("note", 'zh_TW = {a = "b"}', "zh_TW"),
        ("note", "C = 1.5", "C"),
        ("basis", "zh_CN = [1]", "zh_CN"),
    ],
)
def test_a_text_under_a_locale_name_that_is_not_text_is_refused_naming_its_key(
    tmp_path, table, value, key
):
    """The schema names the tags (zh-Hant); a locale name (zh_TW, C) means the same language,
    and its value is checked as theirs is: text, not a number or a table to be shown."""
    text = (
        (corpus.SCORES_DIR / "chenhao.toml")
        .read_text(encoding="utf-8")
        .replace('"chenhao"', '"mine"')
    )
    text = re.sub(rf"^{table}\.en = .*$", f"{table}.{value}", text, count=1, flags=re.M)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_edition(path)
    said = str(err.value)
    assert str(path) in said and f"{key} must be text, not " in said


# --- dates and glyph mappings of the edition files ---


def test_every_edition_is_dated_with_its_basis():
    for edition in corpus.builtin_editions():
        assert edition.date is not None, edition.id
        assert edition.date.basis and 600 < edition.date.earliest <= edition.date.latest < 1900


def test_the_date_order_puts_the_earliest_text_first_and_undated_editions_last():
    ordered = [e.id for e in sorted(corpus.builtin_editions(), key=lambda e: e.date_key)]
    # 禮記正義 (653) before 陳暘's 樂書 (1101), 朱熹 (d. 1200) before 衛湜 (1226) before 陳澔 (1322)
    assert ordered[0] == "zhushu"
    for earlier, later in [("yueshu", "tongjie"), ("tongjie", "weishi"), ("weishi", "chenhao")]:
        assert ordered.index(earlier) < ordered.index(later)
    undated = corpus.edition_from_dict({"id": "u", "name": "U"})
    assert undated.date_key > max(e.date_key for e in corpus.builtin_editions())


def test_a_glyph_mapping_keeps_printed_exact_and_the_notation_canonical():
    zuantu = find_edition("zuantu")
    assert dict(zuantu.glyphs) == {"◍": "□", "◛": "□"}
    lu = zuantu.score("魯", 1)
    assert "◍" in lu.printed and "◛" in lu.printed and "〇" in lu.printed
    assert set(lu.pattern.notation) == {"○", "□", "半"}
    assert len(lu.pattern) == sum(lu.printed.count(c) for c in "○〇□◍◛")


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('[glyphs]\n"◍" = "半"', "only be read as ○ (鼙) or □ (鼓)"),
        ('[glyphs]\n"○" = "□"', "notation already"),
        ('[glyphs]\n"鼓" = "○"', "labels 魯鼓 and 薛鼓"),
        ('[glyphs]\n"(" = "○"', "markup"),
        ('[glyphs]\n"◍◍" = "○"', "one character"),
        ("[glyphs]\n'◍' = 1", "X=○ or X=□"),
        ("[date]\nyear = 1748", "needs its basis"),
        ('[date]\nfrom = 1736\nbasis = "b"', "either year = 1748 or from = 1736 and to = 1748"),
        ('[date]\nyear = 1748\nfrom = 1736\nto = 1748\nbasis = "b"', "either year"),
        ('[date]\nfrom = 1748\nto = 1736\nbasis = "b"', "ends before it begins"),
        ('[date]\nyear = "1748"\nbasis = "b"', "date.year must be"),
    ],
)
def test_a_bad_glyph_or_date_table_is_a_corpus_error(tmp_path, table, expected):
    path = tmp_path / "bad.toml"
    path.write_text(f'id = "x"\nname = "x"\n{table}\n', encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_edition(path)
    assert expected in str(err.value) and str(path) in str(err.value)


def test_printed_glyphs_without_their_mapping_say_where_the_mapping_goes(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(HEAD + 'figure = 1\nstate = "lu"\nprinted = "○◍○半○"', encoding="utf-8")
    with pytest.raises(CorpusError, match=r"\[glyphs\] table"):
        load_edition(path)


# --- in each reader's language ------------------------------------------------------------------

NAMES_HELP = {
    "zh_Hant": "鼓譜名稱為 lu 或 xue（也可寫作：魯／鲁、薛／辥），可加 /2 表示第二圖",
    "zh_Hans": "鼓谱名称为 lu 或 xue（也可写作：魯／鲁、薛／辥），可加 /2 表示第二图",
    "en": "scores are named lu or xue (also 魯/鲁, 薛/辥), optionally /2 for the second figure",
}


@pytest.mark.parametrize(
    ("language", "start"),
    [
        ("zh_Hant", "未知的鼓譜「luu/2」（是不是「lu/2」？）；"),
        ("zh_Hans", "未知的鼓谱「luu/2」（是不是「lu/2」？）；"),
        ("en", "unknown score 'luu/2' (did you mean 'lu/2'?); "),
    ],
)
def test_a_mistyped_score_name_is_told_the_name_it_may_mean(
    cli, monkeypatch, tmp_path, language, start
):
    err = refused(cli, monkeypatch, language, tmp_path, "render", "luu/2", "-o", tmp_path / "x.wav")
    assert err.startswith(start)
    assert NAMES_HELP[language] in err


@pytest.mark.parametrize(
    ("language", "start"),
    [
        ("zh_Hant", "未知的鼓譜「nosuch.txt」；鼓譜名稱為"),
        ("zh_Hans", "未知的鼓谱「nosuch.txt」；鼓谱名称为"),
        ("en", "unknown score 'nosuch.txt'; scores are named"),
    ],
)
def test_a_missing_file_is_an_unknown_score_with_no_guess(
    cli, monkeypatch, tmp_path, language, start
):
    out = tmp_path / "out"
    out.mkdir()
    err = refused(
        cli, monkeypatch, language, out, "render", tmp_path / "nosuch.txt", "-o", out / "x.wav"
    )
    assert err.startswith(start.replace("nosuch.txt", str(tmp_path / "nosuch.txt")))
    assert "did you mean" not in err and "是不是" not in err


@pytest.mark.parametrize(
    ("language", "start"),
    [
        ("zh_Hant", "未知的版本「benyl」（是不是「benyi」？）；現有的版本：zhushu（禮記注疏）"),
        ("zh_Hans", "未知的版本「benyl」（是不是「benyi」？）；现有的版本：zhushu（礼记注疏）"),
        (
            "en",
            "unknown edition 'benyl' (did you mean 'benyi'?); the editions are: zhushu (禮記注疏)",
        ),
    ],
)
def test_a_mistyped_edition_is_told_the_edition_it_may_mean(
    cli, monkeypatch, tmp_path, language, start
):
    err = refused(
        cli, monkeypatch, language, tmp_path, "render", "lu@benyl", "-o", tmp_path / "x.wav"
    )
    assert err.startswith(start)


def test_a_name_like_no_state_gets_no_guess():
    with pytest.raises(ScoreNotFoundError) as err:
        resolve("drum")
    assert "did you mean" not in str(err.value)
    with pytest.raises(ScoreNotFoundError, match=r"did you mean 'xue@benyi'\?"):
        resolve("xeu@benyi")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh_Hant", ["不是譜字：這看來是某個版本的一段原文", "提示：請用「drumscore extract"]),
        ("zh_Hans", ["不是谱字：这看来是某个版本的一段原文", "提示：请用「drumscore extract"]),
        ("en", ["is not notation: this looks like a passage", "hint: use 'drumscore extract"]),
    ],
)
def test_a_passage_given_as_notation_is_told_to_extract(
    cli, monkeypatch, tmp_path, language, words
):
    passage = tmp_path / "in" / "passage.txt"
    passage.parent.mkdir()
    passage.write_text("魯鼓○□○○半○□○", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    err = refused(cli, monkeypatch, language, out, "render", passage, "-o", out / "x.wav")
    for word in words:
        assert word in err


# --- the short names Chinese views cite the editions by ---


def test_every_edition_has_a_short_name_in_each_script_unique_among_the_editions():
    from drumscore import i18n
    from drumscore.i18n import simplified

    for language, script in (("zh_Hant", "traditional"), ("zh_Hans", "simplified")):
        with i18n.speaking(language):
            shorts = {e.id: str(e.short) for e in corpus.builtin_editions()}
        assert all(shorts.values()), shorts
        assert len(set(shorts.values())) == len(shorts)  # one short name, one edition
        for edition in corpus.builtin_editions():
            given = dict(edition.short.texts)
            assert given.get(language) == shorts[edition.id]  # written for this script
            assert simplified(given["zh_Hant"]) == simplified(given["zh_Hans"])  # the same name
        # one of the two printings of 樂書 by its 卷, the base by its kind
        assert shorts["yueshu-118"].endswith("卷百十八") and shorts["zhushu"] == "注疏本"
        assert script == "traditional" or shorts["weishi"] == "卫氏集说"


def test_a_short_name_in_a_language_drumscore_does_not_speak_is_refused(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        HEAD.replace("[[score]]\n", 'short.fr = "X"\n[[score]]\n')
        + 'figure = 1\nstate = "lu"\nprinted = "○"\n',
        encoding="utf-8",
    )
    with pytest.raises(CorpusError) as err:
        load_edition(path)
    assert "short" in str(err.value) and "'fr'" in str(err.value)


def test_an_extracted_edition_keeps_its_short_name_when_written_again(tmp_path):
    """editions.write carries the short name of the file it rewrites (as its note and
    counts), so a user's edition round-trips; one without a short name is cited by 《name》."""
    from drumscore import i18n
    from drumscore.apparatus.names import cited
    from drumscore.editions.extract import extract
    from drumscore.editions.write import edition_toml, kept_from

    passage = "魯鼓○□○○□□○□○○□半○□○□○○○□□○□○薛鼓○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
    extraction = extract(passage, edition_name="某本")
    path = tmp_path / "mine.toml"
    path.write_text(edition_toml(extraction, "mine", name="某本"), encoding="utf-8")
    plain = load_edition(path)
    assert not plain.short
    with i18n.speaking("zh_Hant"):
        assert cited(plain.name, plain.short) == "《某本》"
    text = path.read_text(encoding="utf-8").replace(
        'id = "mine"\n', 'id = "mine"\nshort.zh-Hant = "某本甲"\nshort.zh-Hans = "某本乙"\n', 1
    )
    path.write_text(text, encoding="utf-8")
    kept = kept_from(path)
    again = edition_toml(extraction, "mine", name="某本", short=kept.short)
    path.write_text(again, encoding="utf-8")
    edition = load_edition(path)
    assert dict(edition.short.texts) == {"zh_Hant": "某本甲", "zh_Hans": "某本乙"}
    with i18n.speaking("zh_Hans"):
        assert cited(edition.name, edition.short) == "某本乙"


# --- citations: the work by its parts, composed in the reader's language ---

SCORE = '[[score]]\nfigure = 1\nstate = "lu"\nprinted = "○□半○"\n'
ZHUSHU_PARTS = (
    'work = { title = "禮記注疏", juan = "卷五十八", chapter = "投壺", '
    'collection = "四庫全書", copy = "文淵閣" }\n'
)


@pytest.mark.parametrize(
    ("language", "cited"),
    [
        ("zh_Hant", "《禮記注疏》卷五十八〈投壺〉，文淵閣《四庫全書》本"),
        ("zh_Hans", "《礼记注疏》卷五十八〈投壶〉，文渊阁《四库全书》本"),
        ("en", "禮記注疏 卷五十八 投壺 四庫全書文淵閣本"),
    ],
)
@pytest.mark.parametrize(
    "source",
    [ZHUSHU_PARTS, 'work = "禮記注疏 卷五十八 投壺 四庫全書文淵閣本"\n'],
    ids=["parts", "an older file's one string"],
)
def test_a_citation_is_composed_from_the_work_s_parts_in_each_language(
    tmp_path, language, cited, source
):
    from drumscore import i18n

    path = tmp_path / "mine.toml"
    path.write_text('id = "mine"\nname = "某本"\n[source]\n' + source + 'lines = "1-2"\n' + SCORE)
    edition = load_edition(path)
    work = edition.provenance.work
    assert (work.title, work.juan, work.chapter) == ("禮記注疏", "卷五十八", "投壺")
    assert (work.collection, work.copy) == ("四庫全書", "文淵閣")
    with i18n.speaking(language):
        assert work.cited == cited
        assert edition.provenance.citation.startswith(cited)


@pytest.mark.parametrize(
    ("parts", "hant", "hans", "en"),
    [
        (
            {"author": "蔡德晉", "title": "禮經本義", "chapter": "投壺"},
            "蔡德晉《禮經本義》〈投壺〉",
            "蔡德晋《礼经本义》〈投壶〉",
            "蔡德晉 禮經本義 投壺",
        ),
        (
            {"title": "纂圖互註禮記", "juan": "卷十九", "collection": "四部叢刊"},
            "《纂圖互註禮記》卷十九，《四部叢刊》本",
            "《纂图互注礼记》卷十九，《四部丛刊》本",
            "纂圖互註禮記 卷十九 四部叢刊本",
        ),
        (
            {"author": "毛奇齡", "title": "經問", "juan": "卷十六"},
            "毛奇齡《經問》卷十六",
            "毛奇龄《经问》卷十六",
            "毛奇齡 經問 卷十六",
        ),
    ],
)
def test_each_part_of_a_work_takes_its_place_and_its_marks(parts, hant, hans, en):
    from drumscore import i18n
    from drumscore.model import Work

    work = Work.of(parts)
    for language, cited in (("zh_Hant", hant), ("zh_Hans", hans), ("en", en)):
        with i18n.speaking(language):
            assert str(work) == cited
    assert Work.of(en) == work  # an older file's string reads back to the same parts


def test_the_readings_are_cited_with_title_marks():
    from drumscore import i18n
    from drumscore.model import READINGS

    zheng, mao = READINGS
    with i18n.speaking("zh_Hant"):
        assert (str(zheng.name), str(mao.name)) == ("鄭玄《禮記注》", "毛奇齡《經問》卷十六")
        assert zheng.citation.startswith("《禮記注疏》卷五十八〈投壺〉鄭玄注，")
    with i18n.speaking("zh_Hans"):
        assert (str(zheng.name), str(mao.name)) == ("郑玄《礼记注》", "毛奇龄《经问》卷十六")
    with i18n.speaking("en"):
        assert (str(zheng.name), str(mao.name)) == ("鄭玄 禮記注", "毛奇齡 經問 卷十六")


def test_every_builtin_edition_gives_its_work_by_parts_and_cites_it_with_title_marks():
    from drumscore import i18n

    for edition in corpus.builtin_editions():
        work = edition.provenance.work
        assert work is not None and work.title, edition.id
        with i18n.speaking("zh_Hant"):
            cited = edition.provenance.citation
        assert cited.startswith((f"《{work.title}》", f"{work.author}《{work.title}》")), cited
        assert ("《四庫全書》本" in cited) == (work.collection == "四庫全書"), cited


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('work = { juan = "卷一" }\n', "needs a title"),
        ("work = { title = 5 }\n", "work"),
        ("work = 5\n", "work"),
    ],
)
def test_a_bad_work_is_refused(tmp_path, source, expected):
    path = tmp_path / "mine.toml"
    path.write_text('id = "mine"\nname = "某本"\n[source]\n' + source + SCORE)
    with pytest.raises(CorpusError) as err:
        load_edition(path)
    assert expected in str(err.value)


def test_a_rewritten_edition_keeps_its_work_s_parts(tmp_path):
    """editions.write writes the work as a [source.work] table of its parts and keeps a
    rewritten file's (its 卷, chapter and printing), which the passage's header does not give."""
    from drumscore.editions.extract import extract
    from drumscore.editions.write import edition_toml, kept_from

    passage = (
        "# source: Kanseki Repository KR1d0053, lines 1-2\n"
        "魯鼓○□○○□□○□○○□半○□○□○○○□□○□○薛鼓○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
    )
    extraction = extract(passage, edition_name="禮記注疏")
    path = tmp_path / "mine.toml"
    path.write_text(
        'id = "mine"\nname = "禮記注疏"\n[source]\n' + ZHUSHU_PARTS + SCORE, encoding="utf-8"
    )
    text = edition_toml(extraction, "mine", work=kept_from(path).work)
    assert tomllib.loads(text)["source"]["work"] == {
        "title": "禮記注疏",
        "juan": "卷五十八",
        "chapter": "投壺",
        "collection": "四庫全書",
        "copy": "文淵閣",
    }
    path.write_text(text, encoding="utf-8")
    assert load_edition(path).provenance.work == kept_from(path).work
