"""`python -m scoring verify PATH [PATH ...] [--json]`: re-verify IO500 results from the shell.

Exit status: 0 every run is valid, 1 some run is invalid, 2 some path could not be read at all
(the reason goes to stderr). Output never contains a traceback: a submitter reads it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from scoring.model import ReadError, Severity, Verification
from scoring.verify import verify

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 2


def _display_path(given: str, run_path: str) -> str:
    if run_path in ("", "."):
        return given
    return str(Path(given) / run_path)


def as_json(given: str, verification: Verification) -> dict[str, Any]:
    run = verification.result
    claimed = run.claimed
    computed = verification.computed
    phases = {**run.phases, **run.extra_phases}
    return {
        "path": _display_path(given, run.path),
        "era": run.era.value,
        "version": run.version,
        "phases": {
            name: {"value": phase.value, "unit": phase.unit, "time_s": phase.time_s}
            for name, phase in phases.items()
        },
        "claimed": {
            "bw": claimed.bw if claimed else None,
            "md": claimed.md if claimed else None,
            "score": claimed.score if claimed else None,
        },
        "computed": {"bw": computed.bw, "md": computed.md, "score": computed.score},
        "score_matches": verification.score_matches,
        "valid": verification.valid,
        "findings": [f.as_dict() for f in verification.findings],
    }


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.6f}"


def write_report(given: str, verification: Verification, out: TextIO) -> None:
    run = verification.result
    claimed, computed = run.claimed, verification.computed
    verdict = "VALID" if verification.valid else "INVALID"
    version = run.version if run.version is not None else "(not printed)"
    out.write(f"{_display_path(given, run.path)}\n")
    out.write(f"  {verdict}   era {run.era.value}   version {version or '(empty)'}\n")
    out.write(
        f"  score {_number(computed.score)} (claimed {_number(claimed.score if claimed else None)}), "
        f"BW {_number(computed.bw)} GiB/s, MD {_number(computed.md)} kIOPS"
        f"{'' if verification.score_matches else '   [claimed score does not match]'}\n"
    )
    for name, phase in {**run.phases, **run.extra_phases}.items():
        time = "-" if phase.time_s is None else f"{phase.time_s:.3f} s"
        out.write(f"    {name:<22} {phase.value:>16.6f} {phase.unit:<6} {time:>14}\n")
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    for f in sorted(verification.findings, key=lambda f: order[f.severity]):
        where = f" [{f.phase}]" if f.phase else ""
        out.write(f"  {f.severity.value.upper():<7} {f.code}{where}: {f.message}\n")
    out.write("\n")


def run_verify(paths: Sequence[str], as_json_lines: bool, out: TextIO, err: TextIO) -> int:
    status = EXIT_VALID
    for given in paths:
        try:
            verifications = verify(given)
        except ReadError as error:
            err.write(f"{given}: {error}\n")
            status = EXIT_UNREADABLE
            continue
        except Exception as error:  # never a traceback for a submitter; the reason still shows
            err.write(f"{given}: could not be read ({type(error).__name__}: {error}).\n")
            status = EXIT_UNREADABLE
            continue
        for verification in verifications:
            if as_json_lines:
                out.write(json.dumps(as_json(given, verification)) + "\n")
            else:
                write_report(given, verification, out)
            if not verification.valid and status == EXIT_VALID:
                status = EXIT_INVALID
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify_cmd = commands.add_parser(
        "verify", help="re-verify result directories, archives or folders of runs"
    )
    verify_cmd.add_argument("paths", nargs="+", metavar="PATH")
    verify_cmd.add_argument("--json", action="store_true", help="one JSON object per run and line")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run_verify(args.paths, args.json, sys.stdout, sys.stderr)
    except BrokenPipeError:
        # The reader of our output went away (`... | head`): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_UNREADABLE


if __name__ == "__main__":
    sys.exit(main())
