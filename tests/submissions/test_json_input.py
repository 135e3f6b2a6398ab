"""The bounds of a system description's JSON: size before parsing, nesting, number of values."""

from __future__ import annotations

import json

import pytest

from submissions.json_input import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_VALUES,
    JsonTooDeep,
    JsonTooLarge,
    clip,
    loads_bounded,
    value_count,
)
from tests.submissions.system.documents import VALID
from tests.support.data import submissions_root


def test_every_description_of_the_corpus_is_well_within_the_bounds() -> None:
    # The bounds are sized from these with a margin of more than ten times.
    files = [path for path in submissions_root().rglob("system-information*") if path.is_file()]
    assert files
    for path in files:
        assert path.stat().st_size * 20 < MAX_BYTES, path
    assert len(json.dumps(VALID)) * 20 < MAX_BYTES
    assert value_count(VALID) * 10 < MAX_VALUES


def test_a_text_over_the_size_is_refused_before_it_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(json, "loads", never)
    with pytest.raises(JsonTooLarge, match=f"at most {MAX_BYTES:,} bytes"):
        loads_bounded("{" + " " * MAX_BYTES + "}")
    # Counted in UTF-8: a text of fewer characters but more bytes is refused too.
    with pytest.raises(JsonTooLarge):
        loads_bounded('"' + "\u20ac" * (MAX_BYTES // 3 + 1) + '"')


def test_values_are_counted_at_every_level() -> None:
    assert value_count({"a": [1, 2, {"b": 3}]}) == 5
    assert loads_bounded(json.dumps({"a": [0] * (MAX_VALUES - 1)})) == {"a": [0] * (MAX_VALUES - 1)}
    with pytest.raises(JsonTooLarge, match="more than 2,500 names and values"):
        loads_bounded(json.dumps({"a": [0] * MAX_VALUES}))


def test_nesting_is_still_bounded_within_the_size() -> None:
    with pytest.raises(JsonTooDeep):
        loads_bounded("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_an_echo_says_how_long_the_whole_was() -> None:
    assert clip("short") == "short"
    assert clip("x" * 1_000, 10) == "xxxxxxxxxx… (1,000 characters)"
