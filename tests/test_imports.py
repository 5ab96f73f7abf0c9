"""Start-up stays light: importing drumscore or asking for help loads neither music21 nor numpy,
and only notation output imports music21."""

import subprocess
import sys

CHECK = """
import sys
{code}
heavy = sorted(m for m in ("music21", "numpy", "matplotlib", "sounddevice", "soundfile", "mido",
                           "verovio", "cairosvg")
               if m in sys.modules)
print("loaded:" + ",".join(heavy))
"""


def loaded_after(code: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(code=code)], capture_output=True, text=True, check=True
    )
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("loaded:")
    return [m for m in line.removeprefix("loaded:").split(",") if m]


def test_import_drumscore_is_light():
    assert loaded_after("import drumscore") == []


def test_parsing_and_the_corpus_need_no_heavy_import():
    code = "import drumscore\nfrom drumscore import corpus\ncorpus.resolve('lu').pattern.counts()"
    assert loaded_after(code) == []


def test_help_does_not_import_music21_or_numpy():
    code = (
        "from drumscore.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "try:\n    main(['render', '--help'])\nexcept SystemExit:\n    pass"
    )
    assert loaded_after(code) == []


def test_the_notation_modules_import_music21_only_when_called():
    code = (
        "import drumscore.render.musicxml, drumscore.render.musescore, drumscore.cli.staff_output\n"
        "import drumscore.render.verovio\n"
        "from drumscore.cli import build_parser\n"
        "build_parser().format_help()"
    )
    loaded = loaded_after(code)
    assert "music21" not in loaded and "verovio" not in loaded and "cairosvg" not in loaded


def rendering(out) -> str:
    argv = ["render", "lu", "-q", "-o", str(out)]
    return f"from drumscore.cli import main\nassert main({argv!r}) == 0"


def test_rendering_midi_does_not_import_music21(tmp_path):
    out = tmp_path / "x.mid"
    assert "music21" not in loaded_after(rendering(out))
    assert out.read_bytes().startswith(b"MThd")


def test_rendering_musicxml_does_import_music21(tmp_path):
    out = tmp_path / "x.musicxml"
    assert "music21" in loaded_after(rendering(out))
    assert out.exists()
