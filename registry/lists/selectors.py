"""Reads for releases and lists. Every query here has a fixed count, whatever the number of rows."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import CharField, Count, F, JSONField, Min, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.fields.json import KT, KeyTextTransform
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone

from registry.core.messaging import OFFICIAL_PROVENANCES
from registry.core.public_cache import seconds_until
from registry.lists.bof import BofFacts, bof_facts
from registry.lists.facet_names import Kind, canonical
from registry.lists.membership import CARRIED_KINDS, BaseList, Candidate, lineage
from registry.models import (
    KIND_ORDER,
    RANKED_KIND_VALUES,
    ListEntry,
    ListKind,
    ListSnapshot,
    RecordedListChange,
    Release,
    kind_label,
)
from scoring.rules.params import is_bundled_runner
from submissions.evidence_basis import gap_covered
from submissions.models import (
    Archive,
    ListCategory,
    Reproducibility,
    Result,
    ReviewEvent,
    ReviewState,
    Submission,
)

VISIBLE_STATUSES = (ListSnapshot.Status.PUBLISHED, ListSnapshot.Status.SUPERSEDED)
HOME_KINDS = (ListKind.PRODUCTION, ListKind.RESEARCH, ListKind.IO500)
# Uploads the committee accepted (or that are on a published list already) may be listed.
LISTABLE_STATES = (ReviewState.ACCEPTED, ReviewState.PUBLISHED)


def visible_snapshots() -> QuerySet[ListSnapshot]:
    """Published (or superseded) lists whose release is out of embargo: a list frozen before its BoF
    stays hidden until the release's embargo ends."""
    out_of_embargo = Q(release__embargo_end__isnull=True) | Q(release__embargo_end__lte=timezone.now())
    return ListSnapshot.objects.filter(out_of_embargo, status__in=VISIBLE_STATUSES)


def release_current_lists(*, release: Release) -> list[ListSnapshot]:
    """The current published version of each of the release's visible lists, in tab order."""
    position = {kind.value: index for index, kind in enumerate(KIND_ORDER)}
    found = visible_snapshots().filter(release=release, status=ListSnapshot.Status.PUBLISHED)
    return sorted(
        found.select_related("release"), key=lambda s: (position.get(s.kind, len(position)), -s.version)
    )


def release_list() -> QuerySet[Release]:
    return Release.objects.order_by("-publication_date")


def release_get(*, slug: str) -> Release | None:
    return Release.objects.filter(slug=slug.lower()).first()


def snapshot_versions(*, release: Release, kind: str) -> list[ListSnapshot]:
    """The visible versions of one list, newest first (SC18* before SC18)."""
    return list(
        visible_snapshots().filter(release=release, kind=kind).select_related("release").order_by("-version")
    )


def snapshot_current(*, release: Release, kind: str, version: int | None = None) -> ListSnapshot | None:
    versions = snapshot_versions(release=release, kind=kind)
    if version is not None:
        return next((snapshot for snapshot in versions if snapshot.version == version), None)
    published = [snapshot for snapshot in versions if snapshot.status == ListSnapshot.Status.PUBLISHED]
    candidates = published or versions
    return candidates[0] if candidates else None


def release_published_kinds(*, release: Release) -> list[str]:
    """The kinds with a visible list in this release, in tab order."""
    kinds = set(visible_snapshots().filter(release=release).values_list("kind", flat=True))
    return [kind.value for kind in KIND_ORDER if kind.value in kinds]


def next_embargo_end() -> datetime.datetime | None:
    """When the next release leaves its embargo; None when none is under embargo."""
    upcoming: datetime.datetime | None = Release.objects.filter(embargo_end__gt=timezone.now()).aggregate(
        first=Min("embargo_end")
    )["first"]
    return upcoming


def seconds_until_next_embargo_end(*, cap: int) -> int:
    """Seconds until the next release leaves its embargo (at most `cap`): what home may be cached for."""
    return seconds_until(next_embargo_end(), cap=cap)


def snapshot_home() -> ListSnapshot | None:
    """The newest official ranked list: of the newest release that has one, its Production list,
    else its Research list, else its IO500 list. Reconstructed lists are never the home list."""
    official = (
        visible_snapshots()
        .filter(kind__in=HOME_KINDS, status=ListSnapshot.Status.PUBLISHED)
        .exclude(provenance=ListSnapshot.Provenance.RECONSTRUCTED)
        .select_related("release")
    )
    newest = official.order_by("-release__publication_date").first()
    if newest is None:
        return None
    same_release = {snapshot.kind: snapshot for snapshot in official.filter(release=newest.release)}
    # The newest version of each kind is the one published (older ones are superseded).
    return next(same_release[kind] for kind in HOME_KINDS if kind in same_release)


