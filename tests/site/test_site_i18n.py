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
    "Repository", "START", "STOP", "STEP", "EVERY", "kHz", "English", "txt",
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
    """Traditional and Simplified differ where they should: 聆聽 / 聆听, 鼓譜 / 鼓谱, and what 简体
    prose names, the section 投壶 and a book's title (《礼记·投壶》); 鼙 is the same in both."""
    hant = visible_text(read(all_site_dir, "zh-Hant", "score"))
    hans = visible_text(read(all_site_dir, "zh-Hans", "score"))
    assert "聆聽" in hant and "聆听" in hans and "聆听" not in hant
    assert "下載" in hant and "下载" in hans
    assert "投壶（半以后的各击）" in hans and "鼙" in hans
    assert "《礼记·投壶》" in hans and "《禮記·投壺》" in hant and "投壶" not in hant
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
        for name in ("engine.js", "fields.js", "score.js", "compare.js", "align.js")
    )
    table = set(sitedata.strings())
    assert set(re.findall(r'say\("(\w+)"', code)) <= table
    literals = set(re.findall(r'"(\w+)"', code))  # also the keys a say() chooses between
    assert table <= literals, table - literals


def test_the_page_scripts_hold_no_english_prose():
    """The scripts take what they show from the strings table: no literal of three words."""
    static = Path(sitedata.__file__).with_name("static")
    for name in ("engine.js", "fields.js", "score.js", "compare.js", "align.js"):
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
    """site and serve build without MusicXML (the slow part), as the session's sites are, and
    of the default edition alone (four scores): what these tests check is the language the
    command speaks and writes the pages in, the same for a site of any size (the session's
    sites hold every edition)."""

    def build(out, extra=(), **options):
        return build_site(out, extra, musicxml=False, **options)

    monkeypatch.setattr(site_build, "build_site", build)  # the command imports it as it runs
    monkeypatch.setattr(corpus, "editions", lambda: corpus.builtin_editions()[:1])


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


# --- Chinese as its readers expect it (the review of the Chinese views) -------------------------


def _score(all_site_dir: Path, tag: str, key: str = "lu/1@zhushu") -> str:
    return (all_site_dir / tag / "score" / f"{slug(key)}.html").read_text(encoding="utf-8")


def _terminal_counts(tag: str) -> list[str]:
    """The stated-count lines of `drumscore show lu` in `tag`'s language, as the terminal
    prints them (徐伯魯，投壺：鼙 7 鼓 5), without what follows the counts."""
    import contextlib
    import io

    from drumscore.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--lang", tag, "show", "lu"]) == 0
    lines = [ln.strip() for ln in out.getvalue().splitlines()]
    counted = re.compile(r"\S+，(投壺|投壶|射|半以前)：鼙 \d+ 鼓 \d+")
    return [ln.split("（")[0] for ln in lines if counted.match(ln)]


@pytest.mark.parametrize(
    ("tag", "by"), [("zh-Hant", "徐伯魯"), ("zh-Hans", "徐伯鲁")], ids=["zh-Hant", "zh-Hans"]
)
def test_sections_are_named_as_the_terminal_names_them(all_site_dir, tag, by):
    """The stated counts say their section as `drumscore show` does (徐伯魯，投壺：鼙 7 鼓 5), and
    no Chinese page nor its scripts' strings holds a section's id in its prose: not （touhu）,
    ，she： nor （head）."""
    page = visible_text(_score(all_site_dir, tag))
    terminal = _terminal_counts(tag)
    touhu = "投壶" if tag == "zh-Hans" else "投壺"  # 简体 prose writes the names simplified
    assert f"{by}，{touhu}：鼙 7 鼓 5" in terminal
    for line in terminal:
        assert line.replace("徐伯魯", by) in page, line
    ids = re.compile(r"[（，](touhu|she|head)[）：]|\b(touhu|she|head)\b(?![-.])")
    for name in ("index", "compare", "score"):
        text = read(all_site_dir, tag, name)
        assert not ids.search(visible_text(text)), (name, ids.search(visible_text(text)))
        strings = (
            json.dumps(page_data(text)["strings"], ensure_ascii=False) if name != "index" else ""
        )
        assert not re.search(r"[（，](touhu|she|head)[）：]", strings)
    index = visible_text(read(all_site_dir, tag, "index"))
    assert re.search(f"第 11 [擊击]（{touhu}）", index) and "（半以前）" in index


