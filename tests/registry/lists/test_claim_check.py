"""Checking a claim against the published lists (registry.lists.claim_check), the page and the API,
with the real lists io500.org published (../shared/io500-data/lists)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from django.test import Client

from registry.lists.claim_check import CANNOT_CHECK, NOT_SUPPORTED, SUPPORTED, check_claim
from registry.models import ListSnapshot


def published_scores(data: Path, name: str) -> dict[int, float]:
    """The list's ranks and scores as io500.org's own file has them."""
    with (data / "lists" / name).open(newline="") as handle:
        return {int(row["id"]): float(row["score"]) for row in csv.DictReader(handle)}


def test_a_rank_and_score_on_a_recorded_list_are_supported_and_cited_as_verified(
    imported_history: Path,
) -> None:
    scores = published_scores(imported_history, "list_sc20_io500.csv")
    check = check_claim(f"#1 on the SC20 IO500 list with {int(scores[1]):,}")
    assert check.verdict == SUPPORTED
    assert check.snapshot is not None and check.snapshot.provenance == ListSnapshot.Provenance.RECORDED
    assert check.entry is not None and check.entry.value == pytest.approx(scores[1])
    assert check.term == "verified"
    assert "a verified placement of #1 on the IO500 list at SC20" in check.citation
    assert "io500-sc20-io500-v1-1" in check.citation


def test_the_score_of_another_rank_is_not_supported_and_the_listed_value_is_named(
    imported_history: Path,
) -> None:
    scores = published_scores(imported_history, "list_isc21_10node.csv")
    check = check_claim(f"ranked 2nd in the ISC21 10 Node list, score {scores[1]:,.2f}")
    assert check.verdict == NOT_SUPPORTED
    assert f"{scores[2]:,}"[:5] in check.reasons[0]


def test_a_number_alone_finds_its_rank(imported_history: Path) -> None:
    scores = published_scores(imported_history, "list_isc21_10node.csv")
    check = check_claim(f"a score of {scores[3]:,.2f} on the ISC21 10 Node list")
    assert check.verdict == SUPPORTED
    assert check.entry is not None and check.entry.metric_rank == 3


def test_a_place_on_a_reconstructed_list_never_supports_a_claim(imported_history: Path) -> None:
    reconstructed = ListSnapshot.objects.filter(
        provenance=ListSnapshot.Provenance.RECONSTRUCTED, release__slug="isc22", kind="full"
    ).get()
    first = reconstructed.entries.get(rank=1)
    check = check_claim(f"#1 on the ISC22 full list with {first.score:.2f}")
    assert check.verdict == NOT_SUPPORTED
    assert check.entry is not None and check.term == "unverified"
    assert any("not on an official IO500 list" in reason for reason in check.reasons)
    assert "which is no IO500 list" in check.citation


def test_a_claim_without_its_bof_cannot_be_checked_and_quotes_the_rule(imported_history: Path) -> None:
    check = check_claim("#1 on the Production list with 32,165")
    assert check.verdict == CANNOT_CHECK
    assert "Birds of a Feather" in check.reasons[0]


def test_a_release_with_one_main_list_is_read_as_that_list(imported_history: Path) -> None:
    one = check_claim("#1 at SC20")  # SC20 published one main list, IO500
    assert one.verdict == SUPPORTED and "one main list, IO500" in one.reasons[0]


def test_the_page_shows_the_verdict_the_provenance_and_the_citation(
    client: Client, imported_history: Path
) -> None:
    scores = published_scores(imported_history, "list_sc20_io500.csv")
    response = client.get("/claims/", {"claim": f"#1 on the SC20 IO500 list with {int(scores[1]):,}"})
    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-verdict="supported"' in body
    assert "Recorded as io500.org published it" in body
    assert "a verified placement of #1 on the IO500 list at SC20" in body
    assert "has been audited by the committee for correctness of the whole submission package" in body


def test_the_empty_page_offers_examples_and_the_policy(client: Client, db: None) -> None:
    body = client.get("/claims/").content.decode()
    assert 'data-role="claim-result"' not in body
    assert "?claim=" in body and "rules_messaging.php" in body


def test_the_api_answers_the_same_check_as_json(client: Client, imported_history: Path) -> None:
    response = client.get(
        "/api/v1/claims/check/", {"claim": "the #1 bandwidth score on the ISC20 IO500 list"}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["verdict"] == SUPPORTED
    assert body["read"]["metric"] == "bw"
    assert body["list"]["provenance"] == "recorded" and body["list"]["official"] is True
    assert body["entry"]["rank_by_metric"] == 1 and body["messaging_term"] == "verified"
    assert body["policy"]["source"].endswith("templates/Pages/rules_messaging.php")


def test_the_api_reads_any_input_without_an_error(client: Client, db: None) -> None:
    for text in ["", "\x00", "#" * 2000, "SC99 #0", "ISC'25 ten node research 1,2,3,4"]:
        assert client.get("/api/v1/claims/check/", {"claim": text}).status_code == 200


def test_the_api_root_names_the_claim_check(client: Client, db: None) -> None:
    endpoints = client.get("/api/v1/").json()["endpoints"]
    assert endpoints["claim_check"]["href"].endswith("/api/v1/claims/check/?claim={sentence}")
