"""Every individual reader of scoring/ fuzzed with hypothesis: any text in, a result or ReadError out.

readers/test_properties.py damages whole result folders; this file goes one level down and feeds
each parser on its own a mix of real lines from the corpus, random text, and the values that break
naive parsers (NaN, inf, huge exponents, control characters, very long lines). A parser may refuse
with ReadError, never with anything else, and what it returns must be usable: no NaN or negative
rates, no infinite times.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.model import ReadError
from scoring.readers.c_app import parse_summary
from scoring.readers.ini import parse_ini
from scoring.readers.numbers import to_float, to_int
from scoring.readers.raw import (
    parse_find_stdout,
    parse_ior,
    parse_mdtest,
    parse_pfind_csv,
    parse_rank_csv,
    parse_timeline,
)
from scoring.readers.shell_config import parse_shell_assignments
from tests.scoring.corpus import data_root
from tests.support.volume import volume

# One real file of each kind the parsers read, from the shared corpus.
SOURCES = {
    "summary": "submission-33/result_summary.txt",
    "result": "submission-33/result.txt",
    "ior": "submission-33/ior-easy-write.txt",
    "mdtest": "submission-33/mdtest-easy-write.txt",
    "pfind": "submission-585/find.csv",
    "rank": "submission-585/ior-easy-write.csv",
    "shell": "submission-3/data/results/2019.11.11-04.23.30/result_summary.txt",
}
NASTY = [
    "nan",
    "NaN",
    "-inf",
    "inf",
    "1e999",
    "-1",
    "-0.0",
    "0x1F",
    "1_000",
    "٣",
    "\x00",
    "\x1b[31m",
    "\ufeff",
    "\r",
    "9" * 400,
    "A" * 100_000,
    "[",
    "]",
    "=",
    ";",
    "#",
    ",",
]


def _lines(kind: str) -> list[str]:
    path = Path(data_root()) / "submissions" / SOURCES[kind]
    return path.read_text(errors="replace").splitlines()


LINES = {kind: _lines(kind) for kind in SOURCES}


def _documents(kind: str) -> st.SearchStrategy[str]:
    """Real lines of that kind, with words swapped for nasty values, shuffled, or plain random text."""
    real = st.sampled_from(LINES[kind])
    damaged = st.tuples(real, st.sampled_from(NASTY), st.integers(0, 30)).map(
        lambda t: " ".join(t[1] if i == t[2] else word for i, word in enumerate(t[0].split(" ")))
    )
    line = st.one_of(real, damaged, st.text(max_size=80), st.sampled_from(NASTY))
    return st.lists(line, max_size=60).map("\n".join)


def _finite_or_none(value: float | None) -> bool:
    return value is None or math.isfinite(value)


def _call(parser: Callable[[], Any]) -> Any:
    try:
        return parser()
    except ReadError as error:
        assert str(error)  # a refusal always says why
        return None


FUZZ = settings(
    max_examples=volume(suite=60, full=150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ
@given(_documents("summary"))
def test_the_c_app_summary_parser_survives_anything(text: str) -> None:
    summary = _call(lambda: parse_summary(text))
    if summary is not None:
        for line in summary.phases.values():
            assert isinstance(line.value, str) and isinstance(line.time, str)


@FUZZ
@given(st.one_of(_documents("result"), _documents("shell")))
def test_the_ini_parser_survives_anything(text: str) -> None:
    document = _call(lambda: parse_ini(text))
    if document is not None:
        document.as_config()
        document.as_app_sees_it()


@FUZZ
@given(st.one_of(_documents("shell"), st.text(max_size=400)))
def test_the_shell_assignment_parser_survives_anything(text: str) -> None:
    values = _call(lambda: parse_shell_assignments(text))
    assert values is None or all(isinstance(k, str) and isinstance(v, str) for k, v in values.items())


@FUZZ
@given(_documents("ior"))
def test_the_ior_parser_survives_anything(text: str) -> None:
    raw = _call(lambda: parse_ior(text, "ior-easy-write.txt"))
    if raw is not None:
        assert all(_finite_or_none(v) for v in vars(raw).values() if isinstance(v, float))


@FUZZ
@given(
    _documents("mdtest"), st.sampled_from([None, "File creation", "File stat", "File removal", "File read"])
)
def test_the_mdtest_parser_survives_anything(text: str, operation: str | None) -> None:
    raw = _call(lambda: parse_mdtest(text, "mdtest-easy-write.txt", operation))
    if raw is not None:
        assert all(_finite_or_none(v) for v in vars(raw).values() if isinstance(v, float))


@FUZZ
@given(_documents("pfind"))
def test_the_find_parsers_survive_anything(text: str) -> None:
    _call(lambda: parse_pfind_csv(text, "find.csv"))
    _call(lambda: parse_find_stdout(text, "find.txt"))


@FUZZ
@given(_documents("rank"), st.sampled_from(["ior-easy-write", "mdtest-easy-write", "find"]))
def test_the_rank_csv_parser_keeps_only_usable_rows(text: str, phase: str) -> None:
    rows = _call(lambda: parse_rank_csv(text, phase))
    for row in rows or ():
        assert all(_finite_or_none(v) for v in (row.time_s, row.rate, row.items))


@FUZZ
@given(st.lists(st.one_of(st.text(max_size=40), st.sampled_from(NASTY)), max_size=40).map("\n".join))
def test_the_timeline_parser_survives_anything(text: str) -> None:
    bins = _call(lambda: parse_timeline(text))
    for item in bins or ():
        assert _finite_or_none(item.amount)


@FUZZ
@given(st.one_of(st.text(max_size=40), st.sampled_from(NASTY), st.none()))
def test_number_parsing_never_yields_nan_or_infinity(text: str | None) -> None:
    value = to_float(text)
    assert value is None or math.isfinite(value)
    count = to_int(text)
    assert count is None or isinstance(count, int)
