"""Reading the kinds of text a scholar pastes: punctuated, simplified, one stroke a line, whole
卷 files, miscopied labels; and the refusals, each at the position of what is wrong.

Every passage here is written for the test from the four patterns as the editions print them.
"""

import pytest

from drumscore.display import width
from drumscore.editions.extract import extract, parse_label_options
from drumscore.errors import ExtractError, NotationError, OptionError

LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
ALL = {(1, "魯"): LU1, (1, "薛"): XUE1, (2, "魯"): LU2, (2, "薛"): XUE2}


def read(text, **options):
    found = extract(text, **options)
    return {(f.score.figure, f.score.state): f.score.pattern.notation for f in found.scores}


def punctuate(pattern, before_half, after_half, between=""):
    """The pattern with punctuation on both sides of 半 and `between` after its third stroke."""
    head, tail = pattern.split("半")
    return head[:3] + between + head[3:] + before_half + "半" + after_half + tail


def where(text, err):
    """The character an error points at."""
    return text.split("\n")[err.line - 1][err.column - 1]


# --- punctuated editions ---


def test_full_width_punctuation_around_half_and_labels():
    text = (
        f"鼓：{punctuate(LU1, '，', '；')}：魯鼓。{punctuate(XUE1, '。', '，')}，薛鼓。"
        "取半以下為投壺禮，盡用之為射禮。\n"
        f"魯鼓：{punctuate(LU2, '，', '，', '、')}。薛鼓：{punctuate(XUE2, '；', '，')}。\n"
    )
    assert read(text) == ALL


def test_label_then_comma_before_the_next_pattern_labels_the_one_before():
    # figure 1: 魯鼓， stands before the 薛 pattern, but it labels the 魯 pattern before it
    text = f"鼓，{LU1}魯鼓，{XUE1}薛鼓。"
    found = extract(text, partial=True)
    assert [(f.score.state, f.score.pattern.notation) for f in found.scores] == [
        ("魯", LU1),
        ("薛", XUE1),
    ]
    assert all(f.label_side == "follows" for f in found.scores)


def test_half_width_punctuation():
    text = (
        f"鼓: {punctuate(LU1, ', ', '; ')}: 魯鼓. {punctuate(XUE1, '. ', ', ')}, 薛鼓.\n"
        f"魯鼓: {punctuate(LU2, ',', ',', ', ')}. 薛鼓: {punctuate(XUE2, ';', ',')}.\n"
    )
    assert read(text) == ALL


def test_pattern_broken_across_lines_and_glosses_in_parentheses():
    text = (
        "鼓（○，鼙也。□，鼓也。）\n"
        f"{LU1[:9]}\n{LU1[9:]}魯鼓（凡○十三，□十）\n"
        f"{XUE1[:20]}\n　　{XUE1[20:]}薛鼓。（此魯薛擊鼓之節，○□○為一節。）\n"
        "取半以下為投壺禮。\n"
        f"魯鼓{LU2}薛鼓{XUE2}\n"
    )
    found = extract(text)
    assert read(text) == ALL
    lu1 = found.scores[0]
    assert lu1.lines == (2, 3)
    assert "1 line break" in lu1.joined_summary()
    # the glosses' own ○ and □ are not strokes
    assert sum(len(f.score.pattern) for f in found.scores) == sum(
        len(p.replace("半", "")) for p in ALL.values()
    )


def test_simplified_script():
    text = (
        f"鼓{LU1}鲁鼓{XUE1}薛鼓取半以下为投壶礼尽用之为射礼\n鲁鼓{LU2}薛鼓{XUE2}注此二者记两家之异"
    )
    assert read(text) == ALL
    assert extract(text).scores[0].label == "鲁鼓"


def test_one_stroke_a_line():
    def column(pattern):
        return "\n".join(f"    {c}" for c in pattern)

    text = (
        f"鼓\n{column(LU1)}\n魯鼓\n{column(XUE1)}\n薛鼓\n取半以下為投壺禮\n"
        f"魯鼓\n{column(LU2)}\n薛鼓\n{column(XUE2)}\n"
    )
    found = extract(text)
    assert read(text) == ALL
    lu1 = found.scores[0]
    assert lu1.lines == (2, 1 + len(LU1))
    assert f"{len(LU1) - 1} line breaks" in lu1.joined_summary()


