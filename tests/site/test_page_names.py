"""The page names of the site: one per edition id, stable and readable in any script."""

from drumscore.site.data import MAX_SLUG_BYTES, slugify


def test_an_id_of_letters_and_digits_of_any_script_is_its_own_page_name():
    assert slugify("zhushu") == "zhushu"
    assert slugify("禮記甲") == "禮記甲"
    assert slugify("my_ed") == "my_ed"
    assert slugify("ＭｙＥｄ２") == "ｍｙｅｄ２"


def test_ids_that_differ_only_in_cjk_characters_or_in_a_separator_get_two_names():
    assert slugify("禮記甲") != slugify("禮記乙")
    assert slugify("my_ed") != slugify("my-ed")


def test_ids_that_match_get_one_name():
    # ids match without regard to case, so they name one edition and one page
    assert slugify("MyEd") == slugify("myed") == "myed"


def test_a_name_that_loses_characters_carries_a_short_hash_of_the_id():
    # a compatibility ideograph that Unicode normalisation turns into another, and a decomposed
    # accent that it composes: file systems that normalise would make them one file
    assert slugify("\uf900") != slugify("\u8c48")
    assert slugify("\uf900").startswith("\u8c48-") and len(slugify("\uf900")) == 10
    assert slugify("e\u0301d") != slugify("\u00e9d")
    long_a, long_b = "禮" * 99 + "甲", "禮" * 99 + "乙"
    assert slugify(long_a) != slugify(long_b)
    for name in (slugify(long_a), slugify("x y")):
        assert len(name.encode()) <= MAX_SLUG_BYTES + 9
    assert slugify("x y") == slugify("x y")  # stable: the same in every build
    assert slugify("x y").startswith("x-y-")