def releases_after(release: Release) -> list[Release]:
    """Past releases newer than `release` (home says what is known of them)."""
    return list(
        Release.objects.filter(
            publication_date__gt=release.publication_date, publication_date__lte=timezone.localdate()
        ).order_by("publication_date")
    )


def releases_open() -> QuerySet[Release]:
    return Release.objects.open_for_submissions()


def recorded_or(name: str, field: str) -> Coalesce:
    """A list entry's name as its list printed it (recorded lists), else the storage system's."""
    return Coalesce(NullIf(KT(f"recorded__{name}"), Value("")), F(field), output_field=CharField())


def _primary_result() -> QuerySet[Result]:
    return Result.objects.filter(submission=OuterRef("submission_id"), is_primary=True)


def list_entries(*, snapshot: ListSnapshot) -> QuerySet[ListEntry]:
    """The rows of one list with everything a list page shows, in two joins-only queries at most."""
    return (
        ListEntry.objects.filter(snapshot=snapshot)
        .select_related(
            "submission__release",
            "submission__storage_system__institution",
            "submission__system",
            "submission__submitter",
        )
        .annotate(
            institution_name=recorded_or("institution", "submission__storage_system__institution__name"),
            system_name=recorded_or("system", "submission__storage_system__name"),
            filesystem=recorded_or("filesystem", "submission__storage_system__filesystem_type"),
            # The vendor this submission declared, else the one first recorded for its system.
            vendor=Coalesce(
                NullIf("submission__system__storage_vendor", Value("")), "submission__storage_system__vendor"
            ),
            client_nodes=F("submission__system__client_nodes"),
            total_procs=F("submission__system__client_nodes") * F("submission__system__procs_per_node"),
            # ... and what the run's own outputs print (None: no output says it, or no raw run).
            run_nodes=Subquery(_primary_result().values("nodes")[:1]),
            run_tasks=Subquery(_primary_result().values("procs")[:1]),
            first_release_date=F("submission__release__publication_date"),
            institution_type=institution_type(),
        )
        .order_by("rank")
    )


# Where a system description may name the kind of institution (university, laboratory, company...):
# the registry's key and the IO500 questionnaire's prefixed spellings of it, as the submitter gave it.
INSTITUTION_TYPE_KEYS = ("institution_type", "io500_info_institution_type", "information_institution_type")


def institution_type() -> Coalesce:
    """The institution type a submission's system description states, else null (not known)."""
    stated = [
        NullIf(KeyTextTransform(key, "submission__system__data"), Value("")) for key in INSTITUTION_TYPE_KEYS
    ]
    return Coalesce(*stated, output_field=CharField())


def facet_counts(kind: Kind, values: Iterable[str | None]) -> list[dict[str, Any]]:
    """One option per canonical name (registry.lists.facet_names) with its number of entries, in
    name order: "BeeGFS" and "beegfs" are one option, counting both."""
    counts: Counter[str] = Counter()
    for value in values:
        name = canonical(kind, value)
        if name:
            counts[name] += 1
    return [{"name": name, "count": counts[name]} for name in sorted(counts, key=str.lower)]


def list_facets(*, snapshot: ListSnapshot) -> dict[str, list[Any]]:
    """The file systems and vendors (by canonical name, with entry counts), years, reproducibility
    levels and institution types present in one list, for the filter drop-downs."""
    # Annotated names: passed as a tuple so the type checker does not look for them on the model.
    fields = (
        "filesystem",
        "vendor",
        "submission__release__publication_date__year",
        "submission__reproducibility",
        "institution_type",
    )
    rows = list(list_entries(snapshot=snapshot).values_list(*fields))
    years: set[str] = set()
    levels: set[str] = set()
    institution_types: set[str] = set()
    for _filesystem, _vendor, year, level, kind in rows:
        if year:
            years.add(str(year))
        if level:
            levels.add(level)
        if kind and kind.strip():
            institution_types.add(kind.strip())
    return {
        "filesystems": facet_counts("filesystem", (row[0] for row in rows)),
        "vendors": facet_counts("vendor", (row[1] for row in rows)),
        "years": sorted(years),
        "reproducibility": [
            (str(value), str(label)) for value, label in Reproducibility.choices if value in levels
        ],
        "institution_types": sorted(institution_types, key=str.lower),
    }


