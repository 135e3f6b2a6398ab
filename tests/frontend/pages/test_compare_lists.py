"""The compare page warns when the runs compared share no IO500 list (the Messaging Policy's "No
Inter-List Comparisons"), with the real lists io500.org published."""

from __future__ import annotations

from pathlib import Path

from django.test import Client

from registry.core.messaging import inter_list_warning
from registry.models import ListEntry


def compare(client: Client, *ids: int) -> str:
    response = client.get("/compare/", {"ids": ",".join(map(str, ids))})
    assert response.status_code == 200
    return response.content.decode()


def test_runs_on_one_list_are_compared_without_a_warning(client: Client, imported_history: Path) -> None:
    first, second = ListEntry.objects.filter(
        snapshot__release__slug="sc20", snapshot__kind="io500", rank__in=(1, 2)
    ).order_by("rank")
    assert 'data-role="inter-list-warning"' not in compare(client, first.submission_id, second.submission_id)


def test_runs_from_different_lists_get_the_policy_rule(client: Client, imported_history: Path) -> None:
    on_sc20 = ListEntry.objects.filter(snapshot__release__slug="sc20", snapshot__kind="io500")
    research = (
        ListEntry.objects.filter(snapshot__release__slug="isc23", snapshot__kind="research")
        .exclude(submission_id__in=on_sc20.values("submission_id"))
        .first()
    )
    assert research is not None
    body = compare(client, on_sc20.get(rank=1).submission_id, research.submission_id)
    assert 'data-role="inter-list-warning"' in body
    assert "Comparisons must be made within a single metric on a specific list." in body
    assert "IO500 list at SC20" in body and "Research list at ISC23" in body
    terms = body.split('data-role="compare-terms"')[1].split("</p>")[0]
    assert terms.count(">verified<") == 2


def test_a_run_on_no_list_is_named_so() -> None:
    warning = inter_list_warning({1: {("SC20", "IO500")}, 2: set()})
    assert "#2: no IO500 list" in warning
    assert inter_list_warning({1: {("SC20", "IO500")}, 2: {("SC20", "IO500"), ("SC20", "Full")}}) == ""
