"""The catalogs: every message of the code translated in every language, placeholders kept, the
compiled catalogs up to date; and the language chosen as GNU gettext chooses it."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import re
import string
from pathlib import Path

import pytest

from drumscore import i18n

ROOT = Path(__file__).resolve().parent.parent
babel = pytest.importorskip("babel", reason="the catalog tests read .po files with Babel")

from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

LANGUAGES = list(i18n.LANGUAGES)


@functools.cache
def _tools():
    """tools/i18n.py, loaded once (each message's test asks for it)."""
    spec = importlib.util.spec_from_file_location("i18n_tools", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def template():
    """Every message marked in the code (and argparse's), extracted afresh."""
    return _tools().template()


def _po(language: str):
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "drumscore.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain="drumscore")


@pytest.fixture(scope="module")
def catalogs():
    return {language: _po(language) for language in LANGUAGES}


def _fields(text: str) -> set[str]:
    """The placeholders of a message: {name} fields and %(name)s / %s conversions."""
    found = set()
    with contextlib.suppress(ValueError):  # a %-style message with a lone brace
        found |= {f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text) if name}
    # %(name)r and %(name)s are one placeholder: Chinese quotes it 「%(name)s」
    found |= {re.sub("r$", "s", f) for f in re.findall(r"%\(\w+\)[sdr]|%[sdr]", text)}
    return found


def _own(template) -> list:
    """The messages of drumscore's own code (not argparse's, which differ between Pythons)."""
    return [m for m in template if m.id and _tools().ARGPARSE not in m.auto_comments]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(template, catalogs, language):
    catalog = catalogs[language]
    missing = [m.id for m in _own(template) if catalog.get(m.id, m.context) is None]
    assert not missing, f"{len(missing)} missing from {language}, such as {missing[:5]}"
    untranslated, fuzzy = [], []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(strings):
            untranslated.append(message.id)
        elif message.fuzzy:
            fuzzy.append(message.id)
    assert not untranslated, f"{len(untranslated)} untranslated in {language}: {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}, such as {fuzzy[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_holds_a_message_the_code_no_longer_has(template, catalogs, language):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in _own(template)}
    held = [
        m.id if isinstance(m.id, str) else m.id[0]
        for m in catalogs[language]
        if m.id and _tools().ARGPARSE not in m.auto_comments
    ]
    stale = [message for message in held if message not in ids]
    assert not stale, f"{language} holds {stale[:5]} (run: python tools/i18n.py update)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(catalogs, language):
    wrong = []
    for message in catalogs[language]:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        want = set().union(*(_fields(i) for i in ids))
        for text in strings:
            if text and _fields(text) != want and _fields(text) != _fields(ids[0]):
                wrong.append((ids[0], text))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalog_is_the_one_from_the_po_file(catalogs, language):
    buffer = io.BytesIO()
    write_mo(buffer, catalogs[language], use_fuzzy=False)
    mo = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "drumscore.mo"
    assert mo.read_bytes() == buffer.getvalue(), "run: python tools/i18n.py compile"


def test_chinese_catalogs_are_chinese_and_differ(catalogs):
    hant, hans = catalogs["zh_Hant"], catalogs["zh_Hans"]
    same = [
        m.id
        for m in hant
        if m.id and m.string and hans.get(m.id) and hans.get(m.id).string == m.string
    ]
    ids = [m.id for m in hant if m.id]
    # names, formats and bare placeholders read alike in both; prose does not
    assert len(same) < len(ids) / 2, same[:10]
    for text in ("說明", "參數", "錯誤"):
        assert any(text in str(m.string) for m in hant), text
    for text in ("说明", "参数", "错误"):
        assert any(text in str(m.string) for m in hans), text


# -- choosing the language --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "zh_TW.UTF-8"}, "zh_Hant"),
        ({"LANG": "zh_HK.UTF-8"}, "zh_Hant"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
        ({"LANG": "zh_SG"}, "zh_Hans"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "zh_TW"}, "en"),  # GNU gettext: C ignores LANGUAGE
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "fr:zh_CN"}, "zh_Hans"),
        ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8"}, "zh_Hant"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
        # GNU gettext: no locale set at all is the C locale, so LANGUAGE alone is ignored
        ({"LANGUAGE": "zh_TW"}, "en"),
        ({"LANGUAGE": "zh_CN:en", "LANG": ""}, "en"),
        ({"LANGUAGE": "zh_TW", "LC_MESSAGES": "en_US.UTF-8"}, "zh_Hant"),
    ],
)
def test_the_environment_chooses_as_gettext_does(environ, expected):
    assert i18n.from_environment(environ) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("zh-Hant", "zh_Hant"),
        ("zh_Hans", "zh_Hans"),
        ("zh-TW", "zh_Hant"),
        ("en", "en"),
        ("xx", "en"),
    ],
)
def test_set_language_takes_tags_and_locales_and_falls_back_to_english(name, expected):
    assert i18n.set_language(name) == expected
    assert i18n.language() == expected


