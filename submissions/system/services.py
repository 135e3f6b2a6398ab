"""Writes of the system description: the one given with an upload, the file found in the archive,
and what the run itself tells.

The description a submitter gives (form, API) is stored as given. At ingest, a description file in
the archive fills what is still blank, or becomes the description when none was given; then the
run fills what is still blank (client nodes, processes per node, IO500 version, file system). Every
value that did not come from the description itself records where it came from (`field_sources`),
and a re-ingest first takes back what the previous one filled, so it never piles up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import CharField

from scoring.model import Finding as ScoringFinding
from scoring.model import RunResult
from scoring.rules.plausibility import DESCRIPTION
from submissions.codes import finding
from submissions.models import Institution, StorageSystem, Submission, SystemDescription
from submissions.system.archive_files import FoundSystemFile
from submissions.system.checks import DeclaredSystem
from submissions.system.description import (
    CleanSystem,
    system_description_clean,
    system_description_read,
)
from submissions.system.document import is_community_document, read_document
from submissions.system.extract import client_memory_bytes, storage_devices
from submissions.system.files import SystemFileUnreadable, read_system_text
from submissions.system.from_run import facts_from_run
from submissions.system.runner_facts import ClientFacts, FoundFacts, read_client_facts

ARCHIVE_ORIGIN = "archive file"
RUN_ORIGIN = "the run's outputs"
RUNNER_FACTS_ORIGIN = "the runner's client facts"
DERIVED_ORIGINS = (ARCHIVE_ORIGIN, RUN_ORIGIN, RUNNER_FACTS_ORIGIN)
TYPED_FIELDS = (
    "system_name",
    "institution_name",
    "storage_vendor",
    "filesystem_type",
    "filesystem_name",
    "filesystem_version",
    "client_nodes",
    "procs_per_node",
    "client_os",
    "client_kernel",
    "client_network",
    "client_network_gbps",
    "client_memory_bytes",
    "storage_device_count",
    "storage_peak_bytes_s",
    "md_servers",
    "md_devices",
    "ds_servers",
    "ds_devices",
    "server_network",
    "io500_version",
    "server_nodes",
    "storage_media",
    "storage_capacity_bytes",
    "client_bandwidth_bytes_s",
    "server_bandwidth_bytes_s",
    "usage",
    "exclusive_usage",
)
MAX_PROBLEMS_IN_FINDING = 12


def _empty_value(name: str) -> Any:
    model_field = SystemDescription._meta.get_field(name)
    return "" if isinstance(model_field, CharField) else None


def _is_blank(value: Any) -> bool:
    return value is None or value == ""


def storage_system_link(submission: Submission, clean: CleanSystem) -> None:
    """Attach the submission to its storage system (name, institution, file system) once known."""
    identity = clean.identity
    if identity is None or submission.storage_system_id is not None:
        return
    system_name, institution_name, fs_type = identity
    institution, _ = Institution.objects.get_or_create(name=institution_name)
    system, _ = StorageSystem.objects.get_or_create(
        name=system_name,
        institution=institution,
        filesystem_type=fs_type,
        defaults={"vendor": clean.fields.get("storage_vendor", "")},
    )
    submission.storage_system = system
    submission.save(update_fields=["storage_system", "updated_at"])


def system_description_store(*, submission: Submission, clean: CleanSystem, origin: str) -> SystemDescription:
    """Store a cleaned description as the submission's, replacing every typed field of an earlier one."""
    values = {name: _empty_value(name) for name in TYPED_FIELDS}
    values.update(clean.fields)
    description, _ = SystemDescription.objects.update_or_create(
        submission=submission,
        defaults={
            **values,
            "data": clean.data,
            "origin": origin,
            "problems": list(clean.problems),
            "field_sources": {},
            "archive_file": "",
            "archive_data": {},
            "runner_facts": {},
        },
    )
    storage_system_link(submission, clean)
    return description


def _take_back_derived(description: SystemDescription) -> SystemDescription | None:
    """Undo what an earlier ingest derived; None when the whole description was derived."""
    if description.origin.startswith(DERIVED_ORIGINS):
        description.delete()
        return None
    for name in description.field_sources:
        setattr(description, name, _empty_value(name))
    description.field_sources = {}
    description.archive_file = ""
    description.archive_data = {}
    description.runner_facts = {}
    return description


