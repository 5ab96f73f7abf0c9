"""Reading Verovio's SVG back: which notehead each stroke is drawn with, in playing order."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from drumscore.render.verovio import ROUND_ID, SQUARE_GLYPH, SVG


def heads_in_order(svg: bytes) -> str:
    """○ or □ for each drawn notehead, system by system, left to right, by the symbol it draws."""
    root = ET.fromstring(svg)
    heads = []
    systems = [g for g in root.iter(f"{{{SVG}}}g") if g.get("class") == "system"]
    assert systems
    for number, group in ((n, g) for n, system in enumerate(systems) for g in system.iter()):
        if "note" not in group.get("class", "").split():
            continue
        (use,) = group.iter(f"{{{SVG}}}use")
        href = use.get("href")
        x = float(re.match(r"translate\(([-\d.]+)", use.get("transform")).group(1))
        if href == f"#{ROUND_ID}":
            heads.append((number, x, "○"))
        elif href.startswith(f"#{SQUARE_GLYPH}-"):
            heads.append((number, x, "□"))
        else:
            raise AssertionError(f"a notehead drawn with {href}")
    return "".join(h for *_, h in sorted(heads))


def round_head_size(svg: bytes | str) -> float:
    """The drawn diameter of the round (鼙) notehead in the page's own units (the outer
    viewBox's: a tenth of a millimetre), read from the ring's path, the scale each head is
    drawn at, and the viewBox that maps Verovio's units onto the page's."""
    root = ET.fromstring(svg)
    outer = float(root.get("viewBox").split()[2])
    inner = next(
        float(s.get("viewBox").split()[2])
        for s in root.iter(f"{{{SVG}}}svg")
        if s.get("class") == "definition-scale"
    )
    path = root.find(f".//{{{SVG}}}g[@id='{ROUND_ID}']/{{{SVG}}}path").get("d")
    radius = float(re.match(r"M[-\d.]+ [-\d.]+a([\d.]+)", path).group(1))
    scales = {
        float(re.search(r"scale\(([\d.]+)", use.get("transform")).group(1))
        for use in root.iter(f"{{{SVG}}}use")
        if use.get("href") == f"#{ROUND_ID}"
    }
    assert len(scales) == 1, scales  # every head alike
    return 2 * radius * scales.pop() * outer / inner
