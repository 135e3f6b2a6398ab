"""Rebuild io500.org's ranked lists from the previous list plus each release's new runs.

    .venv/bin/python benchmarks/list_rules.py [--data ../shared/io500-data/lists] [--details]

The rules applied are the ones written down in docs/list-rules.md, with their sources:

* a ranked list of release R is the ranked list of the same type of the release before R (carry-over)
  plus the runs of release R that asked for that list, keeping one entry per storage system: the
  highest-scoring one;
* a storage system is (institution, system, file-system type), compared case-insensitively;
* a run asks for the IO500 list with include_in_io500; it enters a 10-node list when it declares 10
  client nodes (how io500.org's submission system sets the flag); SCC runs have their own list;
* SC19 restarted the ranked lists (new benchmark version): its lists hold only SC19 runs;
* SC18* is SC18 rescored (mdtest fix): the same entries, new scores, no new runs.

A last section checks what the Full and Historical lists hold, and a variant of part 2 shows that a
name-similarity rule for renamed systems does not reproduce io500.org either (the committee decides).

Two sources are compared, both read directly from the CSV files (no Django):

1. The SQL list tables (SC17 .. ISC21): rows carry submission ids, and the release and opt-in flags
   of every submission are known, so the new runs of a release come from the submissions table, not
   from the list being checked. An entry matches when the same submission id is at the same rank.
2. The "io500" lists read back from io500.org's plots (SC17 .. SC24; from ISC23 on the type `io500`
   is the Research list). Rows carry no id: an entry is (institution, system, file system, score),
   scores equal within a relative 1e-4 (the plots add float noise). Which runs were new in a release
   is known only from the list itself (entries not on the previous list), so this part checks the
   carry-over, one-per-system and best-kept rules, not which runs were accepted.

Every difference is printed with the reason the data shows for it.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "io500-data" / "lists"
# Release after which the ranked lists restarted: the SC19 benchmark version changed the phases
# (listing 17, "Historical list": results "cannot be directly compared to the new results").
RESET_RELEASES = frozenset({"SC19"})
# SC18* is "an intermediate list based on corrected calculations" of SC18 (listing 22/23).
RESCORED_FROM = {"SC18*": "SC18"}
SCORE_TOLERANCE = 1e-4
TYPES = ("io500", "ten")

Identity = tuple[str, ...]


def norm(text: str) -> str:
    return " ".join(text.split()).lower()


def ident_full(row: dict[str, str]) -> Identity:
    """io500.org's storage-system identity: the key the list builder flags duplicates on."""
    return (
        norm(row["information_institution"]),
        norm(row["information_system"]),
        norm(row["information_filesystem_type"]),
    )


def ident_no_fs(row: dict[str, str]) -> Identity:
    return (norm(row["information_institution"]), norm(row["information_system"]))


IDENTITIES: dict[str, Callable[[dict[str, str]], Identity]] = {
    "institution+system+fs_type": ident_full,
    "institution+system": ident_no_fs,
}


@dataclass(frozen=True)
class Entry:
    key: str  # submission id (SQL) or "institution|system|fs|score" (plots)
    ident: Identity
    score: float


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def best_per_system(candidates: Iterable[Entry]) -> list[Entry]:
    """One entry per storage system, the highest score; a tie keeps the earlier (smaller) id."""
    best: dict[Identity, Entry] = {}
    for entry in candidates:
        kept = best.get(entry.ident)
        if kept is None or entry.score > kept.score:
            best[entry.ident] = entry
    return sorted(best.values(), key=lambda e: -e.score)


@dataclass
class Comparison:
    label: str
    official: list[Entry]
    rebuilt: list[Entry]
    missing: list[tuple[Entry, str]]  # on io500.org's list, not rebuilt
    extra: list[tuple[Entry, str]]  # rebuilt, not on io500.org's list

    @property
    def same_rank(self) -> int:
        return sum(1 for a, b in zip(self.official, self.rebuilt, strict=False) if a.key == b.key)

    @property
    def same_order(self) -> int:
        """Entries on both lists that hold the same rank once the entries on one list only are left out."""
        common = {e.key for e in self.official} & {e.key for e in self.rebuilt}
        a = [e.key for e in self.official if e.key in common]
        b = [e.key for e in self.rebuilt if e.key in common]
        return sum(1 for x, y in zip(a, b, strict=True) if x == y)

    @property
    def same_set(self) -> bool:
        return not self.missing and not self.extra


