"""How to cite a result or a list of the registry, as text and as BibTeX.

A citation names what the IO500 Messaging Policy asks a quote to name (the list, the BoF, the precise
rank, "verified" or "unverified"; frontend/templates/frontend/_messaging_policy.html quotes it), plus
what makes it traceable: the permalink, the list's version and citable entry id, the registry's
verdict on the run, the committee's reproducibility level and the date it was retrieved.

The retrieval date is today's (UTC): pages that show a citation are cached until the next UTC
midnight at most (registry.core.public_cache.seconds_until_next_day).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from registry.core.messaging import (
    UNVERIFIED,
    VERIFIED,
    is_official_provenance,
    list_messaging_status,
    messaging_status,
)
from registry.lists.permalinks import list_entry_id, list_permalink, submission_permalink
from registry.lists.rows import reproducibility_shown
from registry.models import RANKED_KIND_VALUES, ListEntry, ListSnapshot, kind_label
from submissions.evidence_basis import submission_basis
from submissions.models import Submission

DEPOSITS_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "io500_list_dois.json"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
STATUS_LABELS = {str(value): str(label) for value, label in Submission.Status.choices}
# What the registry's verdict on a run means, for readers who meet it in a citation.
VERDICT_MEANINGS: dict[str, str] = {
    Submission.Status.VERIFIED: (
        "checked here: its values recomputed by this registry from the run's files (what from: the "
        "next line says); not the Messaging Policy's “verified”"
    ),
    Submission.Status.INVALID: "the run breaks an IO500 run rule (its raw files, or io500.org's status)",
    Submission.Status.RECORDED: "io500.org's published values; the raw files are not public",
}
# BibTeX's special characters, each written so that it prints as itself.
_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def bibtex_escape(text: str) -> str:
    """`text` as a BibTeX field prints it, whatever characters a submitter typed."""
    return "".join(_BIBTEX_ESCAPES.get(character, character) for character in text)


def bibtex_entry(key: str, fields: list[tuple[str, str]]) -> str:
    """A @misc entry; values are given ready (escaped, braced or a month macro)."""
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@misc{{{key},\n{body}\n}}"


def retrieval_date() -> datetime.date:
    return timezone.now().astimezone(datetime.UTC).date()


@dataclass(frozen=True)
class ListDeposit:
    """A dataset io500.org deposited for a release's lists (fixtures/io500_list_dois.json)."""

    title: str
    doi: str

    @property
    def url(self) -> str:
        return f"https://doi.org/{self.doi}"


@lru_cache(maxsize=1)
def _deposits() -> dict[str, dict[str, Any]]:
    releases: dict[str, dict[str, Any]] = json.loads(DEPOSITS_FIXTURE.read_text())["releases"]
    return releases


def list_deposit(snapshot: ListSnapshot) -> ListDeposit | None:
    """io500.org's own archived dataset of this list, for the lists io500.org published."""
    if snapshot.provenance != ListSnapshot.Provenance.RECORDED:
        return None
    found = _deposits().get(snapshot.release.name)
    if found is None or snapshot.kind not in found.get("kinds", [snapshot.kind]):
        return None
    return ListDeposit(title=found["title"], doi=found["doi"])


@dataclass(frozen=True)
class Placement:
    """One published list a submission is on, and its rank there."""

    entry_id: str
    label: str
    kind: str
    kind_label: str
    version: int
    rank: int
    official: bool
    provenance_label: str
    list_url: str
    published_on: datetime.date | None
    superseded: bool

    @property
    def phrase(self) -> str:
        """The placement as the Messaging Policy asks it to be named: "#5 on the Production list at SC25"."""
        return f"#{self.rank} on the {self.kind_label} list at {self.label}"


def placement_of(entry: ListEntry) -> Placement:
    snapshot = entry.snapshot
    return Placement(
        entry_id=list_entry_id(
            release_slug=snapshot.release.slug, kind=snapshot.kind, version=snapshot.version, rank=entry.rank
        ),
        label=snapshot.label or snapshot.release.name,
        kind=snapshot.kind,
        kind_label=kind_label(snapshot.kind),
        version=snapshot.version,
        rank=entry.rank,
        official=is_official_provenance(snapshot.provenance),
        provenance_label=snapshot.get_provenance_display(),
        list_url=list_permalink(snapshot),
        published_on=snapshot.published_at.date() if snapshot.published_at else None,
        superseded=snapshot.status == ListSnapshot.Status.SUPERSEDED,
    )


@dataclass(frozen=True)
class Fact:
    label: str
    value: str
    link: str = ""


