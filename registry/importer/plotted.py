"""io500.org's `io500` lists of SC21 .. SC24, read back from its public plots, as recorded snapshots.

lists/plotted_io500_lists.csv holds the list of every release SC17 .. SC24 in rank order with all
values (the shared data's README says how it was read). SC17 .. ISC21 are imported from the SQL
tables, which name io500.org's submission ids; this module adds the releases those tables lack.

Every entry is joined to the run it came from when the values say so: a run already in the
registry (an io500.org row of the SQL tables, a raw folder re-verified here, or an entry recorded
from an earlier plotted list, since the lists are cumulative) whose score and phase values agree
within the plots' precision. More than one such run is listed as ambiguous, never guessed; no
such run makes a recorded submission with the plotted values.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from registry.importer.lists import published_at
from registry.importer.source import IO500Data, read_csv
from registry.models import ListEntry, ListKind, ListSnapshot, Release
from scoring.model import SCORED_PHASES
from submissions.models import Archive, Institution, ReviewState, StorageSystem, Submission, SystemDescription
from submissions.selectors import phase_values

PLOTTED_FILE = "plotted_io500_lists.csv"
# The plotted CSV's phase columns, in the order of scoring.model.SCORED_PHASES' names.
PHASE_COLUMNS = {phase: phase.replace("-", "_") for phase in SCORED_PHASES}
PLOTTED_SOURCE = (
    "io500.org's own download of this list (io500.org/download/{label}/io500) as its public plots "
    "showed it: IO500/webpage webroot/plots/plotly/io500-*.html at commit e9c2a695e479 (2025-02-05), "
    "read back into lists/plotted_io500_lists.csv of the shared IO500 data. Every value is io500.org's; "
    "entries whose run is in the public raw data link to it."
)
RESEARCH_NOTE = (
    " From ISC23 on io500.org publishes this list type (`io500`) as its Research List, which also "
    "holds every valid IO500 submission made before the Research List was created."
)
# The score of one run is the same in every plot (to float32 precision), but the plots that were
# read back carry the phase values, BW and MD with noise: up to 0.3 % on the smallest phase values
# of one run from one release's plot to the next. The score identifies a run; the other values
# only confirm it, so they get a tolerance far above that noise and far below what separates runs.
SCORE_TOLERANCE = 2e-5
VALUE_TOLERANCE = 2e-2
# The oldest plots printed scores rounded to two decimals.
ROUNDING_TOLERANCE = 0.0051


@dataclass(frozen=True)
class PlottedRow:
    release: str
    position: int
    institution: str
    system: str
    filesystem: str
    score: float
    bw: float | None
    md: float | None
    phases: dict[str, float]

    def recorded(self) -> dict[str, Any]:
        return {
            "institution": self.institution,
            "system": self.system,
            "filesystem": self.filesystem,
            "position": self.position,
            "phases": self.phases,
        }


@dataclass
class ReleaseLink:
    """What the import says about one plotted list."""

    release: str
    kind: str
    entries: int = 0
    linked_raw: int = 0
    linked_recorded_row: int = 0
    carried_over: int = 0
    new_recorded: int = 0
    ambiguous: list[str] = field(default_factory=list)
    skipped: str = ""


@dataclass(frozen=True)
class KnownRun:
    submission_id: int
    score: float
    bw: float | None
    md: float | None
    phases: dict[str, float]
    names: tuple[str, str]
    has_raw: bool
    from_plot: bool


def _number(raw: str) -> float | None:
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_plotted(data: IO500Data) -> list[PlottedRow]:
    path = data.lists / PLOTTED_FILE
    if not path.is_file():
        return []
    rows = []
    for raw in read_csv(path):
        score = _number(raw["score"])
        if score is None:
            continue
        phases = {
            phase: value
            for phase, column in PHASE_COLUMNS.items()
            if (value := _number(raw[column])) is not None
        }
        rows.append(
            PlottedRow(
                release=raw["release"].strip(),
                position=int(raw["position"]),
                institution=raw["institution"].strip(),
                system=raw["system"].strip(),
                filesystem=raw["filesystem"].strip(),
                score=score,
                bw=_number(raw["bw"]),
                md=_number(raw["md"]),
                phases=phases,
            )
        )
    return rows


def agrees(plotted: float | None, known: float | None) -> bool:
    if plotted is None or known is None:
        return True
    scale = max(abs(plotted), abs(known))
    return abs(plotted - known) <= max(VALUE_TOLERANCE * scale, ROUNDING_TOLERANCE)


def score_agrees(plotted: float, known: float) -> bool:
    scale = max(abs(plotted), abs(known))
    return abs(plotted - known) <= max(SCORE_TOLERANCE * scale, ROUNDING_TOLERANCE)


def same_run(row: PlottedRow, run: KnownRun) -> bool:
    if not score_agrees(row.score, run.score) or not agrees(row.bw, run.bw) or not agrees(row.md, run.md):
        return False
    shared = [phase for phase in row.phases if phase in run.phases]
    return all(agrees(row.phases[phase], run.phases[phase]) for phase in shared)


def normalised(name: str) -> str:
    return " ".join(name.lower().split())


def known_runs() -> list[KnownRun]:
    """Every scored run of the registry, with the values it is matched by (three queries)."""
    rows = list(
        Submission.objects.filter(
            score__isnull=False,
            status__in=(Submission.Status.VERIFIED, Submission.Status.INVALID, Submission.Status.RECORDED),
        ).values(
            "pk",
            "score",
            "bw",
            "md",
            "published_record",
            "storage_system__name",
            "storage_system__institution__name",
        )
    )
    with_raw = set(
        Archive.objects.filter(
            kind=Archive.Kind.RESULT, submission__in=[row["pk"] for row in rows]
        ).values_list("submission_id", flat=True)
    )
    phases = phase_values(submission_ids=[row["pk"] for row in rows])
    return [
        KnownRun(
            submission_id=row["pk"],
            score=row["score"] or 0.0,
            bw=row["bw"],
            md=row["md"],
            phases=phases.get(row["pk"], {}),
            names=(
                normalised(row["storage_system__institution__name"] or ""),
                normalised(row["storage_system__name"] or ""),
            ),
            has_raw=row["pk"] in with_raw,
            from_plot=isinstance(row["published_record"], dict)
            and row["published_record"].get("source") == PLOTTED_FILE,
        )
        for row in rows
    ]


def candidates_for(
    row: PlottedRow, runs: list[KnownRun], taken: set[int], previous_list: set[int]
) -> list[KnownRun]:
    found = [run for run in runs if run.submission_id not in taken and same_run(row, run)]
    if len(found) > 1:
        # io500.org kept a copy of a submission row per release; the cumulative list carries over
        # the one its previous list showed.
        carried = [run for run in found if run.submission_id in previous_list]
        found = carried if len(carried) == 1 else found
    if len(found) > 1:
        # One run reaches the registry twice when its raw folder is ingested next to its recorded
        # row; the re-verified copy is the evidence.
        named = [run for run in found if run.names == (normalised(row.institution), normalised(row.system))]
        found = named or found
    if len(found) > 1:
        raw = [run for run in found if run.has_raw]
        found = raw if len(raw) == 1 else found
    return found


def recorded_submission(row: PlottedRow, release: Release) -> Submission:
    """A run known only from io500.org's list: its published values, no raw files."""
    institution, _ = Institution.objects.get_or_create(name=row.institution)
    system, _ = StorageSystem.objects.get_or_create(
        name=row.system, institution=institution, filesystem_type=row.filesystem
    )
    record: dict[str, Any] = {
        "source": PLOTTED_FILE,
        "first_list": row.release,
        "position": row.position,
        "information_institution": row.institution,
        "information_system": row.system,
        "information_filesystem_type": row.filesystem,
        "io500_score": row.score,
        "io500_bw": row.bw,
        "io500_md": row.md,
    }
    record.update({PHASE_COLUMNS[phase]: value for phase, value in row.phases.items()})
    submission = Submission.objects.create(
        source=Submission.Source.IMPORT,
        release=release,
        storage_system=system,
        status=Submission.Status.RECORDED,
        progress=100,
        score=row.score,
        bw=row.bw,
        md=row.md,
        valid=True,
        published_record=record,
        review_state=ReviewState.PUBLISHED,
    )
    SystemDescription.objects.create(
        submission=submission,
        system_name=row.system,
        institution_name=row.institution,
        filesystem_type=row.filesystem,
        origin="io500.org's published list",
    )
    return submission


