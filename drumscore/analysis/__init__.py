"""Readings side by side: stroke alignment, two-reading comparison, collation of every edition."""
