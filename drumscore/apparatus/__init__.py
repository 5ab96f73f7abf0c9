"""The critical apparatus: every edition's reading of one score aligned at once against a base.

`align` builds it (the multiple alignment, the places of variation, the stated-count checks);
`table` gives it as JSON-ready data and CSV, `tei` as a TEI P5 document (parallel segmentation),
`mei` as an MEI 5 score with <app>/<rdg>, and `plot` as a picture.
"""
