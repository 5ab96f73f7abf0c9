"""The notebook view of a Score and a Pattern: notation in its shapes with 半, a player holding
the default render, and its registration with IPython's HTML formatter."""

from __future__ import annotations

import base64
import io
import re
import subprocess
import sys

import numpy as np
import soundfile as sf

import drumscore
from drumscore import corpus
from drumscore.conductor.timeline import arrange
from drumscore.model import Pattern, Score
from drumscore.render.mix import render_audio
from drumscore.site.notebook import apparatus_html, pattern_html, register, score_html


def glyphs(markup: str) -> str:
    return "".join(re.findall(r'<span class="(?:pi|gu|nb-half)"[^>]*>([○□半])</span>', markup))


def embedded_audio(markup: str):
    data = re.search(r'src="data:audio/flac;base64,([A-Za-z0-9+/=]+)"', markup).group(1)
    return sf.read(io.BytesIO(base64.b64decode(data)), dtype="float32", always_2d=True)


def test_a_score_shows_its_notation_name_source_and_player():
    score = corpus.resolve("lu")
    markup = score_html(score)
    assert glyphs(markup) == score.pattern.notation
    assert "lu/1@zhushu" in markup and score.source.citation in markup
    audio, rate = embedded_audio(markup)
    expected = render_audio(arrange(score))
    assert rate == 44100 and audio.shape == expected.shape
    assert np.max(np.abs(audio - expected)) < 1.5 / 32767  # the same render, in 16 bits


def test_a_pattern_without_half_shows_one_part():
    pattern = drumscore.parse("○□□○")
    markup = pattern_html(pattern)
    assert glyphs(markup) == "○□□○" and "半" not in glyphs(markup)
    audio, rate = embedded_audio(markup)
    assert len(audio) > 3 * rate


class _Formatter:
    """IPython's HTML formatter as far as register uses it: a function per type."""

    def __init__(self) -> None:
        self.types: dict[object, object] = {}

    def for_type(self, cls, func):
        self.types[cls] = func

    def for_type_by_name(self, module, name, func):
        self.types[f"{module}.{name}"] = func


class _Shell:
    def __init__(self) -> None:
        self.html = _Formatter()
        self.display_formatter = type("D", (), {"formatters": {"text/html": self.html}})()


def test_register_hands_the_view_to_ipython_s_html_formatter():
    shell = _Shell()
    assert register(shell) is True
    assert shell.html.types == {
        Score: score_html,
        Pattern: pattern_html,
        "drumscore.apparatus.places.Apparatus": apparatus_html,
    }


def test_importing_drumscore_in_ipython_loads_no_view_and_the_extension_registers_it():
    """With IPython running, `import drumscore` loads neither the notebook views nor jinja2;
    `%load_ext drumscore.site.notebook` (load_ipython_extension) registers them."""
    script = """
import sys, types
shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={}))
seen = {}
shell.display_formatter.formatters["text/html"] = types.SimpleNamespace(
    for_type=lambda cls, f: seen.setdefault(cls.__name__, f.__name__),
    for_type_by_name=lambda module, name, f: seen.setdefault(name, f.__name__))
sys.modules["IPython"] = types.SimpleNamespace(get_ipython=lambda: shell)
import drumscore
print(sorted(seen.items()), "drumscore.site.notebook" in sys.modules, "jinja2" in sys.modules)
if sys.argv[1] == "load_ext":
    import importlib
    importlib.import_module("drumscore.site.notebook").load_ipython_extension(shell)
    print(sorted(seen.items()))
"""
    ran = {
        mode: subprocess.run(
            [sys.executable, "-c", script, mode], capture_output=True, text=True, check=True
        ).stdout.strip()
        for mode in ("import", "load_ext")
    }
    assert ran["import"] == "[] False False"
    assert ran["load_ext"] == (
        "[] False False\n"
        "[('Apparatus', 'apparatus_html'), ('Pattern', 'pattern_html'), ('Score', 'score_html')]"
    )


def test_the_core_has_no_notebook_hook():
    """Bad input for the old hook: the model no longer carries the view itself."""
    from drumscore.apparatus.places import Apparatus

    assert not any(hasattr(c, "_repr_html_") for c in (Score, Pattern, Apparatus))


def test_an_apparatus_shows_its_summary_and_a_row_for_every_witness():
    from drumscore.apparatus.gather import collate

    (a,) = collate(scores=[(2, "魯")])
    markup = apparatus_html(a)
    assert a.summary in markup
    rows = re.findall(r"<tr><th[^>]*>(.*?)</th>(.*?)</tr>", markup)
    assert len(rows) == len(a.witnesses)
    for (name, cells), w in zip(rows, a.witnesses, strict=True):
        assert name.startswith(w.siglum)
        assert ("reported in yishu" in name) == w.reported
        assert "".join(re.findall(r"<td>([○□半])</td>", cells)) == w.notation
