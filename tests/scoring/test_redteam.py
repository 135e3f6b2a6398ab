"""The red-team corpus of issue 22 in small: one forged copy per era for every kind of forgery.

Each forgery is made from a real run of the shared corpus (copied; the shared data is only read) by
benchmarks/redteam_forgeries.py and must be caught by an ERROR the honest run does not have; kind n
(two phases raised, their raw files deleted) by the raw-missing warning naming both phases; kind m
by the primary-run choice taking the honest run. The honest controls must stay valid, a deleted
file said in a warning. `python benchmarks/redteam.py` runs the full corpus (5 runs per era).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import redteam
from benchmarks.redteam_forgeries import KINDS, Workspace, ior_rewrite, mdtest_rewrite, raised_raw_deleted
from scoring import verify
from scoring.model import Era, Finding, Severity, Verification

ATTACKS = [kind.key for kind in KINDS if not kind.key.startswith("p-") and kind.expect != "limit"]
LIMITS = [kind.key for kind in KINDS if kind.expect == "limit"]
CONTROLS = [kind.key for kind in KINDS if kind.key.startswith("p-")]


@pytest.fixture(scope="module")
def honest(submissions: Path) -> dict[Era, list[redteam.Honest]]:
    return redteam.honest_runs(submissions)


def _missed(report: redteam.Report) -> str:
    return "\n".join(
        f"{r.era.value} {r.submission}/{r.run_path}: {r.description} [{', '.join(r.codes)}]"
        for r in report.results
        if not r.caught
    )


@pytest.mark.parametrize("kind", ATTACKS)
def test_every_forgery_is_caught_in_every_era_it_can_be_made(
    kind: str, submissions: Path, honest: dict[Era, list[redteam.Honest]]
) -> None:
    report = redteam.run(submissions, 1, [kind], by_era=honest)
    assert report.results, f"kind {kind} could be made on no run of the corpus"
    assert all(r.caught for r in report.results), f"kind {kind} not caught:\n{_missed(report)}"


@pytest.mark.parametrize("kind", LIMITS)
def test_the_documented_limits_are_still_limits(
    kind: str, submissions: Path, honest: dict[Era, list[redteam.Honest]]
) -> None:
    # docs/evidence.md names these forgeries as beyond what the archive can show; a check that
    # starts catching them must move them to the attacks and the documentation with them.
    report = redteam.run(submissions, 1, [kind], by_era=honest)
    assert report.results, f"kind {kind} could be made on no run of the corpus"
    assert not any(r.caught for r in report.results), f"kind {kind} is caught now: update the docs"


@pytest.mark.parametrize("kind", CONTROLS)
def test_honest_copies_stay_valid_and_deletions_are_said(
    kind: str, submissions: Path, honest: dict[Era, list[redteam.Honest]]
) -> None:
    report = redteam.run(submissions, 1, [kind], by_era=honest)
    assert report.results
    assert all(r.caught for r in report.results), f"control {kind} failed:\n{_missed(report)}"


@pytest.mark.parametrize("forge", [ior_rewrite, mdtest_rewrite, raised_raw_deleted])
@pytest.mark.parametrize("number", [105, 111, 534, 738])
def test_the_forger_recomputes_what_the_benchmark_prints(
    forge: object, number: int, submissions: Path, tmp_path: Path
) -> None:
    # A forgery caught by a stale score or hash would prove nothing about the evidence checks.
    folder = tmp_path / f"submission-{number}"
    shutil.copytree(submissions / f"submission-{number}", folder)
    run = verify(folder)[0].result
    outcome = forge(Workspace(folder, run))  # type: ignore[operator]
    forged = next(v for v in verify(folder) if v.result.path == outcome.run_path)
    codes = {f.code for f in forged.findings}
    assert forged.score_matches
    assert "score-mismatch" not in codes and "score-hash-mismatch" not in codes
    if not run.era.is_shell:
        assert "score-hash-verified" in codes
    assert forged.result.claimed is not None and run.claimed is not None
    assert forged.result.claimed.score is not None and run.claimed.score is not None
    assert forged.result.claimed.score > run.claimed.score * 1.02  # one of 8 MD phases x1.5: x1.026


def test_the_shared_corpus_is_never_written(
    submissions: Path, honest: dict[Era, list[redteam.Honest]]
) -> None:
    before = {p: p.stat().st_mtime_ns for p in (submissions / "submission-534").rglob("*")}
    redteam.run(submissions, 1, ["b"], eras=[Era.C_ISC21], by_era=honest)
    assert {p: p.stat().st_mtime_ns for p in (submissions / "submission-534").rglob("*")} == before


def test_a_control_fails_when_a_copy_turns_invalid(
    submissions: Path, honest: dict[Era, list[redteam.Honest]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The harness must report an honest run that the engine rejects; simulate a false positive.

    def rejecting(path: Path) -> list[Verification]:
        verifications = verify(path)
        for v in verifications:
            v.findings.append(_error())
        return verifications

    monkeypatch.setattr(redteam, "verify", rejecting)
    report = redteam.run(submissions, 1, ["p-copy"], eras=[Era.C_ISC25], by_era=honest)
    assert report.results and not any(r.caught for r in report.results)


def _error() -> Finding:
    return Finding(code="simulated", severity=Severity.ERROR, message="simulated false positive")


def test_kind_m_is_judged_by_the_scoring_primary_run_function_when_there_is_one(
    submissions: Path, honest: dict[Era, list[redteam.Honest]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A chooser that takes the honest run (here: the shorter path, the forged copy's ends in -rerun).
    def primary_run(verifications: list[Verification]) -> Verification:
        return min(verifications, key=lambda v: len(v.result.path))

    monkeypatch.setattr(redteam, "find_primary_chooser", lambda: (primary_run, "scoring.fake.primary_run"))
    report = redteam.run(submissions, 1, ["m"], eras=[Era.C_ISC25], by_era=honest)
    assert report.results and all(r.caught for r in report.results)
    assert "scoring.fake.primary_run" in report.primary_note


def test_every_listed_honest_run_of_the_corpus_is_valid(
    submissions: Path, honest: dict[Era, list[redteam.Honest]]
) -> None:
    report = redteam.run(submissions, 1, [redteam.ALL_HONEST], by_era=honest)
    assert len(report.results) > 100
    assert all(r.caught for r in report.results), f"honest runs rejected:\n{_missed(report)}"
