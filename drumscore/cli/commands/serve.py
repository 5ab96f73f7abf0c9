"""drumscore serve: the site built in a temporary folder and served on this machine."""

from __future__ import annotations

import argparse
import sys

from drumscore.cli.commands.site import add_edition_option, build, summary
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
        "--port", type=int, default=8000, metavar="N", help="port (default 8000; 0: any free)"
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
    from pathlib import Path

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port {args.port}: give a port from 1 to 65535 (0 picks a free one)")
    host = args.host or LOCAL_HOST
    if not is_local(host):
        print(
            f"drumscore: warning: serving on {host}: any machine that can reach this one can "
            "open the site; leave out --host to serve on 127.0.0.1 only",
            file=sys.stderr,
        )
    work = Path(tempfile.mkdtemp(prefix="drumscore-site-"))
    try:
        report = build(work / "site", args.edition)
        log = (lambda line: print(line, file=sys.stderr, flush=True)) if args.log else None
        try:
            server = make_server(work / "site", host, args.port, log)
        except OSError as exc:
            from drumscore.cli import fail  # drumscore.cli imports this module

            fail(
                f"cannot listen on {host} port {args.port}: {exc.strerror or exc}; "
                "give another --port (0 picks a free one)",
                1,
            )
        with server:
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
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
