"""The hash rule on constructed runs: verified, tampered, invalid-run and explained config hashes."""

from __future__ import annotations

from scoring.hashes import INVALID_RUN_PAIR, extended_score_hash, format_hash, parse_hash, score_hash
from scoring.model import Era, RunResult, Severity
from scoring.rules.hashes import hash_rules
from tests.scoring.run_builders import make_run


def codes(run: RunResult) -> list[str]:
    return [f.code for f in hash_rules(run)]


def replace_in_section(run: RunResult, section: str, key: str, value: str) -> None:
    run.result_ini = [
        (name, [(k, value if (name, k) == (section, key) else v) for k, v in items])
        for name, items in run.result_ini
    ]


def test_a_run_as_written_by_the_application_verifies() -> None:
    findings = hash_rules(make_run())
    assert [(f.code, f.severity) for f in findings] == [
        ("score-hash-verified", Severity.INFO),
        ("config-hash-verified", Severity.INFO),
    ]


def test_an_edited_phase_score_breaks_the_score_hash() -> None:
    run = make_run()
    replace_in_section(run, "find", "score", "2000.000000")
    assert codes(run)[0] == "score-hash-mismatch"


def test_a_hash_with_valid_no_mixed_in_marks_the_run_invalid() -> None:
    run = make_run()
    sections = dict(run.result_ini)
    stored = parse_hash(dict(sections["SCORE"])["hash"])
    assert stored is not None
    replace_in_section(run, "SCORE", "hash", format_hash(stored ^ INVALID_RUN_PAIR))
    findings = hash_rules(run)
    assert (findings[0].code, findings[0].severity) == ("score-hash-invalid-run", Severity.ERROR)


def test_an_empty_version_is_still_hashed() -> None:
    assert codes(make_run(version="")) == ["score-hash-verified", "config-hash-verified"]


def test_a_changed_config_after_the_run_is_an_error() -> None:
    run = make_run()
    run.config["ior-easy"]["blockSize"] = "100m"
    assert codes(run) == ["score-hash-verified", "config-hash-mismatch"]


def test_a_user_written_config_explains_a_config_mismatch() -> None:
    run = make_run()
    del run.config["global"]["drop-caches-cmd"]
    findings = hash_rules(run)
    assert [(f.code, f.severity) for f in findings][1] == ("config-hash-explained", Severity.WARNING)
    assert "drop-caches-cmd" in findings[1].message


def test_a_dev_build_explains_a_config_mismatch() -> None:
    run = make_run(version="io500-isc20-5-gc155836d31c1")
    run.config["ior-easy"]["blockSize"] = "100m"
    assert codes(run)[-1] == "config-hash-explained"


def test_a_c_run_without_result_txt_cannot_be_checked() -> None:
    run = make_run(result_ini=[])
    assert [(f.code, f.severity) for f in hash_rules(run)] == [("score-hash-absent", Severity.WARNING)]


def test_shell_runs_have_no_hashes() -> None:
    assert hash_rules(make_run(era=Era.SHELL)) == []


def test_an_isc21_v1_build_left_md_and_bw_out_of_the_hash() -> None:
    run = make_run(version="io500-isc21_v1")
    sections = {name: dict(items) for name, items in run.result_ini}
    phases = {name: sections[name]["score"] for name in run.phases}
    score = sections["SCORE"]
    legacy = score_hash(
        "io500-isc21_v1", phases, score["MD"], score["BW"], score["SCORE"], include_md_bw=False
    )
    replace_in_section(run, "SCORE", "hash", format_hash(legacy))
    assert codes(run)[0] == "score-hash-verified"


def test_an_empty_version_build_may_be_isc21_v1_and_says_so() -> None:
    run = make_run(version="")
    sections = {name: dict(items) for name, items in run.result_ini}
    phases = {name: sections[name]["score"] for name in run.phases}
    score = sections["SCORE"]
    legacy = score_hash("", phases, score["MD"], score["BW"], score["SCORE"], include_md_bw=False)
    replace_in_section(run, "SCORE", "hash", format_hash(legacy))
    assert codes(run)[0] == "score-hash-legacy"


def test_the_extended_hash_is_checked_without_the_version() -> None:
    run = make_run()
    phases = {"ior-rnd4K-write": "0.500000", "find-easy": "900.000000"}
    args = (phases, "50.000000", "2.000000", "10.000000")
    good = format_hash(extended_score_hash(*args))
    run.result_ini += [(name, [("score", value)]) for name, value in phases.items()]
    run.result_ini.append(("SCOREX", [("MD", args[1]), ("BW", args[2]), ("SCORE", args[3]), ("hash", good)]))
    assert "extended-hash-mismatch" not in codes(run)
    replace_in_section(run, "find-easy", "score", "901.000000")
    findings = [f for f in hash_rules(run) if f.code == "extended-hash-mismatch"]
    assert [f.severity for f in findings] == [Severity.WARNING]


def with_score_hash(run: RunResult, version: str, *, include_md_bw: bool) -> RunResult:
    sections = {name: dict(items) for name, items in run.result_ini}
    phases = {name: sections[name]["score"] for name in run.phases}
    score = sections["SCORE"]
    stored = score_hash(
        version, phases, score["MD"], score["BW"], score["SCORE"], include_md_bw=include_md_bw
    )
    replace_in_section(run, "SCORE", "hash", format_hash(stored))
    return run


def test_a_build_past_isc21_v1_that_hashes_md_and_bw_verifies() -> None:
    # io500-isc21_v1-6-g739a1de1dda9 (IO500/submission-data, submission-554) was built after the
    # fix that put MD and BW into the hash: the version prefix alone does not tell the recipe.
    version = "io500-isc21_v1-6-g739a1de1dda9"
    run = with_score_hash(make_run(version=version), version, include_md_bw=True)
    assert codes(run)[0] == "score-hash-verified"


def test_a_build_past_isc21_v1_without_md_and_bw_says_which_recipe_matched() -> None:
    version = "io500-isc21_v1-2-g0123456789ab"
    run = with_score_hash(make_run(version=version), version, include_md_bw=False)
    assert codes(run)[0] == "score-hash-legacy"


def test_the_plain_isc21_v1_tag_is_checked_with_its_own_recipe_only() -> None:
    run = with_score_hash(make_run(version="io500-isc21_v1"), "io500-isc21_v1", include_md_bw=True)
    assert codes(run)[0] == "score-hash-mismatch"
