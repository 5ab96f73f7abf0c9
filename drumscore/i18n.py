"""The readers' languages: gettext catalogs (English, 繁體中文, 简体中文) and which one speaks.

Every message a reader sees goes through `_` (or `ngettext` where English has a plural), looked up
in the catalog of the current language at the moment it is made. The language comes from the
environment as GNU gettext reads it (LANGUAGE, then LC_ALL, LC_MESSAGES, LANG) unless
`set_language` names one; a language without a catalog is English, without complaint.

The language belongs to the context (a `contextvars.ContextVar`), not the process: `in_english` in
one thread leaves another thread's language alone. A thread starts in an empty context, so work
handed to a thread runs in a copy of the caller's (`carried`), speaking the caller's language.

A message written where no language is known yet (a table at import time) is marked with `N_` and
translated with `_` where it is shown.
"""

from __future__ import annotations

import contextvars
import difflib
import functools
import gettext
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: The gettext domain, and the folder that holds <language>/LC_MESSAGES/drumscore.mo.
DOMAIN = "drumscore"
LOCALE_DIR = Path(__file__).parent / "locale"

#: The catalogs, each with its BCP 47 tag (as <html lang> and --lang write it) and its own name.
LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("en", "English"),
    "zh_Hant": ("zh-Hant", "繁體中文"),
    "zh_Hans": ("zh-Hans", "简体中文"),
}
DEFAULT = "en"


def tags() -> tuple[str, ...]:
    """Every catalog's BCP 47 tag, in the order of LANGUAGES (en, zh-Hant, zh-Hans)."""
    return tuple(tag for tag, _name in LANGUAGES.values())


#: Locale names (lower case, '-' read as '_', no encoding) that mean each Chinese catalog.
_TRADITIONAL = {"zh_hant", "zh_tw", "zh_hk", "zh_mo", "zh_hant_tw", "zh_hant_hk", "zh_hant_mo"}
_SIMPLIFIED = {"zh", "zh_hans", "zh_cn", "zh_sg", "zh_my", "zh_hans_cn", "zh_hans_sg"}


def catalog_for(name: str) -> str | None:
    """The catalog a locale or language name means (zh_TW.UTF-8, zh-Hant, en_GB, C), or None."""
    base = name.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_").lower()
    if base in _TRADITIONAL:
        return "zh_Hant"
    if base in _SIMPLIFIED:
        return "zh_Hans"
    if base in ("c", "posix", "en") or base.startswith("en_"):
        return "en"
    return None


#: What else a reader may call a language (compared in lower case): the catalog each means.
#: Plain Chinese is 简体, as GNU gettext reads zh.
_NICKNAMES = {
    **dict.fromkeys(("tw", "hk", "hant", "traditional", "繁體", "繁体", "繁體中文"), "zh_Hant"),
    **dict.fromkeys(("cn", "hans", "simplified", "简体", "簡體", "简体中文", "chinese"), "zh_Hans"),
    **dict.fromkeys(("中文", "漢語", "汉语"), "zh_Hans"),
    "english": "en",
}


