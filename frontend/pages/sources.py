"""The public documents the rules, how-to-run and about pages summarise, each with the version read.

The summaries are ours; the rules are io500.org's. Every summary names the page it comes from and
the commit of the repository that page is built from, so a reader can see how old our reading is
and check it against the current text. When io500.org changes a rule, the summary and its commit
change together here.
"""

from __future__ import annotations

from dataclasses import dataclass

# IO500/webpage is the source of io500.org; the snapshot read for these pages (main, 2026-07-15).
WEBPAGE_REPO = "https://github.com/IO500/webpage"
# IO500/io500 is the official benchmark application; main as read (2026-07-22).
IO500_REPO = "https://github.com/IO500/io500"
# The snapshots the imported data comes from (../shared/io500-data/README.md, docs/list-rules.md).
WEBPAGE_SNAPSHOT = "d244008475405a8c1d785398ba54df3f3cc59c0d"
SUBMISSION_DATA_COMMIT = "f610b34751780cc00af19525c8785b8e81c99f83"


@dataclass(frozen=True)
class Source:
    """One page of io500.org (or file of IO500/io500) as read at one commit."""

    title: str
    url: str
    repo: str
    path: str
    commit: str  # the last commit that changed the file in the snapshot read
    date: str  # that commit's date, ISO

    @property
    def short_commit(self) -> str:
        return self.commit[:7]

    @property
    def commit_url(self) -> str:
        return f"{self.repo}/blob/{self.commit}/{self.path}"


SUBMISSION_RULES = Source(
    "Submission Rules (Steering Committee Rules, version 2.0)",
    "https://io500.org/rules/submission",
    WEBPAGE_REPO,
    "templates/Pages/rules_submission.php",
    "af923f77ad10a7da1fcf63bab0be87ff8ce70118",
    "2026-07-01",
)
THE_LISTS = Source(
    "The Lists",
    "https://io500.org/the-lists",
    WEBPAGE_REPO,
    "templates/Pages/the_lists.php",
    "1ce52997c96f6ea97ba2d51f21a914271259068b",
    "2025-12-10",
)
MESSAGING_POLICY = Source(
    "Messaging Policy",
    "https://io500.org/pages/rules-messaging",
    WEBPAGE_REPO,
    "templates/Pages/rules_messaging.php",
    "50eb6d0eeb11113ae89308e41da9ba5e1930e1c3",
    "2026-07-13",
)
DATA_HANDLING = Source(
    "Submission Data Handling Policy",
    "https://io500.org/pages/rules-data-handling",
    WEBPAGE_REPO,
    "templates/Pages/rules_data_handling.php",
    "50eb6d0eeb11113ae89308e41da9ba5e1930e1c3",
    "2026-07-13",
)
BENCHMARK_PAGE = Source(
    "Benchmark (how to submit)",
    "https://io500.org/benchmark",
    WEBPAGE_REPO,
    "templates/Pages/benchmark.php",
    "af923f77ad10a7da1fcf63bab0be87ff8ce70118",
    "2026-07-01",
)
ABOUT_PAGE = Source(
    "About (the workloads)",
    "https://io500.org/about",
    WEBPAGE_REPO,
    "templates/Pages/about.php",
    "0cfec93f3c70be5ef2c60aee4d82505ecd9a5437",
    "2026-06-12",
)
SCORE_CODE = Source(
    "The score as the official application computes it (calc_score)",
    "https://github.com/IO500/io500/blob/main/src/main.c",
    IO500_REPO,
    "src/main.c",
    "02091cf",
    "2026-07-22",
)
IO500_README = Source(
    "IO500/io500 README (build, configure, run)",
    "https://github.com/IO500/io500#readme",
    IO500_REPO,
    "README.md",
    "02091cf",
    "2026-07-22",
)


@dataclass(frozen=True)
class RuleSummary:
    """One rule in our words. `anchor` is its id on /rules/."""

    anchor: str
    title: str
    text: tuple[str, ...]
    sources: tuple[Source, ...]


