"""An io500-sc26 run for the scoring tests, derived from a real io500-sc25 run of the shared corpus.

No io500-sc26 result is public. Its output differs from io500-sc25's (IO500/io500 src/main.c and
src/util.c at main 02091cf, src/phase_ior_rnd4k_easy_read.c @701fee6c3e06; fixtures/io500_versions.json)
in the version it prints and in the ior-rnd4K-easy-read command: since io500-isc26_v1 the phase takes
the ior-easy options without '-C -Q 1' and adds '-C -Q 2' for a file per process, and io500-sc26 passes
'-z -z -z' and '-s=-1' where io500-sc25 passed '-z -z' and '-s=10000000'. The phase stays unscored
(group NO_SCORE: a 'score' line and a '[      ]' summary line, in neither [SCORE] nor the score hash).

Its config.ini has main's layout (src/phase-definitions.h @02091cf, after 2d57592 'Remove old random IOR
phases and consolidate configuration'): no [ior-rnd4K], [ior-rnd4K-write], [ior-rnd1MB], [ior-rnd1MB-write],
[ior-rnd4K-read] or [ior-rnd1MB-read] section, every other section as before.

derive_sc26_run copies submission-783 (version io500-sc25) and makes exactly those edits, in result.txt,
result_summary.txt, config.ini and the phase's IOR log; the score hash, which covers the version string,
and the config hash are recomputed as the application computes them (the runner, checked byte for byte
against the official main binary, computes the same config hash). What IOR prints as 'segments' for
-s=-1 is not in the sources read, so that echo line is left out of the phase's IOR log rather than made
up; its task offset echo follows -Q 2.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from scoring.hashes import config_hash, format_hash, score_hash
from scoring.readers.ini import parse_ini

SOURCE_SUBMISSION = 783
SOURCE_RUN = "results/2025.10.26-11.48.51"
SC25_RND4K = re.compile(r"^(exe\s+=|Command line\s+:) (.*) -z -z (.*) -s=10000000 (.*)$", re.M)
REMOVED_SECTIONS = (
    "ior-rnd4K",
    "ior-rnd4K-write",
    "ior-rnd1MB",
    "ior-rnd1MB-write",
    "ior-rnd4K-read",
    "ior-rnd1MB-read",
)
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


def _sc26_config(text: str) -> str:
    """config.ini without the sections io500-sc26's phase table no longer has (blocks end at a blank line)."""
    blocks = text.split("\n\n")
    kept = [block for block in blocks if block.strip().split("\n", 1)[0].strip("[]") not in REMOVED_SECTIONS]
    return "\n\n".join(kept)


def derive_sc26_run(corpus_submission: Path, target: Path, version: str = "io500-sc26") -> Path:
    """The run folder of an io500-sc26 run derived from submission-783; `version` may name another tag."""
    shutil.copytree(corpus_submission / SOURCE_RUN, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    config = target / "config.ini"
    config_text = _sc26_config(config.read_text())
    config.write_text(config_text)
    hashed = format_hash(config_hash(parse_ini(config_text).as_app_sees_it()))
    result = target / "result.txt"
    text = SC25_RND4K.sub(_sc26_command, result.read_text())
    text = re.sub(r"^config-hash(\s+)= [0-9A-F]+$", rf"config-hash\g<1>= {hashed}", text, count=1, flags=re.M)
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
    log_text = re.sub(r"^segments\s+: 10000000\n", "", log_text, count=1, flags=re.M)
    # IOR echoes -Q as its task offset: 2 now that the phase reads from two nodes away.
    log.write_text(re.sub(r"^(task offset\s+: )1$", r"\g<1>2", log_text, count=1, flags=re.M))
    return target
