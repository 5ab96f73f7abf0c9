"""Files at the edge: atomic output, audio file writing, the output format chosen by extension."""