def _gap_decisions(submission_ids: list[int]) -> dict[int, list[tuple[list[str], str]]]:
    """The committee's decisions naming a gap in the evidence, per submission (one query, none when
    no candidate has a gap)."""
    decisions: dict[int, list[tuple[list[str], str]]] = {}
    if not submission_ids:
        return decisions
    rows = (
        ReviewEvent.objects.filter(submission_id__in=submission_ids)
        .exclude(gap_phases=[])
        .values_list("submission_id", "gap_phases", "gap_archive_sha256")
    )
    for submission_id, phases, sha in rows:
        decisions.setdefault(submission_id, []).append((list(phases or ()), sha))
    return decisions


def _ten_node_asked(row: Mapping[str, Any]) -> bool:
    if row["source"] == Submission.Source.UPLOAD:
        return bool(row["ten_node"])
    if row["include_flag"] is None:  # no io500.org row: a raw folder of IO500/submission-data only
        return True
    return bool(row["declared_nodes"] == 10)


def list_candidates(*, release: Release) -> list[Candidate]:
    """Every scored submission up to the release, shaped for the membership rules (one query, and
    one more for the committee's gap decisions when some run rests on summaries alone)."""
    primary = Result.objects.filter(submission=OuterRef("pk"), is_primary=True)
    primary_nodes = primary.values("nodes")[:1]
    primary_version = primary.values("version")[:1]
    primary_gap = primary.values("summary_only_phases")[:1]
    result_archive = Archive.objects.filter(submission=OuterRef("pk"), kind=Archive.Kind.RESULT)
    rows = (
        Submission.objects.filter(
            release__publication_date__lte=release.publication_date,
            score__isnull=False,
            status__in=(Submission.Status.VERIFIED, Submission.Status.INVALID, Submission.Status.RECORDED),
        )
        .annotate(
            release_date=F("release__publication_date"),
            embargo_end=F("release__embargo_end"),
            # The 10-node rule reads the run's own outputs (Result.nodes, the tools' printed node
            # counts), never the declared count, which only says what the submitter asked for.
            nodes=Subquery(primary_nodes),
            declared_nodes=F("system__client_nodes"),
            include_flag=KT("published_record__include_in_io500"),
            list_name=KT("published_record__information_list_name"),
            removed_by=KT("published_record__removed_by_sql_file"),
            run_version=Subquery(primary_version),
            summary_only=Subquery(primary_gap, output_field=JSONField()),
            archive_sha256=Subquery(result_archive.values("sha256")[:1]),
        )
        .values(
            "id",
            "storage_system_id",
            "release_id",
            "embargo_end",
            "release_date",
            "score",
            "bw",
            "md",
            "valid",
            "nodes",
            "declared_nodes",
            "ten_node",
            "include_flag",
            "list_name",
            "removed_by",
            "source",
            "review_state",
            "category",
            "reproducibility",
            "run_version",
            "summary_only",
            "archive_sha256",
        )
    )
    found = list(rows)
    decisions = _gap_decisions([row["id"] for row in found if row["summary_only"]])
    return [
        Candidate(
            submission_id=row["id"],
            storage_system_id=row["storage_system_id"],
            release_date=row["release_date"],
            release_id=row["release_id"],
            embargo_end=row["embargo_end"],
            score=row["score"],
            bw=row["bw"],
            md=row["md"],
            valid=row["valid"],
            client_nodes=row["nodes"],
            declared_nodes=row["declared_nodes"],
            # An upload asks for the 10-node lists at upload (the committee may change it); imported
            # io500.org rows asked the way io500.org decided it, by 10 declared client nodes; a raw
            # folder without an io500.org row asked nothing we know of, so its outputs alone decide.
            ten_node_asked=_ten_node_asked(row),
            committee_accepted=(
                row["source"] == Submission.Source.UPLOAD and row["review_state"] in LISTABLE_STATES
            ),
            # Imported rows say whether the submitter opted in to the ranked lists; an upload for a
            # release is that opt-in.
            opted_in=row["include_flag"] != "0",
            # The committee's decisions; imported history carries none, so it fills the Research side.
            production=row["category"] == ListCategory.PRODUCTION,
            reproducibility=row["reproducibility"],
            reviewed=row["source"] == Submission.Source.IMPORT or row["review_state"] in LISTABLE_STATES,
            scc=(row["list_name"] or "").lower().startswith("scc"),
            withdrawn=bool(row["removed_by"]),
            bundled_runner=is_bundled_runner(row["run_version"]),
            summary_only=tuple(row["summary_only"] or ()),
            gap_accepted=gap_covered(
                row["summary_only"] or (), row["archive_sha256"] or "", decisions.get(row["id"], ())
            ),
        )
        for row in found
    ]


