"""Recompute the score hash and the config hash of a C-application run and compare (spec 9).

Both are 32-bit checksums with a public recipe: a match says the files were not changed by
accident, never that they are authentic (a forger recomputes them), and the findings say so.

Score hash: accepted as "valid", or as "invalid run" when it only verifies with valid=NO mixed
in (the benchmark itself recorded the run as invalid). An empty version is still hashed; builds
of the pre-release io500-isc21_v1 left MD and BW out, and an empty-version build may be one.

Config hash: recomputed from config.ini. A mismatch is explained, and only a warning, when the
file is not the one the application writes (users sometimes keep their own ini under that name:
it then lacks options the application always lists) or when the benchmark was not a release
build (a dev build, modified source or an empty version may have a different option set).
Every other mismatch means the file was edited after the run: an error.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.codes import finding
from scoring.hashes import (
    MAX_HASHED_CHARS,
    config_hash,
    extended_score_hash,
    format_hash,
    hashed_chars,
    parse_hash,
    score_hash,
    version_hashes_md_bw,
)
from scoring.model import SCORED_PHASES, Finding, RunResult
from scoring.rules.common import config_source, config_value, result_header
from scoring.rules.params import is_release_version
from scoring.rules.score import EXTENDED_BW_PHASES, EXTENDED_MD_PHASES

# Options the application writes into config.ini with a non-empty default in every C version;
# a file without them was written by hand.
ALWAYS_WRITTEN: tuple[tuple[str, str], ...] = (
    ("global", "drop-caches-cmd"),
    ("global", "verbosity"),
    ("global", "timestamp-datadir"),
    ("global", "timestamp-resultdir"),
    ("global", "resultdir"),
    ("debug", "stonewall-time"),
    ("ior-easy", "transferSize"),
    ("ior-easy", "blockSize"),
    ("ior-easy", "filePerProc"),
    ("ior-hard", "segmentCount"),
    ("mdtest-easy", "n"),
    ("mdtest-hard", "n"),
    ("find", "pfind-queue-length"),
)


def _sections(run: RunResult) -> dict[str, dict[str, str]]:
    return {name: dict(options) for name, options in run.result_ini}


def _score_value(text: str) -> str:
    """'5.219629 [INVALID]' -> '5.219629': the hash covers the number only."""
    return text.split()[0] if text.split() else ""


def _phase_scores(sections: Mapping[str, Mapping[str, str]], names: tuple[str, ...]) -> dict[str, str]:
    return {name: sections[name]["score"] for name in names if "score" in sections.get(name, {})}


def score_hash_findings(run: RunResult) -> list[Finding]:
    if run.era.is_shell:
        return []
    sections = _sections(run)
    score = sections.get("SCORE")
    if not run.result_ini:
        return [finding("score-hash-absent", reason="This run has no result.txt,")]
    if score is None or parse_hash(score.get("hash", "")) is None:
        return [finding("score-hash-absent", reason="result.txt has no [SCORE] hash,")]
    stored = parse_hash(score["hash"])
    assert stored is not None
    version = run.version or ""
    phases = _phase_scores(sections, SCORED_PHASES)
    md, bw, total = score.get("MD", ""), score.get("BW", ""), _score_value(score.get("SCORE", ""))
    size = hashed_chars([("version", version), *phases.items(), ("MD", md), ("BW", bw), ("SCORE", total)])
    if size > MAX_HASHED_CHARS:
        return [finding("score-hash-absent", reason=_too_long("result.txt", size))]
    legacy = not version_hashes_md_bw(version)
    # Only a plain release tag says which source was built. A build past a tag (`-N-g<sha>`), a
    # modified one or an empty version may sit on either side of the fix that added MD and BW to
    # the hash (io500-isc21_v1-6-g739a1de1dda9 hashes them), so both recipes are tried there.
    variants = [legacy] if is_release_version(version) else [legacy, not legacy]
    for without_md_bw in variants:
        expected = score_hash(version, phases, md, bw, total, include_md_bw=not without_md_bw)
        shown = format_hash(stored)
        if stored == expected:
            code = (
                "score-hash-legacy"
                if without_md_bw and not is_release_version(version)
                else "score-hash-verified"
            )
            return [finding(code, stored=shown)]
        if stored == score_hash(version, phases, md, bw, total, include_md_bw=not without_md_bw, valid=False):
            return [finding("score-hash-invalid-run", stored=shown)]
    expected = score_hash(version, phases, md, bw, total, include_md_bw=not legacy)
    return [finding("score-hash-mismatch", stored=format_hash(stored), expected=format_hash(expected))]


def extended_hash_findings(run: RunResult) -> list[Finding]:
    sections = _sections(run)
    scorex = sections.get("SCOREX")
    if scorex is None:
        return []
    stored = parse_hash(scorex.get("hash", ""))
    if stored is None:
        return []
    phases = _phase_scores(sections, (*EXTENDED_BW_PHASES, *EXTENDED_MD_PHASES))
    args = (phases, scorex.get("MD", ""), scorex.get("BW", ""), _score_value(scorex.get("SCORE", "")))
    size = hashed_chars([*phases.items(), *zip(("MD", "BW", "SCORE"), args[1:], strict=True)])
    if size > MAX_HASHED_CHARS:
        return [finding("score-hash-absent", reason=_too_long("[SCOREX] of result.txt", size))]
    if stored in (extended_score_hash(*args), extended_score_hash(*args, valid=False)):
        return []
    return [
        finding(
            "extended-hash-mismatch",
            stored=format_hash(stored),
            expected=format_hash(extended_score_hash(*args)),
        )
    ]


def _too_long(source: str, size: int) -> str:
    return (
        f"The values {source} hashes add up to {size:,} characters, far more than the application "
        f"writes (a few thousand), and more than the {MAX_HASHED_CHARS:,} the registry recomputes,"
    )


def missing_written_options(run: RunResult) -> list[str]:
    return [f"[{section}] {key}" for section, key in ALWAYS_WRITTEN if not config_value(run, section, key)]


def config_hash_findings(run: RunResult) -> list[Finding]:
    if run.era.is_shell:
        return []
    stored_text = result_header(run).get("config-hash") or run.config_hash
    if not stored_text:
        if run.result_ini:
            return [finding("config-hash-absent", reason="result.txt has no config-hash,")]
        return []
    stored = parse_hash(stored_text)
    if stored is None:
        return [finding("config-hash-absent", reason=f"The config-hash '{stored_text}' is not hexadecimal,")]
    if not run.config:
        return [finding("config-hash-absent", reason="The run has no config.ini,")]
    source = config_source(run)
    size = hashed_chars((key, value) for options in run.config.values() for key, value in options.items())
    if size > MAX_HASHED_CHARS:
        return [finding("config-hash-absent", reason=_too_long(source, size))]
    expected = config_hash([(name, list(options.items())) for name, options in run.config.items()])
    if expected == stored:
        return [finding("config-hash-verified", stored=format_hash(stored), source=source)]
    missing = missing_written_options(run)
    shown = {"stored": format_hash(stored), "expected": format_hash(expected), "source": source}
    if missing:
        reason = (
            f"{source} is not the file the application writes: it lacks {', '.join(missing[:3])}"
            + (f" and {len(missing) - 3} more options" if len(missing) > 3 else "")
            + ", which the application always lists."
        )
        return [finding("config-hash-explained", reason=reason, **shown)]
    if not is_release_version(run.version):
        described = f"'{run.version}'" if run.version else "an empty version (no git checkout)"
        reason = (
            f"The benchmark was built as {described}, not a release tag, so its option set and "
            "defaults may differ from the release."
        )
        return [finding("config-hash-explained", reason=reason, **shown)]
    return [finding("config-hash-mismatch", **shown)]


def hash_rules(run: RunResult) -> list[Finding]:
    return [*score_hash_findings(run), *extended_hash_findings(run), *config_hash_findings(run)]
