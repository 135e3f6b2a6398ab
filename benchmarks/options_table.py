"""Print, per output era, what the options-as-run rules (scoring/rules/options.py) compare on a
folder of submissions and how much of it agrees (the table of docs/evidence.md, "Options as run").

Usage: python benchmarks/options_table.py [SUBMISSIONS_DIR ...]
(default: ../shared/io500-data/submissions next to the repository).

Columns, per era:
- runs: runs read;
- IOR echo: IOR outputs with an echo read (Options/Summary block, result row, summary table) /
  echoed values compared with the tool's own command line / of those, agreeing;
- size band: the widest band a printed size left for the command's value after every source of
  the output narrowed it, relative to the value (the Options block's "9.46 TiB" is +-0.05 %, the
  result row's KiB make it +-5e-9);
- mdtest echo: outputs with the file count or rank shift read / compared / agreeing;
- findings: options-* errors and warnings.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError, verify  # noqa: E402  (the repository root goes on sys.path first)
from scoring.cmdline import SIZE_NAMES, ior_size  # noqa: E402
from scoring.model import Severity  # noqa: E402
from scoring.rules.options import IOR_DEFAULTS, echo_agrees, ior_parameters  # noqa: E402


def main(folders: list[Path]) -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    bands: dict[str, float] = defaultdict(float)
    for corpus in folders:
        for folder in sorted(path for path in corpus.iterdir() if path.is_dir()):
            try:
                verifications = verify(folder)
            except ReadError:
                continue
            for verification in verifications:
                run = verification.result
                era = run.era.value
                row = counts[era]
                row["runs"] += 1
                for finding in verification.findings:
                    if finding.code.startswith("options-"):
                        row["errors" if finding.severity is Severity.ERROR else "warnings"] += 1
                for phase in (*run.phases.values(), *run.extra_phases.values()):
                    raw = phase.raw
                    if raw is None or not raw.options or raw.command is None:
                        continue
                    if raw.tool == "ior":
                        row["ior outputs"] += 1
                        commanded = {**IOR_DEFAULTS, **ior_parameters(raw.command)}
                        narrowed: dict[str, tuple[float, float]] = {}
                        for echo in raw.options:
                            value = commanded.get(echo.name)
                            if value is None:
                                continue
                            row["ior compared"] += 1
                            row["ior agree"] += echo_agrees(echo, value)
                            if echo.name in SIZE_NAMES and echo.low is not None and echo.high is not None:
                                low, high = narrowed.get(echo.name, (echo.low, echo.high))
                                narrowed[echo.name] = (max(low, echo.low), min(high, echo.high))
                        for name, (low, high) in narrowed.items():
                            size = ior_size(commanded[name])
                            if size:
                                bands[era] = max(bands[era], (high - low) / 2 / size)
                    elif raw.tool == "mdtest":
                        # The rule names the first contradiction of an output; the others agree.
                        row["mdtest outputs"] += 1
                        row["mdtest compared"] += len(raw.options)
                        row["mdtest agree"] += len(raw.options)
                for finding in verification.findings:
                    mdtest_echo = finding.code.startswith("options-echo") and finding.message.startswith(
                        "mdtest"
                    )
                    row["mdtest agree"] -= mdtest_echo
    print(
        "| era | runs | IOR echo (outputs / compared / agree) | size band "
        "| mdtest echo (outputs / compared / agree) | findings (errors / warnings) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    total: Counter[str] = Counter()
    for era in sorted(counts):
        total.update(counts[era])
        print(_line(era, counts[era], bands[era]))
    print(_line("all", total, max(bands.values(), default=0.0)))


def _line(era: str, row: Counter[str], band: float) -> str:
    ior = f"{row['ior outputs']} / {row['ior compared']} / {row['ior agree']}"
    mdtest = f"{row['mdtest outputs']} / {row['mdtest compared']} / {row['mdtest agree']}"
    return f"| {era} | {row['runs']} | {ior} | {band:.1e} | {mdtest} | {row['errors']} / {row['warnings']} |"


if __name__ == "__main__":
    arguments = [Path(argument) for argument in sys.argv[1:]]
    main(arguments or [REPO.parent / "shared" / "io500-data" / "submissions"])
