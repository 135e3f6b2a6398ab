"""Evidence, not checksums (issue 13): real runs copied into tmp_path, then attacked.

The attacks are the ones shown in the issue: result.txt deleted or replaced by a directory (the
benchmark's own INVALID verdict vanished with it), config.ini replaced by a directory (the config
hash was skipped), and a forgery that rewrites every summary file consistently, score hash
included, as anyone can with the public hash recipe (scoring/hashes.py). Each attacked copy must
come out invalid for the right reason, and the untouched originals must keep their verdict.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring import Verification, verify
from scoring.hashes import format_hash, score_hash
from scoring.means import geometric_mean
from scoring.model import BW_PHASES, MD_PHASES, SCORED_PHASES, Severity

# A valid io500-isc25_v1 run with per-rank CSVs, and a run whose result.txt carries the benchmark's
# own "; ERROR INVALID stonewall-time < 30s" verdict while its summary shows no marker.
HONEST = (738, "results/2025.05.07-09.01.18")
INVALID_IN_RESULT_TXT = (642, "results/good-2023.03.22-18.10.33")


def _copy_run(submission: Callable[[int], Path], tmp_path: Path, which: tuple[int, str]) -> Path:
    number, relative = which
    target = tmp_path / f"submission-{number}"
    shutil.copytree(submission(number) / relative, target)
    return target


def _only(path: Path) -> Verification:
    [verification] = verify(path)
    return verification


def _codes(verification: Verification, severity: Severity | None = None) -> set[str]:
    return {f.code for f in verification.findings if severity is None or f.severity is severity}


# --- result.txt and config.ini ------------------------------------------------------------------
def test_the_untouched_runs_keep_their_verdicts(submission: Callable[[int], Path], tmp_path: Path) -> None:
    honest = _only(_copy_run(submission, tmp_path, HONEST))
    assert honest.valid, [f.message for f in honest.findings if f.severity is Severity.ERROR]
    assert "evidence-checked" in _codes(honest)
    invalid = _only(_copy_run(submission, tmp_path, INVALID_IN_RESULT_TXT))
    assert not invalid.valid
    assert _codes(invalid, Severity.ERROR) == {"result-error-comment"}


def test_deleting_result_txt_no_longer_hides_the_benchmarks_invalid_verdict(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, INVALID_IN_RESULT_TXT)
    (run / "result.txt").unlink()
    verification = _only(run)
    assert not verification.valid
    missing = [f for f in verification.findings if f.code == "evidence-file-missing"]
    assert [f.message.split(" ")[0] for f in missing] == ["result.txt"]


def test_a_directory_named_result_txt_is_not_the_result_file(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, INVALID_IN_RESULT_TXT)
    (run / "result.txt").unlink()
    (run / "result.txt").mkdir()
    verification = _only(run)
    assert not verification.valid
    [wrong] = [f for f in verification.findings if f.code == "evidence-file-not-regular"]
    assert wrong.message.startswith("result.txt is a directory")
    assert "evidence-file-missing" not in _codes(verification)


def test_a_directory_named_config_ini_does_not_skip_the_configuration(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    (run / "config.ini").unlink()
    (run / "config.ini").mkdir()
    (run / "config.ini" / "placeholder").write_text("")
    verification = _only(run)
    assert not verification.valid
    [wrong] = [f for f in verification.findings if f.code == "evidence-file-not-regular"]
    assert wrong.message.startswith("config.ini is a directory")


def test_an_empty_result_txt_is_no_evidence_either(submission: Callable[[int], Path], tmp_path: Path) -> None:
    run = _copy_run(submission, tmp_path, INVALID_IN_RESULT_TXT)
    (run / "result.txt").write_text("")
    verification = _only(run)
    assert not verification.valid
    assert "evidence-file-unusable" in _codes(verification, Severity.ERROR)


def test_a_result_txt_directory_inside_a_tarball_is_seen_as_one(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, INVALID_IN_RESULT_TXT)
    archive = tmp_path / "upload.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        for file in sorted(run.iterdir()):
            if file.name != "result.txt":
                tar.add(file, arcname=f"run/{file.name}")
        folder = tarfile.TarInfo("run/result.txt")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder, io.BytesIO(b""))
    verification = _only(archive)
    assert "evidence-file-not-regular" in _codes(verification, Severity.ERROR)


# --- a consistent forgery of every summary file -------------------------------------------------
FORGED = {"ior-easy-write": 10.0, "mdtest-easy-write": 10.0}  # each value times this factor


def _set_key(text: str, section: str, key: str, value: str) -> str:
    """Rewrite `key = value` inside `[section]` of result.txt, keeping the app's `%-15s = ` layout."""
    pattern = re.compile(rf"(^\[{re.escape(section)}\]\n(?:(?!\[).*\n)*?){re.escape(key)}\s*=.*$", re.M)
    replaced, count = pattern.subn(lambda m: f"{m.group(1)}{key:<15} = {value}", text)
    assert count == 1, (section, key)
    return replaced