def plotted_kind(release: Release) -> str:
    """io500.org's `io500` type: the IO500 list until SC22, the Research List from ISC23 on."""
    return ListKind.RESEARCH.value if ListKind.RESEARCH.value in release.list_kinds else ListKind.IO500.value


def import_plotted(data: IO500Data, releases: dict[str, Release]) -> list[ReleaseLink]:
    """Create the plotted lists of the releases that have no list of that kind yet, oldest first."""
    by_release: dict[str, list[PlottedRow]] = defaultdict(list)
    for row in read_plotted(data):
        by_release[row.release].append(row)
    existing = set(ListSnapshot.objects.values_list("release__name", "kind"))
    ordered = sorted(
        (name for name in by_release if name in releases), key=lambda name: releases[name].publication_date
    )
    runs = known_runs()
    previous_list = previous_list_ids(releases[ordered[0]]) if ordered else set()
    first_listed: dict[int, Release] = {}
    report: list[ReleaseLink] = []
    for name in ordered:
        release = releases[name]
        kind = plotted_kind(release)
        link = ReleaseLink(release=name, kind=kind)
        report.append(link)
        if (name, kind) in existing:
            link.skipped = "already imported (from the SQL list tables or an earlier import)"
            previous_list = previous_list_ids(release, inclusive=True)
            continue
        rows = sorted(by_release[name], key=lambda row: row.position)
        snapshot = ListSnapshot.objects.create(
            release=release,
            kind=kind,
            version=1,
            label=name,
            status=ListSnapshot.Status.PUBLISHED,
            provenance=ListSnapshot.Provenance.RECORDED,
            source=PLOTTED_SOURCE.format(label=name) + (RESEARCH_NOTE if kind == ListKind.RESEARCH else ""),
            published_at=published_at(release.publication_date),
        )
        entries = []
        taken: set[int] = set()
        for row in rows:
            found = candidates_for(row, runs, taken, previous_list)
            match: dict[str, Any]
            if len(found) == 1:
                run = found[0]
                match = {"linked": "raw" if run.has_raw else ("plot" if run.from_plot else "record")}
                submission_id = run.submission_id
                if run.has_raw:
                    link.linked_raw += 1
                elif run.from_plot:
                    link.carried_over += 1
                else:
                    link.linked_recorded_row += 1
            else:
                created = recorded_submission(row, release)
                submission_id = created.pk
                runs.append(
                    KnownRun(
                        submission_id=created.pk,
                        score=row.score,
                        bw=row.bw,
                        md=row.md,
                        phases=row.phases,
                        names=(normalised(row.institution), normalised(row.system)),
                        has_raw=False,
                        from_plot=True,
                    )
                )
                link.new_recorded += 1
                match = {"linked": "none"}
                if found:
                    match = {"linked": "ambiguous", "candidates": sorted(run.submission_id for run in found)}
                    link.ambiguous.append(
                        f"{name} #{row.position} {row.institution} / {row.system} ({row.score:g}): "
                        f"submissions {', '.join(str(run.submission_id) for run in found)}"
                    )
            taken.add(submission_id)
            first_listed.setdefault(submission_id, release)
            entries.append(
                ListEntry(
                    snapshot=snapshot,
                    rank=row.position,
                    submission_id=submission_id,
                    score=row.score,
                    bw=row.bw,
                    md=row.md,
                    recorded={**row.recorded(), "match": match},
                )
            )
        # Entries are created while the snapshot is still being filled; freezing is its status.
        ListEntry.objects.bulk_create(entries)
        link.entries = len(entries)
        previous_list = taken
    assign_first_listing(first_listed)
    return report


