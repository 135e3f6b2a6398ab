"""python manage.py build_list RELEASE KIND [--publish [--before-release-date] --reason TEXT]

Builds the draft of one list from the current data and prints it: a ranked kind carries the previous
published list of its lineage over and adds the runs the committee accepted since (one entry per
storage system), and the command says which list it carried and how many entries it added. Then
the runs it left out: those of another release still under embargo, those that asked for a 10-node
list whose outputs do not show exactly 10 client nodes, carried entries a better run replaced,
entries of the previous list a per-entry decision took off (all recorded with the snapshot), and
those whose scored phases lack their raw outputs; then the changes since the previous list
(registry.lists.diff). Publishing is the committee's decision; --publish freezes the draft right
away, and before the release's date or while its call is open only with --before-release-date
(else it exits non-zero, saying why).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from registry.lists.changes import EVIDENCE_RULE, correction_changes, release_changes
from registry.lists.diff import diff_lines
from registry.lists.publishing import listed_submissions_publish, objections_refuse_publish
from registry.lists.publishing_selectors import list_evidence_gaps
from registry.lists.selectors import release_get
from registry.lists.services import (
    EMBARGO_RULE,
    ListBuildError,
    ListPublishError,
    PublishTooEarly,
    list_build,
    list_publish,
)
from registry.models import ListKind, ListSnapshot


class Command(BaseCommand):
    help = (
        "Build the draft of one list (e.g. build_list isc24 research) from the submissions in the registry."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("release", help="Release name or slug, e.g. ISC24 or isc24.")
        parser.add_argument("kind", help=f"List kind: {', '.join(ListKind.values)}.")
        parser.add_argument("--publish", action="store_true", help="Freeze the draft as the published list.")
        parser.add_argument(
            "--before-release-date",
            action="store_true",
            help=(
                "Confirm publishing before the release's date or while its call for submissions is "
                "open (the embargo still holds)."
            ),
        )
        parser.add_argument("--reason", default="", help="Why a published list is being corrected.")
        parser.add_argument("--limit", type=int, default=20, help="How many entries to print (0: all).")

    def handle(self, *args: Any, **options: Any) -> None:
        release = release_get(slug=options["release"])
        if release is None:
            raise CommandError(
                f'There is no release "{options["release"]}". Run import_io500 first, or check the name.'
            )
        try:
            snapshot = list_build(release=release, kind=options["kind"])
            if options["publish"]:
                # As the publishing page does: the accepted runs the list holds become published.
                objections_refuse_publish(snapshot)
                with transaction.atomic():
                    snapshot = list_publish(
                        snapshot=snapshot, reason=options["reason"], early=options["before_release_date"]
                    )
                    listed_submissions_publish(snapshot=snapshot, user=None)
        except PublishTooEarly as error:
            # The draft stays built (the build's transaction committed); only the publish is refused.
            raise CommandError(
                f"{error} Nothing was published; add --before-release-date to confirm."
            ) from error
        except (ListBuildError, ListPublishError) as error:
            raise CommandError(str(error)) from error

        entries = list(
            snapshot.entries.select_related("submission__storage_system__institution").order_by("rank")
        )
        self.stdout.write(
            f"{release.name} {ListKind(snapshot.kind).label} list, version {snapshot.version} "
            f"({snapshot.get_status_display().lower()}): {len(entries)} entries."
        )
        carried = sum(1 for entry in entries if entry.carried)
        if snapshot.carried_from_id is not None:
            base = ListSnapshot.objects.select_related("release").get(pk=snapshot.carried_from_id)
            self.stdout.write(
                f"Carried over from {base}: {carried} entries; added {len(entries) - carried} accepted since."
            )
        shown = entries if options["limit"] == 0 else entries[: options["limit"]]
        for entry in shown:
            system = entry.submission.storage_system
            name = f"{system.name} / {system.institution.name} / {system.filesystem_type}" if system else "-"
            origin = "carried" if entry.carried else "added"
            self.stdout.write(
                f"{entry.rank:>4}  {entry.score:>12.2f}  submission {entry.submission_id:<6} "
                f"{origin:<8} {name}"
            )
        if len(shown) < len(entries):
            self.stdout.write(f"... and {len(entries) - len(shown)} more.")
        embargoed = [row for row in snapshot.left_out if row.get("rule") == EMBARGO_RULE]
        # Entries gone for missing raw outputs are among the gaps printed below.
        others = [row for row in snapshot.left_out if row.get("rule") not in (EMBARGO_RULE, EVIDENCE_RULE)]
        for title, rows in (
            ("Left out under another release's embargo", embargoed),
            ("Left out by the list rules", others),
        ):
            if rows:
                self.stdout.write(f"{title}: {len(rows)}.")
            for held in rows:
                self.stdout.write(
                    f"  submission {held['submission_id']:<6} {held['score']:>12.2f}  {held['reason']}"
                )
        gaps = list_evidence_gaps(release=release, kind=snapshot.kind)
        if gaps:
            self.stdout.write(f"Left out for missing raw outputs: {len(gaps)}.")
        for gap in gaps:
            line = f"  submission {gap['submission_id']:<6} {gap['score']:>12.2f}  {gap['reason']}"
            self.stdout.write(line)
        # A correction says what it changes in the version it corrects, then (as every version) what
        # is new since the previous release's list.
        correction = correction_changes(snapshot)
        if correction is not None:
            for line in diff_lines(correction):
                self.stdout.write(line)
        changes = release_changes(snapshot)
        if changes is None:
            self.stdout.write(
                "The first list of its kind: there is no previous release's list to compare it with."
            )
        else:
            for line in diff_lines(changes):
                self.stdout.write(line)
