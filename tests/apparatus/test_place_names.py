"""One name for each place in every view: text, JSON, CSV, TEI loc, MEI, the plot, the site."""

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
from cli_run import run_cli

from drumscore.apparatus.gather import collate
from drumscore.apparatus.mei import mei_bytes
from drumscore.apparatus.table import apparatus_data, csv_text
from drumscore.apparatus.tei import tei_bytes

#: Strokes only one edition has, each named by the base stroke they follow.
ADDED = {
    "lu/1": ("zuantu", "after 2"),
    "xue/2": ("benyi", "after 11"),
    "xue/1": ("yuhai", "after 18"),
}
SCORES = {"lu/1": (1, "魯"), "xue/2": (2, "薛"), "xue/1": (1, "薛")}


@pytest.fixture(scope="module")
def found():
    return {key: collate(scores=[SCORES[key]])[0] for key in ADDED}


def _place(a, siglum):
    """The place where `siglum` alone adds a stroke, and its number (from 1)."""
    for n, p in enumerate(a.places, 1):
        if not p.lemma.text and any(siglum in v.sigla for v in p.variants):
            return n, p
    raise AssertionError(siglum)


@pytest.mark.parametrize("key", list(ADDED))
def test_every_view_names_the_added_stroke_the_same(key, found, capsys):
    siglum, label = ADDED[key]
    a = found[key]
    number, place = _place(a, siglum)
    assert place.label == label
    code, out, _ = run_cli(["collate", key], capsys)  # text
    assert code == 0 and f"  {label} (head)  — " in out
    data = json.loads(run_cli(["collate", key, "--json"], capsys)[1])[0]  # JSON
    assert data["places"][number - 1]["label"] == label
    columns = [data["columns"][k]["label"] for k in range(*data["places"][number - 1]["columns"])]
    assert columns and set(columns) == {label}
    rows = list(csv.reader(io.StringIO(csv_text([a]))))  # CSV: its column row and places
    header, place_row = rows[0], rows[2]
    assert {header[3 + k] for k in range(place.start, place.stop)} == {label}
    assert {place_row[3 + k] for k in range(place.start, place.stop)} == {str(number)}
    named = [r[2] for r in rows if len(r) == 8 and r[1] == str(number) and r[0] == key]
    assert named == [label] * len(named) and named
    tei = ET.fromstring(tei_bytes([a]))  # TEI loc
    apps = tei.iter("{http://www.tei-c.org/ns/1.0}app")
    assert {x.get("n"): x.get("loc") for x in apps}[str(number)] == label
    mei = ET.fromstring(mei_bytes(a))  # MEI label
    apps = [x for x in mei.iter("{http://www.music-encoding.org/ns/mei}app") if x.get("n")]
    assert {x.get("n"): x.get("label") for x in apps}[str(number)] == label
    assert apparatus_data(a)["places"][number - 1]["label"] == label


@pytest.mark.filterwarnings("ignore:Glyph")
@pytest.mark.parametrize("key", list(ADDED))
def test_the_plot_names_the_columns_as_the_places(key, found):
    pytest.importorskip("matplotlib")
    from drumscore.apparatus.plot import figure

    a = found[key]
    _, place = _place(a, ADDED[key][0])
    fig = figure([a], None)
    ax = fig.axes[0]
    ticks = zip(ax.get_xticks(), ax.get_xticklabels(), strict=True)
    # a run of columns of one place is labelled once, among them (its words on two lines)
    inside = [t.get_text() for at, t in ticks if place.start <= at <= place.stop - 1]
    assert [text.replace("\n", " ") for text in inside] == [ADDED[key][1]]
