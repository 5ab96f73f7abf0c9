"""Two shapes of label: a heading line that holds only the two labels above a figure (魯鼓　　薛鼓),
and labels in book-title brackets as OCR'd and modern pages print them (《薛》鼓, 《薛鼓》). Each
reads to the same edition as the plain shape; near-misses are refused at their place. Every passage
here is written for the test."""

import tomllib

import pytest
from cli_run import expect_error

from drumscore.corpus import edition_from_dict
from drumscore.editions.extract import extract
from drumscore.editions.write import edition_toml
from drumscore.errors import NotationError

LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"

#: Both figures as the 注疏 prints them: the first with its labels after the patterns, the second
#: with them before.
PLAIN = f"鼓{LU1}魯鼓{XUE1}薛鼓取半以下為投壺禮\n魯鼓{LU2}薛鼓{XUE2}\n"


def read_as_edition(text):
    """What an edition file written from the passage holds: each score's figure, state, printed
    signs and notation."""
    found = extract(text, source_name="passage.txt")
    edition = edition_from_dict(tomllib.loads(edition_toml(found, "test-shape", name="某書")))
    return sorted((s.figure, str(s.state), s.printed, s.pattern.notation) for s in edition.scores)


HEADED = {
    # each figure under a heading line, each pattern on its own line; 鼓 heads the first
    "line by line": f"鼓\n魯鼓　　薛鼓\n{LU1}\n{XUE1}\n\n魯鼓　　薛鼓\n{LU2}\n{XUE2}\n",
    # the heading spaced with half-width spaces and a tab, a blank line under it, the patterns
    # wrapped before the first 半 and after the second, each ending with a full stop
    "spaced and wrapped": (
        f"鼓\n魯鼓 薛鼓\n\n{LU1[:4]}\n{LU1[4:]}。\n{XUE1}。\n\n"
        f"魯鼓\t薛鼓\n{LU2}\n{XUE2[:-5]}\n{XUE2[-5:]}\n"
    ),
    # the first figure plain, the second under a heading line: the second by its place
    "after a plain figure": f"鼓{LU1}魯鼓{XUE1}薛鼓\n　　魯鼓　　薛鼓¶\n{LU2}¶\n{XUE2}¶\n",
    # a heading line straight above a figure that prints its own labels too (today refused as
    # "two printings"), with Kanripo's indentation and ¶
    "above a labelled figure": (
        f"　　魯鼓　　薛鼓¶\n　　{LU1}魯鼓{XUE1}薛鼓¶\n魯鼓{LU2}薛鼓{XUE2}¶\n"
    ),
    # the same with a blank line between heading and figure
    "above a labelled figure, apart": f"魯鼓　　薛鼓\n\n{LU1}魯鼓{XUE1}薛鼓\n魯鼓{LU2}薛鼓{XUE2}\n",
}

BRACKETED = {
    "state in 《》": f"鼓{LU1}《魯》鼓{XUE1}《薛》鼓\n《魯》鼓{LU2}《薛》鼓{XUE2}\n",
    "label in 《》": f"鼓{LU1}《魯鼓》{XUE1}《薛鼓》\n《魯鼓》{LU2}《薛鼓》{XUE2}\n",
    "state in 〈〉": f"鼓{LU1}〈魯〉鼓{XUE1}〈薛〉鼓，\n〈魯〉鼓：{LU2}〈薛〉鼓：{XUE2}\n",
    "vertical forms, simplified": f"鼓{LU1}︽鲁︾鼓{XUE1}︿薛﹀鼓\n︽鲁鼓︾{LU2}︽薛鼓︾{XUE2}\n",
    "under a heading": (
        f"鼓\n《魯》鼓　　《薛》鼓\n{LU1}\n{XUE1}\n\n《魯鼓》　\u2329薛\u232a鼓\n{LU2}\n{XUE2}\n"
    ),
}


@pytest.mark.parametrize("text", [*HEADED.values(), *BRACKETED.values()], ids=[*HEADED, *BRACKETED])
def test_each_shape_reads_to_the_same_edition_as_the_plain_passage(text):
    plain = read_as_edition(PLAIN)
    assert [(f, s) for f, s, _p, _n in plain] == [(1, "薛"), (1, "魯"), (2, "薛"), (2, "魯")]
    assert read_as_edition(text) == plain


def test_the_patterns_under_a_heading_take_its_labels_in_order():
    found = extract(HEADED["line by line"])
    assert [(f.score.figure, f.label, f.label_side) for f in found.scores] == [
        (1, "魯鼓", "above"),
        (1, "薛鼓", "above"),
        (2, "魯鼓", "above"),
        (2, "薛鼓", "above"),
    ]
    assert [f.label_pos.line for f in found.scores] == [2, 2, 6, 6]
    assert [f.lines for f in found.scores] == [(3, 3), (4, 4), (7, 7), (8, 8)]


