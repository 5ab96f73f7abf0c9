"""The signal policy: a signal inside held() is raised when the block ends, never lost; a second
signal while the first unwinds is not raised again; each gives the status 128 + its number."""

from __future__ import annotations

import signal

import pytest

from drumscore.files import signals


@pytest.fixture
def policy():
    previous = signals.install()
    try:
        with signals.raising():
            yield
    finally:
        signals.restore(previous)


def test_a_signal_inside_held_is_raised_when_the_block_ends(policy):
    reached = []
    with pytest.raises(signals.Interrupted) as info, signals.held():
        signal.raise_signal(signal.SIGTERM)
        reached.append("after the signal")
    assert reached == ["after the signal"]
    assert info.value.signum == signal.SIGTERM and info.value.status == 143


def test_a_second_signal_while_the_first_unwinds_is_not_raised(policy):
    cleaned = []
    with pytest.raises(signals.Interrupted) as info:
        try:
            signal.raise_signal(signal.SIGINT)
        finally:
            signal.raise_signal(signal.SIGTERM)  # during the clean-up
            cleaned.append(True)
    assert cleaned == [True]
    assert info.value.status == 130


def test_held_also_holds_a_host_programs_own_handler():
    came = []
    previous = signal.signal(signal.SIGTERM, lambda n, f: came.append(n))
    try:
        with signals.held():
            signal.raise_signal(signal.SIGTERM)
            assert came == []
        assert came == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_every_status_has_its_line():
    assert signals.line(130) == "drumscore: interrupted"
    assert "SIGTERM" in signals.line(143) and "SIGHUP" in signals.line(129)


def test_ctrl_c_ends_only_the_block_and_the_next_signal_counts_again(policy):
    with signals.ctrl_c_stops():
        signal.raise_signal(signal.SIGINT)
    with pytest.raises(signals.Interrupted) as info, signals.ctrl_c_stops():
        signal.raise_signal(signal.SIGTERM)
    assert info.value.status == 143


class _Finalized:
    """An object whose finalizer is where the signal comes (Python cannot raise through it)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __del__(self) -> None:
        signal.raise_signal(self.signum)
        sum(range(100))  # the handler runs here, inside the finalizer


def test_a_signal_that_comes_in_a_finalizer_is_raised_when_the_run_ends_unprinted(capsys):
    previous = signals.install()
    went_on = []
    try:
        with pytest.raises(signals.Interrupted) as info, signals.raising():
            thing = _Finalized(signal.SIGTERM)
            del thing
            went_on.append(True)  # the finalizer's exception is not raised here
            # meanwhile the next signal counts: a second one is raised where it comes
            with pytest.raises(signals.Interrupted) as second:
                signal.raise_signal(signal.SIGHUP)
            assert second.value.signum == signal.SIGHUP
    finally:
        signals.restore(previous)
    assert went_on == [True]
    assert info.value.signum == signal.SIGTERM and info.value.status == 143
    assert capsys.readouterr().err == ""  # no "Exception ignored" traceback


def test_a_signal_wrapped_by_python_in_another_error_is_found_as_the_signal():
    """Python wraps what a field's __set_name__ raises while a class is made in a RuntimeError:
    a SIGTERM that lands there while a command's module loads is found as the signal."""
    interrupted = signals.Interrupted(signal.SIGTERM)
    try:
        try:
            raise interrupted
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from exc
    except RuntimeError as wrapped:
        assert signals.interrupt_in(wrapped) is interrupted
    assert signals.interrupt_in(RuntimeError("a real fault")) is None


def test_main_ends_a_run_whose_signal_came_wrapped_with_the_signal_s_line_and_status(
    monkeypatch, capsys
):
    from drumscore import cli

    def stopped_while_loading(argv):
        try:
            raise signals.Interrupted(signal.SIGTERM)
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__") from exc

    monkeypatch.setattr(cli, "_main", stopped_while_loading)
    assert cli.main(["list"]) == 128 + signal.SIGTERM
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("drumscore")
