"""drumscore serve: the site built in a temporary folder and served on this machine."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drumscore.cli.commands.site import add_edition_option, build, lang_text, summary
from drumscore.cli.options import whole_number
from drumscore.errors import OptionError
from drumscore.files import signals
from drumscore.i18n import _

if TYPE_CHECKING:
    import http.server

    from drumscore.performance.check import Check


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        description=_(
            "Build the site in a temporary folder and serve it on 127.0.0.1 until Ctrl-C, "
            "which stops the server and removes the folder. {lang}"
        ).format(lang=lang_text()),
    )
    p.add_argument(
        "--port",
        type=whole_number,
        default=8000,
        metavar="N",
        help=_("port (default 8000; 0: any free)"),
    )
    p.add_argument(
        "--host",
        default=None,
        metavar="H",
        help=_("address to listen on (default 127.0.0.1; any other is reachable from elsewhere)"),
    )
    p.add_argument("--open", action="store_true", help=_("open the site in the web browser"))
    p.add_argument("--log", action="store_true", help=_("print a line for every request"))
    add_edition_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    from drumscore.site.serve import LOCAL_HOST, is_local, url_of  # the server: when it runs

    if not 0 <= args.port <= 65535:
        raise OptionError(
            _("--port {port}: give a port from 1 to 65535 (0 picks a free one)").format(
                port=args.port
            )
        )
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
                _warn(
                    _(
                        "serving on {host}: any machine that can reach this one can open the "
                        "site; leave out --host to serve on 127.0.0.1 only"
                    ).format(host=host)
                )
            report = build(work / "site", args.edition, args.lang)
            url = url_of(server)
            print(
                _("built the site in {folder}: {summary}").format(
                    folder=work / "site", summary=summary(report)
                ),
                flush=True,
            )
            print(_("serving {url} (Ctrl-C stops)").format(url=url), flush=True)
            if args.open:
                import webbrowser

                webbrowser.open(url)
            try:
                server.serve_forever(poll_interval=0.2)
            except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP: each its status
                print(_("stopped"), flush=True)
                return signals.status_of(exc)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_report(result: Check) -> tuple[str, dict[str, Any]]:
    """A score page's take, as `drumscore check` reports it: as text and as its JSON."""
    from drumscore.cli.reports.check import check_data, format_check

    return format_check(result), check_data(result)


def _warn(line: str) -> None:
    print(_("drumscore: warning: {message}").format(message=line), file=sys.stderr, flush=True)


def _listen(
    folder: Path, host: str, port: int, log: Callable[[str], None] | None
) -> http.server.ThreadingHTTPServer:
    """The server bound to host:port; an address that is not this machine's (or not an address)
    is bad input, a port that is taken a runtime failure."""
    import errno
    import socket

    from drumscore.errors import RuntimeFailure
    from drumscore.site.listening import Listening
    from drumscore.site.serve import make_server

    shown = host if len(host) <= 60 else host[:60] + "…"
    try:
        return make_server(folder, host, port, log, warn=_warn, listening=Listening(check_report))
    except (OSError, UnicodeError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
            raise RuntimeFailure(
                _(
                    "cannot listen on {host} port {port}: {reason}; give another --port "
                    "(0 picks a free one)"
                ).format(host=shown, port=port, reason=reason)
            ) from None
        if isinstance(exc, socket.gaierror) or not isinstance(exc, OSError):
            reason = _("not an address or host name of this machine")
        raise OptionError(
            _(
                "--host {host!r} port {port}: cannot listen there ({reason}); give an address of "
                "this machine, such as 127.0.0.1"
            ).format(host=shown, port=port, reason=reason)
        ) from None