def _error_lines(error: ValidationError) -> list[str]:
    if not hasattr(error, "error_dict"):
        return list(error.messages)
    lines: list[str] = []
    for name, messages in error.message_dict.items():
        lines.extend(message if name in message else f"{name}: {message}" for message in messages)
    return lines


def _listed(lines: Sequence[str]) -> str:
    shown = " ".join(f"({number}) {line}" for number, line in enumerate(lines[:MAX_PROBLEMS_IN_FINDING], 1))
    more = len(lines) - MAX_PROBLEMS_IN_FINDING
    return shown + (f" ... and {more} more, listed with the system description." if more > 0 else "")


def _read_file(found: FoundSystemFile, strict: bool) -> tuple[CleanSystem | None, list[str], list[str]]:
    """(what was read, problems, errors that refuse the file)."""
    problems = list(found.problems)
    if not found.text:
        return None, problems, []
    try:
        text = read_system_text(found.text)
    except SystemFileUnreadable as exc:
        return None, [*problems, str(exc)], []
    problems.extend(text.problems)
    if strict and text.format != "io500-info":
        try:
            clean = system_description_clean(text.data)
        except ValidationError as exc:
            return CleanSystem(data=text.data), problems, _error_lines(exc)
        clean.problems = problems
        return clean, problems, []
    clean = system_description_read(text.data)
    clean.problems = [*problems, *clean.problems]
    return clean, clean.problems, []


def _fill_blanks(description: SystemDescription, fields: dict[str, Any], source: str) -> list[str]:
    filled = []
    for name, value in fields.items():
        if name in TYPED_FIELDS and _is_blank(getattr(description, name)) and not _is_blank(value):
            setattr(description, name, value)
            description.field_sources[name] = source
            filled.append(name)
    return filled


def system_description_from_archive(
    *, submission: Submission, files: Sequence[FoundSystemFile]
) -> list[ScoringFinding]:
    """Read the archive's description file into the submission's description; the findings say what
    was read and what could not be. A JSON description that is an upload's only one is checked like
    one given with the upload: unknown or ill-typed fields refuse it (an error finding naming each);
    nothing of it is dropped, the file is kept as read."""
    description = SystemDescription.objects.filter(submission=submission).first()
    if description is not None:
        description = _take_back_derived(description)
    if not files:
        if description is not None:
            description.save()
        return []
    # A JSON file that is the upload's only description is checked like one given with the upload; a
    # file beside a description given with the upload only fills blanks, and is read leniently.
    strict = submission.source == Submission.Source.UPLOAD and description is None
    findings: list[ScoringFinding] = []
    for found in files:
        clean, problems, errors = _read_file(found, strict)
        source = f"{ARCHIVE_ORIGIN} {found.path}"
        if errors:
            if description is not None:
                description.archive_file = found.path
                description.archive_data = clean.data if clean else {}
                description.problems = errors
                description.save()
            else:
                store = CleanSystem(data=clean.data if clean else {}, problems=errors)
                system_description_store(submission=submission, clean=store, origin=source)
            findings.append(finding("system-description-invalid", path=found.path, errors=_listed(errors)))
            return findings
        if clean is None:
            findings.append(
                finding("system-description-unreadable", path=found.path, problems=_listed(problems))
            )
            continue
        if description is None:
            description = system_description_store(submission=submission, clean=clean, origin=source)
            filled = list(clean.fields)
        else:
            filled = _fill_blanks(description, clean.fields, source)
            description.archive_file = found.path
            description.archive_data = clean.data
            description.problems = [*description.problems, *(f"{found.path}: {p}" for p in problems)]
            description.save()
            storage_system_link(submission, CleanSystem(fields=_typed_values(description)))
        unread = f" What could not be read: {_listed(problems)}" if problems else ""
        findings.append(finding("system-description-read", path=found.path, count=len(filled), unread=unread))
        return findings
    if description is not None:
        description.save()
    return findings


def _typed_values(description: SystemDescription) -> dict[str, Any]:
    return {
        name: getattr(description, name) for name in TYPED_FIELDS if not _is_blank(getattr(description, name))
    }


