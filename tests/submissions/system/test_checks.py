"""The declared system against the run (submissions.system.checks), through a real upload and ingest."""

from __future__ import annotations

from typing import Any

import pytest

from submissions.models import Finding, Submission
from tests.submissions.helpers import SYSTEM, real_tarball

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

    def test_bandwidth_above_the_declared_client_network_is_flagged(
        self, submitter: Any, create: Any
    ) -> None:
        # 640 nodes on a 0.001 Gbit/s network can move about 0.07 GiB/s; the run reports far more.
        system = {**SYSTEM, "client_nodes": 640, "client_network_gbps": 0.001}
        submission, _ = create(submitter, real_tarball(585), system=system)
        flagged = submission.findings.filter(code="bandwidth-above-network")
        assert set(flagged.values_list("phase", flat=True)) >= {"ior-easy-write", "ior-easy-read"}
        assert all(f.severity == "warning" for f in flagged)