def compare(
    label: str,
    official: list[Entry],
    rebuilt: list[Entry],
    why_missing: Callable[[Entry], str],
    why_extra: Callable[[Entry], str],
) -> Comparison:
    official_keys = {e.key for e in official}
    rebuilt_keys = {e.key for e in rebuilt}
    missing = [(e, why_missing(e)) for e in official if e.key not in rebuilt_keys]
    extra = [(e, why_extra(e)) for e in rebuilt if e.key not in official_keys]
    return Comparison(label, official, rebuilt, missing, extra)


# --- part 1: the SQL list tables, with submission ids ---------------------------------------------


class SqlData:
    def __init__(self, data: Path) -> None:
        releases = read_csv(data / "releases.csv")
        releases.sort(key=lambda r: r["release_date"])
        self.order = [r["acronym"] for r in releases]
        self.release_of_id = {r["id"]: r["acronym"] for r in releases}
        kept = read_csv(data / "submissions.csv")
        removed = read_csv(data / "submissions_removed.csv")
        self.live = {r["id"] for r in kept}
        self.subs = {r["id"]: r for r in removed} | {r["id"]: r for r in kept}
        self.lists: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
        for row in read_csv(data / "listings_submissions.csv"):
            self.lists[(row["release_acronym"], row["list_type"])].append(row)
        for rows in self.lists.values():
            rows.sort(key=lambda r: int(r["rank"]))
        self.scc = {r["submission_id"] for key, rows in self.lists.items() if key[1] == "scc" for r in rows}

    def release(self, sid: str) -> str:
        return self.release_of_id.get(self.subs.get(sid, {}).get("release_id", ""), "?")

    def own_score(self, sid: str) -> float:
        row = self.subs[sid]
        if row["io500_score"]:
            return float(row["io500_score"])
        # ISC21 rows carry no io500_score; the list's score is sqrt(bw * md) (data README).
        return math.sqrt(float(row["io500_bw"]) * float(row["io500_md"]))

    def previous(self, release: str, kind: str) -> str | None:
        if release in RESET_RELEASES:
            return None
        # SC18* (dated 2019-01-01) sorts after SC18, so ISC19 builds on the corrected SC18* list.
        for candidate in reversed(self.order[: self.order.index(release)]):
            if (candidate, kind) in self.lists:
                return candidate
        return None

    def opted_in(self, sid: str, kind: str) -> bool:
        """Whether a run asked for (and may enter) a list of this kind, as the submission rows record it."""
        row = self.subs[sid]
        if row["status"] != "VALID" or sid in self.scc:
            return False  # Student Cluster Competition runs have their own list (listing 26)
        if kind == "ten":
            # io500.org's submission system sets the 10-node flag from the declared client node count
            # (IO500/submission-system SubmissionsController: information_client_nodes == 10).
            return row["information_client_nodes"] == "10"
        return row["include_in_io500"] == "1"


