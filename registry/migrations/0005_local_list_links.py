"""Imported list descriptions link to io500.org's own list paths (/list/isc20/ten); point them at the
same lists here, as the importer now does (registry.importer.lists.local_list_links)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    from registry.importer.lists import local_list_links

    snapshot_model = apps.get_model("registry", "ListSnapshot")
    for snapshot in snapshot_model.objects.filter(description__contains='href="/list/'):
        # Published snapshots are frozen by the model's save(); the historical model has no such guard,
        # and only the link targets change here, never an entry.
        snapshot_model.objects.filter(pk=snapshot.pk).update(
            description=local_list_links(snapshot.description)
        )


class Migration(migrations.Migration):
    dependencies = [("registry", "0004_provenance_recorded_lists")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