def test_speaking_restores_the_language_before():
    i18n.set_language("zh-Hans")
    with i18n.speaking("zh-Hant"):
        assert i18n.tag() == "zh-Hant"
        assert i18n._("options") == "選項"
    assert i18n.tag() == "zh-Hans"
    assert i18n._("options") == "选项"


def test_in_english_in_one_thread_leaves_another_threads_language_alone():
    """A file written in English on one thread while another thread speaks 繁體中文."""
    import threading

    i18n.set_language("zh-Hant")
    english = i18n.in_english(lambda: i18n._("options"))
    go = threading.Barrier(2)
    heard: list[str] = []

    def chinese() -> None:
        go.wait()
        heard.extend(i18n._("options") for _ in range(5000))

    reader = threading.Thread(target=i18n.carried(chinese))
    reader.start()
    go.wait()
    written = [english() for _ in range(5000)]
    reader.join()
    assert set(written) == {"options"}
    assert len(heard) == 5000 and set(heard) == {"選項"}
    assert i18n.language() == "zh_Hant"


def test_a_thread_handed_work_speaks_the_language_of_the_code_that_handed_it():
    from concurrent.futures import ThreadPoolExecutor

    i18n.set_language("zh-Hans")
    with ThreadPoolExecutor(2) as pool:
        carried = pool.submit(i18n.carried(i18n.language)).result()
        with i18n.speaking("zh-Hant"):
            inside = pool.submit(i18n.carried(i18n.language)).result()
        # a thread's own choice stays in that thread
        pool.submit(i18n.carried(i18n.set_language), "en").result()
    assert (carried, inside, i18n.language()) == ("zh_Hans", "zh_Hant", "zh_Hans")


# -- the command line in each language --------------------------------------------------------


def _error(cli, *argv: str) -> str:
    code, out, err = cli(*argv)
    assert code == 2 and out == "", (code, err)
    assert "Traceback" not in err
    return err


def test_notation_error_in_traditional_chinese_with_caret_and_hint(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    err = _error(cli, "render", "○X○", "-o", tmp_path / "x.wav")
    assert err.startswith("drumscore：錯誤：第 1 行第 2 欄：")
    assert "  ○X○\n   ^" in err


def test_lang_option_overrides_the_environment(monkeypatch, cli, tmp_path):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    err = _error(cli, "--lang", "zh-Hans", "render", "○X○", "-o", tmp_path / "x.wav")
    assert err.startswith("drumscore：错误：第 1 行第 2 列：")
    err = _error(cli, "render", "--lang=en", "○X○", "-o", tmp_path / "x.wav")
    assert err.startswith("drumscore: error: line 1, column 2:")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        *(
            (n, "zh_Hant")
            for n in ("tw", "zh_TW", "zh-tw", "繁體", "繁体", "traditional", "zh-Hnat")
        ),
        *((n, "zh_Hans") for n in ("cn", "zh_CN", "zh-cn", "简体", "簡體", "simplified")),
        ("chinese", "zh_Hans"),  # plain Chinese is 简体, as GNU gettext reads zh
        ("zh", "zh_Hans"),
        ("en_GB", "en"),
    ],
)
def test_a_lang_near_a_language_is_read_as_it_and_said_so(monkeypatch, cli, name, expected):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, err = cli("--lang", name, "show", "lu")
    tag, own = i18n.LANGUAGES[expected]
    assert code == 0
    with i18n.speaking(expected):
        said = i18n._("--lang {value!r} is taken as {tag} ({name})")
    assert err.splitlines() == [said.format(value=name, tag=tag, name=own)]
    # the report speaks the language read: its sections by the names of that language
    assert {"en": "touhu", "zh_Hant": "擊數", "zh_Hans": "击数"}[expected] in out