def rebuild_sql(
    sql: SqlData, release: str, kind: str, ident: Callable[[dict[str, str]], Identity]
) -> Comparison:
    official_rows = sql.lists[(release, kind)]
    official_score = {r["submission_id"]: float(r["score"]) for r in official_rows}

    def entry(sid: str, score: float) -> Entry:
        return Entry(sid, ident(sql.subs[sid]) if sid in sql.subs else ("?", sid), score)

    official = [entry(r["submission_id"], float(r["score"])) for r in official_rows]
    prev = sql.previous(release, kind)
    carried: dict[str, float] = {}
    if prev is not None:
        for r in sql.lists.get((prev, kind), []):
            # A rescored release keeps the entries and takes the corrected scores.
            rescored = release in RESCORED_FROM and r["submission_id"] in official_score
            carried[r["submission_id"]] = (
                official_score[r["submission_id"]] if rescored else float(r["score"])
            )
    new: dict[str, float] = {}
    if release not in RESCORED_FROM:
        for sid, row in sql.subs.items():
            if (
                sql.release_of_id.get(row["release_id"]) == release
                and sid in sql.live
                and sql.opted_in(sid, kind)
            ):
                new[sid] = official_score.get(sid, sql.own_score(sid))
    candidates = [entry(s, v) for s, v in carried.items()] + [entry(s, v) for s, v in new.items()]
    rebuilt = best_per_system(candidates)
    by_ident: dict[Identity, list[Entry]] = defaultdict(list)
    for e in official:
        by_ident[e.ident].append(e)

    def why_missing(e: Entry) -> str:
        if e.key not in sql.live:
            return f"row deleted: its submission row was deleted by a later SQL file (dangling id {e.key})"
        origin = sql.release(e.key)
        if e.key in carried or e.key in new:
            winner = next(r for r in rebuilt if r.ident == e.ident)
            kept = f"{winner.key} (score {winner.score:g})"
            return f"one per system: the rules keep {kept} over it (score {e.score:g})"
        if origin == release:
            row = sql.subs[e.key]
            return (
                f"listed without opt-in: run of {release} "
                f"(include_in_io500={row['include_in_io500']}, "
                f"10_node={row['information_10_node_challenge']}, "
                f"status={row['status']}, nodes={row['information_client_nodes']})"
            )
        if prev is None:
            return f"first list: run of {origin} on the first {kind} list ({release})"
        return f"re-added: run of {origin}, not on the {prev} list"

    def why_extra(e: Entry) -> str:
        others = [o for o in by_ident.get(e.ident, []) if o.key != e.key]
        if others:
            o = others[0]
            kept = f"{o.key} (score {o.score:g})"
            return f"io500.org kept another run of the system: {kept} instead (score {e.score:g})"
        if e.key in carried:
            successor = renamed_successor(e, (o for o in official if o.key in new or o.key not in carried))
            if successor is not None:
                return f"renamed: replaced by {successor.key} {'/'.join(successor.ident)} {successor.score:g}"
            return f"dropped: on the {prev} list, not on {release}, no other run of the system listed"
        row = sql.subs[e.key]
        return (
            f"not listed: new {release} run that asked for the list "
            f"(nodes={row['information_client_nodes']}, "
            f"{row['information_institution']} / {row['information_system']})"
        )

    label = f"{release} {kind} (from {prev or 'nothing'})"
    return compare(label, official, rebuilt, why_missing, why_extra)


def check_ten_nodes(sql: SqlData) -> list[str]:
    """10-node entries whose declared client node count is not 10."""
    out = []
    for (release, kind), rows in sql.lists.items():
        if kind != "ten":
            continue
        for r in rows:
            sub = sql.subs.get(r["submission_id"])
            if sub is not None and sub["information_client_nodes"] != "10":
                out.append(
                    f"{release} ten: {r['submission_id']} {sub['information_institution']} / "
                    f"{sub['information_system']} declares {sub['information_client_nodes']} client nodes"
                )
    return out


def check_full_historical(sql: SqlData) -> list[str]:
    """What Full and Historical hold, release by release."""
    out = []
    for release in sql.order:
        hist = {r["submission_id"] for r in sql.lists.get((release, "historical"), [])}
        full = {r["submission_id"] for r in sql.lists.get((release, "full"), [])}
        if not hist and not full:
            continue
        upto = set(sql.order[: sql.order.index(release) + 1])
        runs = {
            s
            for s, r in sql.subs.items()
            if sql.release_of_id.get(r["release_id"]) in upto and s in sql.live and s not in sql.scc
        }
        since_reset = {
            s
            for s in runs
            if sql.order.index(sql.release(s)) >= sql.order.index(min(RESET_RELEASES, key=sql.order.index))
        }
        out.append(
            f"{release}: historical {len(hist)} (runs up to {release}: {len(runs)}, "
            f"historical minus runs {len(hist - runs)}, runs minus historical {len(runs - hist)}); "
            f"full {len(full)} (runs SC19..{release}: {len(since_reset)}, "
            f"full minus those {len(full - since_reset)}, those minus full {len(since_reset - full)}, "
            f"full minus historical {len(full - hist) if hist else '-'})"
        )
    return out


