"""Apply every structure attack of issue 22 (item 4) to every C-era run of the shared corpus and
count, per era, the copies each attack applies to and the ones its finding catches (the table of
docs/evidence.md, section "Structure").

Usage: python benchmarks/structure_attacks.py [SUBMISSIONS_DIR]
(default: ../shared/io500-data/submissions next to the repository). Each run that is valid as it
stands and has result.txt is copied into a temporary folder, attacked as a forger would (the score
and config hashes recomputed with the public recipe where the attack would: tests/scoring/forgery.py)
and verified; nothing is written to the corpus. A cell reads `caught / attacked`.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import ReadError, RunResult, verify  # noqa: E402  (the repository root goes on sys.path first)
from scoring.rules.common import result_header  # noqa: E402
from scoring.rules.structure import RELEASE_GROUPS  # noqa: E402
from tests.scoring.forgery import (  # noqa: E402
    SUMMARY,
    rehash_config,
    rehash_score,
    relabel,
    section_text,
    set_config,
    set_key,
    text,
    write,
)

DEFAULT_CORPUS = REPO.parent / "shared" / "io500-data" / "submissions"
GROUP_OF = {tag: index for index, group in enumerate(RELEASE_GROUPS) for tag in group}
Attack = Callable[[Path, RunResult], bool]  # edits the copy; False when it does not apply


def _dup_phase(run: Path, _: RunResult) -> bool:
    content = text(run)
    phase = section_text(content, "mdtest-easy-write")
    value = re.search(r"^score\s*=\s*(\S+)", phase, re.M)
    if value is None:
        return False
    forged = set_key(phase, "mdtest-easy-write", "score", f"{float(value.group(1)) * 3:f}")
    write(run, content.replace(phase, forged + "\n" + phase, 1))
    return True


def _dup_score(run: Path, _: RunResult) -> bool:
    content = text(run)
    original = section_text(content, "SCORE")
    total = re.search(r"^SCORE\s*=\s*(\S+)", original, re.M)
    if total is None:
        return False
    forged = set_key(original, "SCORE", "SCORE", f"{float(total.group(1)) * 2:f}")
    write(run, content.replace(original, forged + "\n" + original, 1))
    return True


def _dup_key(run: Path, _: RunResult) -> bool:
    content = text(run)
    phase = section_text(content, "ior-hard-write")
    write(run, content.replace(phase, phase.rstrip("\n") + "\nscore           = 99.000000\n\n", 1))
    return True


def _move(run: Path, _: RunResult) -> bool:
    content = text(run)
    find, easy_read = section_text(content, "find"), section_text(content, "ior-easy-read")
    write(run, content.replace(find, "").replace(easy_read, easy_read + find, 1))
    return True


def _mode_extended(run: Path, result: RunResult) -> bool:
    if result_header(result).get("mode") != "standard":
        return False
    write(run, set_key(text(run), "", "mode", "extended"))
    if (run / SUMMARY).is_file():
        write(run, text(run, SUMMARY).replace("(standard)", "(extended)", 1), SUMMARY)
    return True


def _has_clocks(result: RunResult) -> bool:
    phase = result.phases.get("ior-easy-write")
    return phase is not None and "t_start" in phase.values


def _clock_unreadable(run: Path, result: RunResult) -> bool:
    if not _has_clocks(result):
        return False
    write(run, set_key(text(run), "ior-easy-write", "t_start", "yesterday"))
    return True


def _clock_removed(run: Path, result: RunResult) -> bool:
    if not _has_clocks(result):
        return False
    content = text(run)
    phase = section_text(content, "mdtest-hard-write")
    write(run, content.replace(phase, re.sub(r"^t_(start|delta|end)\s*=.*\n", "", phase, flags=re.M), 1))
    return True


def _raw_clock_removed(run: Path, result: RunResult) -> bool:
    phase = result.phases.get("ior-easy-write")
    if phase is None or phase.raw is None or phase.raw.value is None:
        return False
    name = phase.raw.file
    write(run, re.sub(r"^Began\s*:.*\n", "", text(run, name), count=1, flags=re.M), name)
    return True


def _hash_invalid(run: Path, _: RunResult) -> bool:
    rehash_score(run, valid=False)
    return True


def _short_write(run: Path, result: RunResult) -> bool:
    if not _has_clocks(result):
        return False
    write(run, set_key(text(run), "mdtest-easy-write", "t_delta", "250.0000"))
    return True


def _scc_30s(run: Path, result: RunResult) -> bool:
    if result.era.value in ("c-isc20",) or not (run / "config.ini").is_file():
        return False
    content = re.sub(r"-W 300\b", "-W 30", re.sub(r"-D 300\b", "-D 30", text(run)))
    write(run, content)
    try:
        set_config(run, "debug", "stonewall-time", "30")
    except AssertionError:
        return False
    rehash_config(run)
    return True


def _relabel_far(run: Path, result: RunResult) -> bool:
    claimed = GROUP_OF.get(result.version or "")
    if claimed is None:
        return False
    target = "io500-isc20" if claimed >= 9 else "io500-sc23_v1"
    relabel(run, target)
    return True


def _relabel_dev(run: Path, result: RunResult) -> bool:
    """A development build io500-X-N-g<sha> relabelled as its base release X."""
    match = re.match(r"^(io500-[A-Za-z0-9_]+)-\d+-g[0-9a-f]+$", result.version or "")
    if match is None or match.group(1) not in GROUP_OF:
        return False
    relabel(run, match.group(1))
    return True


ATTACKS: dict[str, tuple[Attack, set[str]]] = {
    "forged first copy of a phase section": (_dup_phase, {"result-section-duplicate"}),
    "forged [SCORE] before the verified one": (_dup_score, {"result-section-duplicate"}),
    "key set twice": (_dup_key, {"result-key-duplicate"}),
    "section moved": (_move, {"result-section-order"}),
    "mode = extended written": (_mode_extended, {"result-mode-contradicted"}),
    "t_start unreadable": (_clock_unreadable, {"result-clock-unparsable"}),
    "clocks removed from a phase": (_clock_removed, {"result-clock-partial"}),
    "IOR's Began line removed": (_raw_clock_removed, {"raw-clock-unreadable"}),
    "INVALID lines removed, valid=NO hash kept": (_hash_invalid, {"invalid-line-missing"}),
    "250-s write phase, no INVALID line": (_short_write, {"invalid-line-missing"}),
    "30-s stonewall, scc = FALSE, config hash recomputed": (_scc_30s, {"scc-contradicted"}),
    "release relabelled as a distant release": (_relabel_far, {"version-contradicted"}),
    "development build relabelled as its release": (
        _relabel_dev,
        {"version-contradicted", "version-ahead-of-tag"},
    ),
}


def main(argv: list[str]) -> int:
    corpus = Path(argv[1]) if len(argv) > 1 else DEFAULT_CORPUS
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    eras: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            try:
                verifications = verify(folder)
            except ReadError:
                continue
            for verification in verifications:
                result = verification.result
                if result.era.is_shell or not result.result_ini or not verification.valid:
                    continue
                eras.add(result.era.value)
                source = folder / result.path
                for kind, (attack, codes) in ATTACKS.items():
                    target = Path(scratch) / "run"
                    shutil.rmtree(target, ignore_errors=True)
                    shutil.copytree(source, target)
                    if not attack(target, result):
                        continue
                    cell = table[kind][result.era.value]
                    cell[1] += 1
                    attacked = next(v for v in verify(target) if v.result.path == ".")
                    if codes & {f.code for f in attacked.findings}:
                        cell[0] += 1
    columns = sorted(eras)
    print("| attack | " + " | ".join(columns) + " |")
    print("| --- | " + " | ".join("---:" for _ in columns) + " |")
    for kind in ATTACKS:
        cells = [
            f"{table[kind][era][0]} / {table[kind][era][1]}" if table[kind][era][1] else "n/a"
            for era in columns
        ]
        print(f"| {kind} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
