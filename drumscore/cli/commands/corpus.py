"""drumscore list and drumscore show: what is in the corpus."""

from __future__ import annotations

import argparse
import json

from drumscore import corpus
from drumscore.apparatus.counts import check_score
from drumscore.apparatus.gather import ORDERS
from drumscore.cli.options import add_json_option
from drumscore.cli.reports.scores import list_table, show_data, show_text
from drumscore.errors import ScoreNotFoundError
from drumscore.i18n import _
from drumscore.model import Edition


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("list")
    p.add_argument("--edition", metavar="EDITION", help=_("only this edition"))
    p.add_argument(
        "--order",
        choices=ORDERS,
        default="corpus",
        help=_(
            "corpus: the default edition first, then by id (the default); date: the witnesses "
            "in the order their texts were made (by the year they certainly existed), undated "
            "last"
        ),
    )
    add_json_option(p)
    p.set_defaults(run=run_list)

    p = sub.add_parser("show")
    p.add_argument(
        "score",
        metavar="SCORE",
        help=_("lu, xue/2, 魯/2@benyi, raw notation, a file, or an edition (all its scores)"),
    )
    add_json_option(p)
    p.set_defaults(run=run_show)


def _date(edition: Edition | None) -> dict[str, object] | None:
    """An edition's date as JSON-ready data (None when it has none)."""
    return edition.date.to_data() if edition is not None and edition.date else None


def run_list(args: argparse.Namespace) -> int:
    pool = (corpus.find_edition(args.edition),) if args.edition else corpus.editions()
    if args.order == "date":
        pool = tuple(sorted(pool, key=lambda e: e.date_key))
    found = [s for e in pool for s in e.scores]
    users = frozenset(e.id for e in pool if e.user)
    if args.json:
        by_id = {e.id: e for e in pool}
        data = [
            {
                **s.to_data(),
                "date": _date(by_id.get(s.edition_id)),
                "user_edition": s.edition_id in users,
            }
            for s in found
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(list_table(found, users, pool))
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        scores = [corpus.resolve(args.score)]
    except ScoreNotFoundError:
        # an edition's name alone (show yishu): every score of it
        try:
            scores = list(corpus.find_edition(args.score).scores)
        except ScoreNotFoundError:
            scores = []
        if not scores:
            raise
    data = []
    texts = []
    for score in scores:
        checks = check_score(score)
        edition = corpus.find_edition(score.edition_id) if score.edition_id else None
        if args.json:
            data.append(show_data(score, checks, edition))
        else:
            texts.append(show_text(score, checks, edition))
    if args.json:
        print(json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(texts))
    return 0