# --- part 2: the plotted io500 / Research lists, without ids --------------------------------------


def plotted_lists(data: Path) -> tuple[list[str], dict[str, list[Entry]]]:
    lists: dict[str, list[Entry]] = defaultdict(list)
    for row in read_csv(data / "plotted_io500_lists.csv"):
        ident = (norm(row["institution"]), norm(row["system"]), norm(row["filesystem"]))
        score = float(row["score"])
        lists[row["release"]].append(Entry("|".join((*ident, f"{score:.6g}")), ident, score))
    for rows in lists.values():
        rows.sort(key=lambda e: -e.score)
    return sorted(lists, key=release_order), lists


def release_order(acronym: str) -> tuple[int, int, bool]:
    """BoF order: ISC (June) before SC (November) of a year; SC18* (corrected SC18) after SC18."""
    conference, year = acronym.rstrip("*")[:-2], int(acronym.rstrip("*")[-2:])
    return (year, 0 if conference == "ISC" else 1, acronym.endswith("*"))


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text)


def renamed_successor(old: Entry, new_runs: Iterable[Entry]) -> Entry | None:
    """A new, higher-scoring run that looks like the same storage system under a changed name.

    Used only to explain a difference, never to build a list: the same system name once spaces and
    punctuation are ignored, or the same first word of both institution and system (e.g. LRZ
    "SuperMUC-NG Phase2" -> "SuperMUC-NG-Phase2", Argonne "Aurora Storage" -> "Aurora").
    """
    inst, system = words(old.ident[0]), words(old.ident[1])
    for run in new_runs:
        if run.score <= old.score or run.ident == old.ident:
            continue
        run_inst, run_system = words(run.ident[0]), words(run.ident[1])
        if system and "".join(system) == "".join(run_system):
            return run
        if inst and system and run_inst[:1] == inst[:1] and run_system[:1] == system[:1]:
            return run
    return None


def same_run(a: Entry, b: Entry) -> bool:
    return a.ident == b.ident and abs(a.score - b.score) <= SCORE_TOLERANCE * max(a.score, b.score, 1e-9)


def rebuild_plotted(
    release: str, prev: str | None, lists: dict[str, list[Entry]], follow_renames: bool = False
) -> Comparison:
    official = lists[release]
    before = [] if prev is None else lists[prev]

    def match(e: Entry, pool: list[Entry]) -> Entry | None:
        return next((p for p in pool if same_run(e, p)), None)

    # Carried entries take the key of the same run on this list, so float noise is not a difference.
    carried = [match(e, official) or e for e in before]
    new = [e for e in official if match(e, before) is None]
    if follow_renames:
        # What the committee did by hand: a new run of a renamed system replaces its old entry.
        carried = [e for e in carried if renamed_successor(e, new) is None]
    rebuilt = best_per_system(carried + new)

    def why_missing(e: Entry) -> str:
        winner = next((r for r in rebuilt if r.ident == e.ident), None)
        if winner is not None:
            return f"second entry of a system: the rules keep {winner.score:g} only"
        return "not rebuilt"

    def why_extra(e: Entry) -> str:
        same_score = [o for o in official if abs(o.score - e.score) <= SCORE_TOLERANCE * e.score]
        if same_score and same_score[0].ident != e.ident:
            return f"renamed: the same score is listed as {'/'.join(same_score[0].ident)}"
        lower = [o for o in official if o.ident == e.ident and o.key not in {e.key}]
        if lower:
            kept = f"score {lower[0].score:g}"
            return f"io500.org kept another run of the system: {kept} (rescored or latest kept)"
        if release in RESET_RELEASES:
            return f"restart: {prev} entry, the lists restarted at {release}"
        successor = renamed_successor(e, new)
        if successor is not None:
            return f"renamed: replaced by the new run {'/'.join(successor.ident)} {successor.score:g}"
        return f"dropped: {prev} entry not on {release}, no other run of the system listed"

    label = f"{release} io500 (from {prev or 'nothing'})"
    return compare(label, official, rebuilt, why_missing, why_extra)


