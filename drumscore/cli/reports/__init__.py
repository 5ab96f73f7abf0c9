"""Every text and JSON rendering of results that the command line prints, one module per command:
scores (list, show), compare, apparatus (collate), extract, check (check, play --check) and render
(render --json). Only drumscore/cli prints; these make the text it prints.
"""
