"""Geometric means with the zero handling of each era, and the rounding bounds of printed values.

A printed value v with d decimals stands for any true value in [v - e, v + e], e = 0.5 * 10^-d.
The geometric mean rises with each of its inputs, so evaluating it at the low and high ends of
every input gives exact bounds for what the benchmark could have computed from the unrounded
values. A claimed score agrees when it lies inside those bounds widened by its own rounding.
This is tighter than a fixed percentage for large values and still correct for tiny ones, where
a 3-decimal shell value such as 0.012 carries a 4% rounding error on its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.model import Era

FLOAT_SLACK = 1e-9  # relative: double arithmetic in C versus Python, far below any printed digit


@dataclass(frozen=True)
class Bounded:
    """A recomputed value with the range the unrounded inputs could have produced."""

    value: float
    low: float
    high: float

    @property
    def tolerance(self) -> float:
        return max(self.value - self.low, self.high - self.value) + FLOAT_SLACK * abs(self.value)

    def agrees_with(self, claimed: float, claimed_error: float) -> bool:
        return abs(claimed - self.value) <= self.tolerance + claimed_error


def geometric_mean(values: Sequence[float], *, skip_nonpositive: bool) -> float:
    """IO500 group mean: B4+ leave values <= 0 out; earlier eras turn the group to 0."""
    usable = [v for v in values if math.isfinite(v) and v > 0]
    if not skip_nonpositive and len(usable) != len(values):
        return 0.0
    if not usable:
        return 0.0
    # Summing logarithms avoids overflow and underflow of the plain product.
    return math.exp(math.fsum(math.log(v) for v in usable) / len(usable))


def bounded_mean(values: Sequence[float], error: float, *, skip_nonpositive: bool) -> Bounded:
    """The geometric mean and its bounds when every value was printed with absolute `error`."""
    if skip_nonpositive:
        # The benchmark decided inclusion on its own unrounded value; a printed 0.000000 was <= 0
        # or below half a unit, and both leave it out in practice.
        values = [v for v in values if math.isfinite(v) and v > 0]
    value = geometric_mean(values, skip_nonpositive=skip_nonpositive)
    low = geometric_mean([max(v - error, 0.0) for v in values], skip_nonpositive=False)
    high = geometric_mean([v + error for v in values], skip_nonpositive=skip_nonpositive)
    if not skip_nonpositive and value == 0.0:
        low = high = 0.0
    return Bounded(value=value, low=min(low, value), high=max(high, value))


def bounded_sqrt_product(a: Bounded, b: Bounded) -> Bounded:
    """TOTAL = sqrt(BW * MD), with bounds."""
    return Bounded(
        value=math.sqrt(a.value * b.value),
        low=math.sqrt(a.low * b.low),
        high=math.sqrt(a.high * b.high),
    )


def bounded_product(a: Bounded, b: Bounded) -> Bounded:
    """The SC17 TOTAL = BW * MD, with bounds."""
    return Bounded(value=a.value * b.value, low=a.low * b.low, high=a.high * b.high)


def widen(a: Bounded, error: float) -> Bounded:
    """Bounds of a value that was itself printed with `error` before being used again."""
    return Bounded(value=a.value, low=max(a.low - error, 0.0), high=a.high + error)


# --- printed precision per era ------------------------------------------------------------------


def phase_error(era: Era) -> float:
    """Rounding of a printed phase value: shell `%.3f`, C `%f`."""
    return 0.0005 if era.is_shell else 0.0000005


def significant_error(value: float, digits: int = 6) -> float:
    """Half a unit in the last of `digits` significant digits (awk's default `%.6g`)."""
    if value == 0 or not math.isfinite(value):
        return 0.0
    exponent = math.floor(math.log10(abs(value)))
    return 0.5 * 10.0 ** (exponent - digits + 1)


def claimed_error(era: Era, value: float, *, product_total: bool = False) -> float:
    """Rounding of a printed BW, MD or TOTAL: C `%f`; shell awk `%.6g`; SC17 product `bc` scale 2."""
    if product_total:
        return 0.005 + significant_error(value)
    if era.is_shell:
        return significant_error(value)
    return 0.0000005
