"""list_build and list_publish against the database: drafts from data, frozen published snapshots."""

from __future__ import annotations

import datetime
import io
import itertools

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from registry.lists.services import ListBuildError, ListPublishError, list_build, list_publish
from registry.models import FrozenSnapshotError, ListEntry, ListSnapshot, Release
from submissions.models import Institution, Result, ReviewState, StorageSystem, Submission, SystemDescription

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


@pytest.fixture
def sc19() -> Release:
    return Release.objects.create(
        name="SC19", slug="sc19", publication_date=datetime.date(2019, 11, 19),
        list_kinds=["io500", "ten-node", "full", "historical"],
    )  # fmt: skip


@pytest.fixture
def isc23(sc19: Release) -> Release:
    kinds = ["production", "research", "ten-node-production", "ten-node-research", "full", "historical"]
    return Release.objects.create(
        name="ISC23",
        slug="isc23",
        publication_date=datetime.date(2023, 5, 23),
        rules_from=sc19,
        list_kinds=kinds,
    )


def system(name: str, institution: str = "Lab", filesystem: str = "Lustre") -> StorageSystem:
    owner, _ = Institution.objects.get_or_create(name=institution)
    return StorageSystem.objects.create(name=name, institution=owner, filesystem_type=filesystem)


def submission(
    release: Release,
    storage: StorageSystem,
    score: float,
    *,
    nodes: int | None = 32,
    declared: int | None = None,
    ten_node: bool | None = None,
    valid: bool = True,
) -> Submission:
    """An accepted upload whose run's outputs show `nodes` client nodes (None: no count) and whose
    description declares `declared` (default: the same); it asks for the 10-node lists when it
    ran on 10 nodes, unless `ten_node` says otherwise."""
    row = Submission.objects.create(
        source=Submission.Source.UPLOAD,
        release=release,
        storage_system=storage,
        status=Submission.Status.VERIFIED if valid else Submission.Status.INVALID,
        score=score,
        bw=score,
        md=score,
        valid=valid,
        # Uploads reach the lists once the committee accepted them (tests/review covers the others).
        review_state=ReviewState.ACCEPTED,
        ten_node=(nodes == 10) if ten_node is None else ten_node,
    )
    Result.objects.create(submission=row, path="run", is_primary=True, era="sc23", nodes=nodes, valid=valid)
    SystemDescription.objects.create(
        submission=row, client_nodes=declared if declared is not None else nodes, procs_per_node=4
    )
    return row


def ranked(snapshot: ListSnapshot) -> list[tuple[int, int]]:
    return list(snapshot.entries.order_by("rank").values_list("rank", "submission_id"))


def test_a_built_list_has_one_entry_per_storage_system_with_its_best_score(sc19):
    alpha, beta = system("Alpha"), system("Beta")
    weak = submission(sc19, alpha, 10.0)
    strong = submission(sc19, alpha, 30.0)
    other = submission(sc19, beta, 20.0)
    snapshot = list_build(release=sc19, kind="io500")
    assert snapshot.status == ListSnapshot.Status.DRAFT
    assert ranked(snapshot) == [(1, strong.pk), (2, other.pk)]
    full = list_build(release=sc19, kind="full")
    assert ranked(full) == [(1, strong.pk), (2, other.pk), (3, weak.pk)]


def test_the_same_name_at_another_institution_or_file_system_is_another_system(sc19):
    first = submission(sc19, system("Gamma", "Lab A"), 5.0)
    second = submission(sc19, system("Gamma", "Lab B"), 4.0)
    third = submission(sc19, system("Gamma", "Lab A", "BeeGFS"), 3.0)
    assert ranked(list_build(release=sc19, kind="io500")) == [(1, first.pk), (2, second.pk), (3, third.pk)]


def test_equal_scores_keep_the_earlier_submission_first(sc19):
    first = submission(sc19, system("One"), 7.0)
    second = submission(sc19, system("Two"), 7.0)
    assert ranked(list_build(release=sc19, kind="io500")) == [(1, first.pk), (2, second.pk)]


