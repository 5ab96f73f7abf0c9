import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sourcefiles import source_text

from drumscore import i18n
from drumscore.editions.extract import extract, line_range, parse_glyph_options
from drumscore.errors import DrumscoreError, ExtractError, NotationError, OptionError

# The readings as the editions print them, written out by hand as an independent check.
LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
LU2_SHORT = "○□○○□□○○半○□○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
XUE2_LONG = "○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○"

# Figure 1 as the editions that part from it print it, read off the witness files by hand:
LU1_WULI = "○□○□□□○□○○□半○□○□○○○□□○□○"  # 五禮通考: □ for ○ at stroke 4
LU1_YUHAI = "○□○○□□○□○○半○□○□○○○□□○□○"  # 玉海: no □ just before 半
XUE1_YUHAI = "○□○○○□□○□○○□□○□○○□○□○半○□○○○□□○"  # 玉海: ○ more between the last two □
LU1_ZUANTU = "○□○○○□□○□○○□半○□○□○○○□□○□○"  # 纂圖互註禮記: one ○ more before 半
LU2_TONGJIE = "○○○□□○○半○□○□○○○○□○□○□○"  # 儀禮經傳通解: the 大戴禮 reading

WITNESSES = {
    "KR1d0053_058_禮記注疏.txt": (LU2, XUE2),
    "KR1d0044_017_禮經本義.txt": (LU2, XUE2_LONG),
    "KR1d0057_146_衛湜禮記集說.txt": (LU2_SHORT, XUE2),
    "KR1d0059_010_陳澔禮記集說.txt": (LU2, XUE2),
    "KR1d0060_028_禮記大全.txt": (LU2, XUE2),
    "KR1d0068_072_欽定禮記義疏.txt": (LU2, XUE2),
    "KR1d0071_026_禮記述註.txt": (LU2, XUE2),
    "KR1d0086_014_禮書綱目.txt": (LU2, XUE2),
    "KR1i0002_035_樂書卷三十五.txt": (LU2_SHORT, XUE2),
    "003_69e158327cd5ca34.txt": (LU2_SHORT, XUE2),
    "001_a32c6902e9fda003.txt": (LU2, XUE2_LONG),
    "KR1d0067_061_日講禮記解義.txt": (LU2_SHORT, XUE2),
    "KR1d0085_006_儀禮經傳通解.txt": (LU2_TONGJIE, XUE2),
    "KR1d0087_175_五禮通考.txt": (LU2, XUE2),
    "KR1i0002_118_樂書卷一百十八.txt": (LU2, XUE2),
    "KR3k0032_110_玉海卷一百十.txt": (LU2, XUE2),
    "KR1d0054_019_纂圖互註禮記.txt": (LU2_SHORT, XUE2),
}
#: The first figure where it is not LU1 and XUE1.
FIGURE_ONE = {
    "KR1d0087_175_五禮通考.txt": (LU1_WULI, XUE1),
    "KR3k0032_110_玉海卷一百十.txt": (LU1_YUHAI, XUE1_YUHAI),
    "KR1d0054_019_纂圖互註禮記.txt": (LU1_ZUANTU, XUE1),
}
#: Stroke signs that the prose uses: 儀禮經傳通解's 右作樂○記, a ○ that closes a section.
PROSE_STROKES = {"KR1d0085_006_儀禮經傳通解.txt": 1}
#: The signs a transcription draws strokes with beyond the glyph table.
GLYPHS = {"KR1d0054_019_纂圖互註禮記.txt": {"◍": "□", "◛": "□"}}


def notation(found):
    return {(f.score.figure, f.score.state): f.score.pattern.notation for f in found.scores}


@pytest.mark.parametrize("name", sorted(WITNESSES))
def test_every_witness_gives_its_printed_patterns(name):
    lu2, xue2 = WITNESSES[name]
    lu1, xue1 = FIGURE_ONE.get(name, (LU1, XUE1))
    found = extract(source_text(name), source_name=name, glyph_map=GLYPHS.get(name))
    assert notation(found) == {(1, "魯"): lu1, (1, "薛"): xue1, (2, "魯"): lu2, (2, "薛"): xue2}


