"""The custom ranking of a list: custom BW/MD weights, or a formula over phase values.

Both are one thing: weights 2 and 1 are the formula `bw ^ 0.667 * md ^ 0.333`. The custom score is
computed in Python over the rows a list view shows (the phases it names are read in two queries
whatever the number of rows), so that a formula that divides by zero or overflows for one entry
leaves that entry without a custom score, says why, and fails nothing. The official rank is never
replaced: the custom score and its rank are two more columns.

Nothing here touches the database.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from registry.lists.formula import (
    Binary,
    Formula,
    FormulaError,
    Name,
    NoValue,
    Number,
    evaluate,
    parse_formula,
)

MAX_WEIGHT = 100.0
# The row keys a formula's column names read.
COLUMN_KEYS = {"score": "score", "bw": "bw", "md": "md", "nodes": "client_nodes", "procs": "total_procs"}
SORT_NAME = "custom"


class WeightsError(ValueError):
    """The custom ranking weights in the URL are not usable."""


@dataclass(frozen=True)
class CustomWeights:
    """A custom ranking: the weighted geometric mean BW^(w_bw/W) * MD^(w_md/W), W = w_bw + w_md.

    Weights 1 and 1 give back the official score sqrt(BW * MD).
    """

    bw: float
    md: float

    @property
    def bw_exponent(self) -> float:
        return self.bw / (self.bw + self.md)

    @property
    def md_exponent(self) -> float:
        return self.md / (self.bw + self.md)

    @property
    def formula(self) -> Formula:
        power = Binary("^", Name("bw"), Number(self.bw_exponent))
        return Formula(Binary("*", power, Binary("^", Name("md"), Number(self.md_exponent))))


def parse_weights(params: Mapping[str, str]) -> CustomWeights | None:
    raw_bw, raw_md = (params.get("w_bw") or "").strip(), (params.get("w_md") or "").strip()
    if not raw_bw and not raw_md:
        return None
    try:
        bw = float(raw_bw or "0")
        md = float(raw_md or "0")
    except ValueError as error:
        raise WeightsError(
            "The custom weights must be numbers, e.g. 2 for bandwidth and 1 for metadata."
        ) from error
    if not (0 <= bw <= MAX_WEIGHT and 0 <= md <= MAX_WEIGHT) or not math.isfinite(bw + md):
        raise WeightsError(f"The custom weights must lie between 0 and {MAX_WEIGHT:g}.")
    if bw + md == 0:
        raise WeightsError("At least one custom weight must be above 0.")
    return CustomWeights(bw=bw, md=md)


@dataclass(frozen=True)
class CustomRanking:
    """What the custom columns of a list view are computed by, and what was wrong with the query."""

    formula: Formula | None
    weights: CustomWeights | None
    # The formula as the reader typed it; "" when none was given.
    formula_given: str
    errors: tuple[str, ...]

    @property
    def active(self) -> Formula | None:
        """The formula the custom score comes from: the typed one wins over the weights."""
        if self.formula is not None:
            return self.formula
        return self.weights.formula if self.weights is not None else None

    @property
    def canonical(self) -> bool:
        """Whether the typed formula is in the one spelling the site's links write (a cached
        answer is kept for that spelling only)."""
        return not self.formula_given or (
            self.formula is not None and self.formula.text == self.formula_given
        )


def custom_ranking(params: Mapping[str, str]) -> CustomRanking:
    errors: list[str] = []
    try:
        weights = parse_weights(params)
    except WeightsError as error:
        weights, errors = None, [str(error)]
    given = params.get("formula") or ""
    formula = None
    if given.strip():
        try:
            formula = parse_formula(given)
        except FormulaError as error:
            errors.append(f"The formula cannot be used. {error}")
        if formula is not None and weights is not None:
            errors.append(
                "The custom weights are not used: a formula is given, and the list is ranked by it."
            )
    return CustomRanking(formula=formula, weights=weights, formula_given=given, errors=tuple(errors))


def row_values(row: Mapping[str, Any], phases: Mapping[str, float]) -> dict[str, float | None]:
    """The values a formula may name, for one list row and its phases (hyphenated names)."""
    values: dict[str, float | None] = {name: row.get(key) for name, key in COLUMN_KEYS.items()}
    for phase, value in phases.items():
        values[phase.replace("-", "_")] = value
    return values


@dataclass(frozen=True)
class CustomOutcome:
    """Why entries were left without a custom score: reason -> number of entries."""

    without_value: Mapping[str, int]

    @property
    def notes(self) -> list[str]:
        return [
            f"{count} entr{'y' if count == 1 else 'ies'} without a custom score: {reason}."
            for reason, count in sorted(self.without_value.items(), key=lambda item: (-item[1], item[0]))
        ]


def custom_apply(
    rows: Sequence[MutableMapping[str, Any]],
    formula: Formula,
    phases: Mapping[int, Mapping[str, float]],
) -> CustomOutcome:
    """Set custom_score and custom_rank on every row (rank 1 is the highest score; entries without
    a score come last, unranked; ties keep the official order)."""
    missing: Counter[str] = Counter()
    for row in rows:
        try:
            row["custom_score"] = evaluate(formula.tree, row_values(row, phases.get(row["id"], {})))
        except NoValue as problem:
            row["custom_score"] = None
            missing[problem.reason] += 1
    scored = sorted((row for row in rows if row["custom_score"] is not None), key=_custom_order)
    for position, row in enumerate(scored, start=1):
        row["custom_rank"] = position
    for row in rows:
        if row["custom_score"] is None:
            row["custom_rank"] = None
    return CustomOutcome(without_value=dict(missing))


def _custom_order(row: Mapping[str, Any]) -> tuple[float, float]:
    rank = row.get("rank")
    return (-row["custom_score"], rank if rank is not None else math.inf)


def sorted_by_custom(rows: list[dict[str, Any]], ordering: str) -> list[dict[str, Any]]:
    """The rows in custom order when the sort asks for it (`custom` ascending, `-custom` highest
    first); entries without a custom score last either way, then by official rank."""
    first = ordering.split(",")[0].strip()
    if first.lstrip("-") != SORT_NAME:
        return rows
    descending = first.startswith("-")

    def key(row: Mapping[str, Any]) -> tuple[bool, float, float]:
        score = row.get("custom_score")
        rank = row.get("rank")
        official = rank if rank is not None else math.inf
        if score is None:
            return (True, 0.0, official)
        return (False, -score if descending else score, official)

    return sorted(rows, key=key)
