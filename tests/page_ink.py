"""Where the ink is on an engraved page, read from its pixels: margins and lines of text."""

from __future__ import annotations

import numpy as np

CM_PER_INCH = 2.54


def margins_cm(pixels: np.ndarray, dpi: float) -> dict[str, float]:
    """How far the ink (anything darker than light grey) stays from each edge, in centimetres."""
    ink = np.argwhere(pixels[..., :3].min(axis=2) < 200)
    (top, left), (bottom, right) = ink.min(axis=0), ink.max(axis=0)
    height, width = pixels.shape[:2]
    edges = {"top": top, "left": left, "bottom": height - 1 - bottom, "right": width - 1 - right}
    return {edge: float(px) / dpi * CM_PER_INCH for edge, px in edges.items()}


def ink_bands(ink_rows) -> list[tuple[int, int]]:
    """The runs of rows that hold ink, top to bottom: (first row, last row)."""
    bands, start = [], None
    for y, inked in enumerate([*ink_rows, False]):
        if inked and start is None:
            start = y
        elif not inked and start is not None:
            bands.append((start, y - 1))
            start = None
    return bands
