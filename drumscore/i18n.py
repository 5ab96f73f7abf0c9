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

A value the English message quotes with `{name!r}` (a name, a path, a number as typed) is written
by the Chinese catalogs in 「{name}」. What `!r` does besides quoting — a newline, a tab or another
control character shown escaped, so the message stays one line — the message does for every
language: `_`, `ngettext` and `pgettext` return a `Message`, whose `format` hands each value of a
field the English converts with `!r` over as a `Shown`, formatted escaped in every placeholder.
"""

from __future__ import annotations

import contextvars
import difflib
import functools
import gettext
import os
import re
import string
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


def chinese() -> bool:
    """Whether the reader's language is Chinese (繁體 or 简体): its views cite editions by their
    short names, word the apparatus as a 校勘記 and write numerals and ranges as Chinese does."""
    return language().startswith("zh")


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


T = TypeVar("T")


def each_language(make: Callable[[T], str]) -> Callable[[T], str]:
    """`make(value)` (a value's words: a citation, say) composed once for each value and
    language, and kept: a site cites a score in every file it writes of it."""

    @functools.lru_cache(maxsize=1024)
    def composed(value: T, speaking: str) -> str:
        return make(value)

    @functools.wraps(make)
    def made(value: T) -> str:
        return composed(value, language())

    return made


class Shown(str):
    """A value as a message shows it: `str` of it (in 「{name}」) as `repr` of it without the
    quotes, a newline, tab, escape or other control character written as Python writes it (\\n,
    \\t, \\x1b); `repr` of it as of the plain string."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(_escaped(str.__str__(self)), spec)

    def __str__(self) -> str:
        return _escaped(str.__str__(self))


def _escaped(text: str) -> str:
    """`text` with every character that is not printable written as repr writes it."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@functools.lru_cache(maxsize=4096)
def _quoted_fields(message: str) -> frozenset[str]:
    """The fields of a message (its English) that it converts with !r (or %(name)r)."""
    found = set(re.findall(r"%\((\w+)\)r", message))  # argparse's %(value)r
    try:
        parsed = list(string.Formatter().parse(message))
    except ValueError:  # a message with a lone brace, never formatted
        return frozenset(found)
    return frozenset(found | {name for _text, name, _spec, how in parsed if name and how == "r"})


class Message(str):
    """A message in the current language that remembers which of its fields the English quotes
    with !r: `format` shows their string values as `Shown` (one line) in every language."""

    __slots__ = ("quoted_fields",)
    quoted_fields: frozenset[str]

    def __new__(cls, text: str, english: str = "") -> Message:
        made = super().__new__(cls, text)
        made.quoted_fields = _quoted_fields(english)
        return made

    def format(self, *args: object, **kwargs: object) -> str:
        if self.quoted_fields:
            args = tuple(
                Shown(a) if str(i) in self.quoted_fields and isinstance(a, str) else a
                for i, a in enumerate(args)
            )
            kwargs = {
                k: Shown(v) if k in self.quoted_fields and isinstance(v, str) else v
                for k, v in kwargs.items()
            }
        return str.format(self, *args, **kwargs)

    def __mod__(self, values: object) -> str:
        if self.quoted_fields and isinstance(values, Mapping):
            values = {
                k: Shown(v) if k in self.quoted_fields and isinstance(v, str) else v
                for k, v in values.items()
            }
        return str.__mod__(self, values)


def _(message: str) -> str:
    """`message` in the current language."""
    return Message(_catalog(language()).gettext(message), message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for a count `n`, in the current language."""
    return Message(_catalog(language()).ngettext(singular, plural, n), singular + plural)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, where the same English reads two ways (a context)."""
    return Message(_catalog(language()).pgettext(context, message), message)


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
    """`text` with `note` after it in parentheses: "a (b)" (in Chinese "a（b）"); a note that
    holds parentheses of its own has them as 〔〕 inside （）, as Chinese nests them."""
    rule = rules()["aside"]
    if "（" in rule and "（" in note:
        note = note.replace("（", "〔").replace("）", "〕")
    return rule.format(text=text, note=note)


def labelled(label: str, text: str) -> str:
    """`text` after its label and a colon: "a: b" (in Chinese "a：b")."""
    return rules()["label"].format(label=label, text=text)


def sentences(text: str, then: str) -> str:
    """Two sentences in a row: "A. B." (in Chinese "A。B。", no space between)."""
    return rules()["sentences"].format(text=text, then=then)


def quoted(text: str) -> str:
    """A command, a path or a value quoted: 'a' (in Chinese 「a」), on one line (`Shown`)."""
    return rules()["quote"].format(text=Shown(text))


def dashed(text: str, then: str) -> str:
    """Two parts of a line with a dash between: "a — b" (in Chinese "a——b")."""
    return rules()["dash"].format(text=text, then=then)


#: Each traditional character the sources and their names write (editions, citations,
#: commentators, states' labels, section names, titles, the witnesses' notes), and below it at the
#: same place its simplified form, one for one as OpenCC t2s writes each; 乾 and 榦 are left out:
#: 乾隆 and 黃榦 keep them in simplified text too. The one table of the two scripts:
#: tests/test_i18n.py holds it to OpenCC and to every name of the corpus.
TRADITIONAL = (
    "並亂來倉個側傑備傳傷僞儀優兇內兩別則剛劉動勝勸勻協卻參叢吳呂問喪嚴囪國圓圖執堅報塤墾壇壞壺夾"
    "奪孫學宮實審寫寶將專尋對屍屨屬嶽帥師帶幣幹庫廁廂廟廢廣廬張彄彌彥後徑從復徵徹悅惡慤慶憂憑應懼"
    "戰戶挾採換搖撲擇擊據擻擼敗敵數斂斬於時晉暘書會東棄楊榮樂標橫櫻欽歟歡歸殘殯毆決沒況淵湊準溫滿"
    "潔潛瀆災為無營爲牆狀狹猶獲獵獻畢畫異當發盡盤眾矇禡禮禰禱種稱積穎節範簡簫籌籤籩紀約紆納純紙級"
    "細紹終絃結絞絰經綱綺緊緦編緩練縛縣縮縱總繼繾續纚罰羆羣義習聖聞聰聲職聽肅脩脫膚臘臺與興舉舊舘"
    "蓋薦藝蘊蘋處虛號虧衆衛裏補複褻襲見視親覲觀觴觶觸計訊訓訖記設許註証詒詔詞詢詩詮詳誅語誤誥說説"
    "談請論諳諶諸諾謀謂謙講謠證識譙譜譽讀變讓豈豐貍貟負貢貪貶費賀賈賓賜賞賢賤質贊趙趨踰躋躍車軍載"
    "輒輕輿辭辯農連進過達遙遜遞遠適遷選遺還鄉鄭鄰釋鈞鈧鉞銘鋒鋪鋭錄錯録鍵鏜鐘長門閉開閒間閣閱闊闔"
    "闕闖闢陰陳陸陽階隨隻雖雙離難雲韋韓頁頂頃順須預頒頓頗領頭頴頸頻題類風飲餉養餘餚饗馬馮騎騶驚驛"
    "體鬥魚魯鮮鳴鴆鶚鷺黃點黨齊齋齒齡"
)
SIMPLIFIED = (
    "并乱来仓个侧杰备传伤伪仪优凶内两别则刚刘动胜劝匀协却参丛吴吕问丧严囱国圆图执坚报埙垦坛坏壶夹"
    "夺孙学宫实审写宝将专寻对尸屦属岳帅师带币干库厕厢庙废广庐张𫸩弥彦后径从复征彻悦恶悫庆忧凭应惧"
    "战户挟采换摇扑择击据擞撸败敌数敛斩于时晋旸书会东弃杨荣乐标横樱钦欤欢归残殡殴决没况渊凑准温满"
    "洁潜渎灾为无营为墙状狭犹获猎献毕画异当发尽盘众蒙祃礼祢祷种称积颖节范简箫筹签笾纪约纡纳纯纸级"
    "细绍终弦结绞绖经纲绮紧缌编缓练缚县缩纵总继缱续𫄥罚罴群义习圣闻聪声职听肃修脱肤腊台与兴举旧馆"
    "盖荐艺蕴苹处虚号亏众卫里补复亵袭见视亲觐观觞觯触计讯训讫记设许注证诒诏词询诗诠详诛语误诰说说"
    "谈请论谙谌诸诺谋谓谦讲谣证识谯谱誉读变让岂丰狸贠负贡贪贬费贺贾宾赐赏贤贱质赞赵趋逾跻跃车军载"
    "辄轻舆辞辩农连进过达遥逊递远适迁选遗还乡郑邻释钧钪钺铭锋铺锐录错录键镗钟长门闭开闲间阁阅阔阖"
    "阙闯辟阴陈陆阳阶随只虽双离难云韦韩页顶顷顺须预颁顿颇领头颕颈频题类风饮饷养余肴飨马冯骑驺惊驿"
    "体斗鱼鲁鲜鸣鸩鹗鹭黄点党齐斋齿龄"
)
_T2S = str.maketrans(TRADITIONAL, SIMPLIFIED)


def simplified(text: str) -> str:
    """`text` with each traditional character of the table in its simplified form, whatever the
    language: also the key that matches a name under both scripts (吳澄本 and 吴澄本)."""
    return text.translate(_T2S)


#: The Chinese numerals, 0 to 10, for a heading that writes them (魯鼓第一圖).
_NUMERALS = "〇一二三四五六七八九十"


def number_range(first: int, last: int) -> str:
    """Numbers `first` to `last` (strokes, lines, years) as the reader's language writes a range:
    `11–12`, in Chinese `11～12` (as docs/languages.md writes every range); `11` for one."""
    if first == last:
        return str(first)
    # TRANSLATORS: a range of numbers: strokes, lines or years (Chinese: 11～12, 642～653)
    return pgettext("a range of numbers", "{first}–{last}").format(first=first, last=last)


_RANGE = re.compile(r"(?<![\d-])(\d+)-(\d+)(?![\d-])")


def ranges(text: str) -> str:
    """A text of data (a date `1130-1200`, lines `437-452`) as the reader's view writes it: in
    Chinese each range of numbers with number_range (`1130～1200`); as it is in English."""
    if not chinese():
        return text
    return _RANGE.sub(lambda m: number_range(int(m[1]), int(m[2])), text)


def numeral(n: int) -> str:
    """`n` as a figure's number is written in the reader's language: in Chinese numerals up
    to ten (第一圖, 第二圖), else in digits (figure 1)."""
    if chinese() and 0 <= n < len(_NUMERALS):
        return _NUMERALS[n]
    return str(n)


def headed(title: str, key: str) -> str:
    """A heading with the name that finds its score again: "title    [lu/1@zhushu]" (in
    Chinese "title（lu/1@zhushu）")."""
    # TRANSLATORS: a view's heading and the name that finds the score (Chinese: in （）)
    return pgettext("a heading and its name", "{title}    [{key}]").format(title=title, key=key)


def written(text: str) -> str:
    """Prose in the reader's script: a name of the sources (an edition, its citation, a
    commentator, a reading, a state's label, a section, a title) simplified for 简体, as given
    in any other language. Quotations 「…」 of printed text, the score's signs and the variant
    readings keep their printed forms, so they never go through here."""
    return simplified(text) if language() == "zh_Hans" else text


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
