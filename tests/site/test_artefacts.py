"""What a build makes once: the engraving workers it starts beside itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from drumscore.site.artefacts import Artefacts, _verovio, cores

#: A build's start in a process of its own: its workers started, then music21 loaded for its
#: MusicXML; what the process and a worker have loaded, and how many workers there are.
BUILD = """
import sys
from drumscore.site.artefacts import Artefacts

def loaded(name):
    return name in sys.modules

made = Artefacts(None)
import music21
names = ("music21", "drumscore.render.verovio")
print(made._pool._max_workers, *(loaded(n) for n in names))
print(*(made._pool.submit(loaded, n).result() for n in names))
made.close()
"""


@pytest.mark.skipif(cores() < 2 or not _verovio(), reason="engraves in the build on one core")
def test_the_workers_are_one_fewer_than_the_cores_and_forked_before_music21():
    """A new site's build starts its engraving workers at once, one a core beside its own, so
    that they share less of the build's memory: music21, which the build loads for its
    MusicXML, is not loaded in a worker (which engraves with Verovio alone); the engraver's
    module, which the build sets the staves' words with too, is, loaded once before the fork."""
    done = subprocess.run(
        [sys.executable, "-c", BUILD], capture_output=True, text=True, timeout=120, check=True
    )
    build, worker = (line.split() for line in done.stdout.splitlines())
    assert build == [str(cores() - 1), "True", "True"]
    assert worker == ["False", "True"]


def test_a_build_that_engraves_nothing_starts_no_worker(tmp_path):
    made = Artefacts(None, engraving=False)
    try:
        assert made._pool is None
    finally:
        made.close()


@pytest.mark.skipif(not _verovio(), reason="Verovio is not installed (the notation extra)")
def test_a_released_engraving_is_read_back_from_its_files_as_its_pages_have_it(tmp_path):
    """Once a music's pages are written its engravings are let go (a build of thousands of
    editions holds one music's at a time); asked for again (by another language's page), they
    are the files written of them, measured as the engravings were."""
    from drumscore import corpus
    from drumscore.conductor.timeline import arrange
    from drumscore.model import Section
    from drumscore.render.musicxml import musicxml_bytes

    music = musicxml_bytes(arrange(corpus.resolve("lu/1"), Section.SHE))
    made = Artefacts(None)
    try:
        key = made.request(music, 12)
        staff = made.staff(key)
        assert staff is not None and staff.phone is not None
        made.release(key)  # nothing written of it yet: kept
        assert made.staff(key) is staff
        made.write(key, tmp_path / "page.svg", staff.svg.replace(b"<svg", b"<svg data-page='1'"))
        made.write(staff.phone_key, tmp_path / "phone.svg", staff.phone)
        made.release(key)
        assert key not in made.staves and made.engravings[key][1] is None
        again = made.staff(key)
        assert again is not None and again is not staff
        assert again.svg == (tmp_path / "page.svg").read_bytes() != staff.svg
        assert again.phone == staff.phone
        measured = (again.spaces, again.phone_spaces, again.phone_first)
        assert measured == (staff.spaces, staff.phone_spaces, staff.phone_first)
    finally:
        made.close()


# --- bad input ---------------------------------------------------------------------------------


def test_an_earlier_site_with_an_unreadable_list_of_engravings_takes_none_and_starts_lazily(
    tmp_path,
):
    """An earlier site whose list of engravings is not JSON: nothing is taken from it, and no
    worker is started until an engraving is asked for."""
    from drumscore.site.artefacts import STAVES

    (tmp_path / STAVES).write_text("{not json", encoding="utf-8")
    made = Artefacts(tmp_path)
    try:
        assert made.earlier == {}
    finally:
        made.close()
