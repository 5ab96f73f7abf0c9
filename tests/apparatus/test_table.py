"""The apparatus as data (JSON-ready dictionaries and CSV): keys, headers, numbers and ids are
the same in every language; the sentences in it speak the reader's language."""

from __future__ import annotations

from drumscore import i18n
from drumscore.apparatus.gather import collate
from drumscore.apparatus.table import apparatus_data, csv_text

#: The fields of the apparatus data that are sentences for the reader, in the reader's language.
SENTENCES = (
    *("text", "label", "description", "differences", "disagreements", "agreements"),
    *("section_shown", "citation", "cited", "base_cited", "date_shown"),
)


def _shape(value: object) -> object:
    """The data with every sentence left out: keys, numbers, kinds and ids kept."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k not in SENTENCES}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value


def test_json_and_csv_keep_their_shape_and_speak_the_reader_s_language():
    (lu2,) = collate(scores=[(2, "魯")])
    with i18n.speaking("en"):
        english = (apparatus_data(lu2), csv_text([lu2]))
    for language, words in (("zh_Hant", "刊本異文"), ("zh_Hans", "刊本异文")):
        with i18n.speaking(language):
            data, table = apparatus_data(lu2), csv_text([lu2])
        assert words in data["summary"]["text"]
        assert _shape(data) == _shape(english[0])
        assert data["summary"]["places"] == english[0]["summary"]["places"]
        assert len(data["places"]) == len(english[0]["places"])
        assert [w["siglum"] for w in data["witnesses"]] == [
            w["siglum"] for w in english[0]["witnesses"]
        ]
        first, english_first = table.splitlines()[0], english[1].splitlines()[0]
        assert first.split(",")[:3] == english_first.split(",")[:3]  # the headers are fixed
        # the columns are named as the places are, in the reader's language
        assert first.split(",")[3:] == [c["label"] for c in data["columns"]]
        assert "第 21 擊後" in first.split(",") or "第 21 击后" in first.split(",")
        assert len(table.splitlines()) == len(english[1].splitlines())
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
    with i18n.speaking("zh_Hans"):
        data = apparatus_data(lu2)
    n = len(lu2.parting)
    assert data["summary"]["text"] == f"刊本异文 {n} 处；注文所载异文 1 处"
    added = next(p for p in data["places"] if p["label"] == "第 21 击后")
    assert added["variants"][0]["description"] == "末多 □○"
    assert i18n.language() == "en"  # the reader's language is left as it was
