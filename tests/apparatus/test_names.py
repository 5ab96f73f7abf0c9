"""One source under two scripts: 吳澄本 and 吴澄本, 大戴禮 and 大戴礼 are one reported witness."""

import json
import re
from pathlib import Path

import pytest

from drumscore import corpus
from drumscore.apparatus import names

YISHU = Path(corpus.__file__).parent / "scores" / "yishu.toml"


@pytest.fixture
def simplified_copy() -> Path:
    """欽定禮記義疏 as a user's edition in simplified script, its notes written 吴澄本, 大戴礼."""
    text = YISHU.read_text(encoding="utf-8")
    text = text.replace('id = "yishu"', 'id = "yishu-jian"').replace("欽定禮記義疏", "钦定礼记义疏")
    text = text.replace("吳澄本", "吴澄本")
    text = text.replace("大戴禮下尚有一□一○朱子從之", "大戴礼下尚有一□一○朱子从之")
    text = re.sub(r'script = "traditional"', 'script = "simplified"', text)
    assert "吴澄本作○" in text and "大戴礼下" in text
    path = corpus.add_folder() / "yishu-jian.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_names_match_across_scripts():
    assert names.key("吴澄本") == names.key("吳澄本")
    assert (names.shown("吴澄本"), names.shown("大戴礼"), names.shown("徐伯鲁")) == (
        "吳澄本",
        "大戴禮",
        "徐伯魯",
    )
    assert names.shown("某本") == "某本"


@pytest.mark.parametrize(("score", "witness"), [("lu/1", "吳澄本"), ("lu/2", "大戴禮")])
def test_collate_names_a_reported_witness_once(score, witness, simplified_copy, cli):
    code, out, err = cli("collate", score, "--json")
    assert code == 0, err
    (data,) = json.loads(out)
    reported = [w for w in data["witnesses"] if w.get("reported_by")]
    assert [w["siglum"] for w in reported] == [witness]
    code, out, err = cli("collate", score)
    key = out.split("\nsigla:\n", 1)[1]
    assert re.findall(r"^  (\S+)\s+reported in", key, re.M) == [witness]
    same = {witness, witness.replace("吳", "吴").replace("禮", "礼")}
    formats = (("tei", r'<witness xml:id="([^"]+)"'), ("mei", r'<source xml:id="([^"]+)"'))
    for fmt, pattern in formats:
        code, out, err = cli("collate", score, "--format", fmt)
        assert code == 0, err
        assert [w for w in re.findall(pattern, out) if w in same] == [witness]
    code, out, err = cli("collate", score, "--format", "csv")
    rows = [line.split(",")[1] for line in out.splitlines() if line.count(",") > 2]
    assert [r for r in rows if r in same] == [witness]
