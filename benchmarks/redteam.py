"""The red-team corpus of issue 22: forged copies of real runs, verified, and the kinds x caught table.

Usage: python benchmarks/redteam.py [--corpus DIR] [--per-era N] [--only KIND] [--era ERA] [--keep DIR]

For every kind of forgery (benchmarks/redteam_forgeries.py) and every output era, the first N runs
of the shared corpus (sorted by submission number) on which the attack can be made are copied to a
temporary folder, forged there, and verified with scoring.verify. The shared data is only read.

A forgery is caught when the forged run has an ERROR finding (code and phase) the honest run does
not have; kind n (scored phases raised, raw files deleted) when it has an error or a raw-missing
warning for each phase it touched; kind m when the primary-run choice does not take the forged
copy. The honest controls (p-*) must stay valid, the deletions with a warning the honest run did
not have. Exit status 1 when a forgery is not caught or a control is not valid.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import scoring  # noqa: E402
from benchmarks.redteam_forgeries import KINDS, Kind, NotApplicable, Outcome, Workspace, read_index  # noqa: E402
from scoring import ReadError, verify  # noqa: E402
from scoring.model import BasisLevel, Era, RunResult, Severity, Verification  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"
# Warnings that say evidence is gone (kinds whose expectation is "warning").
GAP_CODES = frozenset({"evidence-raw-missing", "evidence-ranks-missing", "evidence-ranks-empty"})
LEVELS = list(BasisLevel)  # weakest first
LIMIT_KINDS = frozenset(kind.key for kind in KINDS if kind.expect == "limit")
ERAS: tuple[Era, ...] = (
    Era.SHELL,
    Era.SHELL_GIB,
    Era.C_ISC20,
    Era.C_SC20,
    Era.C_ISC21,
    Era.C_SC21,
    Era.C_ISC25,
)


@dataclass
class Honest:
    submission: str
    run: RunResult
    verification: Verification


@dataclass
class Result:
    kind: str
    era: Era
    submission: str
    run_path: str
    description: str
    caught: bool
    codes: tuple[str, ...]  # the findings that caught it (or, for controls, the new warnings)
    note: str = ""


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)
    shortfall: dict[tuple[str, Era], str] = field(default_factory=dict)  # fewer runs than asked: why
    primary_note: str = ""
    seconds: float = 0.0


def _number(folder: Path) -> tuple[int, str]:
    digits = "".join(ch for ch in folder.name if ch.isdigit())
    return (int(digits) if digits else 0, folder.name)


def honest_runs(corpus: Path) -> dict[Era, list[Honest]]:
    """Every run of the corpus by era, in submission order, with its honest verification."""
    by_era: dict[Era, list[Honest]] = {}
    for folder in sorted((p for p in corpus.iterdir() if p.is_dir()), key=_number):
        try:
            verifications = verify(folder)
        except ReadError:
            continue
        for verification in verifications:
            run = verification.result
            by_era.setdefault(run.era, []).append(Honest(folder.name, run, verification))
    return by_era


def _errors(verification: Verification) -> set[tuple[str, str | None]]:
    return {(f.code, f.phase) for f in verification.findings if f.severity is Severity.ERROR}


def _warnings(verification: Verification) -> set[tuple[str, str | None]]:
    return {(f.code, f.phase) for f in verification.findings if f.severity is Severity.WARNING}


def _codes(pairs: set[tuple[str, str | None]]) -> tuple[str, ...]:
    return tuple(sorted({code for code, _ in pairs}))


# --- the primary-run choice -------------------------------------------------------------------------


def find_primary_chooser() -> tuple[Callable[..., Any] | None, str]:
    """A primary-run function of the scoring package: a public callable with 'primary' in its name,
    those that name a choice (primary_run, choose_primary, pick_primary, ...) first."""
    found: list[tuple[int, str, Callable[..., Any]]] = []
    for info in pkgutil.walk_packages(scoring.__path__, "scoring."):
        try:
            module = importlib.import_module(info.name)
        except Exception:  # a module that does not import is not this harness's business
            continue
        for name, member in inspect.getmembers(module, inspect.isfunction):
            if "primary" in name.lower() and not name.startswith("_") and member.__module__ == info.name:
                choosing = any(word in name.lower() for word in ("choose", "pick", "select", "primary_run"))
                found.append((0 if choosing else 1, f"{info.name}.{name}", member))
    if not found:
        return None, ""
    _, qualified, chooser = min(found, key=lambda item: (item[0], item[1]))
    return chooser, qualified


def _chosen_path(choice: Any, verifications: Sequence[Verification]) -> str | None:
    if isinstance(choice, tuple) and choice:
        choice = choice[0]
    if isinstance(choice, int) and not isinstance(choice, bool):
        return verifications[choice].result.path
    if isinstance(choice, Verification):
        return choice.result.path
    if isinstance(choice, RunResult):
        return choice.path
    if isinstance(choice, str):
        return choice
    for attribute in ("primary", "result", "run", "index"):
        inner = getattr(choice, attribute, None)
        if inner is not None and inner is not choice:
            return _chosen_path(inner, verifications)  # e.g. a choice object with the primary's index
    return None


def registry_rule(verifications: Sequence[Verification]) -> str:
    """What the registry does on today's main (submissions/ingest/record.py): valid first, then the
    highest recomputed score."""

    def key(v: Verification) -> tuple[bool, float, str]:
        score = v.computed.score
        return (v.valid, score if score is not None else float("-inf"), v.result.path)

    return max(verifications, key=key).result.path


def choose_primary(verifications: Sequence[Verification]) -> tuple[str | None, str]:
    chooser, name = find_primary_chooser()
    if chooser is None:
        return registry_rule(verifications), (
            "no primary-run function exists in scoring/ yet; judged by the registry's current rule "
            "(submissions/ingest/record.py: valid first, then the highest score)"
        )
    for argument in (list(verifications), [v.result for v in verifications]):
        try:
            return _chosen_path(chooser(argument), verifications), f"judged by {name}"
        except (TypeError, AttributeError):
            continue
    return None, f"{name} could not be called with the runs of an archive"


# --- judging ------------------------------------------------------------------------------------------


def judge(kind: Kind, honest: Honest, outcome: Outcome, folder: Path, report: Report) -> Result:
    caught, codes, note = verdict(kind, honest, outcome, folder, report)
    return Result(
        kind=kind.key,
        era=honest.run.era,
        submission=honest.submission,
        run_path=outcome.run_path,
        description=outcome.description,
        caught=caught,
        codes=codes,
        note=note,
    )


def verdict(
    kind: Kind, honest: Honest, outcome: Outcome, folder: Path, report: Report
) -> tuple[bool, tuple[str, ...], str]:
    """(caught, the codes that caught it, a note) for one forged copy."""
    control = kind.expect in ("valid", "valid-warning")
    try:
        verifications = verify(folder)
    except ReadError as error:
        return not control, ("unreadable",), str(error)[:80]
    except Exception as error:  # an engine that crashes on a forged file has not caught it
        return False, ("engine-crash",), repr(error)[:120]
    forged = next((v for v in verifications if v.result.path == outcome.run_path), None)
    if forged is None:
        return not control, ("run-not-found",), ""
    new_errors = _errors(forged) - _errors(honest.verification)
    new_warnings = _warnings(forged) - _warnings(honest.verification)
    if kind.expect == "error":
        if not new_errors and not honest.verification.valid and not forged.valid and kind.key == "i":
            return True, (*_codes(_errors(forged)), "(still invalid)"), ""
        return bool(new_errors), _codes(new_errors), ""
    if kind.expect == "warning":
        # the warning must name every phase whose evidence is gone (in its phase or its text), and the
        # verdict must rest on less than the honest run's did
        said = [f for f in forged.findings if f.severity is Severity.WARNING and f.code in GAP_CODES]
        named = all(
            any(f.phase == p or (f.phase is None and p in f.message) for f in said) for p in outcome.phases
        )
        lowered = LEVELS.index(forged.basis.level) < LEVELS.index(honest.verification.basis.level)
        codes = _codes(new_errors) if new_errors else tuple(sorted({f.code for f in said}))
        return bool(new_errors) or (bool(said) and named and lowered), codes, ""
    if kind.expect == "limit":
        return bool(new_errors), _codes(new_errors), "known limit"
    if kind.expect == "primary":
        chosen, note = choose_primary(verifications)
        report.primary_note = note
        caught = chosen is not None and chosen != outcome.run_path
        return caught, (*_codes(_errors(forged)), f"primary={'honest' if caught else 'forged'}"), ""
    # honest controls: valid, and a deletion says so in a warning
    if not forged.valid:
        return False, _codes(_errors(forged)), ""
    if kind.expect == "valid-warning":
        return bool(new_warnings), _codes(new_warnings), ""
    return True, (), ""


def run_kind(
    kind: Kind, era: Era, candidates: list[Honest], per_era: int, corpus: Path, workdir: Path, report: Report
) -> None:
    if kind.eras is not None and era not in kind.eras:
        report.shortfall[(kind.key, era)] = f"n/a: {kind.other_eras}"
        return
    index = read_index(corpus) if kind.needs_corpus else {}
    forge = partial(kind.forge, corpus=corpus, index=index) if kind.needs_corpus else kind.forge
    made = 0
    reasons: dict[str, int] = {}
    if kind.prefer is not None:
        candidates = sorted(candidates, key=lambda h: not kind.prefer(h.run))  # type: ignore[misc]
    for honest in candidates:
        if made >= per_era:
            break
        # a control starts from a run the application itself did not mark invalid (an engine error on
        # any other run is a false positive the control must show)
        if kind.expect in ("valid", "valid-warning") and app_invalid(honest.run):
            continue
        if kind.expect not in ("valid", "valid-warning") and not honest.run.phases:
            continue
        # the copy keeps the submission's folder name: readers and splices go by it
        folder = workdir / kind.key / honest.submission
        # symlinks are followed: a forged copy must never write through a link into the shared data
        shutil.copytree(corpus / honest.submission, folder, symlinks=False)
        try:
            outcome = forge(Workspace(folder, honest.run))
        except NotApplicable as reason:
            reasons[str(reason)] = reasons.get(str(reason), 0) + 1
            shutil.rmtree(folder.parent)
            continue
        report.results.append(judge(kind, honest, outcome, folder, report))
        shutil.rmtree(folder.parent)
        made += 1
    if made < per_era:
        said = "; ".join(
            f"{text} ({count})" for text, count in sorted(reasons.items(), key=lambda kv: -kv[1])
        )
        report.shortfall[(kind.key, era)] = f"{made} of {len(candidates)} runs apply" + (
            f": {said}" if said else ""
        )


def run(
    corpus: Path,
    per_era: int,
    only: Sequence[str] = (),
    eras: Sequence[Era] = ERAS,
    by_era: dict[Era, list[Honest]] | None = None,
) -> Report:
    """Forge, verify and judge; `by_era` (honest_runs()) may be given to share it between calls."""
    started = time.perf_counter()
    report = Report()
    by_era = honest_runs(corpus) if by_era is None else by_era
    keys = {k.key for k in KINDS}
    # "h" selects h-echo, h-table, ...; "d" is a kind of its own and selects only itself
    kinds = [k for k in KINDS if not only or k.key in only or (k.key.split("-")[0] in set(only) - keys)]
    with tempfile.TemporaryDirectory(prefix="redteam-") as tmp:
        for kind in kinds:
            for era in eras:
                run_kind(kind, era, by_era.get(era, []), per_era, corpus, Path(tmp), report)
    if not only or ALL_HONEST in only or "p" in only:
        all_honest(by_era, eras, report)
    report.seconds = time.perf_counter() - started
    return report


ALL_HONEST = "p-all"


def app_invalid(run: RunResult) -> bool:
    """Runs the application itself marked invalid, or without a result: not honest controls."""
    return any("INVALID" in c for c in run.header_errors) or run.claimed is None


def all_honest(by_era: dict[Era, list[Honest]], eras: Sequence[Era], report: Report) -> None:
    """The listed (primary) run of every submission, unless the application itself marked it
    invalid, verified where it lies: each must be valid (issue 22: "every honest run of the shared
    corpus still valid"). Other runs of an archive (submission-714's and -717's summary-only
    copies) are not listed, so they are not counted."""
    by_submission: dict[str, list[Honest]] = {}
    for runs in by_era.values():
        for honest in runs:
            by_submission.setdefault(honest.submission, []).append(honest)
    listed: set[tuple[str, str]] = set()
    for submission, runs in by_submission.items():
        chosen, _ = choose_primary([h.verification for h in runs])
        listed.add((submission, chosen if chosen is not None else runs[0].run.path))
    for era in eras:
        for honest in by_era.get(era, []):
            if app_invalid(honest.run) or (honest.submission, honest.run.path) not in listed:
                continue
            v = honest.verification
            report.results.append(
                Result(
                    kind=ALL_HONEST,
                    era=era,
                    submission=honest.submission,
                    run_path=honest.run.path,
                    description="the honest run as it is in the corpus",
                    caught=v.valid,
                    codes=() if v.valid else _codes(_errors(v)),
                )
            )


# --- output -------------------------------------------------------------------------------------------


def table(report: Report, eras: Sequence[Era] = ERAS) -> str:
    lines = [
        "| kind | " + " | ".join(e.value for e in eras) + " | caught by |",
        "| --- | " + " | ".join("---:" for _ in eras) + " | --- |",
    ]
    seen = []
    for result in report.results:
        if result.kind not in seen:
            seen.append(result.kind)
    titles = {k.key: k.title for k in KINDS} | {
        ALL_HONEST: "honest control: every listed run of the corpus, in place"
    }
    for key in seen:
        cells = []
        codes: set[str] = set()
        for era in eras:
            mine = [r for r in report.results if r.kind == key and r.era is era]
            if not mine:
                cells.append("n/a")
                continue
            cells.append(f"{sum(r.caught for r in mine)} / {len(mine)}")
            for r in mine:
                if r.caught:
                    codes.update(c for c in r.codes if not c.startswith("primary="))
        lines.append(
            f"| {key}: {titles[key]} | " + " | ".join(cells) + f" | {', '.join(sorted(codes)) or '-'} |"
        )
    return "\n".join(lines)


def render(report: Report, eras: Sequence[Era] = ERAS) -> str:
    out = [
        "Cells: forgeries caught / forged (controls: stayed valid / made); "
        "n/a: the kind cannot be made in that era.",
        "",
        table(report, eras),
        "",
    ]
    if report.primary_note:
        out += [f"Kind m: {report.primary_note}.", ""]
    missed = [r for r in report.results if not r.caught]
    out.append(f"Not caught ({len(missed)}):" if missed else "Every forgery caught, every control valid.")
    for r in missed:
        extra = f" [{', '.join(r.codes)}]" if r.codes else ""
        out.append(f"- {r.kind} {r.era.value} {r.submission}/{r.run_path}: {r.description}{extra}")
    if report.shortfall:
        out += ["", "Fewer runs than asked:"]
        for (key, era), why in sorted(report.shortfall.items(), key=lambda kv: (kv[0][0], kv[0][1].value)):
            out.append(f"- {key} {era.value}: {why}")
    copies = sum(1 for r in report.results if r.kind != ALL_HONEST)
    out += ["", f"{copies} forged or control copies verified in {report.seconds:.1f} s."]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--per-era", type=int, default=5)
    parser.add_argument(
        "--only", action="append", default=[], help="kind key (a ... p, h-echo, p-find); repeatable"
    )
    parser.add_argument("--era", action="append", default=[], help="era name as scoring.model.Era spells it")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"No corpus folder at {args.corpus}.", file=sys.stderr)
        return 2
    eras = [Era(e) for e in args.era] if args.era else list(ERAS)
    report = run(args.corpus, args.per_era, args.only, eras)
    print(render(report, eras))
    return 0 if all(r.caught for r in report.results if r.kind not in LIMIT_KINDS) else 1


if __name__ == "__main__":
    sys.exit(main())
