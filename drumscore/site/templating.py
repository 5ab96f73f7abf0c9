"""The site's pages and the notebook view from templates (package data, autoescaping on)."""

from __future__ import annotations

import urllib.parse

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from drumscore.i18n import _, ngettext, tag

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
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":")}
#: A link's query string, with score names kept readable (lu/2@zhushu).
TEMPLATES.filters["query"] = lambda values: urllib.parse.urlencode(values, safe="/@")


def render(name: str, **context: object) -> str:
    """One page (or the notebook view) from its template."""
    return TEMPLATES.get_template(name).render(**context)