def base_snapshot(*, release: Release, kind: str) -> ListSnapshot | None:
    """The list a new list of `kind` for `release` carries over: the newest published list of its
    lineage (the Research lists continue the IO500 lists) of an earlier release that the release's
    rules still accept (`rules_from`: SC19 restarted the lists); for a correction, the release's own
    published version it corrects. Lists the registry reconstructed from the public data are never
    carried: only a list a committee published is."""
    # A correction carries over the version it corrects: the release's own published list.
    corrected = (
        ListSnapshot.objects.filter(release=release, kind=kind, status=ListSnapshot.Status.PUBLISHED)
        .exclude(provenance=ListSnapshot.Provenance.RECONSTRUCTED)
        .select_related("release", "carried_from__release")
        .order_by("-version")
        .first()
    )
    if corrected is not None:
        return corrected
    kinds = lineage(kind)
    rules_from = release.rules_from or release
    found = list(
        ListSnapshot.objects.filter(
            kind__in=kinds,
            status=ListSnapshot.Status.PUBLISHED,
            release__publication_date__lt=release.publication_date,
            release__publication_date__gte=rules_from.publication_date,
        )
        .exclude(provenance=ListSnapshot.Provenance.RECONSTRUCTED)
        .select_related("release")
        .order_by("-release__publication_date")
    )
    if not found:
        return None
    newest = found[0].release_id
    same_release = [snapshot for snapshot in found if snapshot.release_id == newest]
    return min(same_release, key=lambda snapshot: kinds.index(snapshot.kind))


def base_list(*, release: Release, kind: str) -> BaseList | None:
    """The entries of `base_snapshot`, shaped as carried candidates with the values they were listed
    with (one query and one for the snapshot)."""
    if kind not in CARRIED_KINDS:
        return None
    snapshot = base_snapshot(release=release, kind=kind)
    if snapshot is None:
        return None
    rows = (
        ListEntry.objects.filter(snapshot=snapshot)
        .order_by("rank")
        .values(
            "rank",
            "score",
            "bw",
            "md",
            "submission_id",
            "submission__storage_system_id",
            "submission__release_id",
            "submission__release__publication_date",
            "submission__release__embargo_end",
            "submission__valid",
            "submission__score",
            "submission__bw",
            "submission__md",
        )
    )
    correction = snapshot.release_id == release.pk

    def current(row: Mapping[str, Any], name: str) -> Any:
        # A correction keeps the entries of earlier releases as they were listed, and takes the current
        # values of its own release's runs (a rescoring is what a correction may fix).
        own = row["submission__release_id"] == release.pk
        if correction and own and row[f"submission__{name}"] is not None:
            return row[f"submission__{name}"]
        return row[name]

    entries = tuple(
        Candidate(
            submission_id=row["submission_id"],
            storage_system_id=row["submission__storage_system_id"],
            release_date=row["submission__release__publication_date"],
            release_id=row["submission__release_id"],
            embargo_end=row["submission__release__embargo_end"],
            score=current(row, "score"),
            bw=current(row, "bw"),
            md=current(row, "md"),
            valid=row["submission__valid"],
            client_nodes=None,
            carried_rank=row["rank"],
        )
        for row in rows
    )
    since = snapshot.release.publication_date
    if correction:
        # A correction takes, beside the version it corrects, the runs that version could take: those
        # accepted since the list it carried over itself (every accepted run when it carried none).
        # A correction of a correction: back to the release's first version, whose base is the list
        # of an earlier release (or none).
        origin = snapshot
        while origin.carried_from is not None and origin.carried_from.release_id == release.pk:
            origin = ListSnapshot.objects.select_related("carried_from__release").get(
                pk=origin.carried_from.pk
            )
        since = (
            origin.carried_from.release.publication_date
            if origin.carried_from is not None
            else datetime.date.min
        )
    return BaseList(
        entries=entries,
        since=since,
        snapshot_id=snapshot.pk,
        label=str(snapshot),
    )


