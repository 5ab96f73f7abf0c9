"""The built site: a page per score, the index, the compare view, files made by the tool, and
nothing that reaches the network."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import mido
import pytest

from drumscore import corpus
from drumscore.errors import OptionError, OutputError
from drumscore.model import Section
from drumscore.site import data as sitedata
from drumscore.site.build import MARKER, STAVES, build_site


class _Links(HTMLParser):
    """Every src/href of a page, and the text of the notation's strokes and 半 in order."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.glyphs: list[str] = []
        self._in_glyph = 0
        self.data_json: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href"):
            if attrs.get(name):
                self.refs.append(attrs[name])
        classes = (attrs.get("class") or "").split()
        if tag == "span" and ("stroke" in classes or "half-mark" in classes):
            self._in_glyph += 1
        if tag == "script" and attrs.get("type") == "application/json":
            self._in_json = True

    def handle_endtag(self, tag):
        if tag == "span" and self._in_glyph:
            self._in_glyph -= 1
        if tag == "script":
            self._in_json = False

    def handle_data(self, data):
        if self._in_glyph:
            self.glyphs.append(data)
        if self._in_json:
            self.data_json.append(data)


def parsed(path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_every_score_has_a_page_with_its_notation(site_dir):
    items = sitedata.entries(corpus.editions())
    assert len(items) == len(corpus.scores())
    for entry in items:
        page = parsed(site_dir / "score" / f"{entry.slug}.html")
        assert "".join(page.glyphs) == entry.score.pattern.notation, entry.score.key
        data = json.loads("".join(page.data_json))
        assert data["score"]["key"] == entry.score.key
        assert data["score"]["source"]["citation"] == entry.score.source.citation


def test_every_link_and_script_stays_inside_the_folder(site_dir):
    pages = [site_dir / "index.html", site_dir / "compare.html", *site_dir.glob("score/*.html")]
    for page in pages:
        for ref in parsed(page).refs:
            if ref == "data:,":  # the empty icon, so the browser asks for no favicon
                continue
            assert not re.match(r"^[a-z]+:", ref), (page.name, ref)
            target = (page.parent / ref.split("?")[0].split("#")[0]).resolve()
            assert target.is_relative_to(site_dir.resolve()) and target.exists(), (page, ref)
    for asset in site_dir.glob("assets/*"):
        if asset.suffix in (".js", ".css"):
            text = asset.read_text(encoding="utf-8")
            assert not re.search(r"https?://|//cdn|@import", text), asset.name


def test_the_index_links_every_score(site_dir):
    refs = set(parsed(site_dir / "index.html").refs)
    for entry in sitedata.entries(corpus.editions()):
        assert f"score/{entry.slug}.html" in refs


def test_midi_files_are_the_tool_s_own(site_dir):
    lu = sitedata.entries(corpus.editions())[0]
    assert lu.score.key == "lu/1@zhushu"
    for section in (Section.SHE, Section.TOUHU, Section.HEAD):
        data = (site_dir / "files" / f"{lu.slug}-{section.value}.mid").read_bytes()
        midi = mido.MidiFile(file=io.BytesIO(data))
        notes = [m for t in midi.tracks for m in t if m.type == "note_on" and m.velocity > 0]
        assert len(notes) == len(lu.score.pattern.section(section))


def test_kit_samples_and_gains_are_copied(site_dir):
    from drumscore.model import Drum
    from drumscore.render.kit import BUILTIN_KIT, builtin_kit

    for name in ("pi.wav", "gu.wav"):
        assert (site_dir / "assets/samples" / name).read_bytes() == (
            BUILTIN_KIT.parent / name
        ).read_bytes()
    gains = sitedata.kit_data()["voices"]
    for drum in Drum:
        assert gains[drum.pinyin]["gain"] == pytest.approx(
            list(builtin_kit().voice(drum).stereo_gain)
        )


def test_musicxml_and_user_editions(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(
        'id = "mine"\nname = "My reading"\n[[score]]\nfigure = 1\nstate = "魯"\n'
        'printed = "○□口半○□"\n',
        encoding="utf-8",
    )
    edition = corpus.load_edition(mine)
    out = tmp_path / "site"
    report = build_site(out, [edition], corpus_editions=False)
    assert report.scores == 1
    page = parsed(out / "score" / "lu-1-mine.html")
    assert "".join(page.glyphs) == "○□□半○□"
    page_text = (out / "score" / "lu-1-mine.html").read_text(encoding="utf-8")
    assert 'data-printed="口"' in page_text
    from music21 import converter

    parsed_xml = converter.parse(str(out / "files" / "lu-1-mine-touhu.musicxml"))
    assert len(list(parsed_xml.recurse().notes)) == 2
    # staff notation, where Verovio (the notation extra) is installed
    try:
        import verovio  # noqa: F401
    except ImportError:
        assert report.staff == 0
        return
    assert report.staff == 1
    svg = (out / "files" / "lu-1-mine-she.svg").read_text(encoding="utf-8")
    assert svg.count('class="notehead"') == 5  # one head per stroke of ○□□半○□
    assert 'src="../files/lu-1-mine-she.svg"' in page_text
    # a phone's engraving: the same heads, narrower, without the title the page shows above it
    narrow = (out / "files" / "lu-1-mine-she-narrow.svg").read_text(encoding="utf-8")
    assert narrow.count('class="notehead"') == 5
    assert 'class="pgHead"' in svg and "pgHead" not in narrow
    assert 'srcset="../files/lu-1-mine-she-narrow.svg"' in page_text
    width = lambda text: float(text.split('viewBox="0 0 ', 1)[1].split()[0])  # noqa: E731
    assert width(narrow) < width(svg)
    # the page opens it on its first notehead: past the margin and the staff labels
    from drumscore.render.verovio import LABEL_WIDTH, MARGIN

    first = float(page_text.split('data-first="', 1)[1].split('"', 1)[0])
    assert (MARGIN + LABEL_WIDTH) / width(narrow) < first < 1


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path):
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputError, match="not empty"):
        build_site(tmp_path, musicxml=False)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_an_earlier_site_is_replaced_whole(tmp_path):
    out = tmp_path / "site"
    mine = tmp_path / "mine.toml"
    mine.write_text(
        'id = "mine"\nname = "Mine"\n[[score]]\nfigure = 2\nstate = "薛"\nprinted = "○半□"\n',
        encoding="utf-8",
    )
    edition = corpus.load_edition(mine)
    build_site(out, [edition], corpus_editions=False, musicxml=False)
    (out / "stale.html").write_text("old", encoding="utf-8")
    build_site(out, [edition], corpus_editions=False, musicxml=False)
    assert (out / MARKER).exists() and not (out / "stale.html").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _edition(folder, name: str, *printed: str):
    """A user edition file `name` with a score of 魯 for each notation, figure 1, 2…"""
    scores = "".join(
        f'[[score]]\nfigure = {n}\nstate = "魯"\nprinted = "{text}"\n'
        for n, text in enumerate(printed, 1)
    )
    path = folder / f"{name}.toml"
    path.write_text(f'id = "{name}"\nname = "Edition {name}"\n{scores}', encoding="utf-8")
    return corpus.load_edition(path)


