"""Output formats by extension, sample rates and audio subtypes."""

import pytest

from drumscore import OptionError
from drumscore.files.format_choice import DEFAULT_RATE, audio_format, check_rate, choose


@pytest.mark.parametrize(
    ("path", "kind"),
    [("a.WAV", "audio"), ("a.flac", "audio"), ("b.mid", "midi"), ("c.mxl", "notation")],
)
def test_the_kind_follows_the_extension(path, kind):
    assert choose("score", path, "output")[0] == kind


def test_the_rate_defaults_and_passes_when_in_range():
    assert check_rate(None) == DEFAULT_RATE and check_rate(48000) == 48000


def test_the_subtype_defaults_per_format():
    assert audio_format("x.wav") == ("WAV", "PCM_16")
    assert audio_format("x.ogg")[1] == "VORBIS"


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["out", "out.mp3", "out.wav.bak"])
def test_an_unknown_extension_names_the_known_ones(path):
    with pytest.raises(OptionError, match=r"\.wav"):
        choose("score", path, "output")


@pytest.mark.parametrize("rate", [0, 7999, 10**7, True, 44100.0])
def test_a_rate_out_of_range_names_the_parameter(rate):
    with pytest.raises(OptionError) as info:
        check_rate(rate)
    assert info.value.option == "rate" and str(info.value).startswith("rate ")


def test_a_subtype_the_format_cannot_hold_lists_the_ones_it_can():
    with pytest.raises(OptionError) as info:
        audio_format("x.flac", "FLOAT")
    assert info.value.option == "subtype" and "PCM_24" in str(info.value)
