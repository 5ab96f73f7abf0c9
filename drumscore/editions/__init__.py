"""Editions' own texts: markup and notes cleaned, encodings, the scores found, edition files."""