def _files(folder) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_rebuilt_site_is_the_site_built_fresh(tmp_path):
    first = _edition(tmp_path, "one", "○□○半□", "○○□半○□□")
    second = _edition(tmp_path, "two", "○□○半□", "□□○半○")
    again = tmp_path / "again"
    # the staves kept from a site in one language serve the others too, as if engraved anew
    assert build_site(again, [first], corpus_editions=False, languages=("zh_Hant",)).engraved == 4
    build_site(again, [first, second], corpus_editions=False, languages=("en", "zh_Hant"))
    fresh = tmp_path / "fresh"
    build_site(fresh, [first, second], corpus_editions=False, languages=("en", "zh_Hant"))
    rebuilt, made = _files(again), _files(fresh)
    assert sorted(rebuilt) == sorted(made)
    assert [name for name in made if rebuilt[name] != made[name]] == []
    assert any(name.endswith(".musicxml") for name in made)


def test_adding_an_edition_engraves_only_its_own_staves(tmp_path):
    pytest.importorskip("verovio")
    first = _edition(tmp_path, "one", "○□○半□", "○○□半○□□")
    out = tmp_path / "site"
    report = build_site(out, [first], corpus_editions=False)
    # each staff engraved twice: for a desktop and, a line a part, for a phone
    assert (report.engraved, report.staff) == (4, 2)
    kept = json.loads((out / STAVES).read_text(encoding="utf-8"))
    files = sorted(v["file"] for v in kept.values())
    assert files == [
        "files/lu-1-one-she-narrow.svg",
        "files/lu-1-one-she.svg",
        "files/lu-2-one-she-narrow.svg",
        "files/lu-2-one-she.svg",
    ]
    second = _edition(tmp_path, "two", "□□○半○")
    report = build_site(out, [first, second], corpus_editions=False)
    assert (report.engraved, report.staff) == (2, 3)
    assert 'class="notehead"' in (out / "files" / "lu-1-two-she.svg").read_text("utf-8")
    report = build_site(out, [first, second], corpus_editions=False)
    assert (report.engraved, report.staff) == (0, 3)


