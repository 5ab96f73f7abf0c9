"""The shapes digitised copies come in: re-paragraphed, re-punctuated and bilingual copies, a lone
pattern, 口 in the prose. Every passage here is written for the test."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drumscore import corpus
from drumscore.editions.extract import extract
from drumscore.errors import DrumscoreError, ExtractError, NotationError

LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
STANDARD_ONE = {(1, "魯"): LU1, (1, "薛"): XUE1}


def halves(pattern):
    return pattern.split("半")


def notation(found):
    return {(f.score.figure, f.score.state): f.score.pattern.notation for f in found.scores}


# --- passages of each shape -----------------------------------------------------------------------

LU1_A, LU1_B = halves(LU1)
XUE1_A, XUE1_B = halves(XUE1)
#: Each pattern of figure 1 in its own paragraph: the label after the 魯 pattern opens the 薛 one.
PARAGRAPHS = (
    "投壺之鼓，其譜如下。\n\n"
    f"鼓：{LU1_A}；半：{LU1_B}。\n\n"
    f"魯鼓：{XUE1_A}；半：{XUE1_B}。\n\n"
    "薛鼓，取半以下為投壺禮，盡用之為射禮。\n"
)
#: A modern editor's full stop one stroke early: the last stroke of each pattern stands after it.
MOVED_STROKE = (
    f"鼓：{LU1_A}半，{LU1_B[:-1]}。{LU1_B[-1]}鲁鼓：{XUE1_A}。半，{XUE1_B[:-1]}。{XUE1_B[-1]}"
    "薛鼓：取半以下为投壶礼，尽用之为射礼。\n"
)
#: 古文 lines, each followed by its 现代文 line; a translation line stands inside the 魯 pattern,
#: prints 「 半 」 and speaks of 鲁国 and 薛国.
BILINGUAL = (
    f"鼓{LU1_A}\n"
    "击鼓的节拍是这样的，前后两段以「 半 」字分开。\n"
    f"半{LU1_B}魯鼓\n"
    "这是鲁国的鼓谱。\n"
    f"{XUE1}薛鼓\n"
    "这是薛国的鼓谱，它和鲁国的不同。\n"
    "取半以下為投壺禮，盡用之為射禮。\n"
    "从半字以后用作投壶礼，全部用作射礼。\n"
)


@pytest.mark.parametrize("text", [PARAGRAPHS, MOVED_STROKE, BILINGUAL], ids=["para", "stop", "bi"])
def test_each_shape_reads_to_the_standard_first_figure(text):
    found = extract(text)
    assert notation(found) == STANDARD_ONE
    assert [f.label_side for f in found.scores] == ["follows", "follows"]


def test_a_stroke_across_a_full_stop_is_said():
    found = extract(MOVED_STROKE)
    for f in found.scores:
        assert any("1 stroke stood across the full stop '。'" in r for r in f.remarks)


def test_a_translation_line_is_read_through_and_said():
    found = extract(BILINGUAL)
    lu = found.scores[0]
    assert lu.lines == (1, 3)
    assert [j.pos.line for j in lu.joined if j.kind == "translation line"] == [2]
    assert "1 translation line" in lu.joined_summary()


def test_a_paragraph_break_between_figures_still_ends_the_first():
    text = f"鼓{LU1}魯鼓{XUE1}薛鼓\n\n魯鼓{LU2}\n\n薛鼓{XUE2}\n"
    assert notation(extract(text)) == {**STANDARD_ONE, (2, "魯"): LU2, (2, "薛"): XUE2}


def test_a_heading_line_of_labels_above_the_figure_is_not_its_label():
    text = f"　魯鼓　薛鼓\n\n鼓{LU1}魯鼓{XUE1}薛鼓\n"
    assert notation(extract(text)) == STANDARD_ONE


def test_a_lone_first_figure_pattern_with_its_label_first_is_named():
    with pytest.raises(NotationError) as info:
        extract(f"魯鼓：{LU1}\n")
    message = str(info.value)
    assert "stands alone" in message and "the 魯 pattern of figure 1" in message
    assert "figure 2 has only one pattern" not in message
    partial = extract(f"魯鼓：{LU1}\n", partial=True)
    assert [(f.score.figure, f.doubtful) for f in partial.scores] == [(1, True)]


def test_a_lone_pattern_that_no_edition_prints_has_an_unknown_figure():
    with pytest.raises(NotationError) as info:
        extract("薛鼓○□○□○□半○□○\n")
    assert "a lone pattern's figure is unknown" in str(info.value)
    (found,) = extract("薛鼓○□○□○□半○□○\n", partial=True).scores
    assert found.score.figure is None and found.doubtful


def test_kou_is_a_word_not_a_stroke():
    with pytest.raises(ExtractError) as info:
        extract("壺口徑二寸半，口中實小豆。\n")
    assert "○/□ sign" not in str(info.value)
    found = extract(f"壺口徑二寸半，口中實小豆。鼓{LU1}魯鼓{XUE1}薛鼓口也\n")
    assert notation(found) == STANDARD_ONE and found.skipped == 0


def test_kou_mapped_is_a_stroke():
    text = "鼓" + LU1.replace("□", "口") + "魯鼓" + XUE1.replace("□", "口") + "薛鼓"
    found = extract(text, glyph_map={"口": "□"})
    assert notation(found) == STANDARD_ONE
    assert found.scores[0].score.printed == LU1.replace("□", "口")


# --- on the command line: exit status and JSON ----------------------------------------------------


@pytest.mark.parametrize("text", [PARAGRAPHS, MOVED_STROKE, BILINGUAL], ids=["para", "stop", "bi"])
def test_each_shape_on_the_command_line(text, tmp_path, cli):
    path = tmp_path / "copy.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(*["extract", str(path), "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert {(s["figure"], s["state"]): s["notation"] for s in data["scores"]} == STANDARD_ONE
    assert data["doubtful"] is False
    code, out, err = cli(*["extract", str(path), "--partial"])
    assert code == 0 and "two patterns" not in out + err and "DOUBTFUL" not in out


def test_a_lone_pattern_on_the_command_line(tmp_path, expect_error, cli):
    path = tmp_path / "lone.txt"
    path.write_text(f"魯鼓：{LU1}\n", encoding="utf-8")
    err = expect_error(*["extract", str(path)])
    assert "the 魯 pattern of figure 1" in err
    code, out, _err = cli(*["extract", str(path), "--partial", "--json"])
    data = json.loads(out)
    assert code == 0 and data["doubtful"] is True
    assert [(s["figure"], s["notation"]) for s in data["scores"]] == [(1, LU1)]


def test_kou_is_not_counted_in_a_refusal(tmp_path, expect_error):
    path = tmp_path / "kou.txt"
    path.write_text("壺口徑二寸半，口中實小豆，○□□者其文也。\n", encoding="utf-8")
    err = expect_error(*["extract", str(path)])
    assert "3 ○/□ signs" in err


# --- the property: read right, or refused ---------------------------------------------------------


def _figures() -> list[tuple[str, int, str, str]]:
    """Each figure of each corpus edition: (edition id, figure, 魯 pattern, 薛 pattern)."""
    found = []
    for edition in corpus.builtin_editions():
        by = {(s.figure, s.state): s.pattern.notation for s in edition.scores}
        for figure in (1, 2):
            if (figure, "魯") in by and (figure, "薛") in by:
                found.append((edition.id, figure, by[figure, "魯"], by[figure, "薛"]))
    return found


FIGURES = _figures()
PUNCTUATION = "，。；：、"
TRANSLATION = "这是鼓的谱子，以「 半 」分开，鲁国和薛国的不一样。"


def _passage(figure: int, lu: str, xue: str) -> list[str]:
    """The figure as the standard text lays it out, a character a piece."""
    if figure == 1:
        return ["鼓", *lu, "魯鼓", *xue, "薛鼓", *"取半以下為投壺禮"]
    return ["魯鼓", *lu, "薛鼓", *xue, *"此二者記兩家之異"]


def _any_reshaping(examples: int):
    """The property below drawn `examples` times: a corpus figure with breaks, punctuation and
    translation lines put anywhere."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        which=st.sampled_from(FIGURES),
        edits=st.lists(
            st.tuples(
                st.integers(min_value=0, max_value=80),
                st.sampled_from([*PUNCTUATION, "\n\n", "\n", "translation"]),
            ),
            max_size=8,
        ),
    )
    def test(which, edits):
        """Paragraph breaks, modern punctuation and translation lines put anywhere in a corpus
        figure: the passage gives the figure's own notation, or is refused; never another
        notation."""
        _edition, figure, lu, xue = which
        pieces = _passage(figure, lu, xue)
        for where, edit in sorted(edits, reverse=True):
            where = min(where, len(pieces))
            if edit == "translation":
                pieces.insert(where, f"\n{TRANSLATION}\n")
            else:
                pieces.insert(where, edit)
        text = "".join(pieces)
        try:
            found = extract(text)
        except DrumscoreError:
            return
        assert notation(found) == {(figure, "魯"): lu, (figure, "薛"): xue}, text

    return test


