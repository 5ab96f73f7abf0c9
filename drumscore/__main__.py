"""python -m drumscore"""

from .cli import run

run()
