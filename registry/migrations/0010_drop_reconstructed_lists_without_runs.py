"""Reconstructed lists under the name of a release no public run belongs to are dropped (issue 26).

An import before this change rebuilt the Full and Historical lists of ISC26 and SC26 from the runs
of earlier releases: SC25's lists rank for rank, titled "SC26 Full". They are derived data (the next
import would not build them) and no committee published them, so they go; nothing else is touched.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.models import Exists, OuterRef


def drop_lists_without_runs(apps: Any, schema_editor: Any) -> None:
    snapshot_model = apps.get_model("registry", "ListSnapshot")
    entry_model = apps.get_model("registry", "ListEntry")
    own_entry = entry_model.objects.filter(
        snapshot=OuterRef("pk"), submission__release_id=OuterRef("release_id")
    )
    empty_named = snapshot_model.objects.filter(provenance="reconstructed").filter(~Exists(own_entry))
    # A queryset delete, not the model's: the model refuses to delete a published list, rightly
    # for every list but these copies.
    ids = list(empty_named.values_list("pk", flat=True))
    entry_model.objects.filter(snapshot_id__in=ids).delete()
    carried = snapshot_model.objects.filter(carried_from_id__in=ids).values("carried_from_id")
    snapshot_model.objects.filter(pk__in=ids).exclude(pk__in=carried).delete()


class Migration(migrations.Migration):
    dependencies = [("registry", "0009_release_run_tokens_required")]

    operations = [migrations.RunPython(drop_lists_without_runs, migrations.RunPython.noop)]
