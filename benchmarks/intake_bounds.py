"""What a hostile system description costs the web process, at sizes above the tests' (issue 23).

    .venv/bin/python benchmarks/intake_bounds.py [--mib 6.7 20 ...]

For a `system` field of made-up names (as the API and the upload form receive it) it prints the
seconds and the peak of Python's allocations (tracemalloc) to read and validate it, and the bytes of
the error answer; for a system.json as an archive carries it (up to the largest a description may
be), the bytes of the submission page's description section. No database is needed: the same
functions the views call run in this process. Figures come with the load average of the machine,
which other work shares.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "registry.settings")

import django  # noqa: E402  (the repository root goes on sys.path first)

django.setup()

from django.core.exceptions import ValidationError  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from rest_framework.exceptions import ValidationError as ApiValidationError  # noqa: E402

from submissions.json_input import MAX_BYTES  # noqa: E402
from submissions.models import SystemDescription  # noqa: E402
from submissions.serializers import BoundedJSONField  # noqa: E402
from submissions.system.description import system_description_clean, system_description_read  # noqa: E402
from submissions.system.files import SystemFileUnreadable, read_system_text  # noqa: E402
from submissions.system.groups import system_description_shown  # noqa: E402


def _names(count: int) -> str:
    """A JSON object of `count` made-up names (`"k00000001": 1, `, 16 bytes each)."""
    return json.dumps({f"k{number:08d}": 1 for number in range(count)})


def system_field(text: str) -> tuple[float, float, int, str]:
    """(seconds, peak MiB, answer bytes, status) of reading and validating an API `system` field."""
    field = BoundedJSONField(binary=True)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        body: Any = {"system": system_description_clean(field.to_internal_value(text)).fields}
        status = "accepted"
    except ApiValidationError as error:
        body, status = {"system": error.detail}, "400 before validation"
    except ValidationError as error:
        body, status = {"system": error.message_dict}, "400"
    answer = len(json.dumps(body, default=str))
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak, answer, status


def page_section(text: str) -> tuple[float, int, str]:
    """(seconds, bytes of the page's description section, outcome) for a system.json's text."""
    started = time.perf_counter()
    try:
        read = read_system_text(text)
    except SystemFileUnreadable as error:
        return time.perf_counter() - started, 0, f"refused: {str(error)[:60]}"
    clean = system_description_read(read.data)
    description = SystemDescription(
        data=clean.data, problems=clean.problems, origin="archive file system.json"
    )
    html = render_to_string(
        "submissions/_system_description.html",
        {
            "system_shown": system_description_shown(description),
            "submission": SimpleNamespace(pk=1, storage_system_id=None),
            "archive": SimpleNamespace(pk=1),
        },
    )
    return time.perf_counter() - started, len(html.encode()), "shown"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mib", type=float, nargs="*", default=[1.0, 6.7, 20.0])
    args = parser.parse_args()
    print("system field (API): size, seconds, peak MiB allocated, answer bytes, outcome")
    texts = [_names(2_400), _names(3_000)] + [_names(int(mib * 2**20) // 16) for mib in args.mib]
    for text in texts:
        seconds, peak, answer, status = system_field(text)
        print(f"  {len(text) / 2**20:6.2f} MiB  {seconds:7.3f} s  {peak:8.2f} MiB  {answer:>12,} B  {status}")
    print("system.json in an archive: size, seconds, description section bytes, outcome")
    for size in (4 * 1024, MAX_BYTES, 2**20):
        # A long value, then as many short fields (23 bytes each) as the size holds.
        document = {"comment": "c" * (size // 3)}
        document.update({f"f{number:06d}": "v" * 8 for number in range((size - size // 3 - 100) // 23)})
        text = json.dumps(document)
        page_section(text)  # the first read of a shape loads what it needs; the second is measured
        seconds, section, outcome = page_section(text)
        print(f"  {len(text):>9,} B  {seconds:7.3f} s  {section:>10,} B  {outcome}")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
