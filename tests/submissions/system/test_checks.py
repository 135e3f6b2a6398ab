"""The declared system against the run (submissions.system.checks), through a real upload and ingest."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.urls import reverse

from submissions.models import Finding, Submission
from submissions.selectors import submission_findings_ordered
from tests.submissions.helpers import SYSTEM, real_tarball
from tests.submissions.review.helpers import client_for
from tests.submissions.system.documents import VALID, node

pytestmark = pytest.mark.django_db


class TestSystemFindings:
    def test_a_ten_node_run_on_more_nodes_is_flagged_for_the_committee(
        self, submitter: Any, create: Any
    ) -> None:
        # submission-585 ran on 640 client nodes according to its IOR and mdtest outputs. The run is
        # still valid; only its place on the 10-node lists is in doubt.
        submission, _ = create(submitter, real_tarball(585), system=SYSTEM, ten_node=True)
        submission.refresh_from_db()
        findings = {f.code: f for f in submission.findings.all()}
        assert {"ten-node-count", "nodes-mismatch"} <= set(findings)
        assert findings["ten-node-count"].severity == Finding.Severity.WARNING
        assert "exactly 10 client nodes" in findings["ten-node-count"].message
        assert submission.status == Submission.Status.VERIFIED

    def test_a_ten_node_submission_declaring_other_than_ten_nodes_is_invalid(
        self, submitter: Any, create: Any
    ) -> None:
        submission, _ = create(
            submitter, real_tarball(585), system={**SYSTEM, "client_nodes": 640}, ten_node=True
        )
        submission.refresh_from_db()
        assert submission.status == Submission.Status.INVALID
        assert "declares 640" in submission.error

    def test_a_declared_node_count_that_matches_gives_no_node_finding(
        self, submitter: Any, create: Any
    ) -> None:
        submission, _ = create(submitter, real_tarball(33), system=SYSTEM, ten_node=True)
        codes = set(Finding.objects.filter(submission=submission).values_list("code", flat=True))
        assert not codes & {"ten-node-count", "ten-node-declared", "nodes-mismatch"}

    def test_bandwidth_above_the_declared_client_network_is_an_error_shown_first(
        self, submitter: Any, create: Any, committee_member: Any
    ) -> None:
        # 10 nodes on 1 GbE can move about 1.16 GiB/s; submission-33 reports 64 GiB/s for ior-easy-write.
        system = {**SYSTEM, "client_nodes": 10, "client_network_gbps": 1}
        submission, _ = create(submitter, real_tarball(33), system=system)
        submission.refresh_from_db()
        flagged = submission.findings.filter(code="plausibility-network")
        assert set(flagged.values_list("phase", flat=True)) >= {"ior-easy-write", "ior-easy-read"}
        assert all(f.severity == "error" for f in flagged)
        assert submission.status == Submission.Status.INVALID
        assert "faster than the declared client network" in submission.error
        # The committee sees the errors first, on the submission page and the review page alike.
        ordered = submission_findings_ordered(submission=submission)
        assert ordered[0].code == "plausibility-network"
        page = client_for(committee_member).get(reverse("review:detail", args=[submission.pk]))
        html = page.content.decode()
        assert html.index(ordered[0].message) < min(
            html.index(f.message) for f in ordered[1:] if f.message in html
        )
        assert not submission.findings.filter(code="bandwidth-above-network").exists()

    def test_data_that_fits_in_the_declared_client_memory_is_flagged_cache(
        self, submitter: Any, create: Any
    ) -> None:
        # submission-33 wrote about 1.2 TiB per client node; a document declaring 2 TiB of memory per
        # client node (DDR and HBM) and 42 servers of 16 devices at 100 MB/s each (62.6 GiB/s together,
        # below the run's 64 GiB/s write) makes both the cache and the storage ceiling apply.
        document = copy.deepcopy(VALID)
        nodes = node(document, "Supercomputer", "Nodes")
        nodes["childs"] += [
            {"type": "Memory", "att": {"net capacity": ["1536", "GiB"]}, "childs": []},
            {"type": "Memory", "att": {"net capacity": ["512", "GiB"]}, "childs": []},
        ]
        media = node(document, "StorageSystem", "DAOS", "Servers", "StorageMedia")["att"]
        media["peak throughput"] = ["100", "MB/s"]
        submission, _ = create(submitter, real_tarball(33), system=document)
        codes = dict(submission.findings.values_list("code", "severity"))
        assert codes["plausibility-cache"] == "warning"
        assert codes["plausibility-storage"] == "warning"
        message = submission.findings.get(code="plausibility-cache").message
        assert "2,048.0 GiB of memory" in message

    def test_the_one_corpus_document_declaring_client_memory_flags_its_run(
        self, submitter: Any, create: Any
    ) -> None:
        # submission-585 (Narval) carries io500.org's community document: its compute Nodes have 256 GB
        # (238.4 GiB) each; the run wrote 203.8 GiB per node on 640 nodes. docs/plausibility.md
        # examines the flag: fits in memory, but the reads show no sign of the cache (1.44 x the write).
        submission, _ = create(submitter, real_tarball(585), system={**SYSTEM, "client_nodes": 640})
        findings = {f.code: f for f in submission.findings.all()}
        assert findings["plausibility-cache"].severity == "warning"
        assert "203.8 GiB per client node on 640 node(s)" in findings["plausibility-cache"].message
        assert "238.4 GiB of memory" in findings["plausibility-cache"].message
        assert "plausibility-read-above-write" not in findings
        assert "plausibility-network" not in findings  # 640 x 100 Gbit/s

    def test_what_the_description_does_not_declare_is_named_not_checked(
        self, submitter: Any, create: Any
    ) -> None:
        submission, _ = create(submitter, real_tarball(33), system=SYSTEM)
        note = submission.findings.get(code="plausibility-not-checked")
        assert note.severity == "info"
        assert "memory per client node not declared" in note.message
        assert not submission.findings.filter(
            code__in=["plausibility-cache", "plausibility-network"]
        ).exists()