# README's command draws 100 reshaped figures, the slow run (-m slow) 300 of its own.
test_every_corpus_figure_reshaped_reads_the_same_or_is_refused = _any_reshaping(100)
test_every_corpus_figure_reshaped_reads_the_same_or_is_refused_at_length = pytest.mark.slow(
    _any_reshaping(300)
)


# --- --add: the passage's script and title, the scores it wrote, the ids README promises ----------

SIMPLIFIED_FIGURE_ONE = (
    f"投壶鼓谱 - 第 3 页\n\n鼓{LU1}鲁鼓{XUE1}薛鼓\n取半以下为投壶礼，尽用之为射礼。\n"
)


@pytest.mark.parametrize("ident", ["my_ed", "MyEd", "ed-2"])
def test_add_records_script_and_title_and_names_what_it_wrote(ident, tmp_path, cli, expect_error):
    import tomllib

    path = tmp_path / "passage1.txt"
    path.write_text(SIMPLIFIED_FIGURE_ONE, encoding="utf-8")
    code, out, err = cli("extract", str(path), "--add", ident)
    assert code == 0, err
    assert f"the scores are named lu/1@{ident}, xue/1@{ident}\n" in out
    assert "xue/2" not in out
    (written,) = (f for f in corpus.add_folder().glob("*.toml"))
    data = tomllib.loads(written.read_text(encoding="utf-8"))
    assert (data["id"], data["script"], data["name"]) == (ident, "simplified", "投壶鼓谱")
    code, out, _err = cli("show", f"xue/1@{ident}", "--json")
    assert code == 0 and json.loads(out)["notation"] == XUE1
    assert "no figure 2" in expect_error("show", f"xue/2@{ident}")
    code, out, _err = cli("list")
    assert "投壶鼓谱 (yours)" in out and "passage1.txt (yours)" not in out


@pytest.mark.parametrize("ident", ["-ed", "_ed", "a/b", "a b", "a@b"])
def test_add_refuses_ids_that_are_no_plain_name(ident, tmp_path, expect_error):
    path = tmp_path / "p.txt"
    path.write_text(SIMPLIFIED_FIGURE_ONE, encoding="utf-8")
    err = expect_error("extract", str(path), f"--add={ident}")
    assert "letters, digits, '-' and '_'" in err


def test_a_traditional_passage_is_recorded_traditional(tmp_path, cli):
    import tomllib

    path = tmp_path / "p.txt"
    path.write_text(PARAGRAPHS, encoding="utf-8")
    out_path = tmp_path / "p.toml"
    code, _out, err = cli("extract", str(path), "-o", str(out_path))
    assert code == 0, err
    data = tomllib.loads(out_path.read_text(encoding="utf-8"))
    assert data["script"] == "traditional" and data["name"] == "p.txt"