def test_each_staff_is_engraved_once_for_every_language_with_the_head_in_each(tmp_path):
    pytest.importorskip("verovio")
    from drumscore.render.verovio import head_lines

    first = _edition(tmp_path, "one", "○□○半□", "○○□半○□□")
    second = _edition(tmp_path, "two", "○□○半□")
    out = tmp_path / "site"
    languages = ("en", "zh_Hant", "zh_Hans")
    report = build_site(out, [first, second], corpus_editions=False, languages=languages)
    # a page's and a phone's for each music: the two editions' figure 1 read alike
    assert (report.engraved, report.staff) == (4, 3)
    for slug, strokes in (("lu-1-one", 4), ("lu-2-one", 6), ("lu-1-two", 4)):
        staves = {
            tag: (out / tag / "files" / f"{slug}-she.svg").read_text("utf-8")
            for tag in report.languages
        }
        heads = {tag: head_lines(svg) for tag, svg in staves.items()}
        for tag, lines in heads.items():
            document = ET.fromstring((out / tag / "files" / f"{slug}-she.musicxml").read_bytes())
            assert lines == [w.text for w in document.iter("credit-words")], tag
        assert heads["en"][0].endswith(f"{slug[3]} · 射 (the whole pattern)")
        assert (
            heads["zh-Hant"][0].endswith("射（整個鼓譜）") and heads["zh-Hans"] != heads["zh-Hant"]
        )
        # the music and the layout the same in each; the phone's, without words, the same file
        music = {
            re.sub(r'class="pgHead">.*?</g>|font-family="[^"]*"', "", svg, flags=re.S)
            for svg in staves.values()
        }
        assert len(music) == 1 and music.pop().count('class="notehead"') == strokes
        phones = {
            t: (out / t / "files" / f"{slug}-she-narrow.svg").read_text("utf-8") for t in staves
        }
        assert (
            phones["en"] == phones["zh-Hant"]
            and 'font-family="Noto Serif CJK SC' in phones["zh-Hans"]
        )
        fontless = {re.sub(r'font-family="[^"]*"', "", phone) for phone in phones.values()}
        assert len(fontless) == 1
    for name in ("she.svg", "she-narrow.svg"):
        one, two = (
            (out / "en/files" / f"lu-1-{e}-{name}").read_text("utf-8") for e in ("one", "two")
        )
        assert one != two or "pgHead" not in one
        assert re.sub(r'class="pgHead">.*?</g>', "", one, flags=re.S) == re.sub(
            r'class="pgHead">.*?</g>', "", two, flags=re.S
        )


