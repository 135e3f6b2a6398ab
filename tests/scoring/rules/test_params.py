"""Fixed hard-test parameters, stonewall options, read verification, seeds and versions."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.hashes import phase_seed
from scoring.model import Era, RunResult, Severity
from scoring.rules.params import is_bundled_runner, is_release_version, param_rules
from tests.scoring.run_builders import TIMESTAMP, make_phase, make_run


def with_command(name: str, old: str, new: str, era: Era = Era.C_SC21) -> RunResult:
    run = make_run(era=era)
    phase = run.phases[name]
    assert phase.command is not None and old in phase.command
    run.phases[name] = dataclasses.replace(phase, command=phase.command.replace(old, new))
    return run


def codes(run: RunResult) -> list[str]:
    return [f.code for f in param_rules(run)]


def test_a_run_with_the_application_commands_passes() -> None:
    assert param_rules(make_run()) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [("-t 47008", "-t 1m"), ("-b 47008", "-b 47009"), ("-s 10000000", "-s 10000000 -F")],
)
def test_it_rejects_a_changed_ior_hard_access_pattern(old: str, new: str) -> None:
    assert codes(with_command("ior-hard-write", old, new)) == ["ior-hard-params"]


def test_it_accepts_the_equals_spelling_of_options() -> None:
    assert codes(with_command("ior-hard-read", "-t 47008 -b 47008", "-t=47008 -b=47008")) == []


def test_it_rejects_other_mdtest_hard_file_sizes() -> None:
    findings = param_rules(with_command("mdtest-hard-write", "-w 3901", "-w 4096"))
    assert [f.code for f in findings] == ["mdtest-hard-params"]
    assert "-w 4096" in findings[0].message


def test_it_rejects_a_directory_per_rank_in_mdtest_hard() -> None:
    assert codes(with_command("mdtest-hard-stat", "-t -w", "-u -t -w")) == ["mdtest-hard-params"]


def test_files_per_dir_is_an_error_from_sc21_on() -> None:
    assert codes(with_command("mdtest-hard-write", "-t -w", "-I 800 -t -w")) == ["mdtest-hard-params"]


def test_files_per_dir_is_a_warning_where_the_benchmark_offered_it() -> None:
    findings = param_rules(with_command("mdtest-hard-write", "-t -w", "-I 800 -t -w", era=Era.C_ISC21))
    assert [(f.code, f.severity) for f in findings] == [("mdtest-hard-files-per-dir", Severity.WARNING)]


def test_it_rejects_a_write_without_the_300_second_stonewall() -> None:
    assert codes(with_command("ior-easy-write", "-D 300", "-D 60")) == ["stonewall-options"]
    assert codes(with_command("mdtest-easy-write", "-W 300", "-W 30")) == ["stonewall-options"]


def test_it_rejects_a_stonewall_without_wear_out() -> None:
    assert codes(with_command("ior-hard-write", "-O stoneWallingWearOut=1", "")) == ["stonewall-options"]


def test_a_shell_run_with_the_stonewall_switched_off_is_a_warning() -> None:
    run = with_command("ior-easy-write", "-D 300", "-D 0", era=Era.SHELL)
    run.timestamp = "2018.11.09-21.36.49"
    assert [(f.code, f.severity) for f in param_rules(run)] == [("stonewall-disabled", Severity.WARNING)]


def test_shell_runs_before_the_stonewall_existed_are_not_asked_for_it() -> None:
    run = with_command("ior-easy-write", "-D 300", "", era=Era.SHELL)
    run.timestamp = "2018.05.12-13.55.14"
    assert codes(run) == []


def test_it_rejects_reads_without_data_verification() -> None:
    assert codes(with_command("ior-easy-read", "-r -R", "-r")) == ["read-verify-missing"]
    assert codes(with_command("mdtest-hard-read", "-E -X", "-E")) == ["read-verify-missing"]


def test_it_rejects_a_seed_that_does_not_follow_from_the_timestamp() -> None:
    run = make_run(result_ini=[])  # without result.txt the folder name is the run timestamp
    run.timestamp = "2023.03.22-18.10.34"  # one second later than the seeds were derived from
    findings = param_rules(run)
    assert {f.code for f in findings} == {"seed-mismatch"}
    assert {f.phase for f in findings} == set(run.phases) - {"find"}


def _with_random_read(seed: int) -> RunResult:
    """The run with the unscored ior-rnd4K-easy-read, whose command carries `seed` (IO500/io500
    src/phase_ior_rnd4k_easy_read.c adds ior-easy's parameters, its -G seed included)."""
    run = make_run()
    command = (
        f"./ior -C -Q 2 -g -G={seed} -k -e -o /d/ior-easy/f -t 4096 -b 4096 -s 10000000 -F -r -R "
        "-z -z -D 300 -a POSIX -O stoneWallingWearOut=1"
    )
    run.extra_phases["ior-rnd4K-easy-read"] = make_phase("ior-rnd4K-easy-read", 0.5, command=command)
    return run


def test_the_random_4k_read_is_held_to_ior_easys_seed() -> None:
    assert codes(_with_random_read(phase_seed("ior-easy", TIMESTAMP))) == []
    findings = param_rules(_with_random_read(phase_seed("ior-hard", TIMESTAMP)))
    assert [(f.code, f.phase) for f in findings] == [("seed-mismatch", "ior-rnd4K-easy-read")]


def test_seeds_are_not_checked_before_isc21() -> None:
    run = make_run(era=Era.C_SC20)
    run.timestamp = "2020.10.31-00.53.53"
    assert codes(run) == []


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("io500-sc25", []),
        ("io500-isc20_v4-2-g20efd247106c", ["version-dev-build"]),
        ("io500-isc21_v1-12", ["version-dirty"]),
        ("io500-sc21-24", ["version-dirty"]),
        ("io500-isc20_v4-2-g20efd247106c-17", ["version-dev-build", "version-dirty"]),
        ("", ["version-empty"]),
        ("my-fork", ["version-unrecognised"]),
    ],
)
def test_it_flags_versions_that_are_not_a_release_for_review(version: str, expected: list[str]) -> None:
    findings = param_rules(make_run(version=version))
    assert [f.code for f in findings] == expected
    assert all(f.severity is Severity.WARNING for f in findings)


def test_the_bundled_runner_is_recognised_by_its_version_not_called_unrecognised() -> None:
    findings = param_rules(make_run(version="io500-runner-1.0.0"))
    assert [(f.code, f.severity) for f in findings] == [("version-bundled-runner", Severity.INFO)]
    assert is_bundled_runner(" io500-runner-1.2.10 ")
    assert not is_bundled_runner("io500-runner-1.0") and not is_bundled_runner("io500-sc25")
    assert [f.code for f in param_rules(make_run(version="io500-runner-1.0"))] == ["version-unrecognised"]


def test_it_tells_release_tags_from_other_builds() -> None:
    assert is_release_version("io500-isc22_v1")
    assert not is_release_version("io500-sc20-6-gf1c40e1e4342")
    assert not is_release_version("")
    assert not is_release_version(None)


def test_a_phase_without_a_recorded_command_is_not_judged() -> None:
    run = make_run(phases={"ior-hard-write": make_phase("ior-hard-write", command=None)})
    assert codes(run) == []
