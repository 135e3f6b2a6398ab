"""The IO500 application's 32-bit integrity hashes, reimplemented (io500-format.md section 9).

The C application (src/util.c) folds every character into a rotating 32-bit accumulator and adds
it as a *signed* char, so bytes >= 0x80 subtract. Pairs are hashed key-then-value on one
accumulator and combined with XOR, which makes the combined hash independent of pair order.
The hashes are not cryptographic and their recipe is public: they catch accidental changes
(a hand edit, a truncated copy), but anyone can recompute them after a deliberate edit. Whether
the numbers are genuine is judged from the tools' own output (scoring/rules/evidence.py).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence

MASK = 0xFFFFFFFF
SEED_FALLBACK = 4711  # the application's seed when the hash is 0 or all ones
SEED_PHASES: tuple[str, ...] = ("ior-easy", "ior-hard", "mdtest-easy", "mdtest-hard", "md-workbench")
FIND_SECTIONS: tuple[str, ...] = ("find", "find-easy", "find-hard")
EMPTY_DEFAULT_FIND_OPTIONS: tuple[str, ...] = ("external-mpi-args", "external-extra-args")
TIMESTAMP_RE = re.compile(r"\d{4}\.\d{2}\.\d{2}-\d{2}\.\d{2}\.\d{2}")
# The hash folds one byte per step in Python (about 0.5 s per MiB, and a rule may recompute a hash
# five times), so text a submitter makes long could stall a worker. The application hashes a few
# kilobytes: in both real corpora at most 8.6 KB of result.txt and 13.4 KB of configuration values.
# Above ten times that, the rules say the hash was not recomputed instead of spending seconds on it.
MAX_HASHED_CHARS = 128 * 1024


def hashed_chars(pairs: Iterable[tuple[str, str]]) -> int:
    """How many characters hashing these pairs folds (compare with MAX_HASHED_CHARS first)."""
    return sum(len(key) + len(value) for key, value in pairs)


def hash_text(text: str, start: int = 0) -> int:
    """`u_hash_update` of the C app: rotate left by 2, add the byte as a signed char."""
    x = start & MASK
    for byte in text.encode("utf-8"):
        signed = byte - 256 if byte >= 0x80 else byte
        x = (((x << 2) | (x >> 30)) + signed) & MASK
    return x


def hash_kv(key: str, value: str) -> int:
    """`u_hash_update_key_val`: the key, then the value, on the same accumulator."""
    return hash_text(value, hash_text(key))


def combine(pairs: Iterable[tuple[str, str]]) -> int:
    """XOR of `hash_kv` over the pairs; the order of the pairs does not matter."""
    combined = 0
    for key, value in pairs:
        combined ^= hash_kv(key, value)
    return combined


def format_hash(value: int) -> str:
    """The application's `%X`: uppercase hexadecimal without leading zeros."""
    return f"{value & MASK:X}"


def parse_hash(text: str) -> int | None:
    """A printed hash back to its number; None when it is not hexadecimal."""
    cleaned = text.strip()
    if not cleaned or len(cleaned) > 8:
        return None
    try:
        return int(cleaned, 16)
    except ValueError:
        return None


INVALID_RUN_PAIR = hash_kv("valid", "NO")


# --- score hash ---------------------------------------------------------------------------------


def version_hashes_md_bw(version: str) -> bool:
    """The pre-release tag io500-isc21_v1 left MD and BW out of the score hash (IO500/io500 #33)."""
    return not version.startswith("io500-isc21_v1")


def score_hash(
    version: str,
    phase_scores: Mapping[str, str],
    md: str,
    bw: str,
    score: str,
    *,
    include_md_bw: bool = True,
    valid: bool = True,
) -> int:
    """The `hash` of `[SCORE]`: version pair (even when empty), each core phase score, MD, BW, SCORE.

    The phase scores and the MD/BW/SCORE values must be the `%f` strings exactly as printed.
    """
    pairs: list[tuple[str, str]] = [("version", version)]
    pairs.extend(phase_scores.items())
    if include_md_bw:
        pairs.extend([("MD", md), ("BW", bw)])
    pairs.append(("SCORE", score))
    combined = combine(pairs)
    return combined if valid else combined ^ INVALID_RUN_PAIR


def score_hash_verdict(
    stored: int,
    version: str,
    phase_scores: Mapping[str, str],
    md: str,
    bw: str,
    score: str,
) -> str | None:
    """Which run state the stored hash proves: "valid", "invalid" (valid=NO mixed in) or None."""
    expected = score_hash(version, phase_scores, md, bw, score, include_md_bw=version_hashes_md_bw(version))
    if stored == expected:
        return "valid"
    if stored == expected ^ INVALID_RUN_PAIR:
        return "invalid"
    return None


def extended_score_hash(
    phase_scores: Mapping[str, str], md: str, bw: str, score: str, *, valid: bool = True
) -> int:
    """The `hash` of `[SCOREX]`: no version pair, the optional phases, then MD, BW and SCORE."""
    pairs = [*phase_scores.items(), ("MD", md), ("BW", bw), ("SCORE", score)]
    combined = combine(pairs)
    return combined if valid else combined ^ INVALID_RUN_PAIR


# --- config hash --------------------------------------------------------------------------------


def config_hash(sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> int:
    """`config-hash` recomputed from an application-written config.ini.

    Section names are not hashed. Keys shown empty are unset (NULL) and skipped, except the two
    find options whose default is the empty string: the application hashes those even though the
    file shows them empty, once per find section present.
    """
    combined = 0
    for section, options in sections:
        is_find = section.lower() in FIND_SECTIONS
        for key, value in options:
            if value != "" or (is_find and key in EMPTY_DEFAULT_FIND_OPTIONS):
                combined ^= hash_kv(key, value)
        if is_find:
            present = {key for key, _ in options}
            for key in EMPTY_DEFAULT_FIND_OPTIONS:
                if key not in present:
                    combined ^= hash_kv(key, "")
    return combined


# --- per-phase seeds ----------------------------------------------------------------------------


def phase_seed(phase: str, timestamp: str) -> int:
    """The `-G` seed the application derives for a phase family from the run timestamp (B3+).

    Returned as the signed 32-bit integer the application prints.
    """
    value = hash_text(timestamp, hash_text(phase))
    if value in (0, MASK):
        return SEED_FALLBACK
    return value - (1 << 32) if value >= 1 << 31 else value


def run_timestamp(text: str | None) -> str | None:
    """The `YYYY.MM.DD-HH.MM.SS` timestamp inside a result-dir name, if there is one."""
    if not text:
        return None
    matches = TIMESTAMP_RE.findall(text)
    return matches[-1] if matches else None


def timestamp_date(stamp: str | None) -> dt.date | None:
    """The day of a `YYYY.MM.DD-HH.MM.SS` run timestamp, or None when it is no valid date and time."""
    if stamp is None:
        return None
    try:
        return dt.datetime.strptime(stamp, "%Y.%m.%d-%H.%M.%S").date()
    except ValueError:
        return None
