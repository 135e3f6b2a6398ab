"""Recompute BW, MD and the score from the phase values and compare them with the claimed ones.

Tolerance (decided here, io500-format.md section 7): not a fixed percentage but the exact range
the printed precision allows (scoring/means.py). C eras print `%f`, so a phase value is known to
5e-7 and a recomputed score agrees to about 1e-6 relative, matching the 7e-6 the spec measured
on all C results. Shell-era phase values have 3 decimals and BW/MD/TOTAL 6 significant digits
(awk); the rounding bounds reach about 1% only for small values, as the spec observed, and stay
far tighter for large ones, so a hand-edited shell value still shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scoring.codes import finding
from scoring.means import (
    Bounded,
    bounded_mean,
    bounded_product,
    bounded_sqrt_product,
    claimed_error,
    phase_error,
    widen,
)
from scoring.model import BW_PHASES, MD_PHASES, Era, Finding, Phase, RunResult, Score

EXTENDED_BW_PHASES: tuple[str, ...] = (
    "ior-rnd4K-write",
    "ior-rnd1MB-write",
    "ior-rnd4K-read",
    "ior-rnd1MB-read",
    "ior-rnd-write",  # B3 had single random phases
    "ior-rnd-read",
)
EXTENDED_MD_PHASES: tuple[str, ...] = ("find-easy", "find-hard", "mdworkbench-bench")
RND4K_EASY_READ = "ior-rnd4K-easy-read"


@dataclass(frozen=True)
class Recomputed:
    bw: Bounded
    md: Bounded
    total: Bounded

    def as_score(self) -> Score:
        return Score(bw=self.bw.value, md=self.md.value, score=self.total.value)


@dataclass
class ScoreCheck:
    computed: Score
    matches: bool
    findings: list[Finding] = field(default_factory=list)


def phase_values(pool: Mapping[str, Phase], names: Iterable[str]) -> list[float]:
    """Values of the named phases; a missing phase counts as 0, as the benchmark counted it."""
    return [pool[name].value if name in pool else 0.0 for name in names]


def all_phases(run: RunResult) -> dict[str, Phase]:
    return {**run.phases, **run.extra_phases}


def recompute(
    run: RunResult,
    bw_names: Iterable[str] = BW_PHASES,
    md_names: Iterable[str] = MD_PHASES,
    pool: Mapping[str, Phase] | None = None,
) -> Recomputed:
    era = run.era
    error = phase_error(era)
    skip = era.skips_zero_phases
    source = run.phases if pool is None else pool
    bw = bounded_mean(phase_values(source, bw_names), error, skip_nonpositive=skip)
    md = bounded_mean(phase_values(source, md_names), error, skip_nonpositive=skip)
    if era.is_shell:
        # The shell script took TOTAL from the BW and MD that awk had already rounded.
        total = bounded_sqrt_product(
            widen(bw, claimed_error(era, bw.value)), widen(md, claimed_error(era, md.value))
        )
    else:
        total = bounded_sqrt_product(bw, md)
    return Recomputed(bw=bw, md=md, total=total)


def compute_score(run: RunResult) -> Score:
    """BW, MD and the IO500 score (always the square root) recomputed from the 12 core phases."""
    return recompute(run).as_score()


def _skipped_zero_findings(run: RunResult) -> list[Finding]:
    if not run.era.skips_zero_phases:
        return []
    findings = []
    for group, names in (("BW", BW_PHASES), ("MD", MD_PHASES)):
        count = sum(1 for value in phase_values(run.phases, names) if not value > 0)
        if count:
            findings.append(finding("zero-phases-skipped", count=count, group=group))
    return findings


def _agrees(era: Era, bounded: Bounded, claimed: float) -> bool:
    return bounded.agrees_with(claimed, claimed_error(era, claimed))


def _rnd4k_dev_build_bw(run: RunResult, claimed_bw: float) -> bool:
    """Dev builds io500-sc24_v1-2 ... -9 averaged ior-rnd4K-easy-read into BW (fixed in PR #78)."""
    if RND4K_EASY_READ not in run.extra_phases:
        return False
    five = bounded_mean(
        phase_values(all_phases(run), (*BW_PHASES, RND4K_EASY_READ)),
        phase_error(run.era),
        skip_nonpositive=run.era.skips_zero_phases,
    )
    return _agrees(run.era, five, claimed_bw)


def check_score(run: RunResult) -> ScoreCheck:
    """The recomputed score, whether the claimed one agrees, and the findings that say why not."""
    era = run.era
    result = recompute(run)
    check = ScoreCheck(computed=result.as_score(), matches=False)
    check.findings.extend(_skipped_zero_findings(run))
    claimed = run.claimed
    if claimed is None or (claimed.bw is None and claimed.md is None and claimed.score is None):
        code = "score-not-printed" if era is Era.DEV_SCRIPT else "score-missing"
        check.findings.append(finding(code))
        return check

    matches = True
    if claimed.bw is not None and not _agrees(era, result.bw, claimed.bw):
        matches = False
        if _rnd4k_dev_build_bw(run, claimed.bw):
            check.findings.append(finding("bw-rnd4k-dev-build", claimed=claimed.bw, computed=result.bw.value))
            check.findings.extend(_extended_findings(run))
            check.matches = False
            return check
        check.findings.append(
            finding(
                "bw-mismatch", claimed=claimed.bw, computed=result.bw.value, tolerance=result.bw.tolerance
            )
        )
    if claimed.md is not None and not _agrees(era, result.md, claimed.md):
        matches = False
        check.findings.append(
            finding(
                "md-mismatch", claimed=claimed.md, computed=result.md.value, tolerance=result.md.tolerance
            )
        )
    if claimed.score is not None and not _agrees(era, result.total, claimed.score):
        if era.is_shell and _is_product_total(run, result, claimed.score):
            check.findings.append(
                finding("sc17-product-total", claimed=claimed.score, computed=result.total.value)
            )
        else:
            matches = False
            check.findings.append(
                finding(
                    "score-mismatch",
                    claimed=claimed.score,
                    computed=result.total.value,
                    tolerance=result.total.tolerance,
                )
            )
    elif claimed.score is None:
        matches = False
        check.findings.append(finding("score-missing"))
    check.matches = matches
    check.findings.extend(_extended_findings(run))
    return check


def _is_product_total(run: RunResult, result: Recomputed, claimed_total: float) -> bool:
    """SC17 printed TOTAL = BW x MD (bc), from the BW and MD awk had printed."""
    era = run.era
    bw = widen(result.bw, claimed_error(era, result.bw.value))
    md = widen(result.md, claimed_error(era, result.md.value))
    product = bounded_product(bw, md)
    return product.agrees_with(claimed_total, claimed_error(era, claimed_total, product_total=True))


def _extended_findings(run: RunResult) -> list[Finding]:
    """[SCOREX] (B3+, extended mode): the same formula over standard plus extended phases."""
    claimed = run.claimed_extended
    if claimed is None or claimed.score is None:
        return []
    extended = recompute(
        run,
        (*BW_PHASES, *(n for n in EXTENDED_BW_PHASES if n in run.extra_phases)),
        (*MD_PHASES, *(n for n in EXTENDED_MD_PHASES if n in run.extra_phases)),
        all_phases(run),
    )
    if _agrees(run.era, extended.total, claimed.score):
        return []
    return [
        finding(
            "extended-score-mismatch",
            claimed=claimed.score,
            computed=extended.total.value,
            tolerance=extended.total.tolerance,
        )
    ]


def score_rules(run: RunResult) -> list[Finding]:
    return check_score(run).findings
