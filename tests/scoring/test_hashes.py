"""The hash primitive against the spec's test vectors, and against every real result.txt."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.hashes import (
    INVALID_RUN_PAIR,
    combine,
    config_hash,
    format_hash,
    hash_kv,
    hash_text,
    parse_hash,
    phase_seed,
    run_timestamp,
    score_hash,
    score_hash_verdict,
)
from scoring.model import SCORED_PHASES
from scoring.readers.ini import IniDocument, parse_ini
from tests.scoring.corpus import submissions_root

# submissions_root() fails loudly (naming the path) when the corpus is missing: the parametrized
# tests below must never run over an empty list, which pytest would report as skipped.
SUBMISSIONS = submissions_root()
RESULT_FILES = sorted(SUBMISSIONS.rglob("result.txt"))

# config.ini files whose recomputed hash differs from result.txt's config-hash, each reviewed:
CONFIG_HASH_EXCEPTIONS: dict[str, str] = {
    "submission-159": "dev build io500-isc20-5-gc155836d31c1 from before the release: its option set differs",
    "submission-450": "config.ini is the user's own short ini (no [global] verbosity, drop-caches-cmd, ...)",
    "submission-468": "config.ini is the user's own ini with commented-out options, not the app-written one",
    "submission-639": "config.ini is the user's own ini with the --list help comments and few options",
    "submission-675": "empty version: built outside git from unknown source, its option set differs",
}


def test_it_matches_the_spec_test_vectors() -> None:
    assert format_hash(hash_text("a")) == "61"
    assert format_hash(hash_text("ab")) == "1E6"
    assert format_hash(hash_kv("version", "io500-isc21")) == "E711434B"
    assert format_hash(hash_kv("valid", "NO")) == "97207"
    assert format_hash(hash_kv("version", "")) == "98B7A"


def test_it_adds_non_ascii_bytes_as_signed_chars() -> None:
    # "é" is 0xC3 0xA9 in UTF-8: -61 then -87 as signed chars. x = -61 = 0xFFFFFFC3,
    # rotated left by 2 gives 0xFFFFFF0F, minus 87 gives 0xFFFFFEB8 (unsigned chars would give 0x3B5).
    assert hash_text("é") == 0xFFFFFEB8


def test_it_derives_the_spec_seed_example() -> None:
    assert phase_seed("ior-easy", "2021.06.04-18.25.22") == 778003580


def test_it_prints_seeds_as_signed_integers() -> None:
    assert phase_seed("ior-easy", "2023.03.22-18.10.33") == -1418239423


def test_it_prints_hashes_without_leading_zeros_in_uppercase() -> None:
    assert format_hash(0x0B03D960) == "B03D960"
    assert parse_hash("b03d960") == 0x0B03D960
    assert parse_hash("not hex") is None
    assert parse_hash("123456789") is None


def test_it_finds_the_timestamp_inside_a_result_dir() -> None:
    assert run_timestamp("./results//2020.07.09-12.23.20-app") == "2020.07.09-12.23.20"
    assert run_timestamp("./results/result_466") is None


@given(st.lists(st.tuples(st.text(max_size=20), st.text(max_size=20)), max_size=12), st.randoms())
def test_combined_hash_does_not_depend_on_pair_order(pairs: list[tuple[str, str]], random: Random) -> None:
    shuffled = list(pairs)
    random.shuffle(shuffled)
    assert combine(pairs) == combine(shuffled)


@given(st.text(max_size=40), st.text(max_size=40))
def test_hash_stays_within_32_bits(key: str, value: str) -> None:
    assert 0 <= hash_kv(key, value) <= 0xFFFFFFFF


def test_an_invalid_run_differs_by_exactly_the_valid_no_pair() -> None:
    phases = {"ior-easy-write": "1.000000"}
    valid = score_hash("io500-sc21", phases, "1.000000", "1.000000", "1.000000")
    invalid = score_hash("io500-sc21", phases, "1.000000", "1.000000", "1.000000", valid=False)
    assert valid ^ invalid == INVALID_RUN_PAIR


def test_config_hash_counts_the_empty_find_arguments_once_per_find_section() -> None:
    with_find = config_hash([("find", [("nproc", "4")])])
    assert with_find == hash_kv("nproc", "4") ^ hash_kv("external-mpi-args", "") ^ hash_kv(
        "external-extra-args", ""
    )
    # A non-empty value replaces the empty default instead of adding to it.
    explicit = config_hash([("find", [("external-extra-args", "-N")])])
    assert explicit == hash_kv("external-extra-args", "-N") ^ hash_kv("external-mpi-args", "")


def test_config_hash_ignores_section_names_and_unset_options() -> None:
    assert config_hash([("ior-easy", [("API", "POSIX"), ("hintsFileName", "")])]) == hash_kv("API", "POSIX")
    assert config_hash([("a", [("k", "v")]), ("b", [("k", "v")])]) == 0


def _header(document: IniDocument) -> dict[str, str]:
    header: dict[str, str] = {}
    for name, items in document.as_app_sees_it():
        if name in ("", "run"):
            header.update(dict(items))
    return header


def _short(path: Path) -> str:
    return str(path.relative_to(SUBMISSIONS))


@pytest.mark.parametrize("path", RESULT_FILES, ids=_short)
def test_every_real_score_hash_verifies(path: Path) -> None:
    document = parse_ini(path.read_text(errors="replace"))
    sections = {name: dict(items) for name, items in document.as_app_sees_it()}
    score = sections["SCORE"]
    version = _header(document).get("version", "")
    phases = {name: sections[name]["score"] for name in SCORED_PHASES if name in sections}
    stored = parse_hash(score["hash"])
    assert stored is not None
    verdict = score_hash_verdict(stored, version, phases, score["MD"], score["BW"], score["SCORE"].split()[0])
    if verdict is None and not version:
        # An empty version may be an io500-isc21_v1 build, which left MD and BW out of the hash.
        legacy = score_hash(
            version, phases, score["MD"], score["BW"], score["SCORE"].split()[0], include_md_bw=False
        )
        verdict = "valid" if legacy == stored else None
    assert verdict == "valid"


CONFIG_FILES = [p for p in RESULT_FILES if (p.parent / "config.ini").exists()]


@pytest.mark.parametrize("path", CONFIG_FILES, ids=_short)
def test_every_app_written_config_hash_verifies(path: Path) -> None:
    stored = _header(parse_ini(path.read_text(errors="replace")))["config-hash"]
    config = parse_ini((path.parent / "config.ini").read_text(errors="replace"))
    computed = format_hash(config_hash([(n, items) for n, items in config.as_app_sees_it() if n]))
    submission = _short(path).split("/")[0]
    if submission in CONFIG_HASH_EXCEPTIONS:
        assert computed != stored, f"{submission} now verifies; drop it from the reviewed exceptions"
    else:
        assert computed == stored
