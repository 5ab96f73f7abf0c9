"""Output that C libraries write straight to file descriptor 2 is captured, not shown."""

import os

from drumscore.files.cstderr import captured


def test_what_is_written_to_fd_2_is_captured_and_not_shown(capfd):
    with captured() as said:
        os.write(2, b"ALSA lib seq_hw.c: cannot open\nsecond line\n")
    assert said == ["ALSA lib seq_hw.c: cannot open", "second line"]
    assert capfd.readouterr().err == ""


def test_stderr_works_again_afterwards(capfd):
    with captured():
        pass
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"
