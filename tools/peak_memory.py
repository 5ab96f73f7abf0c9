"""Run `drumscore ARGS…` in this process and print its exit status and peak-memory growth (bytes).

    python tools/peak_memory.py extract passage.txt

Run it in a fresh process: the growth is measured from after start-up, so it is what the command
itself needs.
"""

import contextlib
import io
import resource
import sys

from drumscore.cli import main as drumscore


def peak() -> int:
    """This process image's own peak resident memory, in bytes."""
    # VmHWM is this image's own peak; ru_maxrss also counts the parent's before exec
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def main() -> None:
    before = peak()
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            code = drumscore(sys.argv[1:])
        except SystemExit as exit_:
            code = exit_.code
    print(code, peak() - before)


if __name__ == "__main__":
    main()