def _forge(run: Path) -> tuple[float, float]:
    """Edit the phase values, the [SCORE] section and its hash, and every summary line, exactly as a
    forger would who knows the public hash recipe. Returns (original score, forged score)."""
    result = (run / "result.txt").read_text()
    summary = (run / "result_summary.txt").read_text()
    scores = {
        name: re.search(rf"^\[{name}\]\n(?:(?!\[).*\n)*?score\s*=\s*(\S+)", result, re.M).group(1)  # type: ignore[union-attr]
        for name in SCORED_PHASES
    }
    original = float(re.search(r"^SCORE\s*=\s*(\S+)", result, re.M).group(1))  # type: ignore[union-attr]
    for name, factor in FORGED.items():
        scores[name] = f"{float(scores[name]) * factor:f}"
        result = _set_key(result, name, "score", scores[name])
        summary = re.sub(rf"^(\[RESULT\]\s+{name}\s+)\S+", rf"\g<1>{scores[name]}", summary, flags=re.M)
    bw = geometric_mean([float(scores[n]) for n in BW_PHASES], skip_nonpositive=True)
    md = geometric_mean([float(scores[n]) for n in MD_PHASES], skip_nonpositive=True)
    bw_text, md_text, total_text = f"{bw:f}", f"{md:f}", f"{math.sqrt(bw * md):f}"
    version = re.search(r"^version\s*=\s*(.*?)\s*$", result, re.M).group(1)  # type: ignore[union-attr]
    forged_hash = format_hash(score_hash(version, scores, md_text, bw_text, total_text))
    for key, value in (("MD", md_text), ("BW", bw_text), ("SCORE", total_text), ("hash", forged_hash)):
        result = _set_key(result, "SCORE", key, value)
    summary = re.sub(
        r"^\[SCORE \].*$",
        f"[SCORE ] Bandwidth {bw_text} GiB/s : IOPS {md_text} kiops : TOTAL {total_text}",
        summary,
        flags=re.M,
    )
    (run / "result.txt").write_text(result)
    (run / "result_summary.txt").write_text(summary)
    return original, float(total_text)


