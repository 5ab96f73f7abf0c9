"""i18n's units: a time, an offset, a tempo and a rate written as each language writes them."""

from __future__ import annotations

import pytest

from drumscore import i18n


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ("4.85 s", "0.4 ms", "60/min", "−0.01/min", "44100 Hz")),
        ("zh-Hant", ("4.85 秒", "0.4 毫秒", "每分鐘 60 擊", "−0.01 擊／分鐘", "44100 Hz")),
        ("zh-Hans", ("4.85 秒", "0.4 毫秒", "每分钟 60 击", "−0.01 击／分钟", "44100 Hz")),
    ],
)
def test_each_unit_in_each_language(language, said):
    with i18n.speaking(language):
        shown = (
            i18n.seconds("4.85"),
            i18n.milliseconds("0.4"),
            i18n.per_minute("60"),
            i18n.rate("−0.01"),
            i18n.hertz("44100"),
        )
    assert shown == said


def test_a_range_takes_its_unit_once():
    with i18n.speaking("zh-Hant"):
        assert i18n.rate("60.00 → 61.00") == "60.00 → 61.00 擊／分鐘"
        assert i18n.seconds("0.9999 → 1.0000") == "0.9999 → 1.0000 秒"
