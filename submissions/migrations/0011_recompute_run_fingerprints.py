"""Recompute every stored run fingerprint from what the run is (submissions.run_identity).

Fingerprints stored before this took the result folder's name and the timestamp, which the uploader
chooses; a run renamed by someone else then escaped `run-already-submitted`. The stored phases
(values, run times, result.txt clocks) and the stored config.ini are all the new digest needs, so
no archive is read again. The current `fingerprint_of` is imported on purpose: a stored fingerprint
is only useful if it equals what ingest computes today.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from submissions.run_identity import PhaseIdentity, fingerprint_of

BATCH = 500


def recompute(apps: Any, schema_editor: Any) -> None:
    result_model = apps.get_model("submissions", "Result")
    phase_model = apps.get_model("submissions", "PhaseResult")
    ids = list(result_model.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        phases: dict[int, list[PhaseIdentity]] = {pk: [] for pk in batch}
        rows = phase_model.objects.filter(result_id__in=batch).values_list(
            "result_id", "name", "value", "time_s", "values"
        )
        for result_id, name, value, time_s, values in rows:
            phases[result_id].append(PhaseIdentity(name, value, time_s, values or {}))
        changed = []
        for result in result_model.objects.filter(pk__in=batch).only("pk", "era", "config", "fingerprint"):
            fingerprint = fingerprint_of(phases[result.pk], era=result.era, config=result.config or {})
            if fingerprint != result.fingerprint:
                result.fingerprint = fingerprint
                changed.append(result)
        result_model.objects.bulk_update(changed, ["fingerprint"])


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0010_evidence_basis"),
    ]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
