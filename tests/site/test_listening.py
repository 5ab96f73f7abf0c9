"""site/listening.py's requests as a hostile page sends them: each refused with a 4xx and its
reason, never an exception that leaves the page without an answer."""

from __future__ import annotations

import json

import pytest

from drumscore.errors import DrumscoreError
from drumscore.site.listening import Listening

GOOD = {"score": "lu/1", "section": "she", "bpm": 60, "reading": "zheng", "rate": 48000}


@pytest.mark.parametrize(
    ("field", "value"),
    [("rate", "1e309"), ("rate", "-1e309"), ("rate", "NaN"), ("rate", "{}"), ("rate", "[]")],
)
def test_a_start_with_a_rate_that_is_no_number_of_hertz_is_refused_400(field, value):
    body = json.dumps(GOOD).replace(f'"{field}": {GOOD[field]}', f'"{field}": {value}')
    listening = Listening(lambda check: ("", {}))
    try:
        status, answer = listening.start(body.encode())
    except DrumscoreError as exc:  # answered 400 with its line by Listening.answer
        status, answer = 400, {"error": str(exc)}
    assert status == 400, answer
    assert answer["error"]
    assert listening.sessions == {}
