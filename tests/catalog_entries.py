"""The entries of a language's catalog as the tests read them: (msgid, msgstr) of each entry,
each plural form on its own, read from its .po file once in a run (the checks that hold every
entry to a table ask for them once for each row)."""

from __future__ import annotations

import functools

from drumscore import i18n


@functools.cache
def entries(language: str) -> tuple[tuple[str, str], ...]:
    """(msgid, msgstr) of every entry of `language`'s catalog, a plural's forms each on its own
    beside the singular's msgid."""
    from babel.messages.pofile import read_po

    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "drumscore.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain="drumscore")
    found: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        found += [(ids[0], s) for s in strings]
    return tuple(found)
