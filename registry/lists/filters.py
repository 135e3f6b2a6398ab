"""Search, filters and ordering of a list's rows, all in the URL query so a view can be shared."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import F, OrderBy, Q, QuerySet
from django.db.models.functions import Lower

from registry.lists.facet_names import Kind, facet_key
from registry.lists.selectors import search_q
from registry.models import ListEntry
from submissions.models import Reproducibility

# The reproducibility levels as the URL spells them (?reproducibility=fully_reproducible).
REPRODUCIBILITY_LEVELS = tuple(str(value) for value in Reproducibility.values)

# URL name -> the annotated field of `selectors.list_entries` it sorts by (io500.org's sortable columns).
SORT_FIELDS = {
    "rank": "rank",
    "institution": "institution_name",
    "system": "system_name",
    "vendor": "vendor",
    "filesystem": "filesystem",
    "nodes": "client_nodes",
    "procs": "total_procs",
    "score": "score",
    "bw": "bw",
    "md": "md",
    "release": "first_release_date",
    "custom": "custom_score",
}
# Model fields of ListEntry itself; everything else must be an annotation present on the queryset
# (custom_score exists only when custom weights were given).
DIRECT_FIELDS = {"rank", "score", "bw", "md"}
TEXT_FIELDS = {"institution_name", "system_name", "vendor", "filesystem"}


class ListOrderingFilter(django_filters.OrderingFilter):  # type: ignore[misc]
    """Sorts by the URL names above; ties keep the official rank order. Unknown names are ignored."""

    def filter(self, qs: QuerySet[Any], value: list[str] | None) -> QuerySet[Any]:
        if not value:
            return qs
        orderings: list[OrderBy] = []
        for name in value:
            descending = name.startswith("-")
            field = SORT_FIELDS.get(name.lstrip("-"))
            if field is None:
                continue
            if field not in qs.query.annotations and field not in DIRECT_FIELDS:
                continue
            # Text sorts ignore case, as a reader expects ("CNES" next to "Clemson").
            expression = Lower(field) if field in TEXT_FIELDS else F(field)
            orderings.append(
                expression.desc(nulls_last=True) if descending else expression.asc(nulls_last=True)
            )
        return qs.order_by(*orderings, "rank") if orderings else qs


def filter_by_facet(queryset: QuerySet[Any], field: str, kind: Kind, value: str) -> QuerySet[Any]:
    """The rows whose recorded `field` has the canonical name `value` names (any spelling of it)."""
    if not value.strip():
        return queryset
    wanted = facet_key(kind, value)
    # The recorded spellings are few (a list has at most some dozens): read them, keep those that
    # map to the wanted name, and let the database match them exactly.
    recorded = set(queryset.order_by().values_list(field, flat=True).distinct())
    matching = [spelling for spelling in recorded if spelling and facet_key(kind, spelling) == wanted]
    if not wanted:  # "n/a", "unknown": the rows that record no name
        return queryset.filter(Q(**{f"{field}__in": matching}) | Q(**{f"{field}__isnull": True}))
    return queryset.filter(**{f"{field}__in": matching})


FACET_HELP = (
    "Matches every spelling the list recorded for it (BeeGFS and beegfs alike); "
    "each row still shows the name as recorded."
)


class ListEntryFilter(django_filters.FilterSet):  # type: ignore[misc]
    q = django_filters.CharFilter(method="filter_search", label="Search")
    filesystem = django_filters.CharFilter(
        method="filter_filesystem", label="File system", help_text=FACET_HELP
    )
    vendor = django_filters.CharFilter(method="filter_vendor", label="Storage vendor", help_text=FACET_HELP)
    nodes_min = django_filters.NumberFilter(
        field_name="client_nodes", lookup_expr="gte", label="Client nodes from"
    )
    nodes_max = django_filters.NumberFilter(
        field_name="client_nodes", lookup_expr="lte", label="Client nodes to"
    )
    year = django_filters.NumberFilter(
        field_name="submission__release__publication_date__year", label="Year first listed"
    )
    reproducibility = django_filters.ChoiceFilter(
        field_name="submission__reproducibility", choices=Reproducibility.choices, label="Reproducibility"
    )
    # Only where the submitter's system description names one (selectors.list_entries).
    institution_type = django_filters.CharFilter(
        field_name="institution_type", lookup_expr="iexact", label="Institution type"
    )
    o = ListOrderingFilter(fields=tuple((name, name) for name in SORT_FIELDS), label="Sort")

    class Meta:
        model = ListEntry
        fields: list[str] = []

    def filter_filesystem(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return filter_by_facet(queryset, "filesystem", "filesystem", value)

    def filter_vendor(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return filter_by_facet(queryset, "vendor", "vendor", value)

    def filter_search(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        value = value.strip()
        return queryset.filter(search_q(value)) if value else queryset
