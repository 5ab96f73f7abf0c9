"""play/choose.py: a device or port chosen by (part of) its name, or an error that lists them."""

from __future__ import annotations

import pytest

from drumscore import i18n
from drumscore.errors import OptionError
from drumscore.play.choose import choose_by_name

NAMES = ["HDA Intel PCH: ALC3246 Analog", "USB Audio: Headset", "pulse", "default"]


def test_an_exact_name_wins_over_names_that_contain_it():
    assert choose_by_name("default", NAMES, what="audio output device", option="device") == 3


def test_part_of_a_name_ignoring_case():
    assert choose_by_name("headset", NAMES, what="audio output device", option="device") == 1


# --- bad input --------------------------------------------------------------------------------


def test_a_name_that_matches_several_is_refused_with_the_matches():
    with pytest.raises(OptionError, match="matches several: 'pulse', 'default';"):
        choose_by_name("ul", NAMES, what="audio output device", option="device")


def test_no_match_lists_every_name_in_simplified_chinese():
    with i18n.speaking("zh-Hans"), pytest.raises(OptionError) as caught:
        choose_by_name("hdmi", NAMES, what="音频输出设备", option="device")
    message = str(caught.value)
    assert message.startswith(
        "device「hdmi」：没有这个名称的音频输出设备；请从「"
    )  # the flag first
    assert all(f"「{name}」" in message for name in NAMES)
    assert caught.value.option == "device"