# --- whole files ---


def whole_juan(lines=3000, passage_at=1700):
    """A 卷 of commentary with ○ glosses, □ headwords, 〇 zeros and □ runs for lost text."""
    prose = [
        "○圜音圓鼙薄迷反其聲下其音榻榻然",
        "□，方鼓。鄭呼為鼓也其聲高",
        "凡二○○○字，一○○卷，其數未詳。",
        "此下闕□□□□□□□□□□□字，不可考。",
        "投壺之禮主人奉矢司射奉中使人執壺",
        "故魯鼓薛鼓總以鼓名之也。",
        "口徑二寸半，容斗五升。〇壺中實小豆焉。",
    ]
    body = [prose[i % len(prose)] for i in range(lines)]
    passage = [
        f"鼓{LU1}魯鼓{XUE1}薛鼓",
        "取半以下為投壺禮盡用之為射禮",
        f"魯鼓{LU2}薛鼓{XUE2}",
    ]
    return "\n".join(body[:passage_at] + passage + body[passage_at:]) + "\n"


def test_whole_juan_the_passage_is_found_and_nothing_else():
    text = whole_juan()
    found = extract(text)
    assert read(text) == ALL
    assert [f.lines[0] for f in found.scores] == [1701, 1701, 1703, 1703]
    assert found.skipped > 1000  # the glosses' ○, the headwords' □, zeros and lost characters


def test_a_file_that_only_discusses_the_scores_says_so():
    text = "投壺\n魯鼓薛鼓之節，○者擊鼙，□者擊鼓。\n取半以下為投壺禮，盡用之為射禮。\n"
    with pytest.raises(ExtractError) as info:
        extract(text, source_name="talk.txt")
    message = str(info.value)
    assert "no drum notation found in talk.txt" in message
    assert "魯鼓 at line 2, column 1" in message and "without printing them" in message


# --- labels ---


def test_miscopied_label_is_read_by_position_and_says_so():
    # 薜 for 薛 (one component differs), 魚 for 魯 (a component of it)
    text = f"鼓{LU1}魯鼓{XUE1}薜鼓取半以下為投壺禮魚鼓{LU2}薛鼓{XUE2}"
    found = extract(text)
    assert read(text) == ALL
    remarks = {(f.score.figure, f.score.state): f.remarks for f in found.scores}
    column = text.index("薜") + 1
    assert remarks[(1, "薛")] == (f"label '薜鼓' (line 1, column {column}) read as 薛 by position",)
    column = text.index("魚") + 1
    assert remarks[(2, "魯")] == (f"label '魚鼓' (line 1, column {column}) read as 魯 by position",)
    assert remarks[(1, "魯")] == remarks[(2, "薛")] == ()


def test_both_labels_unrecognised_first_is_lu():
    text = f"記鼓{LU1}鲁皷{XUE1}薜鼔\n取半以下\n魚鼓{LU2}薜鼓{XUE2}"
    assert read(text) == ALL


def test_label_option_settles_it():
    text = f"鼓{LU1}魯鼓{XUE1}薜鼓取半以下為投壺禮魚鼓{LU2}薛鼓{XUE2}"
    found = extract(text, labels=parse_label_options(["薜=薛", "魚鼓=魯"]))
    assert read(text) == ALL
    assert all(f.remarks == () for f in found.scores)
    # a label option against the order of the figure is what the user says, not inferred
    assert read(f"鼓{LU1}薜鼓{XUE1}魯鼓", labels={"薜": "薛"}) == {
        (1, "薛"): LU1,
        (1, "魯"): XUE1,
    }


@pytest.mark.parametrize("spec", ["薜", "薜=", "=薛", "薜=齊", "薜薜=薛", "○=薛", "鼓=魯", "薛=魯"])
def test_bad_label_options(spec):
    with pytest.raises(OptionError, match="label"):
        parse_label_options([spec])


# --- refusals, each at its place ---


def test_full_stop_between_strokes_is_refused_at_its_position():
    text = "鼓\n○□○○□□。○□○○□半○□○□○○○□□○□○魯鼓\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (2, 7) and where(text, err) == "。"
    assert "divides a run of strokes" in err.reason and "6 strokes before it" in err.reason


