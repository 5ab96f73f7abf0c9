"""drumscore serve: the site built in a temporary folder and served on this machine."""

from __future__ import annotations

import argparse
import http.server
import sys
from collections.abc import Callable
from pathlib import Path

from drumscore.cli.commands.site import add_edition_option, build, summary
from drumscore.cli.options import whole_number
from drumscore.errors import OptionError
from drumscore.site.serve import LOCAL_HOST, is_local, make_server, url_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="build the site and serve it on this machine (127.0.0.1) until Ctrl-C",
        description="Build the site in a temporary folder and serve it on 127.0.0.1 until Ctrl-C, "
        "which stops the server and removes the folder.",
    )
    p.add_argument(
        "--port",
        type=whole_number,
        default=8000,
        metavar="N",
        help="port (default 8000; 0: any free)",
    )
    p.add_argument(
        "--host",
        default=None,
        metavar="H",
        help="address to listen on (default 127.0.0.1; any other is reachable from elsewhere)",
    )
    p.add_argument("--open", action="store_true", help="open the site in the web browser")
    p.add_argument("--log", action="store_true", help="print a line for every request")
    add_edition_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port {args.port}: give a port from 1 to 65535 (0 picks a free one)")
    host = args.host or LOCAL_HOST
    from drumscore.files.atomic import make_temporary

    # named as every temporary file is, so a serve killed outright leaves a folder that the
    # next one removes
    work = make_temporary(Path(tempfile.gettempdir()) / "drumscore-serve", folder_too=True)
    try:
        log = (lambda line: print(line, file=sys.stderr, flush=True)) if args.log else None
        # the address is taken before the site is built: a busy port is told at once
        server = _listen(work / "site", host, args.port, log)
        with server:
            if not is_local(host):
                print(
                    f"drumscore: warning: serving on {host}: any machine that can reach this one "
                    "can open the site; leave out --host to serve on 127.0.0.1 only",
                    file=sys.stderr,
                )
            report = build(work / "site", args.edition)
            url = url_of(server)
            print(f"built the site in {work / 'site'}: {summary(report)}", flush=True)
            print(f"serving {url} (Ctrl-C stops)", flush=True)
            if args.open:
                import webbrowser

                webbrowser.open(url)
            try:
                server.serve_forever(poll_interval=0.2)
            except KeyboardInterrupt:
                print("stopped", flush=True)
                return EXIT_INTERRUPTED
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _warn(line: str) -> None:
    print(f"drumscore: warning: {line}", file=sys.stderr, flush=True)


#: The exit status after Ctrl-C, as every command gives it.
EXIT_INTERRUPTED = 130


def _listen(
    folder: Path, host: str, port: int, log: Callable[[str], None] | None
) -> http.server.ThreadingHTTPServer:
    """The server bound to host:port; an address that is not this machine's (or not an address)
    is bad input, a port that is taken a runtime failure."""
    import errno
    import socket

    from drumscore.errors import RuntimeFailure

    shown = host if len(host) <= 60 else host[:60] + "…"
    try:
        return make_server(folder, host, port, log, warn=_warn)
    except (OSError, UnicodeError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
            raise RuntimeFailure(
                f"cannot listen on {shown} port {port}: {reason}; give another --port "
                "(0 picks a free one)"
            ) from None
        if isinstance(exc, socket.gaierror) or not isinstance(exc, OSError):
            reason = "not an address or host name of this machine"
        raise OptionError(
            f"--host {shown!r} port {port}: cannot listen there ({reason}); give an address of "
            "this machine, such as 127.0.0.1"
        ) from None
