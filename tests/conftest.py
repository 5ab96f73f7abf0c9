"""Fixtures every test folder can use: the command line run in-process, the one shape of a
bad-input error, and the source passages in tests/sources/.

The helpers behind them (cli_run, sourcefiles) can still be imported by bare name.
"""

from collections.abc import Callable

import cli_run
import pytest
import sourcefiles


@pytest.fixture
def cli(capsys) -> Callable[..., tuple[int, str, str]]:
    """cli("render", "lu", "-o", path): exit status, stdout and stderr of drumscore."""
    return lambda *argv: cli_run.run_cli([str(a) for a in argv], capsys)


@pytest.fixture
def expect_error(capsys) -> Callable[..., str]:
    """expect_error("render", "○X"): stderr of a run that fails as bad input (exit 2, one line
    starting "drumscore: error:", no traceback)."""
    return lambda *argv: cli_run.expect_error([str(a) for a in argv], capsys)


@pytest.fixture
def source_text() -> Callable[[str], str]:
    """source_text(NAME): the text of a source passage in tests/sources/."""
    return sourcefiles.source_text