RULES: tuple[RuleSummary, ...] = (
    RuleSummary(
        "stonewall",
        "Write phases run at least 300 seconds",
        (
            "The stonewall timer must be set to 300 seconds, so that every phase that creates or writes "
            "(ior-easy-write, ior-hard-write, mdtest-easy-write, mdtest-hard-write) keeps going for at "
            "least five minutes. The default workload is sized to last that long; a fast system may need "
            "larger values. A run with a shorter stonewall can be useful for testing but is not a valid "
            "list submission.",
            "The registry checks this on every upload from the tools' own output and says which phase "
            "stopped too early.",
        ),
        (SUBMISSION_RULES, IO500_README),
    ),
    RuleSummary(
        "fixed-parameters",
        'The "hard" parameters are fixed',
        (
            "No edit to the source code of the benchmark or the tools it runs (IOR, mdtest, pfind) is "
            "allowed beyond the variables the configuration offers. The hard phases keep their "
            "prescribed access patterns: ior-hard writes interleaved 47,008-byte records to one shared "
            "file, mdtest-hard writes 3,901-byte files into one shared directory. The committee can grant "
            "an exception for a legitimate reason on request.",
        ),
        (SUBMISSION_RULES, ABOUT_PAGE),
    ),
    RuleSummary(
        "what-may-change",
        "What may be changed",
        (
            "The easy phases may be tuned freely through the configuration (transfer sizes, file counts, "
            "the IOR API options). Each of the four main phases has a directory that may be created in "
            'advance and tuned (striping with "lfs setstripe", "beegfs-ctl" and the like); directories '
            "below it and the output files of IOR and mdtest may not be created in advance. Commands "
            "that configure the storage system may be added to the job script.",
            "Another tool may replace pfind for the find phase if it takes the same input, gives the same "
            "output, and its source is included in the submission. Storage servers may run on the client "
            "nodes and there is no limit on the number of storage nodes.",
        ),
        (SUBMISSION_RULES,),
    ),
    RuleSummary(
        "run-integrity",
        "One storage system, one uninterrupted run, data really stored",
        (
            "All phases run on one storage system without interruption. Data freshly written must be "
            "readable from another client node once the writer has closed the file, and must be on "
            "persistent storage before the close is acknowledged. Data and metadata are stored in full: "
            "deduplication, compression and other reduction based on content are not allowed, because "
            "the benchmark's content is partly predictable and would favour them.",
        ),
        (SUBMISSION_RULES,),
    ),
    RuleSummary(
        "score",
        "How the score is computed",
        (
            "The bandwidth score (BW, GiB/s) is the geometric mean of the IOR phases, the metadata score "
            "(MD, kIOPS) the geometric mean of the mdtest and find phases; the IO500 score is the square "
            "root of their product, sqrt(BW * MD). Every mandatory phase must run: a run that skipped "
            "one is not valid. The registry recomputes every score from the raw output with its own "
            "engine and shows any difference from the score the run reported.",
        ),
        (SCORE_CODE, ABOUT_PAGE),
    ),
    RuleSummary(
        "production-research",
        "Production or Research list, and reproducibility",
        (
            "Since ISC23 every ranked result is on exactly one of two lists. The Production list takes "
            "systems that regularly, frequently and continuously run applications solving scientific or "
            "business problems on data of real value, with no single point of failure in the storage "
            "system, and with the highest reproducibility score. Everything else valid is ranked on the "
            "Research list.",
            "The committee gives each submission a reproducibility score from the system details and "
            "the reproducibility questionnaire: Undefined, Limited, Proprietary or Fully Reproducible. "
            "Undefined and Limited submissions may be rejected if the missing details do not come; "
            "Proprietary is eligible for the Research list, Fully Reproducible for Production. The "
            "committee has the final say.",
        ),
        (SUBMISSION_RULES, THE_LISTS),
    ),
    RuleSummary(
        "client-nodes",
        "Ten client nodes",
        (
            "Only runs on at least 10 physical client nodes, with at least one benchmark process on each, "
            "can win awards; smaller runs are accepted for the record. Virtual machines count if the rule "
            "holds for the physical nodes. The 10 client-node lists take runs on exactly 10 physical "
            "client nodes, each running at least one process; only the find phase may use fewer.",
        ),
        (SUBMISSION_RULES, THE_LISTS),
    ),
    RuleSummary(
        "one-per-system",
        "One entry per storage system",
        (
            "A ranked list shows only the best result of each storage system: when a system has several "
            "submissions, the one with the highest overall score is ranked. Every valid submission "
            "appears on the Full list, and every submission ever received on the Historical list. How "
            "this registry decides that two results are the same system (institution, system and "
            "file-system type) and carries older entries over is written down in the registry's "
            "docs/list-rules.md (rules R1 to R3).",
        ),
        (THE_LISTS,),
    ),
    RuleSummary(
        "disclosure",
        "What is published, and when",
        (
            "By submitting, you and your organisation allow the IO500 to publish everything uploaded "
            "except contact information: the job script, the output, the system description and the "
            "questionnaire. Until the list is released, submissions are kept confidential by the "
            "committee; the submitter's name is published unless you opt out. You may ask for "
            "corrections or removal at any time. This registry keeps a release's new submissions "
            "visible only to the committee until the release's embargo ends.",
        ),
        (DATA_HANDLING, BENCHMARK_PAGE),
    ),
    RuleSummary(
        "deadlines",
        "Deadlines and late submissions",
        (
            "Submissions are open all year; a list takes those received by its deadline. The committee "
            "may accept a late submission on request, and a submission not accepted for the current "
            "list moves to the next one.",
        ),
        (SUBMISSION_RULES, BENCHMARK_PAGE),
    ),
    RuleSummary(
        "messaging",
        'Quoting results: "verified" and "unverified"',
        (
            'A result on a published IO500 list must be called "verified" when it is quoted in public, '
            "in the same paragraph as its first mention; the committee has audited the whole submission. "
            'Any other result is "unverified", and every change to how the benchmark was run (phases '
            "skipped or reordered, code changed, shorter run times) must be stated with it. Classroom and "
            "research comparisons need neither word.",
            "A quote names the list (Production, Research, ...) and the BoF it was released at (for "
            'example "#5 on the Production list at SC25"), gives the exact rank of a published metric, '
            "uses only the IO500's published columns or values derived from them, never compares across "
            "lists, and does not imply that the IO500 endorses anyone. The committee may ask for a "
            "correction where the statement was made, and escalate up to removing entries or banning "
            "submissions.",
            "On this registry every result and list row carries its term (a list reconstructed here is "
            'no IO500 list, so a place on it is "unverified"), custom rankings and sublists say they are '
            "the registry's derived views, the compare page warns when the runs share no list, and the "
            "claim checker (/claims/) checks a sentence against the lists and gives the citation.",
        ),
        (MESSAGING_POLICY,),
    ),
)


def rule_sources() -> list[Source]:
    """Every document the rules page cites, once, in the order first cited."""
    seen: dict[str, Source] = {}
    for rule in RULES:
        for source in rule.sources:
            seen.setdefault(source.path + source.url, source)
    return list(seen.values())
