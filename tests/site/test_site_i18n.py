"""The site in the readers' languages: each language's pages say which they are and link their
copies in the others, hold no English but names and code, and the page scripts' strings table
comes from the catalogs; the command line's --lang for site and serve; the notebook view."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from drumscore import corpus, i18n
from drumscore.cli.commands import site as site_command
from drumscore.errors import OptionError
from drumscore.model import READINGS
from drumscore.site import build as site_build
from drumscore.site import data as sitedata
from drumscore.site.build import SiteReport, build_site

TAGS = [tag for tag, _name in i18n.LANGUAGES.values()]
CHINESE = ["zh-Hant", "zh-Hans"]

#: Names and code a Chinese page may show in Latin letters: formats, programs, the --ramp
#: syntax, units, the language switch's own names, and the source's data (below).
ALLOWED = {
    "drumscore", "MIDI", "MusicXML", "WAV", "SVG", "Verovio", "Kanripo", "Kanseki",
    "Repository", "START", "STOP", "STEP", "EVERY", "kHz", "English", "txt", "she", "touhu",
    "head",
}  # fmt: skip


def slug(key: str) -> str:
    return next(e.slug for e in sitedata.entries(corpus.editions()) if e.score.key == key)


def pages(tag: str) -> dict[str, str]:
    return {
        "index": "index.html",
        "compare": "compare.html",
        "score": f"score/{slug('lu/2@zhushu')}.html",
    }


def read(all_site_dir: Path, tag: str, page: str) -> str:
    return (all_site_dir / tag / pages(tag)[page]).read_text(encoding="utf-8")


def page_data(text: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1))


def visible_text(text: str) -> str:
    """What a reader sees of a page: no scripts, no code, no markup, entities read."""
    text = re.sub(r"<(script|style|code|kbd|title)\b.*?</\1>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def other_modules_text(language: str) -> list[str]:
    """The words the page takes from the rest of the library, in `language` as the library says
    them (section names, score titles, the apparatus's summaries and differences, the sources'
    citations): their translation is their modules' own, so they are left out of the check."""
    pool = corpus.editions()
    with i18n.speaking(language):
        items = sitedata.entries(pool)
        apparatuses = sitedata.apparatuses(pool, items)
        texts: list[str] = []
        for a in apparatuses:
            texts.append(a["summary"]["text"])
            texts += [d for r in a["readings"] for d in r["differences"]]
            texts += a["agreements"]
            for place in a["places"]:
                texts += [place["label"], *(v["description"] for v in place["variants"])]
        for entry in items:
            data = sitedata.page_score(entry, pool)
            texts.append(data["title"])
            texts += [str(v) for v in data["source"].values()]
            for info in data["sections"].values():
                texts += [info["name"], info["description"]]
            texts += [w for c in data["checks"] for w in c["disagreements"]]
        texts += [r.citation for r in READINGS]  # the readings' citations, English as all are
    return sorted({t for t in texts if t}, key=len, reverse=True)


def english_left(text: str, language: str) -> list[str]:
    for known in other_modules_text(language):
        text = text.replace(known, " ")
    names = {s.key for s in corpus.scores()} | {e.id for e in corpus.editions()}
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9/@_.-]*", text))
    ids = {w for w in words if any(part in names for part in re.split(r"[/@]", w))}
    left = re.findall(r"[A-Za-z]{3,}", text)
    return sorted({w for w in left if w not in ALLOWED and not any(w in i for i in ids)})


# --- the pages of each language ----------------------------------------------------------------


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("page", ["index", "compare", "score"])
def test_each_page_says_its_language_and_links_the_same_page_in_the_others(all_site_dir, tag, page):
    text = read(all_site_dir, tag, page)
    assert f'<html lang="{tag}">' in text
    here = all_site_dir / tag / pages(tag)[page]
    alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', text))
    assert set(alternates) >= set(TAGS) - {tag}
    for other in set(TAGS) - {tag}:
        target = (here.parent / alternates[other]).resolve()
        assert target == (all_site_dir / other / pages(other)[page]).resolve()
        assert target.is_file()
        # the switch in the header links the same page
        assert f'hreflang="{other}" href="{alternates[other]}"' in text.split("</header>")[0]


@pytest.mark.parametrize("tag", CHINESE)
@pytest.mark.parametrize("page", ["index", "compare", "score"])
def test_a_chinese_page_shows_no_english_but_names_and_code(all_site_dir, tag, page):
    catalog = i18n.catalog_for(tag)
    assert catalog is not None
    text = visible_text(read(all_site_dir, tag, page))
    assert english_left(text, catalog) == []


def test_the_english_page_would_fail_the_check(all_site_dir):
    """The check finds English where there is some: the English page's own words."""
    text = visible_text(read(all_site_dir, "en", "score"))
    assert {"Listen", "Notation", "Download"} <= set(english_left(text, "en"))


