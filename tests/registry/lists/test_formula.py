"""Custom ranking formulas: read by our own parser (never eval), errors that say what and where,
hostile input refused, evaluation in floating point that leaves an entry without a value instead of
failing."""

from __future__ import annotations

import builtins
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry.lists.formula import (
    MAX_DEPTH,
    MAX_LENGTH,
    FormulaError,
    NoValue,
    evaluate,
    parse_formula,
)
from scoring.model import SCORED_PHASES

VALUES: dict[str, float | None] = {
    "score": 100.0,
    "bw": 50.0,
    "md": 200.0,
    "nodes": 10.0,
    "procs": 320.0,
    **{phase.replace("-", "_"): float(index + 1) for index, phase in enumerate(SCORED_PHASES)},
}


def value_of(text: str, values: dict[str, float | None] = VALUES) -> float:
    return evaluate(parse_formula(text).tree, values)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bw * md", 10_000.0),
        ("sqrt(bw * md)", 100.0),
        ("score / nodes", 10.0),
        ("bw/procs*1000", 50.0 / 320.0 * 1000),
        ("ior_easy_write + ior_hard_write", 3.0),  # 1 + 2
        ("ior-easy-write + ior-hard-write", 3.0),  # the result files' spelling
        ("mdtest_hard_delete - find", 12.0 - 7.0),
        ("2 ^ 3 ^ 2", 512.0),  # powers group to the right
        ("2 ** 10", 1024.0),
        ("-2 ^ 2", -4.0),  # the sign binds looser than the power, as in mathematics
        ("(-2) ^ 2", 4.0),
        ("1 - 2 - 3", -4.0),  # the rest group to the left
        ("8 / 4 / 2", 1.0),
        ("min(bw, md, score)", 50.0),
        ("max(ior_easy_write, find)", 7.0),
        ("ln(exp(2))", 2.0),
        ("log10(1000) + log2(8) + abs(-1)", 7.0),
        ("1.5e2 + .5", 150.5),
        ("  BW * MD  ", 10_000.0),  # names in any case, blanks around
    ],
)
def test_a_formula_over_phases_and_scores_is_evaluated(text, expected):
    assert value_of(text) == pytest.approx(expected)


def test_a_formula_knows_which_phases_it_reads():
    formula = parse_formula("sqrt(ior-easy-write * mdtest_hard_stat) / nodes + score")
    assert formula.phases == {"ior-easy-write", "mdtest-hard-stat"}
    assert formula.names == {"ior_easy_write", "mdtest_hard_stat", "nodes", "score"}


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("bw*md", "bw * md"),
        ("sqrt( ior-easy-write*ior_hard_write )/nodes", "sqrt(ior_easy_write * ior_hard_write) / nodes"),
        ("((bw))", "bw"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("(1-2)-3", "1 - 2 - 3"),
        ("(2^3)^2", "(2 ^ 3) ^ 2"),
        ("-(bw+md)", "-(bw + md)"),
        ("2**-1", "2 ^ -1"),
        ("1.50", "1.5"),
        ("MIN(BW,MD)", "min(bw, md)"),
    ],
)
def test_every_spelling_of_a_formula_has_one_canonical_text_that_reads_back_the_same(typed, canonical):
    formula = parse_formula(typed)
    assert formula.text == canonical
    assert parse_formula(canonical) == formula


@pytest.mark.parametrize(
    ("text", "position", "says"),
    [
        ("bw +", 5, "ends where a value is expected"),
        ("bw md", 4, '"md" follows a complete value: an operator (+ - * / ^) is missing'),
        ("(bw + md", 9, 'the "(" at character 1 is never closed'),
        ("bw + md)", 8, 'this ")" closes no open parenthesis'),
        ("bw * * md", 6, 'a value is expected here, not "*"'),
        ("ior_easy_wrte * 2", 1, 'there is no value called "ior_easy_wrte"; use a phase'),
        ("sqrt bw", 1, "sqrt is a function: give its argument in parentheses"),
        ("bw(2)", 1, "bw is a value, not a function"),
        ("sqrt(bw, md)", 1, "sqrt takes 1 argument, not 2"),
        ("pow(bw, 2)", 1, 'there is no function "pow"; the functions are sqrt, ln'),
        ("bw ; md", 4, '";" is not part of a formula'),
        ("1e400", 1, 'the number "1e400" is too large'),
        ("min()", 5, 'a value is expected here, not ")"'),
    ],
)
def test_an_error_says_what_is_wrong_and_where(text, position, says):
    with pytest.raises(FormulaError) as raised:
        parse_formula(text)
    assert raised.value.position == position
    assert says in str(raised.value)
    assert str(raised.value).startswith(f"At character {position}: ")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("score.__class__", '"." is not part of a formula'),  # attribute access
        ("__import__('os')", 'there is no function "__import__"'),
        ("eval(bw)", 'there is no function "eval"'),
        ("bw.real", '"." is not part of a formula'),
        ("[bw]", '"[" is not part of a formula'),
        ("bw if md else 1", '"if" follows a complete value'),
        ("lambda: 1", 'there is no value called "lambda"'),
        ("bw\x00", "U+0000 is not part of a formula"),
        ("bw \uff0b md", '"\uff0b" is not part of a formula'),  # a full-width plus
        ("os", 'there is no value called "os"'),
        ("system_name", 'there is no value called "system_name"'),  # a column, but not a number
        ("ior_rnd4K_easy_read", 'there is no value called "ior_rnd4K_easy_read"'),  # not a list phase
    ],
)
def test_hostile_input_is_refused_with_the_reason(text, says):
    with pytest.raises(FormulaError) as raised:
        parse_formula(text)
    assert says in str(raised.value)


