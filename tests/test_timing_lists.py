"""The one grammar of a list in one parameter's text (drumscore.timing.split_list): what it
takes, and each bad input refused in the one shape, with the parameter and the place of the bad
item; and every option that takes a list reads it by this grammar."""

from __future__ import annotations

import re

import pytest
from cli_run import expect_error

from drumscore.conductor.expression import Expression
from drumscore.conductor.track import Ramp
from drumscore.errors import ListError, OptionError
from drumscore.model import Section
from drumscore.render.midimap import MidiMap
from drumscore.timing import split_list

#: The one shape of every refusal: PARAMETER 'TEXT': what is wrong; write FORM, such as EXAMPLE.
SHAPE = re.compile(
    r"(?P<parameter>\w+) '(?P<text>[^']*)': (?P<problem>.+); "
    r"write (?P<form>\S+), such as (?P<example>\S+)"
)


def pair(text: str) -> tuple[str, ...]:
    return split_list(text, parameter="velocity", form="PI,GU", example="72,112", counts=(2,))


def sections(text: str) -> tuple[str, ...]:
    return split_list(
        text,
        parameter="section",
        form="NAME[,NAME...]",
        example="touhu,she",
        unique=lambda name: Section.parse(name).value,
    )


def refusal(read, text: str) -> ListError:
    with pytest.raises(ListError) as info:
        read(text)
    match = SHAPE.fullmatch(str(info.value))
    assert match, str(info.value)
    assert match["parameter"] == info.value.option
    assert match["text"] == (text if len(text) <= 80 else text[:80] + "…")  # a long one cut
    return info.value


def test_items_are_read_between_separators_spaces_around_them_left_out():
    assert pair("72,112") == ("72", "112")
    assert pair(" 72 ,\t112 ") == ("72", "112")
    assert sections("touhu,she,head") == ("touhu", "she", "head")
    assert split_list("40 : 60:5", parameter="ramp", form="A:B:C", example="40:60:5", sep=":") == (
        "40",
        "60",
        "5",
    )


@pytest.mark.parametrize(
    ("text", "item", "column"),
    [
        (",112", 1, 1),  # a leading separator
        ("72,", 2, 4),  # a trailing one
        ("72,,112", 2, 4),
        ("72, ,112", 2, 5),  # spaces only are empty too
        ("", 1, 1),
    ],
)
def test_an_empty_item_is_refused_at_its_place(text, item, column):
    error = refusal(pair, text)
    assert (error.item, error.column) == (item, column)
    assert "empty" in str(error) or "nothing" in str(error)


@pytest.mark.parametrize(
    ("text", "n", "item", "column"), [("72", 1, None, None), ("1,2,3", 3, 3, 5)]
)
def test_too_few_or_too_many_items_say_how_many_it_takes(text, n, item, column):
    error = refusal(pair, text)
    assert f"{n} item" in str(error) and "where it takes 2" in str(error)
    assert (error.item, error.column) == (item, column)


def test_an_item_given_twice_is_refused_where_order_would_not_matter():
    error = refusal(sections, "touhu, she,touhu")
    assert (error.item, error.column) == (3, 12)
    assert "'touhu', repeats item 1" in str(error)
    # the same section in another spelling is the same item
    error = refusal(sections, "she,射")
    assert (error.item, error.column) == (2, 5)
    # two equal numbers are two drums' values, not a repetition
    assert pair("100,100") == ("100", "100")


def test_a_list_too_long_is_refused_unread():
    error = refusal(pair, "1" * 200 + ",2")
    assert "202 characters" in str(error) and error.item is None


def test_the_key_is_carried_by_every_refusal():
    read = lambda t: split_list(  # noqa: E731
        t, parameter="ramp", form="A:B:C", example="40:60:5", sep=":", counts=(3, 4), key="k"
    )
    for text in ("40:60", "40::5", "40:60:5:", ":"):
        with pytest.raises(ListError) as info:
            read(text)
        assert info.value.key == "k", text


# --- every option that takes a list reads it by the one grammar ---------------------------------


@pytest.mark.parametrize(
    ("read", "parameter"),
    [
        (lambda t: Expression.from_options(t, None, None), "velocity"),
        (MidiMap.from_option, "midi_notes"),
        (lambda t: MidiMap.from_option(t, option="midi_in_notes"), "midi_in_notes"),
        (Ramp.parse, "ramp"),
    ],
)
@pytest.mark.parametrize("text", ["40,", ",40", "40,,60", "40:", ":40", "40::60"])
def test_the_library_options_refuse_an_empty_item_in_the_one_shape(read, parameter, text):
    sep = ":" if parameter == "ramp" else ","
    if sep not in text:
        return
    with pytest.raises(ListError) as info:
        read(text)
    assert info.value.option == parameter
    assert SHAPE.fullmatch(str(info.value))
    assert "empty" in str(info.value)


@pytest.mark.parametrize(
    ("argv", "flag", "text"),
    [
        (["render", "lu", "--section", "touhu,", "-o", "{section}.mid"], "--section", "touhu,"),
        (["render", "lu", "--velocity", "72, ,112", "-o", "x.wav"], "--velocity", "72, ,112"),
        (["render", "lu", "--midi-notes", ",36", "-o", "x.mid"], "--midi-notes", ",36"),
        (["render", "lu", "--ramp", "40:60:", "-o", "x.mid"], "--ramp", "40:60:"),
        (
            ["compare", "lu", "xue", "--audio", "x.wav", "--reading", "zheng,"],
            "--reading",
            "zheng,",
        ),
        (["check", "take.mid", "lu", "--midi-notes", "38,,36"], "--midi-notes", "38,,36"),
    ],
)
def test_every_list_option_refuses_an_empty_item_with_its_flag(
    tmp_path, capsys, monkeypatch, argv, flag, text
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "take.mid").write_bytes(b"")
    err = expect_error(argv, capsys)
    assert err.startswith(f"drumscore: error: {flag} {text!r}: item "), err
    assert "is empty; write " in err
    assert not [p for p in tmp_path.iterdir() if p.name != "take.mid"]


def test_compare_takes_one_or_two_readings():
    from drumscore.cli.commands.compare import _readings

    a, b = _readings("zheng, mao")
    assert (a.id, b.id) == ("zheng", "mao")
    with pytest.raises(OptionError, match="3 items where it takes 1 or 2"):
        _readings("zheng,mao,zheng")
