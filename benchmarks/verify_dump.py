"""Dump `python -m scoring verify --json` for every folder of a corpus, one process, sorted output.

Usage: python benchmarks/verify_dump.py SUBMISSIONS_DIR [SUBMISSIONS_DIR ...] > dump.jsonl

Each line is the CLI's JSON object of one run (or `{"folder": ..., "unreadable": message}`), prefixed
by its folder, so that two dumps made before and after a change to the readers can be compared with
`diff`: any change in findings, hashes, phases or verdicts shows as a changed line.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring.__main__ import run_verify  # noqa: E402  (the repository root goes on sys.path first)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for corpus in argv[1:]:
        for folder in sorted(p for p in Path(corpus).iterdir() if p.is_dir()):
            out, err = io.StringIO(), io.StringIO()
            status = run_verify([str(folder)], True, out, err)
            for line in out.getvalue().splitlines():
                print(
                    json.dumps(
                        {"folder": str(folder), "status": status, "run": json.loads(line)}, sort_keys=True
                    )
                )
            if err.getvalue():
                print(json.dumps({"folder": str(folder), "status": status, "stderr": err.getvalue()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