@pytest.mark.parametrize("name", sorted(n for n in WITNESSES if n.startswith("KR")))
def test_no_stroke_outside_notes_is_lost(name):
    """Every ○/□ of the file, outside notes and the header, lands in exactly one pattern."""
    text = source_text(name)
    body = "".join(line for line in text.split("\n") if not line.startswith("#"))
    body = re.sub(r"\([^()]*\)", "", body)
    strokes = sum(body.count(c) for c in "○□〇囗◍◛")
    found = extract(text, source_name=name, glyph_map=GLYPHS.get(name))
    assert sum(len(f.score.pattern) for f in found.scores) == strokes - PROSE_STROKES.get(name, 0)
    assert found.skipped == PROSE_STROKES.get(name, 0)


def test_labels_follow_in_figure_one_and_precede_in_figure_two():
    found = extract(source_text("KR1d0053_058_禮記注疏.txt"))
    sides = {(f.score.figure, f.score.state): f.label_side for f in found.scores}
    assert sides[(1, "魯")] == sides[(1, "薛")] == "follows"
    assert sides[(2, "魯")] == sides[(2, "薛")] == "precedes"
    for f in found.scores:
        if f.label_side == "follows":
            assert (f.label_pos.line, f.label_pos.column) > (f.end.line, f.end.column)
        else:
            assert (f.label_pos.line, f.label_pos.column) < (f.start.line, f.start.column)


def test_page_break_inside_a_pattern_gives_one_pattern():
    text = source_text("KR1d0053_058_禮記注疏.txt")
    found = {(f.score.figure, f.score.state): f for f in extract(text).scores}
    xue = found[(1, "薛")]
    lines = text.split("\n")
    assert any("<pb:" in ln for ln in lines[xue.start.line - 1 : xue.end.line])
    assert xue.score.pattern.notation == XUE1


def test_notes_inside_patterns_are_dropped_even_with_strokes():
    name = "KR1d0068_072_欽定禮記義疏.txt"
    text = source_text(name)
    lu1 = next(f for f in extract(text).scores if (f.score.figure, f.score.state) == (1, "魯"))
    assert lu1.score.printed == LU1
    # The notes inside it hold strokes of their own (吳澄本作○).
    inside = "\n".join(text.split("\n")[lu1.start.line - 1 : lu1.end.line])
    assert "作○" in inside


def test_line_ranges_point_at_the_pattern_in_the_file():
    text = source_text("KR1d0071_026_禮記述註.txt")
    lines = text.split("\n")
    for f in extract(text).scores:
        assert lines[f.start.line - 1][f.start.column - 1] == f.score.printed[0]
        assert lines[f.end.line - 1][f.end.column - 1] == f.score.printed[-1]


def test_provenance_from_header():
    found = extract(source_text("KR1d0044_017_禮經本義.txt"), source_name="x.txt")
    prov = found.provenance
    assert (prov.kanripo, prov.lines) == ("KR1d0044", "141-155")
    assert prov.commit == "0bca58804f10195042fa47dfae612e930006f383"
    assert prov.licence.startswith("CC BY-SA")
    assert found.name == "禮經本義"


def test_kanripo_lines_map_file_lines():
    text = source_text("KR1d0053_058_禮記注疏.txt")
    found = extract(text)
    first = found.scores[0]
    # The body's first line (file line 5) is Kanripo line 437.
    assert first.lines[0] == 5
    assert found.kanripo_lines(first).startswith("437")


def test_pairing_comes_from_structure_not_edition():
    # Figures printed back to back without prose: P L P L | L P L P.
    text = "○□○半○□魯鼓□□○半○薛鼓魯鼓○○□半□○薛鼓□○半○○○"
    found = notation(extract(text))
    assert found == {
        (1, "魯"): "○□○半○□",
        (1, "薛"): "□□○半○",
        (2, "魯"): "○○□半□○",
        (2, "薛"): "□○半○○○",
    }


