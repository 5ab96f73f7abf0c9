"""Start-up stays light: importing drumscore or asking for help loads neither music21 nor numpy,
nor the model, the corpus or wcwidth's tables; and only notation output imports music21."""

import functools
import subprocess
import sys

#: What neither `import drumscore` nor `drumscore --help` loads: the model and what reads notation
#: (their first use loads them), the corpus, and wcwidth (80 ms of tables; help's Chinese and
#: symbols are measured from Python's own, display.plain_columns).
STARTUP_FREE = (
    "wcwidth",
    "dataclasses",
    "fractions",
    "drumscore.model",
    "drumscore.notation",
    "drumscore.glyphs",
    "drumscore.timing",
    "drumscore.corpus",
)

CHECK = """
import sys
{code}
print("startup:" + ",".join(m for m in {startup!r} if m in sys.modules))
heavy = sorted(m for m in ("music21", "numpy", "matplotlib", "sounddevice", "soundfile", "mido",
                           "verovio", "cairosvg", "babel", "opencc", "librosa", "scipy")
               if m in sys.modules)
print("loaded:" + ",".join(heavy))
"""


@functools.cache
def output_lines(code: str) -> tuple[str, ...]:
    """What `code` prints in a fresh interpreter, then which of STARTUP_FREE it loaded (the line
    before the last) and the heavy modules it loaded (the last line); run once for every test
    that asks of the same code."""
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(code=code, startup=STARTUP_FREE)],
        capture_output=True,
        text=True,
        check=True,
    )
    return tuple(result.stdout.strip().splitlines())


def _listed(line: str, name: str) -> list[str]:
    assert line.startswith(f"{name}:"), line
    return [m for m in line.removeprefix(f"{name}:").split(",") if m]


def loaded_after(code: str) -> list[str]:
    return _listed(output_lines(code)[-1], "loaded")


def startup_loads(code: str) -> list[str]:
    """Which of STARTUP_FREE a fresh interpreter has loaded after running `code`."""
    return _listed(output_lines(code)[-2], "startup")


def test_import_drumscore_is_light():
    assert loaded_after("import drumscore") == []


def test_parsing_and_the_corpus_need_no_heavy_import():
    code = "import drumscore\nfrom drumscore import corpus\ncorpus.resolve('lu').pattern.counts()"
    assert loaded_after(code) == []


#: drumscore --help, what it loaded of the commands, then drumscore render --help (the help
#: itself unprinted).
HELP = (
    "from drumscore.cli import main\n"
    "import contextlib, io, sys\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
    "extra = ('jinja2', 'http.server', 'drumscore.site.build', 'drumscore.cli.options')\n"
    "print('commands:' + ','.join(sorted(m for m in sys.modules\n"
    "      if m.startswith('drumscore.cli.commands.') or m in extra)))\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n        main(['render', '--help'])\n    except SystemExit:\n        pass"
)


def test_help_does_not_import_music21_or_numpy():
    assert loaded_after(HELP) == []


def test_import_drumscore_loads_neither_the_model_nor_wcwidth():
    assert startup_loads("import drumscore") == []


def test_help_in_english_and_in_chinese_loads_neither_the_model_nor_wcwidth():
    for lang in ("en", "zh-Hant"):
        code = (
            "from drumscore.cli import main\n"
            f"try:\n    main(['--lang', {lang!r}, '--help'])\nexcept SystemExit:\n    pass"
        )
        assert startup_loads(code) == [], lang


def test_the_model_s_names_load_it_on_first_use():
    code = (
        "import drumscore, sys\n"
        "assert 'drumscore.model' not in sys.modules\n"
        "assert drumscore.parse('○□半○').half == 2 and drumscore.Drum.PI.symbol == '○'\n"
        "assert drumscore.Pattern is sys.modules['drumscore.model'].Pattern\n"
        "assert drumscore.Tempo is sys.modules['drumscore.timing'].Tempo"
    )
    assert set(startup_loads(code)) >= {"drumscore.model", "drumscore.notation"}


def test_help_loads_no_command_module_nor_what_they_need():
    assert output_lines(HELP)[-3] == "commands:"  # after drumscore --help
    assert loaded_after(HELP) == []


def test_no_command_s_help_loads_a_heavy_module_nor_the_site_builder():
    code = (
        "from drumscore.cli import COMMANDS, main\n"
        "import contextlib, io, sys\n"
        "for name, _module, _line in COMMANDS:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        try:\n            main([name, '--help'])\n        except SystemExit:\n"
        "            pass\n"
        "print('builder:' + ','.join(m for m in ('jinja2', 'http.server', 'drumscore.site.build')\n"
        "                           if m in sys.modules))"
    )
    assert output_lines(code)[-3] == "builder:"
    assert loaded_after(code) == []


def test_a_command_loads_its_own_module_alone():
    code = (
        "from drumscore.cli import main\n"
        "try:\n    main(['show', '--help'])\nexcept SystemExit:\n    pass\n"
        "import sys\n"
        "print('commands:' + ','.join(sorted(m for m in sys.modules\n"
        "      if m.startswith('drumscore.cli.commands.'))))"
    )
    assert output_lines(code)[-3] == "commands:drumscore.cli.commands.corpus"


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


def test_rendering_audio_loads_neither_the_engravers_nor_the_terminal_s_width_tables(tmp_path):
    out = tmp_path / "x.wav"
    unwanted = (
        "wcwidth",
        "drumscore.render.verovio",
        "drumscore.render.musescore",
        "urllib.request",
    )
    code = (
        f"{rendering(out)}\nimport sys\n"
        f"print('unwanted:' + ','.join(m for m in {unwanted!r} if m in sys.modules))"
    )
    assert output_lines(code)[-3] == "unwanted:"
    assert loaded_after(code) == ["numpy", "soundfile"]
    assert out.read_bytes()[:4] == b"RIFF"


def test_rendering_musicxml_does_import_music21(tmp_path):
    out = tmp_path / "x.musicxml"
    assert "music21" in loaded_after(rendering(out))
    assert out.exists()


def test_the_heavy_api_is_reachable_from_the_top_package_on_first_use():
    code = (
        "import drumscore, sys\n"
        "assert 'drumscore.render.mix' not in sys.modules\n"
        "for name in ('resolve', 'arrange', 'render_audio', 'to_midi', 'write_audio', 'compare',"
        " 'collate', 'extract', 'musicxml_bytes', 'Timeline'):\n"
        "    assert name in dir(drumscore) and name in drumscore.__all__, name\n"
        "timeline = drumscore.arrange(drumscore.resolve('lu'), 'touhu')\n"
        "audio = drumscore.render_audio(timeline)\n"
        "assert audio.shape[1] == 2 and len(drumscore.to_midi(timeline).tracks) == 2\n"
        "assert drumscore.render_audio is sys.modules['drumscore.render.mix'].render_audio"
    )
    assert "music21" not in loaded_after(code)


def test_an_unknown_name_is_an_attribute_error():
    code = (
        "import drumscore\n"
        "try:\n    drumscore.no_such_thing\nexcept AttributeError as e:\n"
        "    assert 'no_such_thing' in str(e)\nelse:\n    raise SystemExit('no error')"
    )
    assert loaded_after(code) == []


def test_help_is_an_index_of_the_public_api():
    import drumscore

    doc = drumscore.__doc__
    for name in ("parse", "resolve", "arrange", "render_audio", "to_midi", "write_audio"):
        assert f"{name}(" in doc, name
    for name in ("compare", "collate", "extract"):
        assert f"{name}(" in doc, name
