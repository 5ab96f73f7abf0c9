"""Listening to a performance: the strokes heard in a recording or a MIDI file, and how evenly
they were played against a score (drumscore check)."""
