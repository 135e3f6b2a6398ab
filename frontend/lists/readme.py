"""The README of the list downloads: which phase values are authoritative for what, and every column.

A CSV file has no comment syntax that spreadsheets and csv readers agree on, so a comment line above
the header would break every reader that expects the header first. The CSV files stay plain; this
README says what they hold, the downloads page links it, every download names it in a
`Link: <...>; rel="describedby"` header, and the bulk JSON carries its authority note and address.
"""

from __future__ import annotations

import textwrap

from django.urls import reverse

from registry.core.site import site_url
from registry.lists.columns import PHASE_AUTHORITY
from registry.lists.complete import columns_described

LIST_NOTE = (
    "Every row names the list it is on (list_release, list_kind, list_version, list_provenance). "
    "Rows with list_official = false are on lists reconstructed here by the registry's rules; they "
    "are not official IO500 lists. Cite the list and release an entry is on, with its rank, when you "
    "quote a result."
)


def readme_url() -> str:
    return site_url(reverse("frontend:downloads-readme"))


def describedby(url: str) -> str:
    """The `Link` header value that points a download at this README."""
    return f'<{url}>; rel="describedby"; type="text/plain"'


def _paragraph(text: str, indent: str = "") -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def downloads_readme() -> str:
    lines = [
        "IO500 results registry: the list downloads",
        "",
        _paragraph(
            f"One list: {site_url('/lists/<release>/<kind>.csv')} and .json. Every public list: "
            f"{site_url('/lists/all.csv.gz')} and {site_url('/lists/all.json.gz')}. The CSV files "
            "have one header line and no comment lines; the JSON files describe their columns in "
            "`columns`."
        ),
        "",
        "Which phase values are authoritative",
        "",
        _paragraph(PHASE_AUTHORITY),
        "",
        "Lists",
        "",
        _paragraph(LIST_NOTE),
        "",
        "Columns, in the CSV's order (custom_score and custom_rank only with custom weights; a",
        "sublist's own rank follows rank on a sublist's download)",
        "",
    ]
    for column in columns_described(with_custom=True):
        unit = f", {column['unit']}" if column["unit"] else ""
        origin = "; io500.org's column" if column["io500_org"] else ""
        lines.append(f"{column['name']} [{column['type']}{unit}{origin}]")
        lines.append(_paragraph(column["description"], indent="    "))
    return "\n".join(lines) + "\n"
