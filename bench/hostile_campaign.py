"""The hostile user's campaign (the package bench/hostile: its runner and table, its three
parts, serve's and the browser's cases). Run: python bench/hostile_campaign.py [--only WORD]
[--recent | --since], or python -m bench.hostile from the top of the tree."""

import sys

from hostile import main

if __name__ == "__main__":
    sys.exit(main())
