"""Reading a sentence that quotes an IO500 result (registry.lists.claims): tolerant, never raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry.lists.claims import BANDWIDTH, MAX_CLAIM_CHARS, METADATA, SCORE, Number, parse_claim


@pytest.mark.parametrize(
    ("text", "rank", "release", "kind"),
    [
        ("#1 on the SC25 Production list with 32,165", 1, "sc25", "production"),
        ("ranked 3rd in the ISC24 10 Node Research list, score 1,234.5", 3, "isc24", "ten-node-research"),
        ("number 2 on the SC'19 ten-node list", 2, "sc19", "ten-node"),
        ("We placed first on the Research list at ISC 2025", 1, "isc25", "research"),
        ("#5 on the SC18* IO500 list", 5, "sc18*", "io500"),
        ("rank 12 of the SC19 Student Cluster Competition list", 12, "sc19", "scc"),
    ],
)
def test_the_rank_release_and_list_are_read_however_they_are_written(
    text: str, rank: int, release: str, kind: str
) -> None:
    claim = parse_claim(text)
    assert (claim.rank, claim.release, claim.kind) == (rank, release, kind)


def test_numbers_keep_their_quoted_precision_and_leave_out_rank_release_and_node_count() -> None:
    claim = parse_claim("ranked 3rd in the ISC24 10 Node Research list, score 1,234.5 and 7")
    assert [(n.value, n.decimals) for n in claim.numbers] == [(1234.5, 1), (7.0, 0)]


def test_a_quoted_number_matches_the_value_rounded_or_cut_to_its_precision_only() -> None:
    quoted = Number(value=7043.0, decimals=0, text="7,043")
    assert quoted.matches(7043.49) and quoted.matches(7043.99) and quoted.matches(7042.6)
    assert not quoted.matches(7044.2) and not quoted.matches(7042.4)
    assert Number(value=10.0, decimals=0, text="10").matches(9.31) is False


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("the #1 verified bandwidth score on the Research list at ISC25", BANDWIDTH),
        ("#2 metadata score on the SC23 Research list", METADATA),
        ("#1 overall on the SC23 Research list", SCORE),
        ("#1 on the SC23 Research list", SCORE),
    ],
)
def test_the_metric_is_the_one_the_sentence_names_else_the_overall_score(text: str, metric: str) -> None:
    assert parse_claim(text).metric == metric


def test_the_policy_term_is_read_unverified_before_verified() -> None:
    assert parse_claim("an unverified score of 12 at SC25").term == "unverified"
    assert parse_claim("the #1 verified bandwidth score at ISC25").term == "verified"
    assert parse_claim("#1 at ISC25").term is None


def test_a_sentence_without_a_release_rank_or_list_reads_as_nothing_claimed() -> None:
    claim = parse_claim("#1 against our primary competitors")
    assert (claim.rank, claim.release, claim.kind, claim.numbers) == (1, None, None, ())


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=700))
def test_any_text_is_read_without_an_error(text: str) -> None:
    claim = parse_claim(text)
    assert len(claim.text) <= MAX_CLAIM_CHARS
    assert claim.rank is None or claim.rank > 0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["#", "SC", "ISC", "'", "10", " node ", "research", ",", ".", "1st", "rank", "*", "25", "3"]
        ),
        max_size=30,
    ).map("".join)
)
def test_text_made_of_the_parts_the_reader_looks_for_is_read_without_an_error(text: str) -> None:
    parse_claim(text)


def test_top_of_a_file_system_type_is_not_read_as_rank_one() -> None:
    claim = parse_claim(
        "a verified placement of the top IBM Storage Scale entry on the Production list at SC22"
    )
    assert claim.rank is None and claim.release == "sc22" and claim.kind == "production"