def test_languages_built_side_by_side_make_the_site_built_one_after_another(tmp_path, monkeypatch):
    from drumscore.site import build

    first = _edition(tmp_path, "one", "○□○半□", "○○□半○□□")
    languages = ("en", "zh_Hant", "zh_Hans")
    forks = []
    forking = build._forking
    monkeypatch.setattr(build, "_forking", lambda n: forks.append(forking(n)) or forks[-1])
    build_site(tmp_path / "beside", [first], corpus_editions=False, languages=languages)
    monkeypatch.setattr(build, "_forking", lambda n: None)
    build_site(tmp_path / "after", [first], corpus_editions=False, languages=languages)
    beside, after = _files(tmp_path / "beside"), _files(tmp_path / "after")
    assert sorted(beside) == sorted(after) and len(beside) > 60
    assert [name for name in after if beside[name] != after[name]] == []
    assert len(forks) == 1 and (forks[0] is not None) == (build.cores() > 1)


def test_a_language_built_beside_that_fails_leaves_no_site_and_says_where(tmp_path, monkeypatch):
    import errno

    from drumscore.errors import WriteError
    from drumscore.site import build

    into = build._build_into

    def full_disk(work, *args, **kwargs):
        if work.name == "zh-Hans":  # the last: built in a forked process where there are two cores
            raise OSError(errno.ENOSPC, "No space left on device", str(work / "index.html"))
        return into(work, *args, **kwargs)

    monkeypatch.setattr(build, "_build_into", full_disk)
    first = _edition(tmp_path, "one", "○□○半□")
    with pytest.raises(WriteError, match=r"site'.*\(zh-Hans/index.html\): No space left on device"):
        build_site(
            tmp_path / "site",
            [first],
            corpus_editions=False,
            languages=("en", "zh_Hant", "zh_Hans"),
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.toml"]


def test_a_head_that_cannot_be_set_anew_has_its_page_engraved_itself(tmp_path, monkeypatch):
    pytest.importorskip("verovio")
    from drumscore.render import verovio

    monkeypatch.setattr(verovio, "retitle", lambda svg, lines: None)
    out = tmp_path / "site"
    build_site(
        out, [_edition(tmp_path, "one", "○□○半□")], corpus_editions=False, languages=("zh_Hant",)
    )
    svg = (out / "zh-Hant" / "files" / "lu-1-one-she.svg").read_text("utf-8")
    document = ET.fromstring((out / "zh-Hant" / "files" / "lu-1-one-she.musicxml").read_bytes())
    assert verovio.head_lines(svg) == [w.text for w in document.iter("credit-words")]
    assert verovio.head_lines(svg)[0].endswith("射（整個鼓譜）")


def test_a_staff_is_read_from_an_earlier_site_only_as_it_was_written(tmp_path):
    pytest.importorskip("verovio")
    first = _edition(tmp_path, "one", "○□○半□")
    out = tmp_path / "site"
    build_site(out, [first], corpus_editions=False)
    staff = out / "files" / "lu-1-one-she.svg"
    engraved = staff.read_bytes()
    staff.write_bytes(engraved.replace(b"<svg", b"<svg data-changed=''", 1))
    report = build_site(out, [first], corpus_editions=False)
    assert report.engraved == 1
    assert staff.read_bytes() == engraved
    (out / STAVES).write_text("{not json", encoding="utf-8")
    assert build_site(out, [first], corpus_editions=False).engraved == 2  # and the phone's
    assert staff.read_bytes() == engraved


def test_no_scores_is_an_error(tmp_path):
    with pytest.raises(OptionError, match="no scores"):
        build_site(tmp_path / "x", corpus_editions=False)


def test_the_index_holds_the_apparatus_of_every_score(site_dir):
    """In date order, the base first: the places, their sigla and a row per witness."""
    from drumscore.apparatus.gather import collate

    text = (site_dir / "index.html").read_text(encoding="utf-8")
    sections = dict(
        re.findall(r'<section class="collation" id="([a-z]+-\d)"(.*?)</section>', text, re.S)
    )
    dates = {e.id: e.date_key for e in corpus.editions()}
    for a in collate(order="date"):
        section = sections[a.key.replace("/", "-")]
        places = re.findall(
            r'<li value="\d+"[^>]*><span class="place">(.*?)</span>(.*?)</li>', section, re.S
        )
        assert len(places) == len(a.places)
        for (label, rest), place in zip(places, a.places, strict=True):
            assert label.startswith(place.label)
            lemma, variants = rest.split(" ] ", 1)
            assert re.findall(r'class="siglum"[^>]*>([\w-]+)<', lemma) == list(place.lemma.printed)
            shown = re.findall(r'class="siglum"[^>]*>([\w-]+)<', variants)
            assert shown == [s for v in place.variants for s in v.sigla]
        rows = re.findall(
            r"<tr(?: class=\"reported\")?><th scope=row>", section.split("<tbody>")[1]
        )
        assert len(rows) == len(a.witnesses) == len(corpus.editions()) + len(a.reported)
        table = section.split("<tbody>")[1]
        shown = re.findall(r'<tr><th scope=row><a class="siglum"[^>]*>([\w-]+)<', table)
        assert shown[0] == "zhushu" and len(shown) == len(dates)
        assert [dates[s] for s in shown[1:]] == sorted(dates[s] for s in shown[1:])
        reported = re.findall(r'<tr class="reported"><th scope=row>.*?</th>', section, re.S)
        assert len(reported) == len(a.reported)
        for w, row in zip(a.reported, reported, strict=True):
            assert w.siglum in row and f"reported in {w.reported_by}" in row


def test_the_index_shows_who_goes_with_whom_as_collate_groups_does(site_dir, capsys):
    """The agreement matrix, its sigla and each place's sharers on the page are the numbers of
    `collate --groups --json --order date`."""
    from cli_run import run_cli

    code, out, _ = run_cli(["collate", "--groups", "--json", "--order", "date"], capsys)
    assert code == 0
    text = (site_dir / "index.html").read_text(encoding="utf-8")
    sections = dict(
        re.findall(r'<section class="collation" id="([a-z]+-\d)"(.*?)</section>', text, re.S)
    )
    for g in json.loads(out):
        section = sections[g["score"].replace("/", "-")]
        table = section.split('<table class="agreement">')[1].split("</table>")[0]
        head, body = table.split("<tbody>")
        assert re.findall(r"<th scope=col>([\w-]+)</th>", head) == g["sigla"]
        rows = body.split("</tr>")[:-1]
        assert len(rows) == len(g["agreement"])
        for row, want in zip(rows, g["agreement"], strict=True):
            assert [float(v) for v in re.findall(r'data-value="([\d.]+)"', row)] == want
        assert any(v < 1 for row in g["agreement"] for v in row)  # the editions do part
        shares = section.split('<ol class="shares">')[1].split("</ol>")[0]
        items = re.findall(r"<li value=\"(\d+)\">(.*?)</li>", shares, re.S)
        assert [int(n) for n, _ in items] == [p["place"] for p in g["places"]]
        for (_, item), place in zip(items, g["places"], strict=True):
            found = re.findall(r'class="siglum"[^>]*>([^<]+)<', item)
            assert found == [s for r in place["readings"] for s in r["sigla"]]
        assert g["tree"] in section


def _page_data(path) -> dict:
    return json.loads("".join(parsed(path).data_json))


def test_every_name_the_compare_page_takes_is_the_command_line_s(site_dir):
    """The compare page's table of names: each spelling of a state and of an edition it holds
    finds, on the command line, the state and edition it stands for, and each score of the site
    is in it under its state, figure and edition."""
    names = _page_data(site_dir / "compare.html")["names"]
    for spelling, edition in names["editions"].items():
        assert corpus.find_edition(spelling).id == edition, spelling
    for spelling, state in names["states"].items():
        assert corpus.split_name(f"{spelling}/2")[:2] == (state, 2), spelling
    assert set(names["scores"].values()) == {s.key for s in corpus.scores()}
    for where, key in names["scores"].items():
        state, figure, edition = where.split("|")
        assert corpus.resolve(f"{state}/{figure}@{edition}").key == key


def test_each_score_is_compared_with_a_reading_of_its_own_figure_and_drum(site_dir):
    """A reading not the majority's is compared with the majority's; the majority's with the
    reading that differs most from it, as `compare` counts (its stroke differences, and 半
    moved); the score page links the pair and says which it is."""
    from drumscore.analysis.compare import compare

    partners = _page_data(site_dir / "compare.html")["partners"]
    apparatuses = {(a.figure, a.state): a for a in sitedata.figures(corpus.editions())}
    shown = 0
    for entry in sitedata.entries(corpus.editions()):
        score = entry.score
        other = corpus.resolve(partners[score.key])
        assert (other.state, other.figure) == (score.state, score.figure) and other != score
        readings = apparatuses[(score.figure, score.state)].readings
        majority = readings[0].notation
        page = (site_dir / "score" / f"{entry.slug}.html").read_text(encoding="utf-8")
        assert f"compare.html?a={score.key}&amp;b={other.key}" in page
        if score.pattern.notation != majority:
            assert other.pattern.notation == majority
            assert "Compare this reading with the majority reading" in page
            shown += 1
        elif len(readings) > 1:
            same = [r.witnesses[0].score for r in readings[1:]]
            apart = [(c.distance + c.half_moved) for c in (compare(score, s) for s in same)]
            found = compare(score, other)
            assert found.distance + found.half_moved == max(apart)
            assert "Compare this reading with the reading that differs most" in page
        else:
            assert other.pattern.notation == score.pattern.notation
    assert shown  # lu/1 has readings beside the majority's


def test_the_page_data_carries_what_the_player_shares_with_play(site_dir):
    from drumscore.conductor.track import MAX_COUNT_IN
    from drumscore.play import keys

    play = _page_data(site_dir / "compare.html")["play"]
    assert play["keys"]["steps"] == keys.TEMPO_STEPS
    assert (play["tap_reset"], play["taps"], play["max_count_in"]) == (
        keys.TAP_RESET,
        keys.TAPS,
        MAX_COUNT_IN,
    )
    engine = (site_dir / "assets" / "engine.js").read_text(encoding="utf-8")
    assert "PEAK" not in engine and "2.5) taps" not in engine


def test_a_score_page_s_readings_are_the_model_s_and_its_scripts_name_none(site_dir):
    """Which sign strikes which drum, on a score page, is READINGS' (鄭玄's first, the select's
    default), each reading with its own MIDI files, whose notes strike its drums; the scripts
    hold no sign's drum of their own."""
    from drumscore.model import READINGS, Drum
    from drumscore.render.midimap import MidiMap

    page = next((site_dir / "score").glob("lu-1-*.html"))
    data = _page_data(page)
    readings = data["readings"]
    assert [(r["id"], r["name"], r["drums"]) for r in readings] == [
        (r.id, str(r.name), {sign: drum.pinyin for sign, drum in r.mapping}) for r in READINGS
    ]
    assert readings[1]["drums"] == {"○": "gu", "□": "pi"}
    score = data["score"]
    downloads = score["downloads"]
    assert sorted(downloads) == sorted(r.id for r in READINGS)
    assert downloads["zheng"] == {k: v for k, v in score["files"].items() if "staff" not in k}
    assert (
        sorted(downloads["mao"])
        == sorted(downloads["zheng"])
        == ["midi-head", "midi-she", "midi-touhu"]
    )
    signs = [s.drum.symbol for s in corpus.resolve(score["key"]).pattern.strokes]
    notes = {d.value: MidiMap().note(d) for d in Drum}
    for reading in READINGS:
        data = (site_dir / downloads[reading.id]["midi-she"]).read_bytes()
        midi = mido.MidiFile(file=io.BytesIO(data))
        played = [m.note for t in midi.tracks for m in t if m.type == "note_on" and m.velocity]
        drums = dict(reading.mapping)
        assert played == [notes[drums[sign].value] for sign in signs], reading.id
    html = page.read_text(encoding="utf-8")
    assert re.search(r'<option value="zheng" selected', html)
    assert READINGS[0].citation in html
    for script in ("engine.js", "score.js"):
        text = (site_dir / "assets" / script).read_text(encoding="utf-8")
        assert not re.search(r'"[○□]"\s*[:?]', text) and not re.search(r"'[○□]'", text), script


def test_the_build_module_holds_no_html():
    """The pages come from templates: no string in the build's modules is markup."""
    import tokenize

    from drumscore.site import artefacts, build, notebook, pages, staff

    for module in (build, pages, artefacts, staff, notebook):
        with open(module.__file__, "rb") as file:
            for token in tokenize.tokenize(file.readline):
                if token.type == tokenize.STRING or token.type == getattr(
                    tokenize, "FSTRING_MIDDLE", -1
                ):
                    assert not re.search(r"</?[a-z][a-z0-9]*[\s>]", token.string), token.string


def test_values_are_escaped_in_the_pages(tmp_path):
    """Bad input: an edition whose name and printed text hold markup shows it as text."""
    mine = tmp_path / "mine.toml"
    mine.write_text(
        'id = "mine"\nname = "<b>bold</b> & co"\n[[score]]\nfigure = 1\nstate = "魯"\n'
        'printed = "○□半○"\n',
        encoding="utf-8",
    )
    out = tmp_path / "site"
    build_site(out, [corpus.load_edition(mine)], corpus_editions=False, musicxml=False)
    for page in (out / "index.html", out / "score" / "lu-1-mine.html"):
        text = page.read_text(encoding="utf-8")
        assert "<b>bold</b>" not in text and "&lt;b&gt;bold&lt;/b&gt; &amp; co" in text
    data = _page_data(out / "score" / "lu-1-mine.html")
    assert data["score"]["edition_name"] == "<b>bold</b> & co"


def test_every_score_page_shows_the_stated_counts_with_their_quotes(site_dir):
    from drumscore.apparatus.counts import check_score

    shown = 0
    for entry in sitedata.entries(corpus.editions()):
        page = (site_dir / "score" / f"{entry.slug}.html").read_text(encoding="utf-8")
        counts = page.split('id="counts-h"')[1].split("</section>")[0]
        for check in check_score(entry.score):
            for quote in check.quotes:
                if quote.text:
                    assert f'<q lang="zh-Hant">{quote.text}</q>' in counts, (entry.slug, quote)
                    shown += 1
    assert shown > 0


def test_the_site_names_each_place_as_collate(site_dir):
    import re

    # the places the list and the aligned table name as every view does (see
    # tests/apparatus/test_place_names.py): strokes only one edition adds
    added = {"lu/1": "after 2", "xue/2": "after 11", "xue/1": "after 18"}
    page = (site_dir / "index.html").read_text("utf-8")
    listed = re.findall(r'<span class="place">([^<]*) \(', page)
    headers = re.findall(r'<th scope=col class="[^"]*">([^<]*)</th>', page)
    for key, label in added.items():
        assert label in listed, key
        assert label in headers, key
    assert not [h for h in headers if h.startswith("+")]


def test_no_module_of_the_site_is_over_800_lines():
    """The builder is split along its ideas (build, pages, artefacts, staff, data, grammar…)."""
    folder = Path(sitedata.__file__).parent
    sizes = {p.name: len(p.read_text("utf-8").splitlines()) for p in folder.glob("*.py")}
    assert {"build.py", "pages.py", "artefacts.py", "staff.py"} <= set(sizes)
    assert max(sizes.values()) <= 800, sizes


def _small_editions(folder: Path, count: int) -> list:
    """`count` user editions of one score each (lu/1, a random pattern of 12 strokes)."""
    import random

    folder.mkdir()
    found = []
    for n in range(count):
        rng = random.Random(n)
        strokes = "".join(rng.choice("○□") for _ in range(12))
        path = folder / f"e{n}.toml"
        path.write_text(
            f'id = "e{n}"\nname = "e{n}"\n[[score]]\nfigure = 1\nstate = "魯"\n'
            f'printed = "{strokes[:5]}半{strokes[5:]}"\n',
            "utf-8",
        )
        found.append(corpus.load_edition(path))
    return found


def test_a_site_of_many_editions_grows_with_them_not_with_their_pairs(tmp_path, monkeypatch):
    """Sites of N and 2N small editions (more than the index's GROUPS_LIMIT): every edition has
    its page and its link in the index; the compare page holds no comparison; the pages grow
    as the editions do, not as their pairs (counted: the index's table cells, the compare
    page's data beside its scores), and the index says where the table of every two went.
    The limit is lowered to 30 (35 and 70 editions, not 105 and 210): what is left out past
    it, and how the pages grow, do not depend on where it stands (the index's cells grow 2.08
    times from 35 to 70 editions, 2.07 times from 105 to 210; far fewer editions print too
    few of the twelve places' readings for the count to be linear)."""
    monkeypatch.setattr(sitedata, "GROUPS_LIMIT", 30)
    count = sitedata.GROUPS_LIMIT + 5
    cells, rest = [], []
    for n in (count, 2 * count):
        editions = _small_editions(tmp_path / f"e{n}", n)
        out = tmp_path / f"site{n}"
        build_site(out, editions, corpus_editions=False, musicxml=False)
        pages = {p.name for p in (out / "score").iterdir()}
        index = (out / "index.html").read_text(encoding="utf-8")
        for e in editions:
            slug = sitedata.entries([e])[0].slug
            assert f"{slug}.html" in pages and f'href="score/{slug}.html"' in index
        assert len(pages) == n
        assert "groups-left-out" in index and '<table class="agreement">' not in index
        data = _page_data(out / "compare.html")
        assert "comparisons" not in data and len(data["scores"]) == n
        cells.append(index.count("<td"))
        rest.append(len(json.dumps({k: v for k, v in data.items() if k != "scores"})))
    assert cells[1] <= 2.2 * cells[0] and rest[1] <= 2.2 * rest[0], (cells, rest)


def test_a_pattern_with_half_at_an_end_has_its_page_and_no_empty_section_s_file(tmp_path):
    """半 before the first stroke leaves the part before it empty: the site is built, with the
    files of the sections that have strokes and none of the empty one (once refused)."""
    path = tmp_path / "edge.toml"
    path.write_text(
        'id = "edge"\nname = "edge"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = "半□○"\n',
        "utf-8",
    )
    out = tmp_path / "site"
    build_site(out, [corpus.load_edition(path)], corpus_editions=False, musicxml=False)
    files = {p.name for p in (out / "files").iterdir()}
    assert {"lu-1-edge-she.mid", "lu-1-edge-touhu.mid"} <= files
    assert not any("-head" in name for name in files)
    assert (out / "score" / "lu-1-edge.html").is_file()
