"""The body rows of a list table, rendered in Python.

A ranked list has up to a few hundred rows of 13-15 cells; the template engine spent about ten times
longer on them than string formatting does, and the rows are the whole cost of an uncached list
page. Every value is escaped here exactly as the template would have escaped it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from frontend.charts.entities import ENTITY_KINDS, EntityKind
from registry.core.text import without_bidi_controls
from registry.lists.facet_names import canonical, slug

CENTS = Decimal("0.01")


def _entity_link(kind: EntityKind, value: Any) -> str:
    """The name as the list printed it, linked to the page of its canonical name (if it has one)."""
    text = _text(value)
    name = canonical(kind, value if isinstance(value, str) else None)
    if not name:
        return text
    return f'<a href="/{ENTITY_KINDS[kind]["path"]}/{slug(name)}/">{text}</a>'


def two_decimals(value: float | None) -> str:
    """As the template filter floatformat:2 shows a number (half-up rounding); empty for none."""
    if value is None:
        return ""
    try:
        return str(Decimal(repr(value)).quantize(CENTS, rounding=ROUND_HALF_UP))
    except InvalidOperation:  # inf or nan: shown as Python spells them, as floatformat does
        return str(value)


def _text(value: Any) -> str:
    # Bidi controls in a name would turn the text after it around (registry.core.text).
    return "" if value is None else escape(without_bidi_controls(str(value)))


def _badge(row: Mapping[str, Any]) -> str:
    # The markup of submissions/_repro_badge.html, which the list used to include once per row.
    if row.get("reproducibility") is None:
        # Imported history: io500.org's public data records no level (registry.lists.rows).
        label = escape(str(row.get("reproducibility_label") or "not recorded"))
        return (
            '<span class="badge repro repro-not-recorded" title="io500.org\'s public data records no '
            f'reproducibility level for this entry" data-role="repro">{label}</span>'
        )
    level = escape(str(row["reproducibility"]))
    label = escape(str(row.get("reproducibility_label") or "Undefined"))
    return (
        f'<span class="badge repro repro-{level}" title="Reproducibility assigned by the IO500 committee"'
        f' data-role="repro">{label}</span>'
    )


def invalid_badge(href: str) -> str:
    """On an official list, a run the registry finds invalid: the list stays as published, the row
    links to the findings that say why."""
    return (
        f' <a class="badge badge-error" data-role="invalid-here" href="{href}#findings"'
        ' title="The registry finds this run invalid; the list shows it as it was published">invalid here</a>'
    )


def custom_number(value: float | None) -> str:
    """A custom score: two decimals where that shows it, else three significant digits (a formula
    may give 0.00042 or 3.1e12)."""
    if value is None:
        return ""
    if value == 0 or 0.01 <= abs(value) < 1e9:
        return two_decimals(value)
    return f"{value:.3g}"


def _counted(declared: Any, run: Any, what: str) -> str:
    """A declared count with the run's own below it: what its outputs print, or that none does."""
    if run is None:
        title = f"No output of this run prints its {what} (or its raw files are not public)"
        shown = "?"
    else:
        title = f"{what.capitalize()} as the run&#x27;s own outputs print them"
        shown = _text(run)
    role = "run-nodes" if what == "client nodes" else "run-tasks"
    return f'{_text(declared)}<span class="run-count" data-role="{role}" title="{title}">run {shown}</span>'


NEW_BADGE = (
    ' <span class="badge badge-new" data-role="new" title="Not on the previous list of this kind">new</span>'
)


def row_html(
    row: Mapping[str, Any],
    *,
    detail_prefix: str,
    with_custom: bool,
    with_sublist: bool = False,
    new_ids: frozenset[int] = frozenset(),
    mark_invalid: bool = False,
) -> str:
    pk = int(row["id"])
    href = f"{detail_prefix}{pk}/"
    system = _text(row.get("system")) or "(unnamed)"
    new = NEW_BADGE if pk in new_ids else ""
    invalid = invalid_badge(href) if mark_invalid and row.get("invalid_here") else ""
    rank = _text(row.get("rank"))
    nodes = _counted(row.get("client_nodes"), row.get("run_client_nodes"), "client nodes")
    tasks = _counted(row.get("total_procs"), row.get("run_tasks"), "tasks")
    cells = [
        # A box per row of the list's compare form (frontend/_list_body.html): tick 2 to 5, compare.
        f'<td class="col-compare"><input type="checkbox" name="id" value="{pk}" form="compare-form"'
        f' aria-label="Compare #{rank} {system}"></td>',
        f'<td class="num rank col-rank"><a href="{href}">{rank}</a></td>',
        *(
            [f'<td class="num sublist-rank col-sublist_rank">{_text(row.get("sublist_rank"))}</td>']
            if with_sublist
            else []
        ),
        f'<td class="col-release">{_text(row.get("release"))}</td>',
        f'<td class="col-institution">{_entity_link("institution", row.get("institution"))}</td>',
        f'<td class="col-system"><a href="{href}">{system}</a>{new}{invalid}</td>',
        f'<td class="col-storage_vendor">{_entity_link("vendor", row.get("storage_vendor"))}</td>',
        f'<td class="col-filesystem">{_entity_link("filesystem", row.get("filesystem"))}</td>',
        f'<td class="num col-client_nodes">{nodes}</td>',
        f'<td class="num col-total_procs">{tasks}</td>',
        f'<td class="num col-score">{two_decimals(row.get("score"))}</td>',
        f'<td class="num col-bw">{two_decimals(row.get("bw"))}</td>',
        f'<td class="num col-md">{two_decimals(row.get("md"))}</td>',
        f'<td class="col-reproducibility">{_badge(row)}</td>',
        f'<td class="col-submitter">{_text(row.get("submitter"))}</td>',
    ]
    if with_custom:
        custom_score = custom_number(row.get("custom_score"))
        cells.append(f'<td class="num custom-col col-custom_score">{custom_score}</td>')
        cells.append(f'<td class="num custom-col col-custom_rank">{_text(row.get("custom_rank"))}</td>')
    new_attr = ' data-new="1"' if new else ""
    invalid_attr = ' data-invalid-here="1"' if invalid else ""
    return f'<tr data-submission="{pk}"{new_attr}{invalid_attr}>{"".join(cells)}</tr>'


def rows_html(
    rows: Iterable[Mapping[str, Any]],
    *,
    detail_prefix: str,
    with_custom: bool,
    with_sublist: bool = False,
    new_ids: frozenset[int] = frozenset(),
    mark_invalid: bool = False,
) -> SafeString:
    """The <tr> elements of a list table; `detail_prefix` is the submission page URL without the id
    (reversed once per page instead of once per row); `new_ids`: the submissions not on the previous
    list, marked "new"; `mark_invalid`: an official list, whose rows of runs found invalid here say so."""
    html = "\n".join(
        row_html(
            row,
            detail_prefix=detail_prefix,
            with_custom=with_custom,
            with_sublist=with_sublist,
            new_ids=new_ids,
            mark_invalid=mark_invalid,
        )
        for row in rows
    )
    # Safe: every value above went through html.escape.
    return mark_safe(html)
