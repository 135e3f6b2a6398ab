"""An io500-sc26 run for the scoring tests, derived from a real io500-sc25 run of the shared corpus.

No io500-sc26 result is public. Its output differs from io500-sc25's (IO500/io500 src/main.c and
src/util.c at main 02091cf, src/phase_ior_rnd4k_easy_read.c @701fee6c3e06; fixtures/io500_versions.json)
in the version it prints and in the ior-rnd4K-easy-read command: since io500-isc26_v1 the phase takes
the ior-easy options without '-C -Q 1' and adds '-C -Q 2' for a file per process, and io500-sc26 passes
'-z -z -z' and '-s=-1' where io500-sc25 passed '-z -z' and '-s=10000000'. The phase stays unscored
(group NO_SCORE: a 'score' line and a '[      ]' summary line, in neither [SCORE] nor the score hash).

derive_sc26_run copies submission-783 (version io500-sc25) and makes exactly those edits, in result.txt,
result_summary.txt and the phase's IOR log; the score hash, which covers the version string, is
recomputed as the application computes it. What IOR prints as 'segments' for -s=-1 is not in the
sources read, so that echo line is left out of the phase's IOR log rather than made up.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from scoring.hashes import format_hash, score_hash

SOURCE_SUBMISSION = 783
SOURCE_RUN = "results/2025.10.26-11.48.51"
SC25_RND4K = re.compile(r"^(exe\s+=|Command line\s+:) (.*) -z -z (.*) -s=10000000 (.*)$", re.M)
SCORED = (
    "ior-easy-write",
    "mdtest-easy-write",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
)


def _sc26_command(match: re.Match[str]) -> str:
    head, middle, tail = match.group(2), match.group(3), match.group(4)
    head = head.replace(" -C -Q 1 ", " ", 1)
    return f"{match.group(1)} {head} -z -z -z {middle} -s=-1 {tail} -C -Q 2"


def _sections(text: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections[current] = {}
        elif "=" in line and not line.startswith(";"):
            key, _, value = line.partition("=")
            sections.setdefault(current, {})[key.strip()] = value.strip()
    return sections


def derive_sc26_run(corpus_submission: Path, target: Path, version: str = "io500-sc26") -> Path:
    """The run folder of an io500-sc26 run derived from submission-783; `version` may name another tag."""
    shutil.copytree(corpus_submission / SOURCE_RUN, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    result = target / "result.txt"
    text = SC25_RND4K.sub(_sc26_command, result.read_text())
    text = re.sub(r"^version(\s+)= io500-sc25$", rf"version\g<1>= {version}", text, count=1, flags=re.M)
    sections = _sections(text)
    score = sections["SCORE"]
    stored = score_hash(
        version,
        {name: sections[name]["score"] for name in SCORED},
        score["MD"],
        score["BW"],
        score["SCORE"],
    )
    text = re.sub(r"^hash(\s+)= [0-9A-F]+$", rf"hash\g<1>= {format_hash(stored)}", text, count=1, flags=re.M)
    result.write_text(text)
    summary = target / "result_summary.txt"
    summary.write_text(
        summary.read_text().replace("IO500 version io500-sc25 ", f"IO500 version {version} ", 1)
    )
    log = target / "ior-rnd4K-easy-read.txt"
    log_text = SC25_RND4K.sub(_sc26_command, log.read_text())
    log.write_text(re.sub(r"^segments\s+: 10000000\n", "", log_text, count=1, flags=re.M))
    return target
