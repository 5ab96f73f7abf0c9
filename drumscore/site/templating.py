"""The site's pages and the notebook view from templates (package data, autoescaping on)."""

from __future__ import annotations

import contextvars
import re
import urllib.parse
from collections.abc import Callable, Iterator

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from drumscore.i18n import _, language, ngettext, numeral, pgettext, ranges, rules, tag, written
from drumscore.model import Section

#: The templates, HTML-escaped wherever they show a value; an unknown name is an error.
TEMPLATES = Environment(
    loader=PackageLoader("drumscore.site", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    extensions=["jinja2.ext.i18n"],
)
#: _("…") and ngettext in templates speak the current language (newstyle: %(name)s, escaped).
TEMPLATES.install_gettext_callables(  # type: ignore[attr-defined]
    _, ngettext, newstyle=True, pgettext=pgettext
)
TEMPLATES.globals["lang"] = tag
#: A section by its id, named as every view names it (Section.shown: 投壺, 射, 半以前 in Chinese);
#: anything else (半, the place of the mark) as it is.
TEMPLATES.globals["shown"] = lambda section: (
    Section(section).shown if section in {s.value for s in Section} else section
)
#: A name of the sources in the page's prose, in its script (i18n.written).
TEMPLATES.globals["written"] = written
#: A figure's number as the page's language writes it (第一圖 in Chinese, figure 1).
TEMPLATES.globals["numeral"] = numeral
#: A text of data (lines 437-452) with its ranges of numbers as the page's language writes them.
TEMPLATES.globals["ranges"] = ranges
#: The rules of each language, read from its catalog once (a page joins text hundreds of times).
_RULES: dict[str, dict[str, str]] = {}


def rule(kind: str) -> str:
    """i18n.rules()[kind] in the current language."""
    speaking = language()
    found = _RULES.get(speaking)
    if found is None:
        found = _RULES[speaking] = rules()
    return found[kind]


#: The joins of a sentence by the language's rule (i18n.rules), a value escaped, markup kept.
TEMPLATES.globals["sep"] = rule
TEMPLATES.globals["list_text"] = lambda items: Markup(rule("list")).join(items)
TEMPLATES.globals["clause_text"] = lambda items: Markup(rule("clause")).join(items)


def _joining(kind: str) -> Callable[..., Markup]:
    """A rule of i18n.rules that fills its fields, for a template: `aside(text, note)`."""
    return lambda **fields: Markup(rule(kind)).format(**fields)


TEMPLATES.globals["aside"] = lambda text, note: _joining("aside")(text=text, note=note)
TEMPLATES.globals["parens"] = lambda note: _joining("parens")(note=note)
TEMPLATES.globals["labelled"] = lambda label, text: _joining("label")(label=label, text=text)
TEMPLATES.globals["sentences"] = lambda text, then: _joining("sentences")(text=text, then=then)
TEMPLATES.globals["dashed"] = lambda text, then: _joining("dash")(text=text, then=then)
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":")}
#: A link's query string, with score names kept readable (lu/2@zhushu).
TEMPLATES.filters["query"] = lambda values: urllib.parse.urlencode(values, safe="/@")


#: The language of the sources' words (鼙, 鼓, 半, a quotation, an edition's name), marked
#: `lang="zh"` in the templates and messages: written out as the Chinese of the page (so a
#: browser takes the faces of its script), and on an English page as the sources' 繁體.
SOURCE_LANG = re.compile(r'lang=(\\?)"zh\1"')


def source_lang() -> str:
    """The tag of the sources' words on a page in the current language (see SOURCE_LANG)."""
    return tag() if tag().startswith("zh-") else "zh-Hant"


#: The most of a page held before it is handed on (characters): a page of thousands of editions
#: is written as it is made, not held whole.
PIECE = 1 << 16


def stream(name: str, **context: object) -> Iterator[str]:
    """One page from its template, in pieces of about PIECE characters, each cut after a tag's
    end (so no `lang="zh"` is cut in two); made in the language speaking at the call, however
    late the pieces are read."""
    made = contextvars.copy_context()
    parts = TEMPLATES.get_template(name).generate(**context)
    chinese = made.run(source_lang)

    def sourced(text: str) -> str:
        return SOURCE_LANG.sub(lambda m: f'lang={m[1]}"{chinese}{m[1]}"', text)

    def pieces() -> Iterator[str]:
        held: list[str] = []
        size = 0
        while (part := made.run(next, parts, None)) is not None:
            held.append(part)
            size += len(part)
            if size >= PIECE:
                text = "".join(held)
                cut = text.rfind(">") + 1
                yield sourced(text[:cut])
                held, size = [text[cut:]], len(text) - cut
        yield sourced("".join(held))

    return pieces()


def render(name: str, **context: object) -> str:
    """One page (or the notebook view) from its template, whole."""
    return "".join(stream(name, **context))
