"""The site's pages and the notebook view from templates (package data, autoescaping on)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from drumscore.i18n import _, ngettext, rules, tag

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
TEMPLATES.install_gettext_callables(_, ngettext, newstyle=True)  # type: ignore[attr-defined]
TEMPLATES.globals["lang"] = tag
#: The joins of a sentence by the language's rule (i18n.rules), a value escaped, markup kept.
TEMPLATES.globals["sep"] = lambda kind: rules()[kind]
TEMPLATES.globals["list_text"] = lambda items: Markup(rules()["list"]).join(items)
TEMPLATES.globals["clause_text"] = lambda items: Markup(rules()["clause"]).join(items)


def _joining(kind: str) -> Callable[..., Markup]:
    """A rule of i18n.rules that fills its fields, for a template: `aside(text, note)`."""
    return lambda **fields: Markup(rules()[kind]).format(**fields)


TEMPLATES.globals["aside"] = lambda text, note: _joining("aside")(text=text, note=note)
TEMPLATES.globals["parens"] = lambda note: _joining("parens")(note=note)
TEMPLATES.globals["labelled"] = lambda label, text: _joining("label")(label=label, text=text)
TEMPLATES.globals["sentences"] = lambda text, then: _joining("sentences")(text=text, then=then)
TEMPLATES.globals["dashed"] = lambda text, then: _joining("dash")(text=text, then=then)
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":")}
#: A link's query string, with score names kept readable (lu/2@zhushu).
TEMPLATES.filters["query"] = lambda values: urllib.parse.urlencode(values, safe="/@")


def render(name: str, **context: object) -> str:
    """One page (or the notebook view) from its template."""
    return TEMPLATES.get_template(name).render(**context)