def search_q(term: str) -> Q:
    query = Q()
    for field in ("system_name", "institution_name", "vendor", "filesystem"):
        query |= Q(**{f"{field}__icontains": term})
    return query


def recorded_list_changes(*, release: Release, kind: str) -> list[RecordedListChange]:
    """What public SQL patches of io500.org say of one list (often a list not public otherwise)."""
    return list(RecordedListChange.objects.filter(release=release, kind=kind).order_by("committed_on", "pk"))


def release_bof_facts(*, release: Release) -> BofFacts | None:
    """What the release's BoF slides say of its lists (counts, awarded systems), when recorded."""
    return bof_facts().get(release.name)


def list_entry_get(*, release_slug: str, kind: str, version: int, rank: int) -> ListEntry | None:
    """One entry of a visible list, by the parts of its citable id (registry.lists.complete)."""
    return (
        ListEntry.objects.filter(
            snapshot__in=visible_snapshots(),
            snapshot__release__slug=release_slug,
            snapshot__kind=kind,
            snapshot__version=version,
            rank=rank,
        )
        .select_related("snapshot__release")
        .first()
    )


# The columns of a list snapshot that only its charts and its page's texts read.
SNAPSHOT_BULK_FIELDS = (
    "chart_points",
    "chart_digest",
    "left_out",
    "description",
    "correction_reason",
    "source",
)


def submission_placements(*, submission_id: int) -> list[ListEntry]:
    """The entries of a submission on lists anyone may read: oldest release first, then in tab order
    and version (one query)."""
    position = {kind.value: index for index, kind in enumerate(KIND_ORDER)}
    entries = (
        ListEntry.objects.filter(submission_id=submission_id, snapshot__in=visible_snapshots())
        .select_related("snapshot__release")
        # A run stands on twenty lists and more; each list's chart data (about 10 kB, JSON decoded
        # on load) is no part of a placement: 2.7 against 4.3 ms per submission page.
        .defer(*(f"snapshot__{name}" for name in SNAPSHOT_BULK_FIELDS))
    )
    return sorted(
        entries,
        key=lambda entry: (
            entry.snapshot.release.publication_date,
            position.get(entry.snapshot.kind, len(position)),
            entry.snapshot.version,
        ),
    )


def list_verdicts(*, snapshot: ListSnapshot) -> list[dict[str, object]]:
    """How many entries of a list have each verdict and reproducibility level (one query)."""
    rows = (
        ListEntry.objects.filter(snapshot=snapshot)
        .values(
            verdict=F("submission__status"),
            reproducibility=F("submission__reproducibility"),
            source=F("submission__source"),
        )
        .annotate(count=Count("id"))
        .order_by("verdict", "reproducibility", "source")
    )
    return [dict(row) for row in rows]


def submission_recorded_scores(*, submission_id: int) -> list[dict[str, Any]]:
    """The scores io500.org published for this submission on its lists (recorded lists anyone may
    read), one per distinct value with the first list that printed it, oldest first (one query)."""
    rows = (
        ListEntry.objects.filter(
            submission_id=submission_id,
            snapshot__in=visible_snapshots(),
            snapshot__provenance=ListSnapshot.Provenance.RECORDED,
        )
        .order_by("snapshot__release__publication_date", "snapshot__kind", "snapshot__version")
        .values("score", "snapshot__kind", release=F("snapshot__release__name"))
    )
    seen: dict[float, dict[str, Any]] = {}
    for row in rows:
        if row["score"] not in seen:
            seen[row["score"]] = {
                "score": row["score"],
                "list": f"{row['release']} {ListKind(row['snapshot__kind']).label}",
            }
    return list(seen.values())


def submissions_ranked_lists(*, submission_ids: list[int]) -> dict[int, set[tuple[str, str]]]:
    """The ranked IO500 lists (release name, kind label) anyone may read that each submission is on:
    official lists only (a reconstructed list is none), every version (one query)."""
    found: dict[int, set[tuple[str, str]]] = {pk: set() for pk in submission_ids}
    rows = ListEntry.objects.filter(
        submission_id__in=submission_ids,
        snapshot__in=visible_snapshots(),
        snapshot__kind__in=RANKED_KIND_VALUES,
        snapshot__provenance__in=OFFICIAL_PROVENANCES,
    ).values_list("submission_id", "snapshot__release__name", "snapshot__kind")
    for pk, release, kind in rows:
        found[pk].add((release, kind_label(kind)))
    return found
