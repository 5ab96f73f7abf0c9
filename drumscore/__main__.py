"""python -m drumscore"""

from drumscore.cli import run

run()
