"""Run tokens in the scoring engine (scoring/tokens.py): the seeds a token gives each phase, and what a
run made with a token must show."""

from __future__ import annotations

import dataclasses
import datetime as dt

from scoring.model import GIB_PER_S, Era, Phase, RawOutput, Recorded, RunResult
from scoring.tokens import (
    IssuedToken,
    expected_seeds,
    first_start,
    is_token,
    printed_seeds,
    run_token,
    token_findings,
)

TOKEN = "io500-run-abcdefghijklmnopqrstuvwxyz"
# Printed by IO500/io500 itself: `u_phase_unique_random_number` of src/util.c at commit
# 02091cf254d836b88bb89bbce393e45ef854af6e, compiled with its `rotladd`/`u_hash_update` unchanged and
# `opt.timestamp` set to the token, each value printed with the `%d` its phases use.
OFFICIAL = {
    TOKEN: {
        "ior-easy": 398083413,
        "ior-hard": 398126165,
        "mdtest-easy": -352172707,
        "mdtest-hard": -352129955,
        "md-workbench": -997997449,
    },
    "io500-run-234567abcdefghijklmnopqrst": {
        "ior-easy": 381659223,
        "ior-hard": 381701975,
        "mdtest-easy": -368596897,
        "mdtest-hard": -368554145,
        "md-workbench": -1014421639,
    },
    # The application's own timestamp format, as a check that the same code path is compared.
    "2026.01.01-00.00.00": {
        "ior-easy": 1767022899,
        "ior-hard": 1767033587,
        "mdtest-easy": -1641766603,
        "mdtest-hard": -1641755915,
        "md-workbench": 344260860,
    },
}
ISSUED = dt.datetime(2026, 11, 28, 2, 0, tzinfo=dt.UTC)
EXPIRES = ISSUED + dt.timedelta(days=7)


def test_the_seeds_of_a_token_are_those_the_official_application_prints() -> None:
    for token, seeds in OFFICIAL.items():
        assert expected_seeds(token) == seeds


def test_a_token_is_recognised_only_in_its_exact_format() -> None:
    assert is_token(TOKEN)
    assert not is_token(TOKEN.upper())
    assert not is_token(TOKEN + "a")
    assert not is_token("io500-run-0123456789abcdef0123456789")  # 0, 1, 8, 9 are no base32 letters
    assert not is_token("2026.01.01-00.00.00")
    assert not is_token(None)


def _phase(name: str, command: str | None) -> Phase:
    return Phase(name=name, value=1.0, unit=GIB_PER_S, time_s=300.0, scored=True, command=command)


def _run(
    token: str = TOKEN,
    seeds: dict[str, int] | None = None,
    start: dt.datetime | None = dt.datetime(2026, 11, 28, 3, 0),
    folder: str | None = None,
) -> RunResult:
    seeds = expected_seeds(token) if seeds is None else seeds
    phases = {
        "ior-easy-write": _phase("ior-easy-write", f"./ior -g -G {seeds['ior-easy']} -k -e -w"),
        "ior-hard-read": _phase("ior-hard-read", f"./ior -C -Q 1 -g -G={seeds['ior-hard']} -r -R"),
        "mdtest-easy-write": _phase("mdtest-easy-write", f"./mdtest -n 10 -G {seeds['mdtest-easy']}"),
        "mdtest-hard-stat": _phase("mdtest-hard-stat", f"./mdtest -n 10 -G={seeds['mdtest-hard']} -T"),
        "ior-rnd4K-easy-read": _phase("ior-rnd4K-easy-read", f"./ior -g -G {seeds['ior-easy']} -r -z"),
        "mdworkbench-bench": _phase("mdworkbench-bench", f"./md-workbench -G={seeds['md-workbench']}"),
        "find": _phase("find", "./pfind /data -newer x"),
    }
    return RunResult(
        path=folder or token,
        era=Era.C_ISC25,
        version="io500-isc26_v2",
        phases=phases,
        result_ini=[("run", [("result-dir", f"/scratch/results/{token}")])],
        result_recorded=[("run", Recorded()), ("ior-easy-write", Recorded(t_start=start))],
    )


def _codes(run: RunResult) -> list[str]:
    return [f.code for f in token_findings(run, IssuedToken(TOKEN, ISSUED, EXPIRES))]


def test_a_run_made_with_the_token_shows_it_everywhere() -> None:
    run = _run()
    assert run_token(run) == TOKEN
    assert first_start(run) == dt.datetime(2026, 11, 28, 3, 0)
    assert [(phase, family) for phase, family, _, _ in printed_seeds(run)] == [
        ("ior-easy-write", "ior-easy"),
        ("ior-hard-read", "ior-hard"),
        ("mdtest-easy-write", "mdtest-easy"),
        ("mdtest-hard-stat", "mdtest-hard"),
        ("ior-rnd4K-easy-read", "ior-easy"),
        ("mdworkbench-bench", "md-workbench"),
    ]
    assert _codes(run) == []


def test_a_run_made_with_another_timestamp_has_other_seeds() -> None:
    # The directory renamed to the token after a run made with the application's own timestamp.
    run = _run(seeds=expected_seeds("2026.11.28-03.00.00"))
    assert _codes(run) == ["token-seed-mismatch"] * 6


def test_a_folder_renamed_to_the_token_does_not_match_result_txt() -> None:
    run = _run(token="io500-run-234567abcdefghijklmnopqrst", folder=TOKEN)
    assert run_token(run) == "io500-run-234567abcdefghijklmnopqrst"
    assert "token-directory-mismatch" in _codes(run)


def test_a_run_without_printed_seeds_cannot_be_tied_to_the_token() -> None:
    run = _run()
    run.phases = {name: _phase(name, None) for name in run.phases}
    assert _codes(run) == ["token-seeds-missing"]


def test_the_start_must_fall_in_the_tokens_life_in_any_time_zone() -> None:
    # Local time up to 12 hours behind UTC is still after the issue; 13 hours is not.
    assert _codes(_run(start=dt.datetime(2026, 11, 27, 14, 0))) == []
    assert _codes(_run(start=dt.datetime(2026, 11, 27, 13, 59))) == ["token-started-before-issue"]
    # Up to 14 hours ahead of UTC is still before the expiry; beyond it is not.
    assert _codes(_run(start=dt.datetime(2026, 12, 5, 16, 0))) == []
    assert _codes(_run(start=dt.datetime(2026, 12, 5, 16, 1))) == ["token-started-after-expiry"]
    assert _codes(_run(start=None)) == ["token-start-unknown"]


def test_the_seed_in_the_tools_own_output_is_checked_too() -> None:
    run = _run()
    phase = run.phases["ior-easy-write"]
    wrong = expected_seeds("2026.11.28-03.00.00")["ior-easy"]
    raw = RawOutput(tool="ior", file="ior-easy-write.txt", command=f"./ior -g -G {wrong} -k -e -w")
    run.phases["ior-easy-write"] = dataclasses.replace(phase, raw=raw)
    findings = token_findings(run, IssuedToken(TOKEN, ISSUED, EXPIRES))
    assert [(f.code, f.phase) for f in findings] == [("token-seed-mismatch", "ior-easy-write")]
    assert "in the tool's output" in findings[0].message and str(wrong) in findings[0].message