def test_spellings_and_lookalikes():
    text = "鼔〇囗〇半〇囗鲁鼔〇〇囗半囗辪皷 取半以下 鲁鼓〇囗半〇〇辥鼓囗囗〇半〇"
    found = notation(extract(text))
    assert found == {
        (1, "魯"): "○□○半○□",
        (1, "薛"): "○○□半□",
        (2, "魯"): "○□半○○",
        (2, "薛"): "□□○半○",
    }


def test_lone_heading_and_prose_labels_are_not_labels():
    text = "鼓○□○半○□魯鼓○○□半□薛鼓。故魯鼓薛鼓總以鼓名之也"
    found = extract(text)
    assert [(f.score.figure, f.score.state) for f in found.scores] == [(1, "魯"), (1, "薛")]


def test_lone_strokes_in_prose_are_not_scores():
    text = "釋文：『○，圜鼙。□，方鼓。』口徑二寸半。○□○半○□魯鼓□○○半○薛鼓"
    assert len(extract(text).scores) == 2


def test_half_after_a_line_break_inside_a_pattern():
    # Kanripo: the printed column ends after ○□○ and the pattern goes on with 半.
    for text in ("○□○¶\n半○□○魯鼓", "○□○\n半○□○魯鼓", "○□○¶\n<pb:KR_1-1a>¶\n半○□○魯鼓"):
        (found,) = extract(text, partial=True).scores
        assert (found.score.state, found.score.pattern.notation) == ("魯", "○□○半○□○")
        assert found.lines == (1, text.count("\n") + 1)


def test_line_range():
    assert [line_range(3, 5), line_range(3, 3)] == ["3-5", "3"]
    assert [line_range(3, 5, words=True), line_range(3, 3, words=True)] == ["lines 3-5", "line 3"]


def test_glyph_option_maps_extra_signs():
    glyph_map = parse_glyph_options(["●=○", "■=□"])
    found = extract("●■●半●■魯鼓■■●半●薛鼓", glyph_map=glyph_map)
    assert found.scores[0].score.pattern.notation == "○□○半○□"


# --- bad input ---


@pytest.mark.parametrize("name", ["KR1d0052_041_禮記(TLS).txt", "KR1d0034_001_儀禮逸經.txt"])
def test_a_transcription_that_lost_the_shapes_says_what_is_there_and_what_is_missing(name):
    with pytest.raises(ExtractError) as info:
        extract(source_text(name), source_name=name)
    message = str(info.value)
    assert "no drum notation found" in message
    assert "4 labels" in message and "4 半 marks standing apart from the prose" in message
    assert "shapes were lost in the transcription" in message


def test_a_layout_half_is_located_and_a_prose_half_is_not_counted():
    with pytest.raises(ExtractError) as info:
        extract("鼓　　半　　魯鼓\n　　半　　薛鼓取半以下為投壺禮")
    assert "2 labels" in str(info.value) and "2 半 marks" in str(info.value)
    assert "line 1, column 4" in str(info.value)


def test_a_text_that_only_names_the_scores_is_not_said_to_have_lost_shapes():
    with pytest.raises(ExtractError) as info:
        extract("取半以下為投壺禮，故魯鼓薛鼓總以鼓名之")
    assert "discusses the drum figures" in str(info.value)
    assert "lost" not in str(info.value)


def test_unknown_glyph_names_it_with_line_and_column():
    text = source_text("KR1d0053_058_禮記注疏.txt")
    lines = text.split("\n")
    lines[5] = lines[5].replace("○", "◇", 1)
    column = lines[5].index("◇") + 1
    with pytest.raises(NotationError) as info:
        extract("\n".join(lines))
    err = info.value
    assert (err.line, err.column) == (6, column)
    assert "◇" in str(err)
    assert "◇=○" in str(err) and err.option == "glyph"


def test_unknown_glyph_after_a_pattern():
    with pytest.raises(NotationError, match="U\\+25CF"):
        extract("○□○半○□●魯鼓")


