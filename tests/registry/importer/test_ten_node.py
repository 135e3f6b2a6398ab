"""10-node lists from SC21 on, reconstructed from the node counts the runs' own outputs show
(issue 26, item 4): exactly 10 client nodes by IOR and mdtest, never by the declared description."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

from registry.models import ListEntry, ListSnapshot, Release
from submissions.models import Result, Submission
from tests.support.data import shared_subset

# 723 (GEFION, SC24, IOR "nodes : 10"), 726 (GEFION, SC24, 128 nodes), 777 (Marenostrum 5 GekkoFS:
# 10 nodes, a result folder named result_466 that ran 2025-11-04 with io500-sc25).
RAW = {"723", "726", "777"}


@pytest.mark.django_db(transaction=True)
def test_ten_node_lists_are_rebuilt_from_the_outputs_node_counts(io500_data, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("import_io500", str(shared_subset(io500_data, tmp_path, RAW)), stdout=io.StringIO())
    runs = {number: Submission.objects.get(io500_id=int(number)) for number in RAW}
    nodes = {
        number: Result.objects.get(submission=run, is_primary=True).nodes for number, run in runs.items()
    }
    assert nodes == {"723": 10, "726": 128, "777": 10}

    # The run of 2025-11-04 with io500-sc25 is SC25's (ISC25 never accepted that version).
    assert runs["777"].release is not None and runs["777"].release.name == "SC25"
    assert "2025-11-04 15:24:13" in runs["777"].published_record["placement"]

    sc24 = ListSnapshot.objects.get(release__name="SC24", kind="ten-node")
    assert sc24.provenance == ListSnapshot.Provenance.RECONSTRUCTED
    listed = set(ListEntry.objects.filter(snapshot=sc24).values_list("submission_id", flat=True))
    assert runs["723"].pk in listed and runs["726"].pk not in listed
    assert "Reconstructed here from public raw data by our rules" in sc24.source
    # Of SC24's runs only the two raw folders' show a count; the recorded rows have no raw output.
    own = Submission.objects.filter(release__name="SC24", score__isnull=False).count()
    assert f"2 of the {own} runs of SC24 have a node count their outputs show" in sc24.source

    sc25 = ListSnapshot.objects.get(release__name="SC25", kind="ten-node")
    assert set(ListEntry.objects.filter(snapshot=sc25).values_list("submission_id", flat=True)) >= {
        runs["777"].pk
    }
    assert not ListEntry.objects.filter(snapshot__release__name="ISC25", submission=runs["777"]).exists()
    # Every release from SC21 on that a public run belongs to has one, shown as a tab; one that no
    # run belongs to has none: ISC26 and SC26, and here ISC25 (this subset's only run of 2025 that
    # io500.org's lists do not hold, 777, is SC25's).
    for release in Release.objects.filter(publication_date__gte="2021-11-01"):
        own_runs = Submission.objects.filter(release=release, score__isnull=False).exists()
        built = ListSnapshot.objects.filter(release=release, kind="ten-node").exists()
        assert built == own_runs, release.name
        assert "ten-node" in release.list_kinds or not own_runs, release.name
    assert not ListSnapshot.objects.filter(
        release__name__in=("ISC25", "ISC26", "SC26"), kind="ten-node"
    ).exists()

    page = Client().get("/lists/sc24/ten-node/").content.decode()
    assert 'data-provenance="reconstructed"' in page
    assert re.search(r"2 of the \d+ runs of SC24 have a node count", page)
    # No committee awarded or accepted anything on a reconstructed list: no awards, no "accepted for".
    assert 'data-role="awards"' not in page and "accepted for SC24" not in page

    # The counts are shown where the runs are: list rows (under the declared ones), the submission
    # page with the file that printed them, the compare page.
    row = re.search(rf'<tr data-submission="{runs["723"].pk}".*?</tr>', page, re.S)
    assert row is not None
    assert (
        'data-role="run-nodes" title="Client nodes as the run&#x27;s own outputs print them">run 10<'
        in row[0]
    )
    assert ">run 1280</span>" in row[0]
    # Every entry of a 10-node list has a count; the Full list also holds io500.org's recorded rows.
    full = Client().get("/lists/sc24/full/").content.decode()
    recorded = re.search(r'<tr data-submission="(\d+)"[^>]*>(?:(?!</tr>).)*run \?</span>', full, re.S)
    assert recorded is not None and int(recorded[1]) not in {run.pk for run in runs.values()}
    detail = Client().get(f"/submissions/{runs['777'].pk}/").content.decode()
    counts = re.search(r'data-role="run-counts">(.*?)</p>', detail, re.S)
    assert counts is not None
    assert "<strong>10 client nodes</strong>" in counts[1] and "<strong>320 tasks</strong>" in counts[1]
    assert "(<code>result.txt</code>)" in counts[1]
    assert "started 2025-11-04 15:24:13 by its own clock" in detail
    compare = Client().get(f"/compare/?ids={runs['723'].pk},{runs['726'].pk}").content.decode()
    assert "10 nodes, 1280 tasks" in compare and "128 nodes, 12288 tasks" in compare