@pytest.mark.parametrize("name", ["zh-Hant", "ZH-HANS", "zh_Hant", "en"])
def test_a_lang_as_the_languages_are_written_is_taken_without_a_word(monkeypatch, cli, name):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, _out, err = cli("--lang", name, "show", "lu")
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("environ", "start", "each"),
    [
        ("zh_TW.UTF-8", "drumscore：錯誤：--lang「fr」不是", "{tag}（{own}）"),
        ("zh_CN.UTF-8", "drumscore：错误：--lang「fr」不是", "{tag}（{own}）"),
        ("C.UTF-8", "drumscore: error: --lang 'fr' ", "{tag} ({own})"),
    ],
)
def test_an_unknown_lang_is_refused_with_the_languages_in_the_environments_language(
    monkeypatch, cli, environ, start, each
):
    monkeypatch.setenv("LANG", environ)
    err = _error(cli, "--lang", "fr", "show", "lu")
    assert err.startswith(start) and len(err.splitlines()) == 1
    assert all(each.format(tag=tag, own=own) in err for tag, own in i18n.LANGUAGES.values())


#: A value no message may print as it is: a line break, a tab, an escape sequence, a bell.
HOSTILE = "no\npe\t\x1b[31m\a"
HOSTILE_SHOWN = r"no\npe\t\x1b[31m\x07"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("zh-Hant", f"未知的版本「{HOSTILE_SHOWN}」"),
        ("zh-Hans", f"未知的版本「{HOSTILE_SHOWN}」"),
        ("en", f"unknown edition '{HOSTILE_SHOWN}'"),
    ],
)
def test_a_quoted_value_stays_one_line_escaped_in_every_language(cli, language, shown):
    err = _error(cli, "--lang", language, "list", "--edition", HOSTILE)
    assert shown in err and len(err.splitlines()) == 1
    assert not any(c != "\n" and not c.isprintable() for c in err)


@pytest.mark.parametrize("language", ["zh_Hant", "zh_Hans"])
def test_message_escapes_the_fields_the_english_quotes_and_only_those(language):
    with i18n.speaking(language):
        message = i18n._("unknown score {name!r}; {help}")
        assert "{name}" in message and "{name!r}" not in message  # 「{name}」 in the catalog
        shown = message.replace("{name}", "a\\nb").replace("{help}", "")
        assert message.format(name="a\nb", help="") == shown
        plain = i18n._("line {line}, column {column}: {reason}")
        assert plain.format(line=1, column=2, reason="x\ny").endswith("x\ny")  # not a !r field
        assert i18n.quoted("a\tb") == "「a\\tb」"
    with i18n.speaking("en"):  # the English repr, unchanged
        english = i18n._("unknown score {name!r}; {help}").format(name="a\nb", help="h")
        assert english == "unknown score 'a\\nb'; h"
        assert i18n.ngettext("{n} stroke", "{n} strokes", 2).format(n=2) == "2 strokes"


@pytest.mark.parametrize(
    ("language", "shown"),
    [("zh-Hant", "無效的選擇：「a\\nb」（"), ("zh-Hans", "无效的选择：「a\\nb」（")],
)
def test_argparse_refusals_quote_the_value_as_chinese_does(cli, language, shown):
    err = _error(cli, "--lang", language, "list", "--order", "a\nb")
    assert shown in err and len(err.splitlines()) == 1


def test_a_character_named_in_an_error_is_quoted_as_the_language_quotes(cli, tmp_path):
    err = _error(cli, "--lang", "zh-Hant", "render", "○\x07", "-o", tmp_path / "x.wav")
    assert "不應出現的字元「\\x07」（U+0007）" in err.splitlines()[0]


def test_language_named_tells_exact_from_close_and_none():
    assert i18n.language_named("zh-hant") == ("zh_Hant", True)
    assert i18n.language_named("tw") == ("zh_Hant", False)
    assert i18n.language_named("fr") is None
    assert i18n.language_named("") is None


@pytest.mark.parametrize(
    "argv",
    [["--lan", "zh-Hant"], ["--lan=zh-Hant"], ["--lang=zh-Hant"], ["--la", "zh-Hant"], ["--l=tw"]],
)
def test_lang_is_read_as_argparse_reads_it_abbreviated_too(monkeypatch, cli, argv):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, _ = cli("list", *argv)
    assert code == 0
    assert out.splitlines()[0].startswith("版本")