@dataclass(frozen=True)
class Citation:
    """What a page shows under "Cite this ...": the facts, the text and the BibTeX entry."""

    subject: str
    permalink: str
    retrieved: datetime.date
    facts: list[Fact]
    text: str
    bibtex: str
    messaging_term: str = ""
    placements: list[Placement] = field(default_factory=list)
    deposit: ListDeposit | None = None
    # Why there is no citation yet (a submission that is not public), else empty.
    unavailable: str = ""


def _date_fields(day: datetime.date | None) -> list[tuple[str, str]]:
    if day is None:
        return []
    return [("year", f"{{{day.year}}}"), ("month", MONTHS[day.month - 1])]


def _primary(placements: list[Placement]) -> Placement | None:
    """The placement a quote names first: the first official ranked list the result was on (its own
    BoF's, as a rule), else the first official list, else the first list at all."""
    ranked = [p for p in placements if p.official and p.kind in RANKED_KIND_VALUES]
    official = [p for p in placements if p.official]
    return next(iter(ranked or official or placements), None)


def _basis_words(submission: Submission) -> str:
    """The evidence level in words, with the phases no raw output backs (a quote should not call a
    value re-derived from raw files when only its summary backs it)."""
    shown = submission_basis(submission)
    if shown is None:
        return ""
    if not shown.summary_only:
        return shown.label
    return f"{shown.label} (no raw output of {', '.join(shown.summary_only)})"


def submission_title(submission: Submission) -> str:
    system = submission.storage_system
    if system is None:
        return f"IO500 submission {submission.pk}"
    names = f"{system.name} ({system.institution.name}, {system.filesystem_type})"
    return f"{names}: IO500 submission {submission.pk}"


def submission_citation(
    submission: Submission, placements: list[Placement], *, public: bool, retrieved: datetime.date
) -> Citation:
    permalink = submission_permalink(submission.pk)
    if not public:
        return Citation(
            subject="result",
            permalink=permalink,
            retrieved=retrieved,
            facts=[],
            text="",
            bibtex="",
            unavailable=(
                "This submission is not public yet, so it cannot be cited: it can be once the committee "
                "has published it on a list and its release's embargo has ended."
            ),
        )
    primary = _primary(placements)
    term = VERIFIED if any(p.official for p in placements) else UNVERIFIED
    verdict = STATUS_LABELS.get(submission.status, submission.status)
    _, reproducibility = reproducibility_shown(submission.reproducibility, submission.source)
    title = submission_title(submission)
    if primary is not None and primary.official:
        placed = f"{primary.phrase} ({term}; list entry {primary.entry_id})"
    elif primary is not None:
        placed = (
            f"{primary.phrase}, a list reconstructed by this registry that is no IO500 list ({term}; list "
            f"entry {primary.entry_id})"
        )
    else:
        placed = f"on no published IO500 list ({term})"
    text = (
        f"{title}, {placed}. Registry verdict: {verdict}; reproducibility: {reproducibility}. "
        f"IO500 results registry, {permalink}, retrieved {retrieved.isoformat()}."
    )
    note = f"{placed}. Registry verdict: {verdict}. Reproducibility: {reproducibility}."
    if submission.io500_id:
        note += f" io500.org submission {submission.io500_id}."
    # The institution that ran the system is who a result credits (io500.org's lists name it in
    # their "institution" column): a corporate author, braced twice so BibTeX styles print it whole
    # instead of splitting it into first and last names, and as the organization biblatex knows.
    institution = submission.storage_system.institution.name if submission.storage_system else ""
    credited = (
        [
            ("author", f"{{{{{bibtex_escape(institution)}}}}}"),
            ("organization", f"{{{bibtex_escape(institution)}}}"),
        ]
        if institution
        else []
    )
    day = (
        primary.published_on
        if primary
        else (submission.release.publication_date if submission.release else None)
    )
    bibtex = bibtex_entry(
        f"io500-submission-{submission.pk}",
        [
            *credited,
            ("title", f"{{{{{bibtex_escape(title)}}}}}"),
            ("howpublished", "{IO500 results registry}"),
            *_date_fields(day),
            ("url", f"{{{permalink}}}"),
            ("urldate", f"{{{retrieved.isoformat()}}}"),
            ("note", f"{{{bibtex_escape(note)} Retrieved {retrieved.isoformat()}.}}"),
        ],
    )
    facts = [
        Fact("Permalink", permalink, permalink),
        Fact("Institution", institution),
        Fact(
            "List and release",
            primary.phrase if primary else "on no published list",
            primary.list_url if primary else "",
        ),
        Fact("List entry", primary.entry_id if primary else ""),
        Fact("IO500 Messaging Policy term", messaging_status(on_official_list=term == VERIFIED).sentence),
        Fact("Registry verdict", f"{verdict}: {VERDICT_MEANINGS.get(submission.status, verdict.lower())}"),
        Fact("What the verdict rests on", _basis_words(submission)),
        Fact("Reproducibility level", reproducibility),
        Fact("Retrieved", retrieved.isoformat()),
    ]
    return Citation(
        subject="result",
        permalink=permalink,
        retrieved=retrieved,
        facts=facts,
        text=text,
        bibtex=bibtex,
        messaging_term=term,
        placements=placements,
    )