def test_nesting_deeper_than_the_limit_is_refused_before_recursion_could_run_deep():
    assert value_of("(" * MAX_DEPTH + "bw" + ")" * MAX_DEPTH) == 50.0
    for deep in ("(" * (MAX_DEPTH + 1) + "bw" + ")" * (MAX_DEPTH + 1), "-" * 60 + "bw", "2^" * 40 + "2"):
        with pytest.raises(FormulaError, match=f"nests deeper than {MAX_DEPTH} levels"):
            parse_formula(deep)
    # Deeper than Python's own recursion limit: refused as quickly, not a RecursionError.
    with pytest.raises(FormulaError):
        parse_formula("(" * 5000 + "1" + ")" * 5000)


def test_a_formula_longer_than_the_limit_is_refused_with_its_length():
    text = "+".join(["bw"] * 80)
    assert len(text) > MAX_LENGTH
    with pytest.raises(FormulaError, match=f"has {len(text)} characters; at most {MAX_LENGTH} are accepted"):
        parse_formula(text)


def test_an_empty_formula_is_an_error():
    with pytest.raises(FormulaError, match=r"^The formula is empty\.$"):
        parse_formula("   ")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("10 ^ 999999", "a value too large to compute"),  # a huge exponent: a float overflow, never a bigint
        ("9 ^ 9 ^ 9 ^ 9", "a value too large to compute"),
        ("exp(1e6)", "a value too large to compute"),
        ("bw / (md - md)", "a division by zero"),
        ("(-8) ^ (1 / 3)", "a power that is not a real number"),  # never a complex number
        ("ln(0)", "ln(...) is not defined for these values"),
        ("sqrt(-bw)", "sqrt(...) is not defined for these values"),
        ("1e300 * 1e300", "a value too large to compute"),
        ("bw * ior_easy_read", "no ior_easy_read value"),
    ],
)
def test_an_entry_gets_no_value_with_the_reason_instead_of_an_error(text, reason):
    values = {**VALUES, "ior_easy_read": None}
    with pytest.raises(NoValue) as raised:
        value_of(text, values)
    assert raised.value.reason == reason


def test_a_tiny_power_underflows_to_zero_quietly():
    assert value_of("10 ^ -999999") == 0.0


def test_reading_and_evaluating_never_call_eval_or_compile(monkeypatch):
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("eval/exec/compile was called")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, refuse)
    assert value_of("sqrt(ior_easy_write * md) + 2 ^ 3") == pytest.approx(math.sqrt(200) + 8)
    with pytest.raises(FormulaError):
        parse_formula("__import__('os').system('true')")


FORMULA_ALPHABET = st.sampled_from(
    [
        "bw",
        "md",
        "score",
        "find",
        "ior-easy-write",
        "sqrt",
        "min",
        "(",
        ")",
        ",",
        "+",
        "-",
        "*",
        "/",
        "^",
        "**",
        "1",
        "0",
        "2.5",
        "1e9",
        " ",
        ".",
        "_",
        "x",
        "__class__",
        "\x00",
        "é",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(FORMULA_ALPHABET, max_size=60).map("".join))
def test_any_text_is_read_or_refused_with_a_formula_error_and_a_read_one_gives_a_value_or_a_reason(text):
    try:
        formula = parse_formula(text)
    except FormulaError as error:
        assert error.position is None or 1 <= error.position <= len(text) + 1
        return
    assert parse_formula(formula.text) == formula
    try:
        result = evaluate(formula.tree, VALUES)
    except NoValue as problem:
        assert problem.reason
    else:
        assert math.isfinite(result)
