"""The critical apparatus: every edition's reading of one score aligned at once against a base.

`gather` collects the witnesses from the corpus and builds it (`build`, `collate`; `pair` for
two readings); `align` makes the multiple alignment; `places` is its data model (witnesses,
columns, places of variation, readings) and finds the places; `wording` says how a reading
differs; `counts` checks the stated counts; `names` names sources and editions. `table` gives it
as JSON-ready data and CSV, `tei` as a TEI P5 document (parallel segmentation), `mei` as an MEI 5
score with <app>/<rdg>, `plot` as a picture, and `groups` says who goes with whom.
"""