@pytest.mark.parametrize(
    ("tag", "key", "total", "source"),
    [("zh-Hant", "空白鍵", "合計", "來源"), ("zh-Hans", "空格键", "合计", "来源")],
    ids=["zh-Hant", "zh-Hans"],
)
def test_the_controls_and_tables_say_what_the_terminal_says(all_site_dir, tag, key, total, source):
    """The space bar is 空白鍵 / 空格键 (never `space`) on the score and compare pages; the
    count-in control reads 預備拍 [0] 下; the counts table totals in 合計; the source row is the
    terminal's 來源 (no 出處); the licence's holder in full-width parentheses; the rate as the
    terminal writes it (44100 赫茲)."""
    score = _score(all_site_dir, tag)
    compare = read(all_site_dir, tag, "compare")
    for text in (score, compare):
        assert f"<kbd>{key}</kbd>" in text and ">space<" not in text
    assert re.search(r'>(預備拍|预备拍) <input id="count-in"[^>]*>\s*下</label>', score)
    header = re.search(r'<table class="counts">.*?</thead>', score, re.S)
    assert header is not None and header[0].endswith(f"<th scope=col>{total}</th></tr></thead>")
    assert f"<dt>{source}</dt>" in score and "出處" not in score and "出处" not in score
    assert "CC BY-SA 4.0（Kanseki Repository）" in score and "4.0 (" not in score
    hertz = "赫兹" if tag == "zh-Hans" else "赫茲"
    assert f"44100 {hertz}" in score and "44,100" not in score and "Hz" not in visible_text(score)


def test_the_title_and_the_language_links(all_site_dir):
    """<title> ends with ｜drumscore in Chinese ( — drumscore in English); every page links
    the language chooser as x-default."""
    assert "<title>投壺鼓譜｜drumscore</title>" in read(all_site_dir, "zh-Hant", "index")
    assert "<title>投壶鼓谱｜drumscore</title>" in read(all_site_dir, "zh-Hans", "index")
    assert "<title>The drum scores of 投壺 — drumscore</title>" in read(all_site_dir, "en", "index")
    for tag in TAGS:
        for name in ("index", "compare", "score"):
            text = read(all_site_dir, tag, name)
            found = re.search(r'<link rel="alternate" hreflang="x-default" href="([^"]+)">', text)
            assert found is not None, (tag, name)
            here = all_site_dir / tag / pages(tag)[name]
            assert (here.parent / found[1]).resolve() == (all_site_dir / "index.html").resolve()


@pytest.mark.parametrize(("tag", "source"), [("en", "zh-Hant"), *((t, t) for t in CHINESE)])
def test_the_sources_words_carry_the_page_s_chinese(all_site_dir, tag, source):
    """Never a bare lang="zh": the sources' words (鼙, 半, a quotation, an edition's name) say
    the page's script (an English page: the sources' 繁體), in the markup and in the page
    data the scripts mark their own with."""
    for name in ("index", "compare", "score"):
        text = read(all_site_dir, tag, name)
        assert 'lang="zh"' not in text and 'lang=\\"zh\\"' not in text
        assert f'<span lang="{source}">鼙</span>' in text or f'lang="{source}"' in text
        if name != "index":
            assert page_data(text)["source_lang"] == source
    assert f'<q lang="{source}">' in _score(all_site_dir, tag)