def test_run_interrupted_by_a_character():
    text = f"鼓{LU1}魯鼓\n○□○○□甲○□○○○□□○□○○□□○半○□○○○□□○薛鼓\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (2, 6) and where(text, err) == "甲"
    assert "interrupted by '甲' (U+7532" in str(err)


def test_fragment_with_no_label_and_no_place_in_a_figure():
    text = f"鼓{LU1}魯鼓{XUE1}薛鼓\n又有一圖曰\n○□○半○□○○\n而無名\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (3, 1)
    assert "has no 魯鼓/薛鼓 label" in err.reason


def test_figure_with_one_pattern():
    text = f"前文\n鼓{LU1}魯鼓。\n後文\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (2, 2)
    assert "figure 1 has only one pattern" in err.reason


def test_pattern_without_half_where_the_other_has_one():
    text = f"魯鼓{LU2}\n薛鼓{XUE2.replace('半', '')}\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (2, 3)
    assert "has no 半, but the other pattern of its figure (on line 1) has one" in err.reason


def test_partial_reading_marks_each_doubtful_item():
    text = "鼓\n○□○○□□。○□○○□半○□○□○○○□□○□○魯鼓\n"
    found = extract(text, partial=True)
    first, second = found.scores
    assert (first.score.state, second.score.state) == ("", "魯")
    assert first.doubtful and "no 魯鼓/薛鼓 label" in first.doubts[1]
    assert first.doubts[0] == "divided from the strokes after it by '。' at line 2, column 7"
    assert second.doubtful and "figure 1 has only one pattern" in second.doubts[0]
    assert found.doubtful


# --- the editions' own evidence ---


def test_notes_inside_a_pattern_are_kept_at_their_stroke():
    text = f"鼓{LU1[:4]}（甲本作□）{LU1[4:]}魯鼓{XUE1[:25]}(乙本/無此○)\n{XUE1[25:]}薛鼓"
    found = extract(text)
    lu, xue = found.scores
    assert [(n.after, n.text) for n in lu.notes] == [(4, "甲本作□")]
    assert [(n.after, n.text) for n in xue.notes] == [(24, "乙本無此○")]
    assert lu.score.pattern.notation == LU1 and xue.score.pattern.notation == XUE1
    assert (xue.note_positions[0].line, xue.note_positions[0].column) == (1, text.index("(") + 1)


def test_joined_report_names_what_was_read_through():
    text = f"鼓{LU1[:5]}¶\n<pb:X_1-2a>¶\n{LU1[5:12]}，{LU1[12:]}魯鼓{XUE1}薛鼓"
    lu = extract(text).scores[0]
    kinds = [j.kind for j in lu.joined]
    assert kinds.count("page break") == 1 and "punctuation" in kinds
    assert lu.joined_summary().startswith("2 line breaks, 1 page break, punctuation ，")


# --- ○ that marks other things: glosses in modern 注疏 editions, bullets, lost characters ---
# A modern punctuated edition: the sound glosses open with ○ (○圜音圓) and often start a line.

MODERN_FIG2 = f"魯鼓：{punctuate(LU2, '，', '，')}。薛鼓：{punctuate(XUE2, '，', '，')[:-1]}\n"


def test_a_last_circle_alone_before_a_full_stop_and_a_note_is_a_stroke():
    text = MODERN_FIG2 + "○。（此二者記兩家之異，故兼列之。）此魯薛擊鼓之節也。\n"
    found = extract(text)
    assert read(text) == {(2, "魯"): LU2, (2, "薛"): XUE2}
    (remark,) = found.scores[1].remarks
    assert "read '○' at line 2, column 1 as the pattern's last stroke: '。' follows" in remark


def test_a_last_circle_before_a_note_on_its_line_is_a_stroke():
    text = MODERN_FIG2 + "○（疏）正義曰此二者記兩家之異\n"
    assert read(text) == {(2, "魯"): LU2, (2, "薛"): XUE2}
    assert "a note follows" in extract(text).scores[1].remarks[0]


def test_a_circle_that_opens_a_gloss_on_the_next_line_is_prose():
    text = f"魯鼓：{LU2}。薛鼓：{XUE2}\n○圜音圓，鼙薄迷反。\n"
    found = extract(text)
    assert read(text) == {(2, "魯"): LU2, (2, "薛"): XUE2}
    assert "left out '○' at line 2, column 1" in found.scores[1].remarks[0]
    assert found.skipped == 1


