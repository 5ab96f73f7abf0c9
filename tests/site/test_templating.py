"""Pages from templates: a page written as it is made (stream) is the page made whole, in the
language spoken when it was asked for, in pieces cut after a tag's end."""

from __future__ import annotations

from drumscore import corpus, i18n
from drumscore.site import data as sitedata
from drumscore.site.pages import index_page
from drumscore.site.templating import PIECE, stream


def _index(language: str):
    pool = corpus.editions()
    items = sitedata.entries(pool)
    with i18n.speaking(language):
        scores = [sitedata.listed_score(e) for e in items]
        return index_page(scores, sitedata.apparatuses(pool, items), pool)


def test_a_page_read_later_is_made_in_the_language_it_was_asked_in():
    """The index asked for in 繁體 and read after the language changed back: 繁體 throughout,
    the same page as read at once; its sources' words marked zh-Hant in every piece."""
    later = _index("zh_Hant")
    with i18n.speaking("zh_Hant"):
        at_once = "".join(_index("zh_Hant"))
    with i18n.speaking("en"):
        pieces = list(later)
    page = "".join(pieces)
    assert page == at_once
    assert '<html lang="zh-Hant">' in page and "校勘記" in page
    assert 'lang="zh"' not in page and 'lang="zh-Hant"' in page


def test_a_long_page_comes_in_pieces_each_cut_after_a_tag():
    pieces = list(_index("en"))
    assert len(pieces) > 1
    for piece in pieces[:-1]:
        assert piece.endswith(">") and len(piece) >= PIECE // 2


# --- bad input ---------------------------------------------------------------------------------


def test_an_unknown_template_is_refused_when_asked_for_not_when_read():
    import jinja2
    import pytest

    with pytest.raises(jinja2.TemplateNotFound):
        stream("no-such-page.html")


def test_a_value_a_page_lacks_is_an_error_where_it_is_read():
    """StrictUndefined: a page missing a value fails as it is written (the build's folder is
    then removed), not written with a blank."""
    import jinja2
    import pytest

    pieces = stream("languages.html", sites=[{"tag": "en"}])
    with pytest.raises(jinja2.UndefinedError):
        "".join(pieces)