def language_named(name: str) -> tuple[str, bool] | None:
    """The catalog `name` asks for, and whether `name` says it exactly (a tag or catalog of
    LANGUAGES, any case: zh-Hant, zh_Hans, en); else the closest: a locale name (zh_TW), another
    name of a language (tw, 繁體, simplified, chinese) or one mistyped (zh-Hnat). None when it
    names none of them (fr)."""
    key = name.strip().casefold()
    if len(items := re.split(r"[,:;]", key)) > 1:  # a list (zh-Hant,en; zh_TW:en): its first
        first = next((n for n in map(language_named, items) if n is not None), None)
        return (first[0], False) if first is not None else None
    for catalog, (tag, _own) in LANGUAGES.items():
        if key in (catalog.casefold(), tag.casefold()):
            return catalog, True
    found = catalog_for(key) or _NICKNAMES.get(key)
    if found is None and key:
        names = [n for c, (t, _own) in LANGUAGES.items() for n in (c.casefold(), t.casefold())]
        close = difflib.get_close_matches(key, [*names, *_NICKNAMES], n=1, cutoff=0.8)
        if close:
            found = catalog_for(close[0]) or _NICKNAMES[close[0]]
    return (found, False) if found is not None else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The catalog the environment asks for, as GNU gettext chooses: LANGUAGE (a list, ignored
    when the locale is C or not set at all) before the locale of LC_ALL, LC_MESSAGES or LANG;
    English otherwise."""
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    if not locale or (catalog_for(locale) == "en" and not locale.lower().startswith("en")):
        return DEFAULT  # no locale, or the C or POSIX locale: GNU gettext ignores LANGUAGE then
    for item in env.get("LANGUAGE", "").split(":"):
        found = catalog_for(item) if item else None
        if found is not None:
            return found
    return catalog_for(locale) or DEFAULT


_translations: dict[str, gettext.NullTranslations] = {}
#: The catalog this context speaks; None until set (then the environment's choice).
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "drumscore_language", default=None
)


def _catalog(language: str) -> gettext.NullTranslations:
    found = _translations.get(language)
    if found is None:
        found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
        _translations[language] = found
    return found


def set_language(name: str | None) -> str:
    """Speak `name` (a catalog, locale or tag; None: the environment's choice) from now on, in
    this context (and the threads given a copy of it); returns the catalog chosen, English for a
    language without one."""
    chosen = (catalog_for(name) if name else from_environment()) or DEFAULT
    _current.set(chosen)
    return chosen


def language() -> str:
    """The catalog speaking now in this context (en, zh_Hant or zh_Hans)."""
    current = _current.get()
    return current if current is not None else set_language(None)


def tag() -> str:
    """The current language as a BCP 47 tag (en, zh-Hant, zh-Hans), for <html lang>."""
    return LANGUAGES[language()][0]


@contextmanager
def speaking(name: str) -> Iterator[str]:
    """Speak `name` inside the block (the site builds each language in turn), then as before;
    other threads and contexts keep their own language meanwhile."""
    token = _current.set((catalog_for(name) if name else from_environment()) or DEFAULT)
    try:
        yield language()
    finally:
        _current.reset(token)


def carried(work: Callable[P, R]) -> Callable[P, R]:
    """`work` run in a copy of the calling context, wherever it is called: handed to a thread
    (a pool, a key reader), it speaks the language of the code that handed it over."""
    context = contextvars.copy_context()

    @functools.wraps(work)
    def in_context(*args: P.args, **kwargs: P.kwargs) -> R:
        return context.copy().run(work, *args, **kwargs)

    return in_context


def in_english(make: Callable[P, R]) -> Callable[P, R]:
    """`make` run in English whatever the reader speaks: for what a file records for other
    tools and for keeping (TEI, MEI, MIDI, an audio file's tags), the same in every language."""

    @functools.wraps(make)
    def english(*args: P.args, **kwargs: P.kwargs) -> R:
        with speaking("en"):
            return make(*args, **kwargs)

    return english


def _(message: str) -> str:
    """`message` in the current language."""
    return _catalog(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for a count `n`, in the current language."""
    return _catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, where the same English reads two ways (a context)."""
    return _catalog(language()).pgettext(context, message)


def rules() -> dict[str, str]:
    """The joins of a sentence by the current language's rule, each a pattern of the catalogs:
    English runs a list and phrases with ", ", clauses with "; ", a note in parentheses after a
    space, a label's colon, a dash with spaces, a full stop and '' around a command; Chinese with
    、 ， ； （ ） ： —— 。 「」 and no space beside them. Text a Chinese reader sees is joined
    through these (or the helpers below), never by hand."""
    return {
        # TRANSLATORS: the separator between the items of a list
        "list": pgettext("between the items of a list", ", "),
        # TRANSLATORS: the separator between two clauses of one sentence
        "clause": pgettext("between clauses", "; "),
        # TRANSLATORS: the separator between the short phrases of one clause
        "phrase": pgettext("between the clauses of a sentence", ", "),
        # TRANSLATORS: a note in parentheses after a text
        "aside": pgettext("a note in parentheses", "{text} ({note})"),
        # TRANSLATORS: a note in parentheses on its own
        "parens": pgettext("parentheses around a note", "({note})"),
        # TRANSLATORS: the end of a sentence that another follows
        "stop": pgettext("the end of a sentence", ". "),
        # TRANSLATORS: two sentences one after the other
        "sentences": pgettext("two sentences in a row", "{text} {then}"),
        # TRANSLATORS: a label and what it labels
        "label": pgettext("a label and its text", "{label}: {text}"),
        # TRANSLATORS: a dash between two parts of a line
        "dash": pgettext("a dash between two parts", "{text} — {then}"),
        # TRANSLATORS: quotes around a command or a path
        "quote": pgettext("quotes around a command or path", "'{text}'"),
    }


def list_text(items: Iterable[str]) -> str:
    """Items of a list as a sentence runs them on: "a, b, c" (in Chinese "a、b、c")."""
    return rules()["list"].join(items)


def clause_text(clauses: Iterable[str]) -> str:
    """Clauses of one sentence: "a; b" (in Chinese "a；b")."""
    return rules()["clause"].join(clauses)


def phrase_text(phrases: Iterable[str]) -> str:
    """Short phrases of one clause: "a, b" (in Chinese "a，b")."""
    return rules()["phrase"].join(phrases)


def aside(text: str, note: str) -> str:
    """`text` with `note` after it in parentheses: "a (b)" (in Chinese "a（b）")."""
    return rules()["aside"].format(text=text, note=note)


def labelled(label: str, text: str) -> str:
    """`text` after its label and a colon: "a: b" (in Chinese "a：b")."""
    return rules()["label"].format(label=label, text=text)


def sentences(text: str, then: str) -> str:
    """Two sentences in a row: "A. B." (in Chinese "A。B。", no space between)."""
    return rules()["sentences"].format(text=text, then=then)


def quoted(text: str) -> str:
    """A command or a path quoted: 'a' (in Chinese 「a」)."""
    return rules()["quote"].format(text=text)


def dashed(text: str, then: str) -> str:
    """Two parts of a line with a dash between: "a — b" (in Chinese "a——b")."""
    return rules()["dash"].format(text=text, then=then)


# --- units: after a number, as each language writes them ----------------------------------------
# Every view that shows a time, an offset, a tempo or a sample rate writes it through these, so
# English reads `4.85 s`, `0.0 ms`, `60/min` and `44100 Hz`, and Chinese `4.85 秒`, `0.0 毫秒`,
# `每分鐘 60 擊` (a tempo said as a phrase) or `60 擊／分鐘` (a rate as a unit) the same way
# everywhere. The number comes already written (its decimals are the view's choice); a range
# such as `60.00 → 61.00` takes its unit once, after it.
def seconds(value: str) -> str:
    """`value` seconds: 4.85 s (4.85 秒)."""
    # TRANSLATORS: a number of seconds, as a time or a length of time
    return pgettext("a unit", "{value} s").format(value=value)


def milliseconds(value: str) -> str:
    """`value` milliseconds: 12.5 ms (12.5 毫秒)."""
    # TRANSLATORS: a number of milliseconds
    return pgettext("a unit", "{value} ms").format(value=value)


def per_minute(value: str) -> str:
    """A tempo said as a phrase: 60/min (每分鐘 60 擊)."""
    # TRANSLATORS: a tempo in strokes a minute, said as a phrase (每分鐘 60 擊)
    return pgettext("a tempo", "{value}/min").format(value=value)


def rate(value: str) -> str:
    """Strokes a minute as a unit after the number, for a change or a range of tempi:
    -0.01/min, 60.00 → 61.00/min (−0.01 擊／分鐘)."""
    # TRANSLATORS: strokes a minute as a unit after a number or a range (60 擊／分鐘)
    return pgettext("a unit", "{value}/min").format(value=value)


def hertz(value: str) -> str:
    """`value` hertz: 44100 Hz."""
    # TRANSLATORS: a sample rate in hertz
    return pgettext("a unit", "{value} Hz").format(value=value)


def N_(message: str) -> str:
    """Mark `message` for the catalogs where it is written; `_` translates it where shown."""
    return message