def system_description_from_run(*, submission: Submission, run: RunResult) -> None:
    """Fill what is still blank with what the ranked run shows; each value says where it came from."""
    facts = facts_from_run(run)
    if not facts:
        return
    description = SystemDescription.objects.filter(submission=submission).first()
    if description is None:
        description = SystemDescription(submission=submission, origin=RUN_ORIGIN)
    for name, fact in facts.items():
        if _is_blank(getattr(description, name)):
            setattr(description, name, fact.value)
            description.field_sources[name] = fact.evidence
    description.save()


def _declared_hardware(description: SystemDescription) -> tuple[float | None, tuple[int, float] | None]:
    """Client memory per node and the data devices (count, summed peak bytes/s) that a community
    document declares, the given one first, then the archive's file. Only the community schema has
    these fields; a flat description declares neither."""
    memory: float | None = None
    devices: tuple[int, float] | None = None
    for data in (description.data, description.archive_data):
        if not is_community_document(data):
            continue
        root = read_document(data).root
        memory = memory or client_memory_bytes(root)
        devices = devices or storage_devices(root)
    return memory, devices


def declared_system(submission: Submission) -> DeclaredSystem | None:
    """What the submitter declared (in the description or its file): node count, network, client
    memory and storage devices; not the values filled from the run, which would only confirm
    themselves."""
    description = SystemDescription.objects.filter(submission=submission).first()
    if description is None:
        return None
    from_run = {
        name
        for name, source in description.field_sources.items()
        if not str(source).startswith(ARCHIVE_ORIGIN)
    }
    if description.origin in (RUN_ORIGIN, RUNNER_FACTS_ORIGIN):
        from_run |= set(TYPED_FIELDS)
    memory, devices = _declared_hardware(description)
    # Declared on the form (or as flat fields) wins over a community document's.
    if "client_memory_bytes" not in from_run and description.client_memory_bytes:
        memory = description.client_memory_bytes
    if description.storage_device_count and description.storage_peak_bytes_s:
        devices = (description.storage_device_count, description.storage_peak_bytes_s)
    network = None if "client_network_gbps" in from_run else description.client_network_gbps
    memory_source = network_source = DESCRIPTION
    # The runner's facts stand in only where the description declares nothing, and say so.
    reported = stored_client_facts(description)
    if reported is not None and memory is None and reported.memory_per_node_bytes:
        memory, memory_source = reported.memory_per_node_bytes, reported.source
    if reported is not None and network is None and reported.network_gbps_per_node:
        network, network_source = reported.network_gbps_per_node, reported.source
    return DeclaredSystem(
        None if "client_nodes" in from_run else description.client_nodes,
        network,
        client_memory_bytes=memory,
        storage_devices=devices[0] if devices else None,
        storage_bytes_s=devices[1] if devices else None,
        memory_source=memory_source,
        network_source=network_source,
    )


def stored_client_facts(description: SystemDescription) -> ClientFacts | None:
    """The runner's client facts kept with the description, read again (the reading may improve)."""
    stored = description.runner_facts
    if not isinstance(stored, dict) or not stored.get("path"):
        return None
    return read_client_facts(FoundFacts(str(stored["path"]), json.dumps(stored.get("data"))))


def system_description_from_runner_facts(
    *, submission: Submission, found: FoundFacts | None
) -> list[ScoringFinding]:
    """Keep the runner's client facts with the description and fill its blank fields from them (the
    submitter's own entries win); findings say what was read and what was not believable."""
    if found is None:
        return []
    facts = read_client_facts(found)
    findings: list[ScoringFinding] = []
    if facts.problems:
        findings.append(finding("runner-facts-problems", path=found.path, problems=_listed(facts.problems)))
    if not facts.data:
        return findings
    description = SystemDescription.objects.filter(submission=submission).first()
    if description is None:
        description = SystemDescription(submission=submission, origin=RUNNER_FACTS_ORIGIN)
    description.runner_facts = {"path": found.path, "data": facts.data}
    values: dict[str, Any] = {
        "client_kernel": facts.kernel,
        "client_network_gbps": facts.network_gbps_per_node,
        "client_memory_bytes": facts.memory_per_node_bytes,
    }
    if facts.client_version and facts.client_version != "unknown":
        values["filesystem_version"] = facts.client_version
    filled = _fill_blanks(description, values, facts.source)
    description.save()
    findings.append(finding("runner-facts-read", path=found.path, count=len(filled), source=facts.source))
    return findings
