"""Imported raw folders get what their own system-information files hold, beside the row's values."""

from __future__ import annotations

from registry.importer.raw import import_raw
from registry.importer.source import IO500Data
from registry.models import Release
from submissions.models import Finding, Submission, SystemDescription


def test_imported_folders_get_their_system_information_files(
    imported_history, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path / "media"
    data = IO500Data(imported_history)
    # 774: a 2025 DAOS folder with an info-creator file in its run folder; 585: the 2021 folder whose
    # file is a wrapped community-schema document; 66: an io500.org row that has a file too.
    chosen = [raw for raw in data.raw_folders() if raw.io500_id in (66, 585, 774)]
    with django_capture_on_commit_callbacks(execute=True):
        import_raw(chosen, list(Release.objects.all()))

    daos = SystemDescription.objects.get(submission__io500_id=774)
    assert daos.system_name == "SuperMUC-NG-Phase2-EC-10"  # the folder's path keeps the identity
    assert (daos.client_nodes, daos.procs_per_node, daos.ds_servers) == (10, 112, 42)
    assert daos.client_kernel == "5.14.21-150500.55.65-default"
    source = "archive file submission-774/results/2025.09.28-13.37.50/system-information.txt"
    assert daos.field_sources["ds_servers"] == source
    assert daos.archive_data["io500_info_submitter"].startswith("Michael Hennecke")
    # The run itself gave the IO500 version, which the file does not hold.
    assert daos.io500_version == "io500-isc25_v2-13"
    assert daos.field_sources["io500_version"] == "the version the IO500 tools printed"

    narval = SystemDescription.objects.get(submission__io500_id=585)
    assert (narval.md_servers, narval.ds_servers, narval.filesystem_version) == (4, 22, "2.14.0")
    assert narval.client_os == "Rocky 8"
    assert any("line breaks fall inside strings" in problem for problem in narval.problems)
    assert any("Site.IO500.IOR" in problem for problem in narval.problems)
    narval_submission = Submission.objects.get(io500_id=585)
    note = Finding.objects.get(submission=narval_submission, code="system-description-read")
    assert note.severity == Finding.Severity.INFO and "could not be read" in note.message
    assert narval_submission.status != Submission.Status.INVALID or "system" not in narval_submission.error

    ddn = SystemDescription.objects.get(submission__io500_id=66)
    assert ddn.origin == "io500.org's database"
    assert ddn.client_nodes == 10 and "client_nodes" not in ddn.field_sources  # the row's value stays
