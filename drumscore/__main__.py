"""python -m drumscore, and the console script: the signal policy first, then the command line
(whose imports take a while, and Ctrl-C may come during them)."""

from drumscore.files import signals


def run() -> None:
    """Install the signal policy (files.signals), then run the command line."""
    signals.install()
    from drumscore.cli import run as run_command_line

    run_command_line()


if __name__ == "__main__":
    run()
