"""Which run of an archive is listed (issue 22, item 5): the complete, latest one, never the best
score, with a warning naming the others. Real runs copied into tmp_path; forged copies are made as
a forger would, the score hash recomputed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from scoring import Verification, verify
from scoring.hashes import run_timestamp
from scoring.primary import choose_primary, completeness
from scoring.readers.ini import parse_ini
from tests.scoring.forgery import copy_run, rehash_score, set_key, text, write

HONEST = (738, "results/2025.05.07-09.01.18")  # io500-isc25_v1, complete, valid
OLDER = "2025.05.06-09.01.18"  # a day before the honest run


def _honest(submission: Callable[[int], Path], target: Path) -> Path:
    number, relative = HONEST
    return copy_run(submission(number) / relative, target)


def _forge_higher_score(run: Path, timestamp: str) -> None:
    """Triple mdtest-easy-write, recompute MD, the score and the hash; date the run `timestamp`."""
    content = text(run)
    document = parse_ini(content)
    old_stamp = run_timestamp(document.value("run", "result-dir") or document.value("", "result-dir"))
    assert old_stamp is not None
    content = content.replace(old_stamp, timestamp)
    score = float(document.value("mdtest-easy-write", "score") or "nan")
    md, bw = float(document.value("SCORE", "MD") or "nan"), float(document.value("SCORE", "BW") or "nan")
    new_md = md * 3 ** (1 / 8)  # one of the eight metadata phases tripled
    content = set_key(content, "mdtest-easy-write", "score", f"{score * 3:f}")
    content = set_key(content, "SCORE", "MD", f"{new_md:f}")
    content = set_key(content, "SCORE", "SCORE", f"{(new_md * bw) ** 0.5:f}")
    write(run, content)
    rehash_score(run)


def _by_path(verifications: list[Verification]) -> dict[str, Verification]:
    return {v.result.path: v for v in verifications}


def _listed(verifications: list[Verification]) -> Verification:
    return verifications[choose_primary(verifications).primary]


def test_a_higher_scoring_copy_beside_the_honest_run_is_not_listed(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    honest = _honest(submission, tmp_path / "upload" / "results" / "2025.05.07-09.01.18")
    forged = copy_run(honest, tmp_path / "upload" / "results" / OLDER)
    _forge_higher_score(forged, OLDER)
    verifications = verify(tmp_path / "upload")
    runs = _by_path(verifications)
    assert runs[f"results/{OLDER}"].computed.score > runs["results/2025.05.07-09.01.18"].computed.score  # type: ignore[operator]
    listed = _listed(verifications)
    assert listed.result.path == "results/2025.05.07-09.01.18"
    [warning] = choose_primary(verifications).findings
    assert warning.code == "primary-run-chosen"
    assert OLDER in warning.message and "never chosen by score" in warning.message


def test_the_latest_complete_run_is_listed_even_when_it_scores_lower(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    """The later run is the forged-looking one here: the choice follows time, not the number."""
    honest = _honest(submission, tmp_path / "upload" / "results" / "2025.05.07-09.01.18")
    later = "2025.05.08-09.01.18"
    higher = copy_run(honest, tmp_path / "upload" / "results" / later)
    _forge_higher_score(higher, later)
    listed = _listed(verify(tmp_path / "upload"))
    assert listed.result.path == f"results/{later}"


def test_an_incomplete_later_run_is_not_listed(submission: Callable[[int], Path], tmp_path: Path) -> None:
    honest = _honest(submission, tmp_path / "upload" / "results" / OLDER)
    write(honest, text(honest).replace("2025.05.07-09.01.18", OLDER))
    later = copy_run(honest, tmp_path / "upload" / "results" / "2025.05.07-09.01.18")
    write(later, text(later).replace(OLDER, "2025.05.07-09.01.18"))
    for raw in ("ior-hard-read.txt", "mdtest-hard-stat.txt"):
        (later / raw).unlink()
    verifications = verify(tmp_path / "upload")
    runs = _by_path(verifications)
    assert not completeness(runs["results/2025.05.07-09.01.18"].result).complete
    assert completeness(runs[f"results/{OLDER}"].result).complete
    listed = _listed(verifications)
    assert listed.result.path == f"results/{OLDER}"
    [warning] = choose_primary(verifications).findings
    assert "raw output for 10 of 12 scored phases" in warning.message


def test_without_a_complete_run_the_most_complete_is_listed(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    first = _honest(submission, tmp_path / "upload" / "a")
    second = copy_run(first, tmp_path / "upload" / "b")
    (first / "config.ini").unlink()
    for raw in ("ior-hard-read.txt", "mdtest-hard-stat.txt", "mdtest-easy-stat.txt"):
        (second / raw).unlink()
    verifications = verify(tmp_path / "upload")
    listed = _listed(verifications)
    assert listed.result.path == "b"  # all files and 9 raw outputs beat no config.ini and 12
    [warning] = choose_primary(verifications).findings
    assert "no run is complete" in warning.message


def test_a_single_run_is_listed_without_a_warning(submission: Callable[[int], Path], tmp_path: Path) -> None:
    verifications = verify(_honest(submission, tmp_path / "run"))
    choice = choose_primary(verifications)
    assert choice.order == (0,)
    assert choice.findings == ()


def test_the_real_top_level_summary_beside_a_complete_run_is_not_listed(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    """submission-714: a top-level result_summary.txt of another run (TOTAL 500.2, no result.txt, no
    raw output) next to the complete run in results/ (TOTAL 495.4)."""
    shutil.copytree(submission(714), tmp_path / "s714")
    verifications = verify(tmp_path / "s714")
    assert len(verifications) == 2
    listed = _listed(verifications)
    assert listed.result.path == "results/2024.09.13-12.11.52"
    assert max(v.computed.score or 0 for v in verifications) > (listed.computed.score or 0)
    [warning] = choose_primary(verifications).findings
    assert "'.' (incomplete" in warning.message


def test_runs_with_the_same_timestamp_are_named_as_copies(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    honest = _honest(submission, tmp_path / "upload" / "a" / "2025.05.07-09.01.18")
    copy_run(honest, tmp_path / "upload" / "b" / "2025.05.07-09.01.18")
    [warning] = choose_primary(verify(tmp_path / "upload")).findings
    assert "same run timestamp" in warning.message


def test_a_forged_copy_with_the_same_timestamp_beside_the_honest_run_is_not_listed(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    """The copy cannot sit in the folder the application named (result-dir): it gets a suffix."""
    honest = _honest(submission, tmp_path / "upload" / "results" / "2025.05.07-09.01.18")
    forged = copy_run(honest, tmp_path / "upload" / "results" / "2025.05.07-09.01.18-rerun")
    _forge_higher_score(forged, "2025.05.07-09.01.18")
    verifications = verify(tmp_path / "upload")
    assert _listed(verifications).result.path == "results/2025.05.07-09.01.18"
    [warning] = choose_primary(verifications).findings
    assert (
        "'results/2025.05.07-09.01.18-rerun' of 2025.05.07-09.01.18 (the same run timestamp"
        in warning.message
    )


def test_a_forged_copy_inside_a_top_level_run_is_not_listed(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    number, relative = (111, ".")  # an io500-isc20 run at the top of its folder
    honest = copy_run(submission(number) / relative, tmp_path / "upload")
    staging = copy_run(honest, tmp_path / "staging")
    forged = staging.rename(honest / "rerun")
    _forge_higher_score(forged, run_timestamp(parse_ini(text(honest)).value("", "result-dir")) or "")
    verifications = verify(honest)
    assert {v.result.path for v in verifications} == {".", "rerun"}
    assert _listed(verifications).result.path == "."