def test_a_consistent_forgery_of_every_summary_file_is_caught_by_the_raw_outputs(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    original, forged = _forge(run)
    assert forged > 1.5 * original  # the attack: a score more than 50 % higher
    verification = _only(run)
    # The forgery is consistent: score, means and the recomputed hash all agree with it ...
    assert verification.score_matches
    assert "score-hash-verified" in _codes(verification)
    assert verification.computed.score == pytest.approx(forged, rel=1e-6)
    # ... but the phases' own outputs still report the old numbers.
    assert not verification.valid
    mismatches = {f.phase: f.message for f in verification.findings if f.code == "evidence-value-mismatch"}
    assert set(mismatches) == set(FORGED)
    assert "ior-easy-write.txt" in mismatches["ior-easy-write"]
    assert "result.txt" in mismatches["ior-easy-write"]
    assert "mdtest-easy-write.txt" in mismatches["mdtest-easy-write"]
    ranks = {f.phase for f in verification.findings if f.code == "evidence-rank-mismatch"}
    assert ranks == set(FORGED)  # the per-rank CSVs disagree as well


def test_the_forged_value_and_the_raw_value_are_both_named(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    honest = _only(_copy_run(submission, tmp_path / "a", HONEST)).result.phases["ior-easy-write"]
    run = _copy_run(submission, tmp_path / "b", HONEST)
    _forge(run)
    [message] = [
        f.message
        for f in _only(run).findings
        if f.code == "evidence-value-mismatch" and f.phase == "ior-easy-write"
    ]
    assert f"{honest.value * FORGED['ior-easy-write']:.6f} GiB/s in result.txt" in message
    # IOR's own bandwidth, with the range its printed digits allow: the honest value lies inside.
    low, high = map(float, re.findall(r"allow (\S+) to (\S+)\)", message)[0])
    assert low <= honest.value <= high


def test_an_edited_raw_command_line_is_caught(submission: Callable[[int], Path], tmp_path: Path) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    raw = run / "ior-hard-write.txt"
    raw.write_text(raw.read_text().replace("-t 47008 -b 47008", "-t 1048576 -b 1048576", 1))
    verification = _only(run)
    assert "evidence-command-mismatch" in _codes(verification, Severity.ERROR)


def test_a_raw_output_from_another_time_is_caught_by_its_clock(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    raw = run / "mdtest-hard-write.txt"
    raw.write_text(raw.read_text().replace("-- started at 05/07/2025", "-- started at 05/06/2025"))
    verification = _only(run)
    assert "evidence-clock-mismatch" in _codes(verification, Severity.ERROR)


def test_a_missing_raw_output_is_a_warning_and_is_counted(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    (run / "ior-easy-read.txt").unlink()
    verification = _only(run)
    assert verification.valid
    [missing] = [f for f in verification.findings if f.code == "evidence-raw-missing"]
    assert missing.severity is Severity.WARNING
    assert "ior-easy-read.txt" in missing.message
    [checked] = [f.message for f in verification.findings if f.code == "evidence-checked"]
    assert checked.startswith("12 of 12 phase values")  # 13 phases, one without its output


def test_the_rnd4k_easy_read_output_of_isc25_v1_is_found_under_its_old_name(
    submission: Callable[[int], Path],
) -> None:
    # io500-isc25_v1 wrote the phase's IOR output to ior-rnd4K-read.txt (fixed in io500-isc25_v2).
    [verification] = verify(submission(HONEST[0]))
    phase = verification.result.extra_phases["ior-rnd4K-easy-read"]
    assert phase.raw is not None and phase.raw.file == "ior-rnd4K-read.txt"
    assert "evidence-unscored-mismatch" not in _codes(verification)


def test_a_stretched_t_delta_does_not_fit_its_own_timestamps(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    result = run / "result.txt"
    result.write_text(_set_key(result.read_text(), "mdtest-easy-write", "t_delta", "724.4231"))
    verification = _only(run)
    [stretched] = [f for f in verification.findings if f.code == "evidence-runtime-mismatch"]
    assert stretched.phase == "mdtest-easy-write"
    assert "724.4231" in stretched.message and "424 s" in stretched.message


# io500.sh era: no result.txt and no hash, so the raw outputs are the only evidence there is.
SHELL = (120, "results")


def test_an_edited_shell_era_value_disagrees_with_ior_own_row(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, SHELL)
    summary = run / "result_summary.txt"
    summary.write_text(summary.read_text().replace("21.649 GB/s", "31.649 GB/s"))
    verification = _only(run)
    [forged] = [f for f in verification.findings if f.code == "evidence-value-mismatch"]
    assert forged.phase == "ior-easy-write" and "ior_easy_write.txt" in forged.message


def test_an_edited_shell_era_runtime_disagrees_with_mdtest_own_time_table(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, SHELL)
    summary = run / "result_summary.txt"
    summary.write_text(summary.read_text().replace("time 2035.23 seconds", "time 3035.23 seconds"))
    verification = _only(run)
    [forged] = [f for f in verification.findings if f.code == "evidence-runtime-mismatch"]
    assert forged.phase == "mdtest-easy-write" and "mdtest_easy_write.txt" in forged.message


def test_the_untouched_shell_run_agrees_with_all_its_raw_outputs(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    verification = _only(_copy_run(submission, tmp_path, SHELL))
    assert verification.valid
    [checked] = [f.message for f in verification.findings if f.code == "evidence-checked"]
    assert checked.startswith("12 of 12 phase values")


def test_an_ior_write_shorter_than_300_s_by_its_own_output_is_invalid(
    submission: Callable[[int], Path], tmp_path: Path
) -> None:
    run = _copy_run(submission, tmp_path, HONEST)
    raw = run / "ior-hard-write.txt"
    row = next(line for line in raw.read_text().splitlines() if line.startswith("write "))
    fields = row.split()
    short = row.replace(fields[-2], "250.00")
    raw.write_text(raw.read_text().replace(row, short))
    verification = _only(run)
    [short_write] = [f for f in verification.findings if f.code == "evidence-stonewall-short"]
    assert short_write.phase == "ior-hard-write" and "250.00 s" in short_write.message
