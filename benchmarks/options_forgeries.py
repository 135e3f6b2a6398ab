"""Forge copies of real runs the way issue 22 describes and count which the options-as-run rules
catch: the cache defeats removed from every command of a run (`-C -Q 1`, IOR's `-e`, mdtest's
`-N 1`), in every file that records them, the tools' echo left as printed.

Usage: python benchmarks/options_forgeries.py [SUBMISSIONS_DIR] [RUNS_PER_ERA]
(default: ../shared/io500-data/submissions, 5 runs per era). The copies live in a temporary
folder and are deleted; nothing is written next to the data. Only runs that verify valid as they
are, alone in their submission, are forged.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError, verify  # noqa: E402  (the repository root goes on sys.path first)
from scoring.model import Severity  # noqa: E402

# Each forgery: the edits, applied to every text file of the run, and the finding that must catch it.
FORGERIES: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "IOR without -C -Q 1": (
        (("-C -Q 1 -g", "-g"), ('"-C" "-Q" "1" "-g"', '"-g"')),
        "options-cache-defeat-missing",
    ),
    "IOR without -e": (((" -k -e ", " -k "), ('"-k" "-e"', '"-k"')), "options-cache-defeat-missing"),
    "mdtest without -N 1": (((" -N 1", ""), (" '-N' '1'", ""), (' "-N" "1"', "")), "options-"),
}


def _edit(run: Path, replacements: tuple[tuple[str, str], ...]) -> int:
    changed = 0
    for path in run.rglob("*"):
        if not path.is_file():
            continue
        text = path.read_text(errors="surrogateescape")
        edited = text
        for old, new in replacements:
            edited = edited.replace(old, new)
        if edited != text:
            path.write_text(edited, errors="surrogateescape")
            changed += 1
    return changed


def main(corpus: Path, per_era: int) -> None:
    chosen: dict[str, list[Path]] = defaultdict(list)
    for folder in sorted(path for path in corpus.iterdir() if path.is_dir()):
        try:
            verifications = verify(folder)
        except ReadError:
            continue
        if len(verifications) == 1 and verifications[0].valid:
            era = verifications[0].result.era.value
            if len(chosen[era]) < per_era:
                chosen[era].append(folder)
    table: Counter[tuple[str, str, str]] = Counter()
    for era, folders in sorted(chosen.items()):
        for folder in folders:
            for kind, (replacements, code) in FORGERIES.items():
                with tempfile.TemporaryDirectory() as tmp:
                    copy = Path(tmp) / folder.name
                    shutil.copytree(folder, copy)
                    if not _edit(copy, replacements):
                        table[(era, kind, "not in the run")] += 1
                        continue
                    errors = {
                        f.code for v in verify(copy) for f in v.findings if f.severity is Severity.ERROR
                    }
                    caught = any(error.startswith(code) for error in errors)
                    table[(era, kind, "caught" if caught else "missed")] += 1
                    if not caught:
                        print(f"missed: {era} {folder.name} {kind}: {sorted(errors)}")
    print("| era | forgery | caught | missed | not in the run |")
    print("| --- | --- | ---: | ---: | ---: |")
    for era in sorted(chosen):
        for kind in FORGERIES:
            row = [table[(era, kind, outcome)] for outcome in ("caught", "missed", "not in the run")]
            print(f"| {era} | {kind} | {row[0]} | {row[1]} | {row[2]} |")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "io500-data" / "submissions"
    main(folder, int(sys.argv[2]) if len(sys.argv) > 2 else 5)
