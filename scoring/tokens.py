"""Run tokens: what a run made with `io500 config.ini --timestamp=<token>` must show (pure).

The registry issues a token to a submitter for one run (submissions/run_tokens/). The official
application takes it unchanged as its run timestamp (IO500/io500 at commit
02091cf254d836b88bb89bbce393e45ef854af6e, `src/main.c`: `--timestamp=<string>` sets
`opt.timestamp`; with `timestamp-resultdir` (default TRUE, `src/phase_opt.c`) the result directory
is `<resultdir>/<timestamp>`), and seeds every phase's `-G` from it (`src/util.c`
`u_phase_unique_random_number(phase)`: `u_hash_update` of the phase name, then of `opt.timestamp`,
4711 for a hash of 0 or all ones, printed with `%d` as a signed int). The bundled runner does the
same (runner/src/main.c, runner/src/hash.c). So a token binds the run twice: by the name of its
result directory and by the seeds, which nobody can compute before the token is issued.

A token is `io500-run-` and 26 characters of lowercase base32 (128 random bits): a directory name on
every file system, no character a shell or the application's command lines treat specially, shorter
than the runner's 63-character limit, and it never contains a `YYYY.MM.DD-HH.MM.SS` timestamp, so
the rules that read a date from the result directory (rules/params.py `seeds`) leave token runs to
the checks here.

result.txt prints `t_start` in the machine's local time without a zone, so the clock window is
widened by the extreme zone offsets in use (UTC-12 to UTC+14): freshness rests on the seeds, which
exist only once the token does; the clock check catches a run whose clock contradicts the token.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from scoring.cmdline import CommandLine
from scoring.codes import finding
from scoring.hashes import SEED_PHASES, phase_seed
from scoring.model import Finding, RunResult
from scoring.rules.common import result_header

TOKEN_PREFIX = "io500-run-"
TOKEN_BODY_CHARS = 26  # base32 of 16 random bytes, without padding
TOKEN_RE = re.compile(rf"{re.escape(TOKEN_PREFIX)}[a-z2-7]{{{TOKEN_BODY_CHARS}}}")
# The extreme offsets of local time from UTC in use (Baker Island UTC-12, Line Islands UTC+14).
EARLIEST_ZONE = dt.timedelta(hours=-12)
LATEST_ZONE = dt.timedelta(hours=14)
# The phase family a phase's seed is derived from (phase-name prefix -> the name the application
# hashes): `u_phase_unique_random_number("ior-easy")` for ior-easy-write and ior-easy-read alike;
# ior-rnd4K-easy-read takes ior-easy's parameters (`ior_easy_add_params` in
# src/phase_ior_rnd4k_easy_read.c), so its seed too; the md-workbench phases are mdworkbench-* here.
SEED_FAMILIES: dict[str, str] = {
    "ior-easy-": "ior-easy",
    "ior-rnd4K-easy-": "ior-easy",
    "ior-hard-": "ior-hard",
    "mdtest-easy-": "mdtest-easy",
    "mdtest-hard-": "mdtest-hard",
    "mdworkbench-": "md-workbench",
}


def is_token(text: str | None) -> bool:
    return text is not None and TOKEN_RE.fullmatch(text) is not None


def expected_seeds(token: str) -> dict[str, int]:
    """The `-G` value of every seeded phase family for a run made with this token."""
    return {family: phase_seed(family, token) for family in SEED_PHASES}


def seed_family(phase: str) -> str | None:
    for prefix, family in SEED_FAMILIES.items():
        if phase.startswith(prefix):
            return family
    return None


def _basename(path: str | None) -> str | None:
    if not path:
        return None
    name = PurePosixPath(path.strip().rstrip("/")).name
    return name or None


def directory_names(run: RunResult) -> tuple[str | None, str | None]:
    """The result directory's name as result.txt records it (`result-dir`) and as the archive has it."""
    folder = _basename(run.path)
    return _basename(result_header(run).get("result-dir")), None if folder in (None, ".") else folder


def run_token(run: RunResult) -> str | None:
    """The token a run was made with: the name of its result directory, when that is a token."""
    recorded, folder = directory_names(run)
    for name in (recorded, folder):
        if is_token(name):
            return name
    return None


def printed_seeds(run: RunResult) -> list[tuple[str, str, str, str]]:
    """(phase, seed family, the first -G value as printed, where) of every seeded phase: from its
    command line in result.txt and from the tool's own output ("Command line used")."""
    found = []
    for phase in (*run.phases.values(), *run.extra_phases.values()):
        family = seed_family(phase.name)
        if family is None:
            continue
        raw_command = phase.raw.command if phase.raw is not None else None
        for where, command in (("result.txt", phase.command), ("the tool's output", raw_command)):
            seeds = CommandLine.parse(command).values("-G") if command else []
            if seeds:
                found.append((phase.name, family, seeds[0], where))
    return found


def first_start(run: RunResult) -> dt.datetime | None:
    """The `t_start` of the first phase section of result.txt (local time, no zone)."""
    for name, recorded in run.result_recorded:
        if name.lower() not in ("", "run") and recorded.t_start is not None:
            return recorded.t_start
    return None


@dataclass(frozen=True)
class IssuedToken:
    token: str
    issued_at: dt.datetime  # aware
    expires_at: dt.datetime  # aware


def _naive_utc(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC).replace(tzinfo=None)


def _clock(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def token_findings(run: RunResult, issued: IssuedToken) -> list[Finding]:
    """What the run itself shows against the token it names: directory, seeds, start time."""
    findings: list[Finding] = []
    token = issued.token
    recorded, folder = directory_names(run)
    for where, name in (("result.txt's result-dir", recorded), ("the archive's folder", folder)):
        if name is not None and name != token:
            findings.append(finding("token-directory-mismatch", token=token, where=where, name=name))
    expected = expected_seeds(token)
    printed = printed_seeds(run)
    for phase, family, seed, where in printed:
        if seed != str(expected[family]):
            findings.append(
                finding(
                    "token-seed-mismatch", phase=phase, found=seed, expected=expected[family], where=where
                )
            )
    if not printed:
        findings.append(finding("token-seeds-missing", token=token))
    started = first_start(run)
    if started is None:
        findings.append(finding("token-start-unknown", token=token))
    elif started < _naive_utc(issued.issued_at) + EARLIEST_ZONE:
        findings.append(
            finding("token-started-before-issue", started=_clock(started), issued=_clock(issued.issued_at))
        )
    elif started > _naive_utc(issued.expires_at) + LATEST_ZONE:
        findings.append(
            finding("token-started-after-expiry", started=_clock(started), expires=_clock(issued.expires_at))
        )
    return findings
