"""What a notebook shows for a Score or a Pattern: the notation in its shapes with 半, the counts,
and a player of the default render (the whole pattern at 60 strokes a minute), embedded.

`register` hands the views (and the apparatus's) to IPython's HTML formatter, so the model
knows nothing of them. A notebook loads them as an IPython extension, `%load_ext
drumscore.site.notebook` (load_ipython_extension); `import drumscore` never imports this module,
jinja2, numpy or soundfile.
"""

from __future__ import annotations

import base64
import io
import sys
from typing import TYPE_CHECKING, Any

from drumscore.conductor.timeline import arrange
from drumscore.model import Pattern, Score
from drumscore.site.templating import render

if TYPE_CHECKING:
    from drumscore.apparatus.places import Apparatus


def _audio(score: Score) -> dict:
    """The default render (射, 60 a minute) as FLAC, base64, with what it holds."""
    import soundfile as sf

    from drumscore.render.mix import DEFAULT_RATE, render_audio

    timeline = arrange(score)
    audio = render_audio(timeline, rate=DEFAULT_RATE)
    buffer = io.BytesIO()
    sf.write(buffer, audio, DEFAULT_RATE, format="FLAC", subtype="PCM_16")
    return {
        "data": base64.b64encode(buffer.getvalue()).decode("ascii"),
        "description": timeline.description,
        "strokes": len(timeline),
        "seconds": len(audio) / DEFAULT_RATE,
    }


def score_html(score: Score) -> str:
    """The notebook view of a score (Score.to_data, as the JSON and the site have it): title,
    name, notation, counts, source and a player."""
    pattern = score.pattern
    data = score.to_data()
    sections = {
        s.value: {"label": s.label if s.rite else s.span, "counts": str(pattern.counts(s))}
        for s in pattern.sections()
    }
    return render(
        "notebook.html",
        title=data["title"],
        all=pattern.strokes,
        half=data["half"],
        sections=sections,
        key=data["key"] if data["edition"] else "",
        citation=score.source.citation if score.source else "",
        audio=_audio(score),
    )


def pattern_html(pattern: Pattern) -> str:
    """The notebook view of a bare pattern: as for a score, without edition and source."""
    return score_html(Score(pattern, printed=pattern.notation))


def apparatus_html(a: Apparatus) -> str:
    """The notebook view of an apparatus: its summary (the words every view uses), each place,
    and every witness aligned, a text known from a note marked with who reports it."""
    return render("notebook_apparatus.html", a=a)


def register(shell: Any = None) -> bool:
    """Show Scores, Patterns and apparatuses as HTML in `shell` (the running IPython when None):
    the notebook views become IPython's text/html formatters for them (the apparatus's by name,
    so its module loads only when one is shown). True if there was a shell to take them."""
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    formatter = shell.display_formatter.formatters["text/html"]
    formatter.for_type(Score, score_html)
    formatter.for_type(Pattern, pattern_html)
    formatter.for_type_by_name("drumscore.apparatus.places", "Apparatus", apparatus_html)
    return True


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext drumscore.site.notebook`: Scores, Patterns and apparatuses show themselves."""
    register(ipython)