def test_the_last_lang_wins_and_none_is_read_after_a_lone_dash_dash(monkeypatch, cli):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, _, err = cli("--lang", "zh-Hans", "render", "--lang", "zh-Hant", "○X○", "-o", "x.wav")
    assert code == 2 and err.startswith("drumscore：錯誤：")
    code, _, err = cli("--lang", "zh-Hans", "show", "--", "--lang=zh-Hant")
    assert code == 2 and err.startswith("drumscore：错误：")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("en,zh-Hant", "en"), ("zh-Hant,en", "zh_Hant"), ("fr:zh_CN", "zh_Hans"), ("x;en_GB", "en")],
)
def test_a_list_of_languages_is_read_by_its_first_that_drumscore_speaks(name, expected):
    """Read as LANGUAGE is read, its first language first: not the closest spelling of the whole
    (en,zh-Hant was taken as zh-Hant, the one it spells most of)."""
    assert i18n.language_named(name) == (expected, False)
    assert i18n.language_named("fr,de") is None


def test_a_citation_composed_once_follows_the_language_it_is_asked_in():
    """each_language keeps a citation for each language: asked again in another language, the
    citation is that language's (full-width 《》 and ，in 繁體, the 简体 forms in 简体), and
    back in the first, the first's again."""
    from drumscore import corpus

    provenance = corpus.resolve("lu@zhushu").source
    assert provenance is not None and provenance.work is not None
    said = {}
    for lang in ("zh_Hant", "en", "zh_Hans", "zh_Hant", "en"):
        with i18n.speaking(lang):
            said.setdefault(lang, set()).add(provenance.citation)
    assert all(len(texts) == 1 for texts in said.values())
    hant, en, hans = (next(iter(said[k])) for k in ("zh_Hant", "en", "zh_Hans"))
    assert "《" in hant and "，" in hant and "《" not in en and ", " in en
    assert hans != hant and "禮" in hant and "礼" in hans


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--la", "fr"], ["--lan=fr"], ["--l", "fr"]])
def test_an_abbreviated_lang_naming_no_language_is_refused_not_ignored(monkeypatch, cli, argv):
    monkeypatch.setenv("LANG", "C.UTF-8")
    err = _error(cli, "show", "lu", *argv)
    assert (
        err.startswith("drumscore: error: --lang 'fr' is not a language") and err.count("\n") == 1
    )


@pytest.mark.parametrize("value", ["all", "ALL"])
def test_lang_all_outside_site_and_serve_is_refused_naming_them(monkeypatch, cli, tmp_path, value):
    """all builds a site in every language; a command that speaks one was silently given the
    environment's."""
    monkeypatch.setenv("LANG", "C.UTF-8")
    err = _error(cli, "render", "lu", "--lang", value, "-o", tmp_path / "x.mid")
    assert err.startswith("drumscore: error: --lang all is for a site") and err.count("\n") == 1
    assert "site, serve" in err and "render" in err and "zh-Hant" in err
    assert list(tmp_path.iterdir()) == []


def test_a_long_near_lang_is_said_shortened(monkeypatch, cli):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, _out, err = cli("show", "lu", "--lang", "en," + "x" * 5000)
    assert code == 0 and len(err.splitlines()) == 1 and len(err) < 200


def test_argparse_speaks_its_own_language_again_after_a_run(monkeypatch, cli):
    import argparse
    import gettext

    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    cli("--help")
    assert argparse._ is gettext.gettext  # a host program's parsers are left as they were


def test_no_module_that_translates_binds_the_name_underscore():
    """`_` bound anywhere in a module that imports it from drumscore.i18n (a throwaway in an
    unpacking, a loop) hides the translation and fails when the message is made."""
    import ast

    bound = []
    for path in sorted((ROOT / "drumscore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports_it = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "drumscore.i18n"
            and any(alias.name == "_" and alias.asname is None for alias in node.names)
            for node in tree.body
        )
        if not imports_it:
            continue
        binding = [
            node
            for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store))
            or (isinstance(node, ast.arg) and node.arg == "_")
        ]
        if not binding:
            continue
        # a comprehension's own names stay inside it: harmless unless it translates too
        harmless = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
                calls = [
                    n
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                ]
                if not calls:
                    for generator in node.generators:
                        harmless |= {id(n) for n in ast.walk(generator.target)}
        bound += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in binding
            if id(node) not in harmless
        ]
    assert not bound, bound


