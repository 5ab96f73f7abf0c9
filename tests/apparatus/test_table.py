"""The apparatus as data (JSON-ready dictionaries and CSV): its words stay English whatever the
reader speaks, while the same apparatus shown to the reader speaks the reader's language."""

from __future__ import annotations

from drumscore import i18n
from drumscore.apparatus.align import collate
from drumscore.apparatus.table import apparatus_data, csv_text


def test_json_and_csv_stay_english_when_the_reader_speaks_chinese():
    (lu2,) = collate(scores=[(2, "魯")])
    with i18n.speaking("en"):
        english = (apparatus_data(lu2), csv_text([lu2]))
    for language in ("zh_Hant", "zh_Hans"):
        with i18n.speaking(language):
            assert "刊本相" in lu2.summary  # shown to the reader: Chinese
            assert (apparatus_data(lu2), csv_text([lu2])) == english
    data, table = english
    n = len(lu2.parting)
    assert data["summary"] == {
        "places": n,
        "reported": 1,
        "text": f"{n} places where the printed editions part; 1 reading reported by notes",
    }
    added = next(p for p in data["places"] if p["label"] == "after 21")
    assert added["variants"][0]["description"] == "adds □○"
    assert "reported in yishu" in table


def test_a_page_in_another_language_asks_for_its_words():
    (lu2,) = collate(scores=[(2, "魯")])
    data = apparatus_data(lu2, language="zh_Hans")
    n = len(lu2.parting)
    assert data["summary"]["text"] == f"{n} 处刊本相异；1 条异文出自注文"
    added = next(p for p in data["places"] if p["label"] == "第 21 击之后")
    assert added["variants"][0]["description"] == "多出 □○"
    assert i18n.language() == "en"  # the reader's language is left as it was
