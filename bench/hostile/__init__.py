"""A hostile user's campaign over the causes of nothing half-done: signals at any moment (and
inside check's read, and twice during a site's clean-up), file names that are not text under the
locale, headers that lie, jobs past the whole-job limits, a broken user edition, --only without
its drum, a site folder behind a symbolic link.

Each case runs drumscore in a fresh process (python -m drumscore) in a sandbox folder of its own,
with a time bound; the table counts, over all cases: tracebacks, hangs (past the bound), inputs
lost (an input changed or gone), writes outside (a file left outside the case's output folder,
or a temporary .part left anywhere), wrong statuses. Every count should be 0.

The second part goes over what landed since: the one overwrite rule (--force on every output, and
what appears in an output's place while a command runs: a file, a link, a folder, planted when the
command's temporary file shows it is writing; a device node under --force), the list grammar, the
reading named, the programme in each language, the site's languages, a GSM 6.10 take, a broken
user edition asked for by its id; with signals at random milliseconds. A planted thing changed or
gone counts as an input lost.

The third part goes over what landed after issue 43 was filed: play --listen --input TAKE
(takes that are not audio, empty, of 0 channels or 2 GHz, GSM 6.10, cut mid-stroke, that grow,
vanish or turn to text while read, a FIFO, /dev/zero, ten minutes of silence), --record (the
overwrite rule, what appears at its place, its own take, SIGINT/SIGTERM/SIGKILL mid-take: no
half-written or leftover file), --json, --calibrate with no device, the user data folder a file
and latency.json garbage; check's noisy takes, flams, quick strokes and broken kits; extract's
passage shapes and near misses; the site of hostile user edition ids and of long editions, with
signals; serve's listening as a hostile page uses it (where the server offers it), with bodies
of 10 and 100 MB whose lengths lie (each answered with its status, read whole: no reset); a
score page opened in headless Chromium at hostile addresses (tempo 0, 1e309, nosuch, script),
and the address its Copy link gives opened again: the page must not throw, hang, or run the
value; and the compare page of scores of odd ids
(their data files named unlike them) and of data files removed, cut short or replaced: the page
says which, and goes on. The table counts cases per group. A process killed
outright (SIGKILL, or past its bound) may leave its temporary file: it counts only if the next
write in that folder does not remove it.

The package: runner (a case run in its sandbox, and the table), inputs (what the cases make),
part1, part2 and part3 (their cases), served (serve's) and browser (the pages').

Run: python bench/hostile_campaign.py [--only WORD] [--recent | --since]
(or python -m bench.hostile from the top of the tree)
(about a quarter of an hour; cases whose name has WORD; --since: the third part only)
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from .browser import browser_results, compare_results
from .part1 import cases
from .part2 import recent_cases
from .part3 import since_cases
from .runner import report, run_case, table
from .served import serve_results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", metavar="WORD", help="only the cases whose name has WORD")
    parser.add_argument("--recent", action="store_true", help="only what landed since (part two)")
    parser.add_argument("--since", action="store_true", help="only what landed since issue 43")
    args = parser.parse_args()
    recent = recent_cases()
    for case in recent:
        case.group = "issue 43's"
    if args.since:
        every = since_cases()
    elif args.recent:
        every = recent
    else:
        every = [*cases(), *recent, *since_cases()]
    chosen = [c for c in every if not args.only or args.only in c.name]
    pages = not args.recent
    top = Path(tempfile.mkdtemp(prefix="drumscore-campaign-"))
    (top / "home").mkdir()
    root = top / "cases"
    root.mkdir()
    results: list[dict[str, object]] = []

    try:
        for case in chosen:
            results.append(report(run_case(case, root)))
        if pages:
            for result in serve_results(top, args.only):
                results.append(report(result))
            for result in browser_results(top, args.only):
                results.append(report(result))
            for result in compare_results(top, args.only):
                results.append(report(result))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return table(results)