class _AnyValue:
    """A value that takes any format spec, as the numbers and names the code passes do."""

    def __format__(self, spec: str) -> str:
        return "x"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_brace_message_formats_in_translation(catalogs, language):
    """A translation of a message the code formats with str.format must format too: a stray
    brace or an unknown field would fail when the message is made."""
    bad = []
    for message in catalogs[language]:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not ids[0] or "%(" in ids[0] or "{" not in ids[0]:
            continue
        fields = {name for _, name, _, _ in string.Formatter().parse(ids[0]) if name}
        values = {name.split(".")[0].split("[")[0]: _AnyValue() for name in fields}
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            try:
                text.format(**values)
            except (ValueError, KeyError, IndexError) as exc:
                bad.append((ids[0], text, exc))
    assert not bad, bad[:5]


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("zh-Hant", "（無法辨識其格式）"),
        ("zh-Hans", "（无法识别其格式）"),
        ("en", "(its format is not"),
    ],
)
def test_libsndfiles_reason_is_said_in_the_readers_language(cli, tmp_path, language, reason):
    take = tmp_path / "take.wav"
    take.write_text("not audio\n", encoding="utf-8")
    err = _error(cli, "--lang", language, "check", take, "lu")
    assert reason in err and "Format not recognised" not in err and len(err.splitlines()) == 1


# --- the one table of the two scripts (i18n.written, i18n.simplified) ---


def _names_of_the_sources() -> set[str]:
    """Every name the views write in prose: editions, their citations and short names, the
    scores' titles and labels, the commentators who count, the readings, the sections."""
    from drumscore import corpus
    from drumscore.apparatus.counts import check_score
    from drumscore.model import READINGS, SECTION_TABLE, Section

    pool = corpus.editions()
    found = {s.rite for s in SECTION_TABLE.values() if s.rite}
    with i18n.speaking("zh_Hant"):  # the citations composed as a 繁體 reader reads them
        works = [r.name for r in READINGS] + [r.source.work for r in READINGS]
        works += [edition.provenance.work for edition in pool]
        found |= {work.cited for work in works if work is not None}
    for edition in pool:
        found.add(edition.name)
        found |= {text for language, text in edition.short.texts if language == "zh_Hant"}
        for score in edition.scores:
            found |= {score.edition_name, score.title, f"{score.state}鼓"}
            found |= {check.stated.by for check in check_score(score, pool)}
        found |= {count.by for count in edition.counts}
    with i18n.speaking("zh_Hant"):
        found |= {section.shown for section in Section}
    return {name for name in found if name}


def test_the_one_table_writes_each_character_as_opencc_does():
    opencc = pytest.importorskip("opencc")
    convert = opencc.OpenCC("t2s").convert
    assert len(i18n.TRADITIONAL) == len(i18n.SIMPLIFIED) > 400
    assert len(set(i18n.TRADITIONAL)) == len(i18n.TRADITIONAL)  # each character once
    wrong = {
        t: (s, convert(t))
        for t, s in zip(i18n.TRADITIONAL, i18n.SIMPLIFIED, strict=True)
        if convert(t) != s
    }
    assert wrong == {}
    assert not set("乾榦") & set(i18n.TRADITIONAL)  # 乾隆, 黃榦 keep them in simplified text


def test_every_name_of_the_sources_is_written_in_simplified_for_a_simplified_reader():
    opencc = pytest.importorskip("opencc")
    convert = opencc.OpenCC("t2s").convert
    names = _names_of_the_sources()
    assert len(names) > 50 and "禮記注疏" in names and "投壺" in names
    with i18n.speaking("zh_Hans"):
        wrong = {n: i18n.written(n) for n in names if i18n.written(n) != convert(n)}
    kept = {n: w for n, w in wrong.items() if set(n) & {"乾", "榦"}}  # 乾隆, 黃榦 as written
    assert wrong == kept
    for language in ("zh_Hant", "en"):
        with i18n.speaking(language):
            assert {n for n in names if i18n.written(n) != n} == set()  # as printed


def test_only_a_simplified_reader_s_prose_changes_script():
    with i18n.speaking("zh_Hans"):
        assert i18n.written("禮記注疏・魯鼓・第一圖") == "礼记注疏・鲁鼓・第一图"
        assert i18n.written("徐伯魯") == "徐伯鲁" and i18n.written("鄭玄") == "郑玄"
    assert i18n.simplified("吳澄本") == "吴澄本"  # the key, whatever the language
    with i18n.speaking("zh_Hant"):
        assert i18n.written("禮記注疏・魯鼓") == "禮記注疏・魯鼓"