def test_each_language_speaks_its_own_words(all_site_dir):
    """Traditional and Simplified differ where they should: 聆聽 / 聆听, 鼓譜 / 鼓谱, and the
    rite's name in prose, 投壺 / 投壶 (鼙 is the same in both)."""
    hant = visible_text(read(all_site_dir, "zh-Hant", "score"))
    hans = visible_text(read(all_site_dir, "zh-Hans", "score"))
    assert "聆聽" in hant and "聆听" in hans and "聆听" not in hant
    assert "下載" in hant and "下载" in hans
    assert "投壶" in hans and "鼙" in hans and "投壶" not in hant
    assert "Listen" in visible_text(read(all_site_dir, "en", "score"))


def test_the_top_page_links_every_language_in_its_own_words(all_site_dir):
    text = (all_site_dir / "index.html").read_text(encoding="utf-8")
    for tag in TAGS:
        assert f'href="{tag}/index.html"' in text and (all_site_dir / tag / "index.html").is_file()
    assert "繁體中文" in text and "简体中文" in text and "English" in text
    assert "投壺鼓譜" in text and "投壶鼓谱" in text  # each title in its own script
    assert (all_site_dir / ".drumscore-site").is_file()


def test_each_language_s_site_is_whole(all_site_dir):
    """Assets, samples and the files are in every language's folder, alike."""
    for tag in TAGS:
        root = all_site_dir / tag
        assert (root / "assets" / "engine.js").is_file()
        assert (root / "assets" / "samples" / "pi.wav").is_file()
        assert sorted(p.name for p in (root / "files").iterdir()) == sorted(
            p.name for p in (all_site_dir / "en" / "files").iterdir()
        )


# --- the page scripts' strings -----------------------------------------------------------------


def _po(language: str):
    from babel.messages.pofile import read_po

    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "drumscore.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain="drumscore")


def test_the_strings_table_comes_from_the_catalogs(all_site_dir):
    """Every text of the scripts' table is a message of the catalogs (its English the msgid),
    and each Chinese page has the catalog's translation of it."""
    pytest.importorskip("babel")
    english = page_data(read(all_site_dir, "en", "score"))["strings"]
    ids = {m.id if isinstance(m.id, str) else m.id[0]: m.id for m in _po("en") if m.id}
    plural_ids = {m.id[1] for m in _po("en") if isinstance(m.id, tuple)}
    #: a rule of the language's punctuation (i18n.rules) is a message with a context
    contexts = {m.id: m.context for m in _po("en") if isinstance(m.id, str) and m.context}
    for key, value in english.items():
        for form in value if isinstance(value, list) else [value]:
            assert form in ids or form in plural_ids, (key, form)
    for tag in CHINESE:
        catalog = _po(i18n.catalog_for(tag) or "")
        shown = page_data(read(all_site_dir, tag, "score"))["strings"]
        assert shown.keys() == english.keys()
        for key, value in english.items():
            first = value[0] if isinstance(value, list) else value
            # a section's name is a message with a context
            context = "the name of a section" if key.startswith("section_") else None
            message = catalog.get(first, context=context) or catalog.get(first, contexts.get(first))
            want = message.string[0] if isinstance(message.string, tuple) else message.string
            got = shown[key][0] if isinstance(shown[key], list) else shown[key]
            assert got == want and want, key
    hant = page_data(read(all_site_dir, "zh-Hant", "score"))["strings"]
    assert hant["play"] == "▶ 播放" and hant["stopped"] == "已停止。"


def test_every_key_the_scripts_say_is_in_the_strings_table():
    """A key missing from the table would show as the bare key; one no script says is dead."""
    static = Path(sitedata.__file__).with_name("static")
    code = "\n".join(
        (static / name).read_text(encoding="utf-8")
        for name in ("engine.js", "fields.js", "score.js", "compare.js")
    )
    table = set(sitedata.strings())
    assert set(re.findall(r'say\("(\w+)"', code)) <= table
    literals = set(re.findall(r'"(\w+)"', code))  # also the keys a say() chooses between
    assert table <= literals, table - literals


def test_the_page_scripts_hold_no_english_prose():
    """The scripts take what they show from the strings table: no literal of three words."""
    static = Path(sitedata.__file__).with_name("static")
    for name in ("engine.js", "fields.js", "score.js", "compare.js"):
        code = "\n".join(
            line
            for line in (static / name).read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("//")
        )
        literals = re.findall(r'"([^"\n]*)"|`([^`]*)`', code)
        prose = [
            a or b for a, b in literals if re.search(r"[A-Za-z]{3,} [a-z]{2,} [a-z]{3,}", a or b)
        ]
        assert prose == [], name


# --- the command line --------------------------------------------------------------------------