def previous_list_ids(release: Release, *, inclusive: bool = False) -> set[int]:
    """The submissions of the newest `io500` / Research list before (or at) this release."""
    lineage = (ListKind.IO500.value, ListKind.RESEARCH.value)
    earlier = ListSnapshot.objects.filter(kind__in=lineage, status=ListSnapshot.Status.PUBLISHED)
    if inclusive:
        earlier = earlier.filter(release__publication_date__lte=release.publication_date)
    else:
        earlier = earlier.filter(release__publication_date__lt=release.publication_date)
    newest = earlier.order_by("-release__publication_date", "-version").first()
    if newest is None:
        return set()
    return set(newest.entries.values_list("submission_id", flat=True))


def assign_first_listing(first_listed: dict[int, Release]) -> int:
    """A raw run whose release was only inferred (run date, version, folder year) belongs to the
    first io500.org list that shows it: that is the release it was submitted to."""
    moved = 0
    inferred = Submission.objects.filter(pk__in=first_listed, published_record__has_key="source_path")
    for submission in inferred.select_related("release"):
        listed = first_listed[submission.pk]
        if submission.release_id != listed.pk:
            record = dict(submission.published_record)
            record["release_from"] = f"first listed by io500.org on the {listed.name} list"
            if submission.release is not None:
                record["release_inferred"] = submission.release.name
            submission.release = listed
            submission.published_record = record
            submission.save(update_fields=["release", "published_record", "updated_at"])
            moved += 1
    return moved
