import tomllib

import pytest
from sourcefiles import source_text

from drumscore.corpus import edition_from_dict, load_edition
from drumscore.editions.extract import extract
from drumscore.editions.write import edition_toml, kept_from
from drumscore.errors import CorpusError, ExtractError, OptionError


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


AWKWARD = [
    "a\nb",
    "a\r\nb",
    'say "hi"',
    "back\\slash",
    "tab\there",
    "del\x7fx",
    "ls\u2028x",
    "\x00",
]


@pytest.mark.parametrize("text", AWKWARD, ids=repr)
def test_every_written_file_loads(tmp_path, text):
    found = extract("○□○半○魯鼓○□□半○薛鼓", source_name=f"pass{text}age.txt")
    path = tmp_path / "awkward.toml"
    path.write_text(
        edition_toml(found, "awkward", name=text, aliases=(text,), note=text), encoding="utf-8"
    )
    edition = load_edition(path)
    assert (edition.name, edition.aliases, str(edition.note)) == (text, (text,), text)
    assert edition.provenance.file == f"pass{text}age.txt"
    assert path.read_text(encoding="utf-8").splitlines()[1] == 'id = "awkward"'


def test_counts_are_written_and_kept(tmp_path):
    count = {"by": "某", "figure": 1, "state": "魯", "section": "she", "pi": 3, "gu": 1}
    found = extract("○□○半○○魯鼓□□○半○薛鼓")
    path = tmp_path / "c.toml"
    path.write_text(
        edition_toml(found, "c", aliases=("丙",), note="n", counts=[count]), encoding="utf-8"
    )
    assert load_edition(path).counts[0].pi == 3
    kept = kept_from(path)
    assert (kept.id, kept.aliases, str(kept.note), kept.counts) == ("c", ("丙",), "n", (count,))


# --- bad input ---


@pytest.mark.parametrize("content", ["[tool]\nx = 1\n", "not = [toml", b"\xff\xfe"], ids=repr)
def test_only_an_edition_file_is_kept_from(tmp_path, content):
    path = tmp_path / "other.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(CorpusError, match="cannot be read as an edition file"):
        kept_from(path)


def test_bad_id():
    found = extract("○□○半○魯鼓○□□半○薛鼓")
    with pytest.raises(OptionError, match="'Bad Id'"):
        edition_toml(found, "Bad Id")


def test_unlabelled_pattern_cannot_be_written():
    found = extract("鼓○□○半○。", partial=True)
    assert found.scores[0].score.state == "" and found.scores[0].doubtful
    with pytest.raises(ExtractError, match="the pattern on line 1 has no 魯鼓/薛鼓 label"):
        edition_toml(found, "x")
    found = extract("鼓○□○\n半○。", partial=True)
    with pytest.raises(ExtractError, match="the pattern on lines 1-2 has no"):
        edition_toml(found, "x")