def test_a_circle_alone_on_its_line_before_prose_is_doubtful_never_read_in_silence():
    text = MODERN_FIG2 + "○\n此魯薛擊鼓之節也\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (2, 1) and where(text, err) == "○"
    assert "may be its last stroke or a mark that opens the text" in err.reason
    assert err.option == "partial"
    found = extract(text, partial=True)
    xue = found.scores[1]
    assert xue.doubtful and "read as a stroke" in xue.doubts[0]
    assert xue.score.pattern.notation == XUE2 and found.doubtful


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("投壺之禮有三：\n○ 主人奉矢\n○ 司射奉中\n○ 使人執壺\n□□□之節，今不可考。\n", (2, 1)),
        ("此下闕□□□□□□□□字，○○○不可考。\n又闕□□○□□□。\n", (1, 4)),
    ],
    ids=["bullets", "lost characters"],
)
def test_bullets_and_lost_characters_are_no_score_for_the_right_reason(text, first):
    with pytest.raises(ExtractError) as info:
        extract(text)
    message = str(info.value)
    assert message.startswith("no score here")
    assert f"(the first at line {first[0]}, column {first[1]})" in message
    assert "no run of them has 半 or a 魯鼓/薛鼓 label near it" in message
    assert "list bullets (○)" in message and "could not be typed (□)" in message


def test_bullets_and_lost_characters_beside_the_figures_stay_prose():
    prose = "○ 主人奉矢\n此下闕□□○□□□字\n"
    text = prose + f"鼓{LU1}魯鼓{XUE1}薛鼓\n" + prose
    found = extract(text)
    assert read(text) == {(1, "魯"): LU1, (1, "薛"): XUE1}
    assert found.skipped == 2 * (1 + 6)


# --- web copies: footnote marks and invisible characters ---


@pytest.mark.parametrize("mark", ["[1]", "［２］", "〔3〕", "※", "¹", "²³", "①"])
def test_a_footnote_mark_between_a_pattern_and_its_label_is_read_through(mark):
    text = f"鼓：{LU1}{mark}，魯鼓。{XUE1}，薛鼓{mark}。\n"
    found = extract(text)
    assert read(text) == {(1, "魯"): LU1, (1, "薛"): XUE1}
    assert f"footnote mark {mark}" in found.scores[0].joined_summary()
    assert [j.text for j in found.scores[0].joined if j.kind == "footnote mark"] == [mark]


def test_a_footnote_mark_inside_a_pattern_is_read_through():
    head, tail = LU1.split("半")
    text = f"鼓{head}[4]半{tail}魯鼓{XUE1}薛鼓\n"
    assert read(text) == {(1, "魯"): LU1, (1, "薛"): XUE1}


INVISIBLES = ["\u200b", "\u200c", "\u200d", "\ufeff", "\u00ad"]


@pytest.mark.parametrize("ch", INVISIBLES, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_characters_inside_a_pattern_and_a_label_are_read_through_and_named(ch):
    lu = LU1[:5] + ch + LU1[5:]
    text = f"鼓{lu}魯{ch}鼓{XUE1}{ch}薛鼓\n"
    found = extract(text)
    assert read(text) == {(1, "魯"): LU1, (1, "薛"): XUE1}
    summary = found.scores[0].joined_summary()
    assert f"U+{ord(ch):04X}" in summary and ch not in summary
    assert all(ch not in j.text for f in found.scores for j in f.joined)
    assert found.scores[0].score.printed == LU1
    assert found.scores[0].label == "魯鼓"
    assert f"label '魯鼓' read through U+{ord(ch):04X}" in found.scores[0].remarks[0]


def test_an_invisible_character_that_stops_the_reading_is_named_not_printed_raw():
    text = f"鼓{LU1[:5]}\u202e{LU1[5:]}魯鼓{XUE1}薛鼓\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    message = str(info.value)
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in message and "\u202e" not in message
    line, caret = message.splitlines()[1:3]
    assert "⟨U+202E⟩" in line and width(line[: line.index("⟨")]) == caret.index("^")
    assert "invisible formatting character" in info.value.hint