def verdict_summary(verdicts: list[dict[str, Any]]) -> tuple[str, str]:
    """The entries' verdicts and reproducibility levels, counted: ("Checked here 18, ...", "Undefined 22")."""
    by_verdict: dict[str, int] = {}
    by_level: dict[str, int] = {}
    for row in verdicts:
        verdict = STATUS_LABELS.get(str(row["verdict"]), str(row["verdict"]))
        _, level = reproducibility_shown(str(row["reproducibility"]), str(row.get("source", "")))
        by_verdict[verdict] = by_verdict.get(verdict, 0) + int(row["count"])
        by_level[level] = by_level.get(level, 0) + int(row["count"])
    return (
        ", ".join(f"{name} {count}" for name, count in sorted(by_verdict.items())),
        ", ".join(f"{name} {count}" for name, count in sorted(by_level.items())),
    )


def list_citation(
    snapshot: ListSnapshot, verdicts: list[dict[str, Any]], *, retrieved: datetime.date
) -> Citation:
    permalink = list_permalink(snapshot)
    label = snapshot.label or snapshot.release.name
    name = f"IO500 {label} {kind_label(snapshot.kind)} list"
    official = is_official_provenance(snapshot.provenance)
    published = snapshot.published_at.date() if snapshot.published_at else None
    provenance = str(snapshot.get_provenance_display())
    # Inside a sentence: "(recorded as io500.org published it)".
    standing = provenance[:1].lower() + provenance[1:]
    if not official:
        standing += "; not an official IO500 list"
    if snapshot.status == ListSnapshot.Status.SUPERSEDED:
        standing += "; superseded by a corrected version"
    when = f", published {published.isoformat()}" if published else ""
    deposit = list_deposit(snapshot)
    archived = f" io500.org's archive of the {snapshot.release.name} lists: {deposit.url}." if deposit else ""
    text = (
        f"{name}, version {snapshot.version}{when} ({standing}). IO500 results registry, {permalink}, "
        f"retrieved {retrieved.isoformat()}.{archived}"
    )
    verdict_counts, level_counts = verdict_summary(verdicts)
    note = f"Version {snapshot.version}{when}; {standing}."
    if deposit:
        note += f" io500.org's archive of the {snapshot.release.name} lists: doi:{deposit.doi}."
    bibtex = bibtex_entry(
        f"io500-{snapshot.release.slug}-{snapshot.kind}-v{snapshot.version}",
        [
            ("title", f"{{{{{bibtex_escape(name)}}}}}"),
            ("howpublished", "{IO500 results registry}"),
            *_date_fields(published),
            ("url", f"{{{permalink}}}"),
            ("urldate", f"{{{retrieved.isoformat()}}}"),
            ("note", f"{{{bibtex_escape(note)} Retrieved {retrieved.isoformat()}.}}"),
        ],
    )
    facts = [
        Fact("Permalink", permalink, permalink),
        Fact("List and release", f"{kind_label(snapshot.kind)} list at {label}, version {snapshot.version}"),
        Fact("Standing", standing[:1].upper() + standing[1:]),
        Fact(
            "IO500 Messaging Policy term of its entries", list_messaging_status(snapshot.provenance).sentence
        ),
        Fact("Published", published.isoformat() if published else ""),
        Fact("Entries' registry verdicts", verdict_counts),
        Fact("Entries' reproducibility levels", level_counts),
        Fact("Retrieved", retrieved.isoformat()),
    ]
    if deposit:
        facts.append(Fact("io500.org's archive", f"{deposit.title}, doi:{deposit.doi}", deposit.url))
    return Citation(
        subject="list",
        permalink=permalink,
        retrieved=retrieved,
        facts=facts,
        text=text,
        bibtex=bibtex,
        messaging_term=VERIFIED if official else UNVERIFIED,
        deposit=deposit,
    )