def test_the_ten_node_list_reads_the_client_nodes_the_outputs_show_not_the_declared_ones(sc19):
    ten = submission(sc19, system("Ten"), 5.0, nodes=10, declared=12)
    declared_only = submission(sc19, system("Declared"), 9.0, nodes=16, declared=10, ten_node=True)
    unknown = submission(sc19, system("Unknown"), 8.0, nodes=None, declared=10, ten_node=True)
    submission(sc19, system("Eleven"), 7.0, nodes=11)
    snapshot = list_build(release=sc19, kind="ten-node")
    assert ranked(snapshot) == [(1, ten.pk)]
    assert [(row["submission_id"], row["rule"]) for row in snapshot.left_out] == [
        (declared_only.pk, "nodes"),
        (unknown.pk, "nodes-unknown"),
    ]
    assert "its outputs show 16 client nodes, declared 10" in snapshot.left_out[0]["reason"]
    assert "its outputs show no client node count" in snapshot.left_out[1]["reason"]


def test_a_ten_node_run_that_did_not_ask_for_the_ten_node_lists_stays_off_them(sc19):
    submission(sc19, system("Ten"), 5.0, nodes=10, ten_node=False)
    snapshot = list_build(release=sc19, kind="ten-node")
    assert ranked(snapshot) == [] and snapshot.left_out == []


def test_invalid_runs_are_only_on_the_historical_list(sc19):
    invalid = submission(sc19, system("Broken"), 99.0, valid=False)
    assert ranked(list_build(release=sc19, kind="io500")) == []
    assert ranked(list_build(release=sc19, kind="historical")) == [(1, invalid.pk)]


def test_split_lists_hold_earlier_releases_on_the_research_side(sc19, isc23):
    old = submission(sc19, system("Old"), 8.0)
    new = submission(isc23, system("New"), 6.0, nodes=10)
    assert ranked(list_build(release=isc23, kind="research")) == [(1, old.pk), (2, new.pk)]
    assert ranked(list_build(release=isc23, kind="ten-node-research")) == [(1, new.pk)]
    assert ranked(list_build(release=isc23, kind="production")) == []


def test_building_a_kind_the_release_does_not_publish_is_refused(sc19):
    with pytest.raises(ListBuildError, match="SC19 publishes no Production list"):
        list_build(release=sc19, kind="production")
    with pytest.raises(ListBuildError, match='"weekly" is not a list kind'):
        list_build(release=sc19, kind="weekly")


def test_rebuilding_replaces_the_draft_instead_of_adding_versions(sc19):
    submission(sc19, system("A"), 1.0)
    first = list_build(release=sc19, kind="io500")
    later = submission(sc19, system("B"), 2.0)
    second = list_build(release=sc19, kind="io500")
    assert second.pk == first.pk and second.version == 1
    assert ranked(second)[0] == (1, later.pk)


def test_a_published_list_is_frozen(sc19):
    submission(sc19, system("A"), 1.0)
    snapshot = list_publish(snapshot=list_build(release=sc19, kind="io500"))
    assert snapshot.status == ListSnapshot.Status.PUBLISHED and snapshot.published_at is not None
    entry = snapshot.entries.get()
    entry.score = 1000.0
    with pytest.raises(FrozenSnapshotError):
        entry.save()
    with pytest.raises(FrozenSnapshotError):
        entry.delete()
    snapshot.description = "rewritten"
    with pytest.raises(FrozenSnapshotError):
        snapshot.save()
    with pytest.raises(FrozenSnapshotError):
        ListSnapshot.objects.get(pk=snapshot.pk).delete()
    assert ListEntry.objects.get(pk=entry.pk).score == 1.0


def test_publishing_twice_is_refused(sc19):
    snapshot = list_publish(snapshot=list_build(release=sc19, kind="io500"))
    with pytest.raises(ListPublishError, match="already published"):
        list_publish(snapshot=snapshot)


def test_a_correction_is_a_new_version_with_a_reason_and_the_old_one_stays(sc19):
    stored = submission(sc19, system("A"), 1.0)
    original = list_publish(snapshot=list_build(release=sc19, kind="io500"))
    stored.score = 2.0
    stored.save()
    draft = list_build(release=sc19, kind="io500")
    assert draft.version == 2
    with pytest.raises(ListPublishError, match="say why"):
        list_publish(snapshot=draft)
    corrected = list_publish(snapshot=draft, reason="mdtest score fixed")
    original.refresh_from_db()
    assert (original.status, corrected.status) == (
        ListSnapshot.Status.SUPERSEDED,
        ListSnapshot.Status.PUBLISHED,
    )
    assert corrected.label == "SC19*" and corrected.correction_reason == "mdtest score fixed"
    assert original.entries.get().score == 1.0
    assert corrected.entries.get().score == 2.0


