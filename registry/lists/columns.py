"""The columns of a complete list row that are the registry's own: the list page's columns, the
list's identity and provenance, every phase of the run with its unit in the name, and the system
description's fields io500.org has no column for. Each column says its type, unit and what it holds;
the JSON download and the list API describe their columns with it.

io500.org's columns are in registry.lists.io500_org; the row that joins them, registry.lists.complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from registry.core.messaging import VERIFIED_DEFINITION
from scoring.model import PHASE_ORDER
from scoring.readers.phases import unit_of
from scoring.rules.score import EXTENDED_BW_PHASES, EXTENDED_MD_PHASES

NUMBER, INTEGER, TEXT, BOOLEAN = "number", "integer", "text", "boolean"


@dataclass(frozen=True)
class Column:
    """One column of the complete download: its name (the CSV header and the JSON key), the type of
    its values, its unit and what it holds."""

    name: str
    kind: str
    description: str
    unit: str = ""
    io500_org: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "unit": self.unit or None,
            "io500_org": self.io500_org,
            "description": self.description,
        }


# The columns of the list page (registry.lists.rows.ROW_FIELDS), described.
PAGE_COLUMNS = (
    Column("rank", INTEGER, "Position on this list (io500.org's download writes it into its `id` column)."),
    Column(
        "id", INTEGER, "The registry's submission id (stable; the submission page is /submissions/<id>/)."
    ),
    Column("io500_id", INTEGER, "io500.org's submission id, for entries that came from io500.org."),
    Column("release", TEXT, "The release in which the submission first appeared."),
    Column("institution", TEXT, "Institution, as the list printed it."),
    Column("system", TEXT, "System, as the list printed it."),
    Column("storage_vendor", TEXT, "Storage vendor."),
    Column("filesystem", TEXT, "File-system type, as the list printed it."),
    Column("client_nodes", INTEGER, "Client nodes of the run."),
    Column("total_procs", INTEGER, "Client processes of the run (nodes times processes per node)."),
    Column("score", NUMBER, "The list score: sqrt(bw * md) as this list ranked it."),
    Column("bw", NUMBER, "Bandwidth score of this list entry.", unit="GiB/s"),
    Column("md", NUMBER, "Metadata score of this list entry.", unit="kIOPS"),
    Column("reproducibility", TEXT, "The committee's reproducibility level (code)."),
    Column("submitter", TEXT, "The submitter's name, \"anonymous\", or empty for io500.org's history."),
)
CUSTOM_COLUMNS = (
    Column(
        "custom_score",
        NUMBER,
        "Only with custom weights (BW^a * MD^b, a + b = 1) or a formula: a derived view of this "
        "registry, not an IO500 metric.",
    ),
    Column(
        "custom_rank",
        INTEGER,
        "Only with custom weights or a formula: the position by custom_score, not an IO500 rank.",
    ),
)
PROVENANCE_COLUMN = Column(
    "list_provenance",
    TEXT,
    "Where the list comes from: recorded (as io500.org published it), reconstructed (rebuilt here "
    "by the registry's rules, not an official list) or published_here (by this registry's committee).",
)

IDENTITY_COLUMNS = (
    Column("reproducibility_label", TEXT, "The reproducibility level as the lists show it."),
    Column(
        "list_entry_id",
        TEXT,
        "Citable id of this row: io500-<release>-<kind>-v<version>-<rank>. A published list never "
        "changes, so the id always names the same entry; /entries/<id>/ leads to it.",
    ),
    Column("submission_url", TEXT, "Permalink of the submission page."),
    Column("list_release", TEXT, "The release of the list this row belongs to."),
    Column("list_label", TEXT, 'The list\'s name as published, e.g. "SC18*" for the corrected SC18.'),
    Column("list_kind", TEXT, "The kind of list: io500, production, research, ten-node, full, ..."),
    Column("list_version", INTEGER, "Version of the list (a correction is a new version)."),
    Column("list_status", TEXT, "published, or superseded by a corrected version."),
    Column("list_published_at", TEXT, "When the list was published (ISO 8601)."),
    Column("list_official", BOOLEAN, "False for a reconstructed list, which no IO500 committee published."),
    Column(
        "messaging_term",
        TEXT,
        "The IO500 Messaging Policy's term for quoting this entry: verified (on a published IO500 list: "
        "recorded as io500.org published it, or published here by the committee) or unverified (a list "
        "reconstructed here, which is no IO500 list). The policy: " + VERIFIED_DEFINITION,
    ),
    Column("list_url", TEXT, "Permalink of the list (this version)."),
    Column(
        "verdict",
        TEXT,
        "The registry's verdict on the run: verified (checked here: recomputed from its files, "
        "evidence_basis says from which; not the Messaging Policy's term, see messaging_term), "
        "invalid (its files break a run rule, or io500.org marked it invalid), "
        "recorded (io500.org's published values; raw files not public).",
    ),
    Column("valid", BOOLEAN, "Whether the run is valid (io500.org's status for recorded runs)."),
    Column(
        "evidence_basis",
        TEXT,
        "What the verdict rests on, weakest first: summaries (some scored phase's value is backed by "
        "the summary files alone; also io500.org's published values without raw files), tool-outputs, "
        "per-rank, cross-phase. The registry's check of the files, not the IO500 Messaging Policy's "
        '"verified".',
    ),
    Column(
        "phases_without_raw_output",
        TEXT,
        "The scored phases whose value no raw output backs, separated by commas (empty: none).",
    ),
    Column(
        "values_source",
        TEXT,
        "raw_files: the phase columns with units were read from the run's output files here; "
        "published_record: only io500.org's published values exist.",
    ),
    Column("raw_files_public", BOOLEAN, "Whether the run's result files are stored here and public."),
    Column("io500_version", TEXT, "The IO500 version the run's output names (empty: it names none)."),
    Column("output_format", TEXT, "The IO500 output era the scoring engine read (e.g. c-isc25, shell)."),
    Column("run_mode", TEXT, "standard or extended, as the run's output says."),
    Column("run_timestamp", TEXT, "When the run started, as its output names it."),
    Column(
        "run_started",
        TEXT,
        "When the run began by its own clocks (result.txt's START line, else the earliest phase or tool "
        "clock), YYYY-MM-DD HH:MM:SS in the run's local time (empty: no file prints a clock).",
    ),
    Column(
        "run_client_nodes",
        INTEGER,
        "Client nodes as the run's own outputs print them (IOR's nodes line, mdtest's launch line); "
        "empty when no output says it. client_nodes is the declared count.",
    ),
    Column("run_client_nodes_source", TEXT, "The output file that printed run_client_nodes."),
    Column(
        "run_tasks",
        INTEGER,
        "MPI tasks as the run's own outputs print them (result.txt procs, else IOR/mdtest); empty when "
        "no output says it.",
    ),
    Column("run_tasks_source", TEXT, "The output file that printed run_tasks."),
)

# Every phase the IO500 application runs, in its order: the twelve scored ones, the unscored
# ior-rnd4K-easy-read, and the extended mode's phases (md-workbench as the application names its
# sections). `timestamp` is left out: it marks when the run happened and measures nothing; the run's
# start is `run_timestamp`.
PHASES = (
    *(name for name in PHASE_ORDER if name != "timestamp"),
    *EXTENDED_BW_PHASES,
    "mdworkbench-create",
    "mdworkbench-bench",
    "mdworkbench-delete",
    *(name for name in EXTENDED_MD_PHASES if name != "mdworkbench-bench"),
)


# The downloads hold two sets of phase values: io500.org's, under io500.org's names
# (`ior_easy_write`, registry.lists.io500_org), and these, recomputed here from the run's output
# files. "recomputed" in the name says which is which wherever a spreadsheet has lost the column
# descriptions; what each is authoritative for is PHASE_AUTHORITY (and the downloads' README).
RECOMPUTED = "recomputed"


def phase_value_column(phase: str) -> str:
    return f"{phase} {RECOMPUTED} ({unit_of(phase)})"


def phase_time_column(phase: str) -> str:
    return f"{phase} time (seconds)"


PHASE_COLUMNS = (
    *(
        column
        for phase in PHASES
        for column in (
            Column(
                phase_value_column(phase),
                NUMBER,
                f"{phase} as recomputed here from the run's output files by the registry's scoring "
                "engine: authoritative for what the raw files show; empty where the raw files are not "
                "public. io500.org's recorded value is in its own column, where it has one.",
                unit=unit_of(phase),
            ),
            Column(
                phase_time_column(phase),
                NUMBER,
                f"The time {phase} ran, read here from the run's output files (io500.org publishes none).",
                unit="seconds",
            ),
        )
    ),
    Column(
        "other_phases",
        TEXT,
        "Phases of the run under names no column above has, as 'name=value unit (time s)', '; '-separated.",
    ),
)

# Which of the two sets of phase values to use for what: the downloads' README and the bulk JSON say it.
PHASE_AUTHORITY = (
    "Two sets of phase values. (1) Recorded by io500.org: the columns under io500.org's names "
    "(ior_easy_write, mdtest_easy_write, ..., find_mixed, io500_score, io500_bw, io500_md) hold what "
    "io500.org published for the entry. They are authoritative for the official IO500 lists: the "
    "ranks and scores io500.org published were computed from them. For a run uploaded to this "
    "registry, which io500.org never published, they hold the registry's value of the same meaning. "
    "(2) Recomputed here: the columns named '<phase> recomputed (<unit>)' and '<phase> time "
    "(seconds)' hold what the registry's scoring engine read from the run's own output files. They "
    "are authoritative for what the raw files show (evidence_basis says how well they are backed) "
    "and are empty where the raw files are not public (values_source = published_record). Where "
    "both have a value and they differ, quote io500.org's for a rank on its lists and analyse the run "
    "with the recomputed one."
)

# The system description's typed fields without an io500.org column of the same meaning.
SYSTEM_COLUMNS = (
    Column("system_client_network", TEXT, "The client nodes' network, as described."),
    Column("system_client_network (Gbit/s)", NUMBER, "Client network bandwidth per node.", unit="Gbit/s"),
    Column("system_server_network", TEXT, "The storage servers' network, as described."),
    Column("system_md_devices", TEXT, "The metadata servers' storage devices, as described."),
    Column("system_ds_devices", TEXT, "The data servers' storage devices, as described."),
)
