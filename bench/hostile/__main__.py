"""python -m bench.hostile: the campaign (see the package's docstring)."""

import sys

from . import main

sys.exit(main())