@pytest.fixture
def quick_build(monkeypatch):
    """site and serve build without MusicXML (the slow part), as the session's sites are."""

    def build(out, extra=(), **options):
        return build_site(out, extra, musicxml=False, **options)

    monkeypatch.setattr(site_build, "build_site", build)  # the command imports it as it runs


def test_site_lang_builds_the_pages_and_says_so_in_that_language(cli, tmp_path, quick_build):
    code, out, err = cli("site", tmp_path / "out", "--lang", "zh-Hans")
    assert code == 0, err
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-Hans">' in index and 'hreflang="' not in index
    assert out.startswith("已写入 ") and "个鼓谱页面" in out


def test_site_lang_all_in_a_traditional_chinese_terminal(cli, tmp_path, quick_build, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, err = cli("site", tmp_path / "out", "--lang", "all")
    assert code == 0, err
    assert out.startswith("已寫入 ") and "en、zh-Hant、zh-Hans 各一份" in out
    for tag in TAGS:
        text = (tmp_path / "out" / tag / "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{tag}">' in text


def test_site_without_lang_speaks_the_environment_s_language(
    cli, tmp_path, quick_build, monkeypatch
):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert cli("site", tmp_path / "out")[0] == 0
    text = (tmp_path / "out" / "compare.html").read_text(encoding="utf-8")
    assert '<html lang="zh-Hans">' in text and "比较两种读法" in text


def test_the_summary_in_each_language():
    report = SiteReport(Path("x"), scores=68, files=204, staff=2, seconds=1.25)
    with i18n.speaking("zh_Hant"):
        assert site_command.summary(report) == (
            "68 個鼓譜頁面、索引頁與比較頁，204 個 MIDI 與 MusicXML 檔案，2 份五線譜，耗時 1.2 秒"
        )
    with i18n.speaking("en"):
        assert site_command.summary(report).startswith("68 score pages, the index")
        single = SiteReport(Path("x"), scores=1, files=3, seconds=0.5)
        assert site_command.summary(single).startswith("1 score page, the index")


def test_bad_input_a_language_the_site_is_not_built_in(expect_error, tmp_path):
    err = expect_error("site", tmp_path / "out", "--lang", "fr")
    assert "--lang 'fr' is not a language drumscore speaks" in err
    assert "en (English), zh-Hant (繁體中文), zh-Hans (简体中文)" in err
    assert not (tmp_path / "out").exists()
    # the library refuses it too, with all among the choices
    with pytest.raises(OptionError, match="give one of en, zh-Hant, zh-Hans or all"):
        site_build.site_catalog("fr")
    assert site_build.site_catalog("tw") == "zh_Hant"


def _chinese_error(cli, *argv) -> str:
    """stderr of a run that fails as bad input, in Chinese: exit 2, one line, no traceback."""
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and "Traceback" not in err, (code, err)
    assert err.count("\n") == 1
    return err


def test_bad_input_an_edition_file_said_in_traditional_chinese(cli, monkeypatch, tmp_path):
    """The site speaks the environment's language with --lang all, so its errors do too."""
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    err = _chinese_error(cli, "site", tmp_path / "out", "--lang", "all", "--edition", "mine.txt")
    assert err.startswith("drumscore：錯誤：--edition「mine.txt」：請指定版本檔案（.toml）或資料夾")
    assert not (tmp_path / "out").exists()


def test_bad_input_a_port_out_of_range_in_simplified_chinese(cli):
    err = _chinese_error(cli, "serve", "--lang", "zh-Hans", "--port", "70000")
    assert err.startswith("drumscore：错误：--port 70000：请指定 1 到 65535 的端口")


# --- the notebook ------------------------------------------------------------------------------


def test_the_notebook_view_follows_the_current_language():
    pytest.importorskip("soundfile")
    from drumscore.site.notebook import score_html

    score = corpus.resolve("lu/1")
    with i18n.speaking("zh_Hant"):
        hant = score_html(score)
    with i18n.speaking("zh_Hans"):
        hans = score_html(score)
    assert 'lang="zh-Hant"' in hant and "全譜" in hant and "第 1 擊" in hant
    assert 'lang="zh-Hans"' in hans and "全谱" in hans and "第 1 击" in hans
    assert "the whole pattern" in score_html(score)


def test_the_compare_pages_rows_are_named_as_the_sections_are_in_each_language():
    """compare.js names each row of the sections' table from the strings table, not by its id."""
    code = Path(sitedata.__file__).with_name("static").joinpath("compare.js").read_text("utf-8")
    assert 'el("th", { scope: "row" }, name)' not in code
    expected = {
        "en": ("head", "touhu", "she"),
        "zh_Hant": ("半以前", "投壺", "射"),
        "zh_Hans": ("半以前", "投壶", "射"),
    }
    for language, names in expected.items():
        with i18n.speaking(language):
            table = sitedata.strings()
        assert tuple(table[f"section_{s}"] for s in ("head", "touhu", "she")) == names
