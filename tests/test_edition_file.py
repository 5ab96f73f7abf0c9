import tomllib

import pytest
from sourcefiles import source_text

from drumscore.corpus import edition_from_dict
from drumscore.edition_file import edition_toml
from drumscore.errors import ExtractError, OptionError
from drumscore.extract import extract


def test_written_file_round_trips_with_provenance():
    found = extract(source_text("KR1d0086_014_禮書綱目.txt"), source_name="gangmu.txt")
    data = tomllib.loads(edition_toml(found, "test-gangmu", aliases=("江永",)))
    edition = edition_from_dict(data)
    assert edition.id == "test-gangmu" and edition.aliases == ("江永",)
    assert edition.provenance.kanripo == "KR1d0086"
    assert edition.provenance.lines == "65-74"
    for f in found.scores:
        assert edition.score(f.score.state, f.score.figure).printed == f.score.printed
    lines = {(e["figure"], e["state"]): e["kanripo_lines"] for e in data["score"]}
    assert all(65 <= int(x) <= 74 for v in lines.values() for x in v.split("-"))


# --- bad input ---


def test_bad_id():
    found = extract("○□○半○魯鼓")
    with pytest.raises(OptionError, match="'Bad Id'"):
        edition_toml(found, "Bad Id")


def test_unlabelled_pattern_cannot_be_written():
    found = extract("鼓○□○半○。")
    assert found.scores[0].score.state == ""
    with pytest.raises(ExtractError, match="no 魯鼓/薛鼓 label"):
        edition_toml(found, "x")