@pytest.mark.parametrize(
    ("tag", "zheng", "mao"),
    [
        ("zh-Hant", "依鄭玄《禮記注》的釋讀", "毛奇齡《經問》卷十六"),
        ("zh-Hans", "依郑玄《礼记注》的释读", "毛奇龄《经问》卷十六"),
        ("en", "Read as 鄭玄 禮記注", "毛奇齡 經問 卷十六"),
    ],
)
def test_a_reading_is_cited_with_its_title_marks(all_site_dir, tag, zheng, mao):
    """The reading's line and its choice: 依鄭玄《禮記注》的釋讀 (no half-width spaces, 書名號),
    in the page's script; the passage quoted as printed."""
    score = _score(all_site_dir, tag)
    assert zheng in visible_text(score)
    assert f">{mao}</option>" in score
    assert "「圜者擊鼙，方者擊鼓」" in visible_text(score)
    assert not re.search(r"依 |的讀法 |的读法 ", visible_text(score))


def test_the_simplified_pages_write_their_prose_in_simplified_characters(all_site_dir):
    """A 简体 page names the edition, its state's drum and the commentators in simplified
    characters (《礼记注疏》鲁鼓第一图, 徐伯鲁), in its title and heading too; what is quoted,
    printed or a variant reading stays as printed (前圖鼙聲七鼔聲五此魯鼓之半也)."""
    hans = _score(all_site_dir, "zh-Hans")
    assert "<title>《礼记注疏》鲁鼓第一图｜drumscore</title>" in hans
    heading = re.search(r"<h1>(.*?)</h1>", hans)
    assert heading is not None and "《礼记注疏》鲁鼓第一图" in heading[1]
    assert "徐伯鲁" in visible_text(hans) and "徐伯魯" not in visible_text(hans)
    assert '<q lang="zh-Hans">前圖鼙聲七鼔聲五此魯鼓之半也</q>' in hans
    assert "<dd>○□○○□□○□○○□半○□○□○○○□□○□○</dd>" in hans
    index = visible_text(read(all_site_dir, "zh-Hans", "index"))
    editions = index.split("各版本的分歧")[0]
    assert "礼记注疏" in editions and "禮記注疏" not in editions and "鲁鼓" in editions
    hant = _score(all_site_dir, "zh-Hant")
    assert "<title>《禮記注疏》魯鼓第一圖｜drumscore</title>" in hant


def test_read_alike_lists_its_groups_in_parentheses(all_site_dir):
    """讀法相同 lists each group in full-width parentheses, joined by ；, no […]."""
    index = visible_text(read(all_site_dir, "zh-Hant", "index"))
    lines = [ln for ln in index.splitlines() if "讀法相同：" in ln]
    assert lines and all("[" not in ln and "]" not in ln for ln in lines)
    assert all(re.search(r"讀法相同：\s*（[^（）]+）(；\s*（[^（）]+）)*", ln) for ln in lines)


def test_the_style_sets_no_cjk_in_italics_and_keeps_flags_whole(all_site_dir):
    css = (all_site_dir / "zh-Hant" / "assets" / "style.css").read_text(encoding="utf-8")
    assert re.search(r"\ncite \{ font-style: normal; \}", css)
    assert re.search(r"\ncode \{ white-space: nowrap; \}", css)


@pytest.mark.parametrize(
    ("tag", "benyi", "shuzhu"),
    [("zh-Hant", "本義", "述註"), ("zh-Hans", "本义", "述注")],
    ids=["zh-Hant", "zh-Hans"],
)
def test_a_score_page_cites_the_editions_that_quote_a_count_by_their_short_names(
    all_site_dir, tag, benyi, shuzhu
):
    """The stated counts on a Chinese score page name the editions that quote them as the
    校勘記 and `drumscore show` cite them (見本義、本義四庫本所引), never by their ids."""
    page = visible_text(_score(all_site_dir, tag))
    counts = page[page.index("徐伯") :]
    assert f"（{benyi}）" in counts and f"{shuzhu}所引" in counts
    assert f"{benyi}、{benyi}四" in counts  # 本義、本義四庫本
    for siglum in ("benyi", "benyi-skqs", "shuzhu"):
        assert siglum not in counts, siglum