@pytest.mark.parametrize("spec", ["●", "●=x", "●●=○", "=○", "●=鼓"])
def test_bad_glyph_options(spec):
    with pytest.raises(OptionError, match=re.escape(repr(spec))):
        parse_glyph_options([spec])


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("○=□", "notation already"),
        ("〇=□", "notation already"),
        ("口=○", "can only be read as □"),
        ("半=○", "notation already"),
        ("鼓=○", "labels 魯鼓 and 薛鼓"),
        ("鲁=□", "labels 魯鼓 and 薛鼓"),
        ("辪=□", "labels 魯鼓 and 薛鼓"),
        ("皷=○", "labels 魯鼓 and 薛鼓"),
        ("(=○", "markup"),
        ("）=○", "markup"),
        ("【=□", "markup"),
        ("¶=○", "markup"),
        ("<=○", "markup"),
        (">=□", "markup"),
        (" =○", "a space"),
        ("\u3000=○", "a space"),
        ("◇=半", "only be read as ○ (鼙) or □ (鼓), not as '半'"),
        ("●=〇", "only be read as ○ (鼙) or □ (鼓), not as '〇'"),
        ("●=口", "only be read as ○ (鼙) or □ (鼓)"),
    ],
)
def test_glyph_options_that_would_change_the_notation(spec, reason):
    with pytest.raises(OptionError) as info:
        parse_glyph_options(["●=○", spec])
    assert repr(spec) in str(info.value) and reason in str(info.value)


def test_glyph_given_two_meanings():
    with pytest.raises(OptionError, match="glyph 'X=○' and 'X=□' read 'X' two ways"):
        parse_glyph_options(["X=○", "Y=□", "X=□"])
    assert parse_glyph_options(["X=○", "X=○"]) == {"X": "○"}