# --- output -------------------------------------------------------------------------------------


def identical(c: Comparison) -> bool:
    return c.same_set and c.same_rank == len(c.official)


def summary_line(c: Comparison) -> str:
    return (
        f"{c.label:36} official {len(c.official):4}  rebuilt {len(c.rebuilt):4}  "
        f"same entries {len(c.official) - len(c.missing):4}  same rank {c.same_rank:4}  "
        f"same order {c.same_order:4}  "
        f"missing {len(c.missing):3}  extra {len(c.extra):3}  {'EQUAL' if identical(c) else ''}"
    )


def print_differences(c: Comparison) -> None:
    for e, why in c.missing:
        print(f"      - on io500.org only: {e.key} {'/'.join(e.ident)} {e.score:g}: {why}")
    for e, why in c.extra:
        print(f"      + rebuilt only:      {e.key} {'/'.join(e.ident)} {e.score:g}: {why}")


def totals(comparisons: list[Comparison]) -> str:
    off = sum(len(c.official) for c in comparisons)
    same = sum(len(c.official) - len(c.missing) for c in comparisons)
    rank = sum(c.same_rank for c in comparisons)
    order = sum(c.same_order for c in comparisons)
    equal = sum(1 for c in comparisons if identical(c))
    return (
        f"lists {len(comparisons)}, identical {equal}; entries {off}, same entries {same} "
        f"({100 * same / off:.1f}%), same rank {rank} ({100 * rank / off:.1f}%), "
        f"common entries in the same order {order} of {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--details", action="store_true", help="print every difference with its reason")
    args = parser.parse_args()
    print(f"data {args.data}; load average {os.getloadavg()[0]:.2f}")

    sql = SqlData(args.data)
    print("\n== 1. SQL list tables (submission ids), SC17 .. ISC21")
    for name, ident in IDENTITIES.items():
        print(f"\n-- identity {name}")
        comparisons = []
        for kind in TYPES:
            for release in sql.order:
                if (release, kind) in sql.lists:
                    comparisons.append(rebuild_sql(sql, release, kind, ident))
        for c in comparisons:
            print(summary_line(c))
            if args.details and name == "institution+system+fs_type":
                print_differences(c)
        print("total:", totals(comparisons))
        reasons = Counter(why.split(":")[0] for c in comparisons for _, why in c.missing + c.extra)
        for why, n in reasons.most_common():
            print(f"   {n:3}  {why}")

    print("\n-- 10-node list entries whose declared client node count is not 10")
    for line in check_ten_nodes(sql) or ["none"]:
        print("  ", line)
    print("\n-- Full and Historical lists")
    for line in check_full_historical(sql):
        print("  ", line)

    print("\n== 2. io500 lists read from io500.org's plots, SC17 .. SC24 (Research from ISC23)")
    order, lists = plotted_lists(args.data)
    comparisons = []
    for i, release in enumerate(order):
        prev = None if i == 0 or release in RESET_RELEASES else order[i - 1]
        comparisons.append(rebuild_plotted(release, prev, lists))
    for c in comparisons:
        print(summary_line(c))
        if args.details:
            print_differences(c)
    print("total:", totals(comparisons))
    later = [
        c
        for c in comparisons
        if c.label.split()[0] not in {"SC17", "ISC18", "SC18", "SC18*", "ISC19", "SC19"}
    ]
    print("total ISC20 .. SC24:", totals(later))
    reasons = Counter(why.split(":")[0] for c in comparisons for _, why in c.missing + c.extra)
    for why, n in reasons.most_common():
        print(f"   {n:3}  {why}")
    renames = [
        rebuild_plotted(
            r, None if i == 0 or r in RESET_RELEASES else order[i - 1], lists, follow_renames=True
        )
        for i, r in enumerate(order)
    ]
    print("\n-- the same, a renamed system's new run replacing its old entry")
    for c in renames:
        print(summary_line(c))
    print("total:", totals(renames))
    print(f"\nload average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
