"""Edit a copy of a real run as a forger would, recomputing the public hashes (scoring/hashes.py).

Every helper works on a run directory copied into tmp_path; the corpus itself is never touched.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from scoring.hashes import config_hash, format_hash, score_hash, version_hashes_md_bw
from scoring.model import SCORED_PHASES
from scoring.readers.ini import parse_ini

RESULT = "result.txt"
SUMMARY = "result_summary.txt"


def copy_run(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def text(run: Path, name: str = RESULT) -> str:
    return (run / name).read_text()


def write(run: Path, content: str, name: str = RESULT) -> None:
    (run / name).write_text(content)


def set_key(content: str, section: str, key: str, value: str) -> str:
    """`key = value` inside the first `[section]` ("" for the keys before any section), kept in the
    application's `%-15s = ` layout."""
    # The section's own lines (up to the next section) before the key; the header may be [run].
    start = rf"^\[{re.escape(section)}\]\n(?:(?!\[).*\n)*?" if section else r"\A(?:(?!\[(?!run\])).*\n)*?"
    pattern = re.compile(rf"({start}){re.escape(key)}[ \t]*=.*$", re.M)
    replaced, count = pattern.subn(lambda m: f"{m.group(1)}{key:<15} = {value}", content, count=1)
    assert count == 1, (section, key)
    return replaced


def section_text(content: str, section: str) -> str:
    """The text of `[section]` up to the next section, its header line included."""
    match = re.search(rf"^\[{re.escape(section)}\]\n(?:(?!\[).*\n)*", content, re.M)
    assert match is not None, section
    return match.group(0)


def rehash_score(run: Path, *, valid: bool = True) -> str:
    """Write the [SCORE] hash the application would compute for result.txt's values as they now
    stand (first copy of each section, as the reader takes them); returns it."""
    document = parse_ini(text(run))
    version = document.value("", "version") or document.value("run", "version") or ""
    phases = {name: value for name in SCORED_PHASES if (value := document.value(name, "score")) is not None}
    total = (document.value("SCORE", "SCORE") or "").split()
    stored = format_hash(
        score_hash(
            version,
            phases,
            document.value("SCORE", "MD") or "",
            document.value("SCORE", "BW") or "",
            total[0] if total else "",
            include_md_bw=version_hashes_md_bw(version),
            valid=valid,
        )
    )
    write(run, set_key(text(run), "SCORE", "hash", stored))
    return stored


def rehash_config(run: Path) -> None:
    """Write the config-hash of config.ini as it now stands into result.txt's header."""
    config = parse_ini(text(run, "config.ini")).as_config()
    stored = format_hash(config_hash([(name, list(options.items())) for name, options in config.items()]))
    write(run, set_key(text(run), "", "config-hash", stored))


def set_config(run: Path, section: str, key: str, value: str) -> None:
    content = text(run, "config.ini")
    pattern = re.compile(rf"(^\[{re.escape(section)}\]\n(?:(?!\[).*\n)*?){re.escape(key)}[ \t]*=.*$", re.M)
    replaced, count = pattern.subn(lambda m: f"{m.group(1)}{key} = {value}", content, count=1)
    assert count == 1, (section, key)
    write(run, replaced, "config.ini")


def relabel(run: Path, version: str) -> None:
    """Claim another version in result.txt and result_summary.txt, the score hash recomputed."""
    write(run, set_key(text(run), "", "version", version))
    line = f"IO500 version {version}"
    write(run, re.sub(r"^IO500 version \S*", line, text(run, SUMMARY), count=1, flags=re.M), SUMMARY)
    rehash_score(run)