@pytest.mark.parametrize(
    ("text", "line", "column", "hint"),
    [
        ("魯鼓半○□○○□○□○", 1, 3, "move 半"),
        ("○□○○□○□○半魯鼓", 1, 9, "move 半"),
        ("○□○○□○□○ 半\n魯鼓", 1, 10, "move 半"),
        ("甲乙\n○□○\n\n半○□○薛鼓", 4, 1, "blank line"),
        ("魯鼓\n\n半○□○○□○□○", 3, 1, "move 半"),
        ("○□○¶\n半○□○¶\n\n半○○□", 4, 1, "blank line"),
    ],
)
def test_half_at_the_edge_of_a_run_is_refused(text, line, column, hint):
    with pytest.raises(NotationError) as info:
        extract(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert text.split("\n")[line - 1][column - 1] == "半"
    assert "半 must stand between strokes" in str(err) and hint in err.hint


def test_two_patterns_for_one_drum_and_figure():
    with pytest.raises(ExtractError, match=r"two patterns .*\(line 1 and lines 2-3\)"):
        extract("○□○半○魯鼓。\n○□○\n半○魯鼓")


def test_two_half_marks_located_in_the_file():
    text = "甲乙\n○□半○\n半□魯鼓\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    assert (info.value.line, info.value.column) == (3, 1)
    assert "line 2, column 3" in str(info.value)


# Kanripo markup around look-alike squares, as transcriptions give it: a run may hold 口 and 囗, a
# page break, a ? for an unreadable character, sentence ends and labels anywhere.
_MARKUP_PIECES = [
    "○", "□", "口", "囗", "?", "<pb:KR1d0053_WYG_058-1a>", "¶\n", "\n", "\n\n", "半",
    "魯鼓", "薛鼓", "鼓", "。", "，", "甲", "(注/文)", "　",
    # and what web copies add: footnote marks, zero-width and other invisible characters, glosses
    "[1]", "①", "¹", "※", "\u200b", "\ufeff", "\u202e", "○圜音圓", "口。",
]  # fmt: skip


def _any_markup(examples: int):
    """The property below drawn `examples` times: any passage of markup pieces, whole or partial."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        pieces=st.lists(st.sampled_from(_MARKUP_PIECES), min_size=1, max_size=40),
        partial=st.booleans(),
    )
    def test(pieces, partial):
        """Any such passage is read, or refused with a DrumscoreError: never a crash."""
        text = "".join(pieces)
        try:
            found = extract(text, partial=partial)
        except DrumscoreError:
            return
        for f in found.scores:
            assert set(f.score.pattern.notation) <= set("○□半")

    return test


# README's command draws 100 passages, the slow run (-m slow) 300 of its own.
test_markup_around_lookalike_squares_reads_or_refuses = _any_markup(100)
test_markup_around_lookalike_squares_reads_or_refuses_at_length = pytest.mark.slow(_any_markup(300))


def test_sentence_end_after_prose_strokes_before_a_pattern():
    """口。 before a pattern is prose and a stop, not a divider of the pattern after it."""
    found = extract("口。○□○○半○□○魯鼓○□○○半○□○薛鼓")
    assert [f.score.pattern.notation for f in found.scores] == ["○□○○半○□○", "○□○○半○□○"]


# --- in the readers' languages -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh_TW.UTF-8", ["找不到鼓譜", "錄文遺失了這些圖形", "第 5 行第 9 欄", "4 個標目"]),
        ("zh_CN.UTF-8", ["找不到鼓谱", "录文丢失了这些图形", "第 5 行第 9 列", "4 个标目"]),
    ],
)
def test_a_transcription_that_lost_the_shapes_is_refused_in_chinese(cli, monkeypatch, lang, words):
    monkeypatch.setenv("LANG", lang)
    code, out, err = cli("extract", "tests/sources/KR1d0052_041_禮記(TLS).txt")
    assert code == 2 and out == ""
    assert "Traceback" not in err and "no drum notation" not in err
    for word in words:
        assert word in err, (word, err)
    # the source's labels are quoted as printed, in traditional characters in both
    assert "魯鼓" in err and "「半」" in err


@pytest.mark.parametrize(
    ("lang", "error", "hint"),
    [
        (
            "zh_TW.UTF-8",
            "鼓譜旁有不明符號「●」",
            "提示：若它是一擊，請把這個符號對應到擊：●=○（鼙）",
        ),
        (
            "zh_CN.UTF-8",
            "鼓谱旁有不明符号「●」",
            "提示：若它是一击，请把这个符号映射到击：●=○（鼙）",
        ),
    ],
)
def test_an_unknown_glyph_is_refused_in_chinese_with_its_hint(
    cli, monkeypatch, tmp_path, lang, error, hint
):
    path = tmp_path / "glyph.txt"
    path.write_text("魯鼓○□○●○半○□○\n薛鼓○□○半○□\n", encoding="utf-8")
    monkeypatch.setenv("LANG", lang)
    code, _, err = cli("extract", path)
    assert code == 2
    assert error in err and hint in err


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh_TW.UTF-8", "--glyph「ab」不是 X=○ 或 X=□ 的形式（一個字元"),
        ("zh_CN.UTF-8", "--glyph「ab」不是 X=○ 或 X=□ 的形式（一个字符"),
    ],
)
def test_a_parameter_error_in_chinese_still_starts_with_the_flag(
    cli, monkeypatch, tmp_path, lang, expected
):
    path = tmp_path / "p.txt"
    path.write_text("魯鼓○□○○半○□○\n薛鼓○□○半○□○\n", encoding="utf-8")
    monkeypatch.setenv("LANG", lang)
    code, _, err = cli("extract", path, "--glyph", "ab")
    assert code == 2
    assert expected in err


def test_doubts_remarks_and_what_was_read_through_speak_the_language():
    """A partial reading in 繁體中文: the doubt, the summary of line breaks and notes; the kinds
    in the data stay English."""
    with i18n.speaking("zh_Hant"):
        found = extract("○□○○\n半○□○（注）○魯鼓", partial=True)
        (f,) = found.scores
        summary = f.joined_summary()
        doubts = f.doubts
    assert summary == "1 處換行、1 則注"
    assert [j.kind for j in f.joined] == ["line break"]
    assert len(doubts) == 1 and doubts[0].startswith("第 1 圖只有一個鼓譜（在第 1～2 行）")
    with i18n.speaking("zh_Hans"):
        assert line_range(3, 5, words=True) == "第 3～5 行"
        assert line_range(3, 5) == "3-5"  # the data edition files hold