def test_build_list_command_prints_the_draft(sc19):
    submission(sc19, system("Printed", "Somewhere"), 12.5)
    output = io.StringIO()
    call_command("build_list", "SC19", "io500", stdout=output)
    assert "SC19 IO500 list, version 1 (draft): 1 entries." in output.getvalue()
    assert "Printed / Somewhere / Lustre" in output.getvalue()


def test_build_list_command_explains_unknown_releases_and_kinds(sc19):
    with pytest.raises(CommandError, match='There is no release "sc42"'):
        call_command("build_list", "sc42", "io500")
    with pytest.raises(CommandError, match="publishes no Research list"):
        call_command("build_list", "sc19", "research")


def test_the_committee_publishes_over_a_reconstructed_list_without_calling_it_a_correction(imported_history):
    from registry.lists.services import REPLACES_RECONSTRUCTED, list_build, list_publish
    from registry.models import ListSnapshot, Release

    # SC24: a release with public runs of its own (without the raw folders no run belongs to ISC25,
    # and no reconstructed list carries its name).
    release = Release.objects.get(name="SC24")
    reconstructed = ListSnapshot.objects.get(release=release, kind="full")
    assert reconstructed.provenance == ListSnapshot.Provenance.RECONSTRUCTED
    published = list_publish(snapshot=list_build(release=release, kind="full"))
    assert published.provenance == ListSnapshot.Provenance.PUBLISHED_HERE
    assert published.correction_reason == REPLACES_RECONSTRUCTED
    reconstructed.refresh_from_db()
    assert reconstructed.status == ListSnapshot.Status.SUPERSEDED


class TestEmbargoedReleases:
    @pytest.fixture
    def embargoed(self, sc19: Release) -> Release:
        # An earlier release whose lists are still under embargo, and a later one built over it.
        sc19.embargo_end = timezone.now() + datetime.timedelta(days=3)
        sc19.save()
        return sc19

    @pytest.fixture
    def isc20(self, sc19: Release) -> Release:
        return Release.objects.create(
            name="ISC20", slug="isc20", publication_date=datetime.date(2020, 6, 20), rules_from=sc19,
            list_kinds=["io500", "ten-node", "full", "historical"],
        )  # fmt: skip

    def test_a_later_release_s_list_leaves_out_and_records_the_embargoed_runs(self, embargoed, isc20):
        held = submission(embargoed, system("Hidden"), 90.0)
        kept = submission(isc20, system("Shown"), 10.0)
        for kind in ("io500", "full", "historical"):
            snapshot = list_build(release=isc20, kind=kind)
            assert ranked(snapshot) == [(1, kept.pk)]
            assert [(row["submission_id"], row["release"], row["rule"]) for row in snapshot.left_out] == [
                (held.pk, "SC19", "embargo")
            ]
            assert "SC19 is under embargo until" in snapshot.left_out[0]["reason"]
        assert ranked(list_build(release=embargoed, kind="io500")) == [(1, held.pk)]

    def test_the_run_enters_the_later_list_once_the_embargo_has_ended(self, embargoed, isc20):
        held = submission(embargoed, system("Hidden"), 90.0)
        embargoed.embargo_end = timezone.now() - datetime.timedelta(seconds=1)
        embargoed.save()
        snapshot = list_build(release=isc20, kind="historical")
        assert ranked(snapshot) == [(1, held.pk)]
        assert snapshot.left_out == []

    def test_publishing_refuses_a_draft_built_before_an_embargo_was_set(self, sc19, isc20):
        held = submission(sc19, system("Hidden"), 90.0)
        draft = list_build(release=isc20, kind="historical")
        assert ranked(draft) == [(1, held.pk)]
        sc19.embargo_end = timezone.now() + datetime.timedelta(days=1)
        sc19.save()
        with pytest.raises(
            ListPublishError, match=f"holds submission\\(s\\) {held.pk} of a release still under"
        ):
            list_publish(snapshot=draft)
        assert ranked(list_publish(snapshot=list_build(release=isc20, kind="historical"))) == []

    def test_build_list_command_says_which_runs_the_embargo_left_out(self, embargoed, isc20):
        held = submission(embargoed, system("Hidden"), 90.0)
        output = io.StringIO()
        call_command("build_list", "isc20", "historical", stdout=output)
        assert "Left out under another release's embargo: 1." in output.getvalue()
        assert f"submission {held.pk:<6}" in output.getvalue()
        assert "SC19 is under embargo until" in output.getvalue()
