"""The attack round of issue 23, one row an attack: what the probe found before, what the records
of this run show now, and where docs/reliability.md has the details. Rendered by
benchmarks/reliability_report.py; every "now" comes from a record, never from this file."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Records = dict[str, list[dict[str, Any]]]


def _by_key(records: Records, topic: str) -> dict[str, dict[str, Any]]:
    return {r["key"]: r for r in records.get(topic, [])}


def _walk(records: Records, words: tuple[str, ...]) -> str:
    found = [r for r in records.get("archive-walk", []) if any(word in r["kind"] for word in words)]
    if not found:
        return ""
    slowest = max(r["seconds"] for r in found)
    peak = max(r["peak_growth_mib"] for r in found)
    folders = max(r["folders_created"] for r in found)
    return (
        f"{len(found)} of {len(found)} refused (both readers), slowest {slowest:.2f} s, peak growth "
        f"{peak:.1f} MiB, at most {folders:,} folders created"
    )


def _dot_member(records: Records) -> str:
    return _walk(records, ("named .", "named ./", "folder entry", "volume header"))


def _entry_floods(records: Records) -> str:
    return _walk(records, ("deep", "folder entries", "zip"))


def _embargo(records: Records) -> str:
    sweep = _by_key(records, "embargo-sweep").get("publish-later-release")
    if not sweep:
        return ""
    return f"{sweep['hits']} marker hits in {sweep['urls_checked']} public URLs"


def _identity(records: Records) -> str:
    found = _by_key(records, "run-identity")
    repack, corpus = found.get("re-packing"), found.get("corpus")
    if not repack:
        return ""
    text = f"{repack['recognised']} of {repack['packings']} renamed or re-packed copies recognised"
    if corpus:
        text += f"; {corpus['shared_by_distinct_runs']} collisions among {corpus['runs']} real runs"
    return text


def _bodies(records: Records) -> str:
    anonymous = _by_key(records, "proxy-bodies").get("anonymous bodies")
    if not anonymous:
        return ""
    outcomes = anonymous["outcomes"].values()
    statuses = sorted({str(o["status"]) for o in outcomes})
    return (
        f"anonymous {anonymous['body_mib']} MiB bodies: {'/'.join(statuses)} in at most "
        f"{max(o['seconds'] for o in outcomes):.2f} s, at most {max(o['temp_bytes'] for o in outcomes):,} "
        "temp bytes"
    )


def _connections(records: Records) -> str:
    runs = records.get("proxy-connections", [])
    if not runs:
        return ""
    r = runs[-1]
    return (
        f"{r['connections']:,} slow connections from {r['addresses']} addresses: {r['probe_failures']} of "
        f"{r['probes']} health probes failed, max {r['healthz_max_ms']} ms"
    )


def _fault(key: str, field: str) -> Callable[[Records], str]:
    def outcome(records: Records) -> str:
        found = _by_key(records, "faults").get(key)
        return str(found[field]) if found else ""

    return outcome


def _system_field(records: Records) -> str:
    security = _by_key(records, "security")
    field, page = security.get("huge system field"), security.get("large system.json on the submission page")
    parts = []
    if field:
        parts.append(
            f"{field['sent_mib']} MiB field: {field['status']} in {field['seconds']} s, "
            f"{field['answer_bytes']:,}-byte answer"
        )
    if page:
        parts.append(
            f"{page['description_bytes']:,}-byte system.json: page {page['page_bytes']:,} bytes "
            f"(was {page['page_bytes_before']:,})"
        )
    return "; ".join(parts)


def _formulas(records: Records) -> str:
    found = _by_key(records, "cache-keys").get("distinct formulas")
    return f"{found['requests']} requests, {found['keys_added']} cache keys added" if found else ""


def _names(records: Records) -> str:
    security = _by_key(records, "security")
    lock = security.get("login lock by user-name spelling")
    lookalike = security.get("look-alike user names at sign-up")
    bidi = security.get("bidi controls on pages")
    parts = []
    if lock:
        parts.append(f"{lock['spellings']} spellings share one lock ({lock['locked_status']})")
    if lookalike:
        parts.append(f"{lookalike['accepted']} of {lookalike['tried']} look-alike names accepted")
    if bidi:
        parts.append(f"{bidi['raw_controls']} raw direction controls on {bidi['pages']} pages")
    return "; ".join(parts)


def _reset(records: Records) -> str:
    host = records.get("proxy-host", [])
    tokens = _by_key(records, "security").get("api tokens after a password reset")
    parts = []
    if host:
        parts.append(f"reset link {'keeps' if host[-1]['port_kept'] else 'loses'} the port")
    if tokens:
        parts.append(
            f"{tokens['tokens_left']} API tokens left, old token answers {tokens['old_token_status']}"
        )
    return "; ".join(parts)


# (severity, attack and what the probe measured before, outcome from the records, section)
ROUND: list[tuple[str, str, Callable[[Records], str], str]] = [
    (
        "high",
        "data of a member named `.` never counted: 78 KB of bzip2 made the worker decompress 100 GiB (289 s)",
        _dot_member,
        "Archive walk",
    ),
    (
        "high",
        "a later release's publication put an embargoed run on public pages (116 hits)",
        _embargo,
        "Embargoed runs on public pages",
    ),
    (
        "medium",
        "renaming the result folder of a published run removed `run-already-submitted`",
        _identity,
        "Run identity",
    ),
    (
        "medium",
        "every URL took 1.1 GB bodies into nginx's temp files (4 connections held 4 GB)",
        _bodies,
        "The proxy",
    ),
    (
        "medium",
        "2,043 slow connections from 46 addresses failed every health probe",
        _connections,
        "The proxy",
    ),
    (
        "medium",
        "a zip of 4 million folder entries (1.9 GiB RSS), a 50 KB tarball made 630,000 folders (128 s)",
        _entry_floods,
        "Archive walk",
    ),
    (
        "medium",
        "a hung S3 server took the site down for 120 s; a refused write answered 500",
        _fault("object store hung", "answered_during_outage"),
        "Faults",
    ),
    (
        "medium",
        "a full scratch disk made an honest upload `rejected` after 248 s, for good",
        _fault("scratch disk full", "answered_while_full"),
        "Faults",
    ),
    (
        "low",
        "a 6.7 MiB `system` field cost 6.5 s, +560 MiB and a 113 MiB answer; a 1 MiB system.json made a "
        "24 MiB page",
        _system_field,
        "Security checks",
    ),
    ("low", "each distinct formula added about 0.9 MiB to the cache", _formulas, "Cache keys"),
    (
        "low",
        "login lock sidestepped by fullwidth spellings; raw bidi controls; a Cyrillic look-alike name "
        "accepted",
        _names,
        "Security checks",
    ),
    (
        "low",
        "password-reset mails lost the port behind nginx; API tokens survived a reset",
        _reset,
        "Security checks, The proxy",
    ),
]


def round_rows(records: Records) -> list[list[str]]:
    return [
        [severity, attack, outcome(records) or "**not measured in this run**", section]
        for severity, attack, outcome, section in ROUND
    ]