def test_a_bracketed_label_is_quoted_as_printed():
    found = extract(BRACKETED["state in 《》"])
    assert [f.label for f in found.scores] == ["《魯》鼓", "《薛》鼓", "《魯》鼓", "《薛》鼓"]
    assert [f.label_side for f in found.scores] == ["follows", "follows", "precedes", "precedes"]


def test_a_lone_headed_figure_takes_its_figure_from_its_notation_and_says_so():
    found = extract(f"魯鼓　　薛鼓\n{LU2}\n{XUE2}\n")
    assert [(f.score.figure, str(f.score.state)) for f in found.scores] == [(2, "魯"), (2, "薛")]
    assert all("figure 2 read from the notation" in r for f in found.scores for r in f.remarks)


def test_a_lone_headed_figure_no_edition_prints_is_refused():
    text = "魯鼓　　薛鼓\n○□○半○□○\n□○□半○○□\n"
    with pytest.raises(NotationError) as info:
        extract(text)
    assert "the figure under the heading line (line 1) is not told" in str(info.value)
    assert [f.score.figure for f in extract(text, partial=True).scores] == [None, None]


NEAR_MISSES = [
    # the heading names the drums in one order, the labels beside the patterns in the other
    (
        f"魯鼓　　薛鼓\n{LU1}薛鼓{XUE1}魯鼓\n",
        (1, 1),
        "the heading line names 魯鼓, 薛鼓, but the figure below it labels its patterns 薛鼓, 魯鼓",
    ),
    (f"魯鼓　　魯鼓\n{LU2}\n{XUE2}\n", (1, 5), "the heading line names '魯鼓' twice"),
    (f"魯鼓　　薛鼓\n{LU2}\n\n", (1, 1), "names two patterns, but 1 stands below it"),
    # the first pattern wraps after its 半, so the line break between them is not told
    (
        f"魯鼓　　薛鼓\n{LU2[:12]}\n{LU2[12:]}\n{XUE2}\n",
        (4, 22),
        "2 line breaks stand between their 半 marks",
    ),
    (
        f"鼓{LU1}《魯》鼓{XUE1}《薛鼓\n",
        (1, 59),
        "the bracket '《' of the label '《薛鼓' is not matched",
    ),
    (f"鼓{LU1}魯》鼓{XUE1}薛鼓\n", (1, 27), "the bracket '》' of the label '魯》鼓' is not"),
    (f"魯鼓{LU2}〈薛》鼓{XUE2}\n", (1, 25), "the bracket '〈' of the label '〈薛》鼓' is not"),
]


@pytest.mark.parametrize(("text", "where", "message"), NEAR_MISSES)
def test_a_near_miss_is_refused_at_its_place(text, where, message):
    with pytest.raises(NotationError) as info:
        extract(text)
    assert (info.value.line, info.value.column) == where
    assert message in str(info.value)


@pytest.mark.parametrize(("text", "where", "message"), NEAR_MISSES[::3])
def test_a_near_miss_exits_2_with_one_line_naming_its_place(tmp_path, capsys, text, where, message):
    path = tmp_path / "passage.txt"
    path.write_text(text, encoding="utf-8")
    err = expect_error(["extract", str(path)], capsys)
    assert f"line {where[0]}, column {where[1]}" in err and message in err


def test_a_book_title_in_the_prose_is_not_a_label():
    text = f"見《魯頌》與《薛鼓譜》，\n鼓{LU1}魯鼓{XUE1}薛鼓\n"
    assert [f.label for f in extract(text).scores] == ["魯鼓", "薛鼓"]


def test_a_miscopied_label_in_brackets_is_read_by_position_or_by_the_label_option():
    text = f"鼓{LU1}《魯》鼓{XUE1}《薜》鼓\n"
    (_lu, xue) = extract(text).scores
    assert (str(xue.score.state), xue.label) == ("薛", "《薜》鼓")
    assert any("read as 薛 by position" in r for r in xue.remarks)
    (_lu, xue) = extract(text, labels={"薜": "薛"}).scores
    assert str(xue.score.state) == "薛" and not xue.remarks


@pytest.mark.parametrize("text", [HEADED["line by line"], f"《魯》鼓　　《薛》鼓\n{LU2}\n{XUE2}\n"])
def test_neither_the_heading_drum_nor_a_heading_line_is_taken_for_the_passage_s_title(text):
    assert extract(text, source_name="passage.txt").name == "passage.txt"
    assert extract(f"禮記訓纂\n{text}", source_name="passage.txt").name == "禮記訓纂"
