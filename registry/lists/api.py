"""Read-only API for the lists: the same rows as the list page and its downloads."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from registry.lists.claim_check import check_claim
from registry.lists.columns import BOOLEAN, INTEGER, NUMBER, TEXT, Column
from registry.lists.complete import COMPLETE_COLUMNS, list_payload_complete, list_rows_complete
from registry.lists.index import ListIndexRow, list_index
from registry.lists.rows import resolve_list
from registry.models import ListSnapshot


class ListRowSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    id = serializers.IntegerField(help_text="The registry's submission id.")
    io500_id = serializers.IntegerField(allow_null=True, help_text="The io500.org submission id, else null.")
    release = serializers.CharField(
        allow_null=True, help_text="The release in which the entry first appeared."
    )
    institution = serializers.CharField(allow_null=True)
    system = serializers.CharField(allow_null=True)
    storage_vendor = serializers.CharField(allow_null=True)
    filesystem = serializers.CharField(allow_null=True)
    client_nodes = serializers.IntegerField(allow_null=True)
    total_procs = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField()
    bw = serializers.FloatField(allow_null=True, help_text="GiB/s")
    md = serializers.FloatField(allow_null=True, help_text="kIOPS")
    reproducibility = serializers.CharField(
        help_text=(
            "The committee's reproducibility level: undefined, limited, proprietary or fully_reproducible."
        )
    )
    submitter = serializers.CharField(
        allow_null=True, help_text='The submitter\'s name, "anonymous", or null for imported history.'
    )
    custom_score = serializers.FloatField(required=False, allow_null=True)
    custom_rank = serializers.IntegerField(required=False, allow_null=True)
    sublist_rank = serializers.IntegerField(
        required=False, help_text="With filters: the entry's rank among the entries that match them."
    )


def column_field(column: Column) -> serializers.Field[Any, Any, Any, Any]:
    """The schema of one complete-download column (registry.lists.complete)."""
    help_text = f"{column.description} Unit: {column.unit}." if column.unit else column.description
    if column.io500_org:
        help_text = f"io500.org's download column. {help_text}"
    field_class: type[serializers.Field[Any, Any, Any, Any]] = {
        NUMBER: serializers.FloatField,
        INTEGER: serializers.IntegerField,
        BOOLEAN: serializers.BooleanField,
    }.get(column.kind, serializers.CharField)
    return field_class(allow_null=True, help_text=help_text)


# The columns after the page's, under names that are no Python identifiers ("ior-easy-write (GiB/s)"):
# declared through the class namespace, as the serializer metaclass collects them from it.
CompleteListRowSerializer = type(
    "CompleteListRowSerializer",
    (ListRowSerializer,),
    {
        "__doc__": "One list entry with every column of the complete download, in the CSV's order.",
        **{
            column.name: column_field(column)
            for column in COMPLETE_COLUMNS
            if column.name not in ListRowSerializer._declared_fields
        },
    },
)


class ColumnSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(help_text="The CSV header and the JSON key.")
    type = serializers.ChoiceField(choices=[NUMBER, INTEGER, TEXT, BOOLEAN])
    unit = serializers.CharField(allow_null=True)
    io500_org = serializers.BooleanField(help_text="Named as io500.org's list download names it.")
    description = serializers.CharField()


class AwardWinnerSerializer(serializers.Serializer[dict[str, Any]]):
    submission_id = serializers.IntegerField()
    rank = serializers.IntegerField()
    system = serializers.CharField()
    institution = serializers.CharField()
    score = serializers.FloatField()
    bw = serializers.FloatField(allow_null=True)
    md = serializers.FloatField(allow_null=True)
    client_nodes = serializers.IntegerField(allow_null=True)


class AwardSerializer(serializers.Serializer[dict[str, Any]]):
    # A plain string: another component names a choice field "category" (an enum name collision).
    category = serializers.CharField(help_text="overall, bandwidth or metadata.")
    name = serializers.CharField(help_text="Overall score, Bandwidth or Metadata.")
    metric = serializers.ChoiceField(choices=["score", "bw", "md"])
    unit = serializers.CharField()
    value = serializers.FloatField()
    shared = serializers.BooleanField(help_text="Several entries have the same value and share the award.")
    winners = AwardWinnerSerializer(many=True)


class ListPayloadSerializer(serializers.Serializer[dict[str, Any]]):
    release = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField(
        help_text='The list as io500.org named it, e.g. "SC18*" for the corrected SC18.'
    )
    version = serializers.IntegerField()
    status = serializers.CharField()
    published_at = serializers.DateTimeField(allow_null=True)
    correction_reason = serializers.CharField()
    provenance = serializers.ChoiceField(
        choices=["recorded", "reconstructed", "published_here"],
        help_text=(
            "recorded: as io500.org published it; reconstructed: rebuilt by this registry from the "
            "public raw data with its own rules (not an official list); published_here: published by "
            "this registry's committee."
        ),
    )
    provenance_label = serializers.CharField()
    official = serializers.BooleanField(
        help_text="False for a reconstructed list, which no IO500 committee published."
    )
    derived_view = serializers.CharField(
        allow_null=True,
        help_text="With a custom ranking or filters: why this view is the registry's, not an IO500 "
        "metric or list (the IO500 Messaging Policy's rule on custom comparisons).",
    )
    messaging_term = serializers.CharField(
        help_text="verified for a published IO500 list (recorded or published here), unverified for a "
        "list reconstructed here: the IO500 Messaging Policy's term for quoting its entries."
    )
    data_source = serializers.CharField(
        help_text="The public files the entries come from, and what they lack."
    )
    custom_weights = serializers.DictField(child=serializers.FloatField(), allow_null=True)
    custom_formula = serializers.CharField(
        allow_null=True, help_text="The formula the custom score comes from, as the site writes it."
    )
    custom_errors = serializers.ListField(
        child=serializers.CharField(), help_text="What was wrong with the custom weights or formula."
    )
    custom_notes = serializers.ListField(
        child=serializers.CharField(), help_text="Why some entries have no custom score."
    )
    sublist = serializers.BooleanField(help_text="Filters were given; the rows carry sublist_rank.")
    statistics = serializers.DictField(
        allow_null=True,
        help_text="Count, best/median/geometric mean/lowest of score, bw and md, client nodes, and shares.",
    )
    awards = AwardSerializer(
        many=True,
        help_text=(
            "The #1 by overall score, bandwidth and metadata among runs on at least 10 client nodes, as "
            "io500.org awards its ranked lists; empty for Full, Historical and SCC lists and drafts."
        ),
    )
    previous_list = serializers.CharField(
        allow_null=True, help_text="The list this one is compared with; null for the first of its kind."
    )
    new_entries = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Submission ids of the entries not on the previous list (marked new on the page).",
    )
    count = serializers.IntegerField()
    columns = ColumnSerializer(
        many=True, help_text="What each key of a row holds, in the CSV's column order."
    )
    rows = CompleteListRowSerializer(many=True)


QUERY_PARAMETERS = [
    OpenApiParameter("q", OpenApiTypes.STR, description="Search institution, system, vendor, file system."),
    OpenApiParameter(
        "filesystem",
        OpenApiTypes.STR,
        description=(
            "File-system type by its canonical name, any recorded spelling of it or its slug (any case): "
            "'Lustre', 'lustre06' and 'lustre' all match every Lustre entry. Rows keep the name as recorded."
        ),
    ),
    OpenApiParameter(
        "vendor",
        OpenApiTypes.STR,
        description="Storage vendor by its canonical name, any recorded spelling or its slug (any case).",
    ),
    OpenApiParameter("nodes_min", OpenApiTypes.INT),
    OpenApiParameter("nodes_max", OpenApiTypes.INT),
    OpenApiParameter(
        "year", OpenApiTypes.INT, description="Year of the release the entry first appeared in."
    ),
    OpenApiParameter(
        "o", OpenApiTypes.STR, description="Sort: rank, score, bw, md, nodes, ... ('-' = descending)."
    ),
    OpenApiParameter("w_bw", OpenApiTypes.NUMBER, description="Custom ranking weight of bandwidth (0-100)."),
    OpenApiParameter("w_md", OpenApiTypes.NUMBER, description="Custom ranking weight of metadata (0-100)."),
    OpenApiParameter(
        "formula",
        OpenApiTypes.STR,
        description=(
            "Custom ranking formula over score, bw, md, nodes, procs and the phases (ior_easy_write, ...), "
            "e.g. sqrt(ior_easy_write * ior_hard_write) / nodes; rows are sorted by it unless o is given."
        ),
    ),
    OpenApiParameter(
        "reproducibility",
        OpenApiTypes.STR,
        description="Reproducibility level: undefined, limited, proprietary or fully_reproducible.",
    ),
    OpenApiParameter(
        "institution_type",
        OpenApiTypes.STR,
        description="Institution type, where the system description states one (exact, any case).",
    ),
    OpenApiParameter(
        "version", OpenApiTypes.INT, description="An earlier published version of a corrected list."
    ),
]


class ListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=QUERY_PARAMETERS, responses=ListPayloadSerializer, summary="One published list")
    def get(self, request: Request, release: str, kind: str) -> Response:
        try:
            found, snapshot = resolve_list(release, kind, request.query_params.get("version", ""))
        except Http404 as error:
            raise NotFound(str(error)) from error
        if snapshot is None:
            raise NotFound(f"No {kind} list was published for {found.name}.")
        result = list_rows_complete(snapshot=snapshot, params=request.query_params)
        return Response(list_payload_complete(snapshot, result))


class ListIndexRowSerializer(serializers.Serializer[Any]):
    release = serializers.CharField(help_text="The release's slug, as in the list addresses.")
    release_name = serializers.CharField()
    publication_date = serializers.DateField()
    kind = serializers.CharField(help_text="The list kind, as in the list addresses.")
    kind_label = serializers.CharField()
    title = serializers.CharField(help_text='The list as io500.org named it, e.g. "SC18*".')
    version = serializers.IntegerField(help_text="The version shown (a correction is a higher version).")
    versions = serializers.IntegerField(help_text="How many versions anyone may read.")
    status = serializers.CharField()
    published_at = serializers.DateTimeField(allow_null=True)
    entries = serializers.IntegerField(help_text="Entries on this version of the list.")
    provenance = serializers.ChoiceField(choices=ListSnapshot.Provenance.choices)
    provenance_label = serializers.CharField()
    official = serializers.BooleanField(
        help_text="False for a list reconstructed here, which no committee published."
    )
    links = serializers.SerializerMethodField()

    @extend_schema_field(
        inline_serializer(
            name="ListIndexLinks",
            fields={name: serializers.CharField() for name in ("api", "page", "csv", "json")},
        )
    )
    def get_links(self, row: ListIndexRow) -> dict[str, str]:
        request = self.context["request"]
        kwargs = {"release": row.release, "kind": row.kind}
        return {
            "api": request.build_absolute_uri(reverse("registry-api:list", kwargs=kwargs)),
            "page": request.build_absolute_uri(reverse("frontend:list", kwargs=kwargs)),
            "csv": request.build_absolute_uri(
                reverse("frontend:list-download", kwargs={**kwargs, "fmt": "csv"})
            ),
            "json": request.build_absolute_uri(
                reverse("frontend:list-download", kwargs={**kwargs, "fmt": "json"})
            ),
        }


class ListIndexView(APIView):
    """Every list anyone may read: one row per release and list kind, newest release first, with its
    entry count, provenance and links to the list in the API, on the site and as CSV and JSON."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ListIndexRowSerializer(many=True), summary="The index of every list")
    def get(self, request: Request) -> Response:
        rows = list_index()
        return Response(ListIndexRowSerializer(rows, many=True, context={"request": request}).data)


class ClaimListSerializer(serializers.Serializer[dict[str, Any]]):
    release = serializers.CharField()
    name = serializers.CharField(help_text='The list\'s name as published, e.g. "SC18*".')
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    provenance = serializers.CharField(help_text="recorded, reconstructed or published_here.")
    provenance_label = serializers.CharField()
    official = serializers.BooleanField(help_text="False for a list reconstructed here: no IO500 list.")
    url = serializers.URLField()


class ClaimEntrySerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(help_text="The entry's rank on the list (by the list score).")
    rank_by_metric = serializers.IntegerField(help_text="Its rank by the claim's metric.")
    system = serializers.CharField()
    institution = serializers.CharField()
    metric = serializers.ChoiceField(choices=["score", "bw", "md"])
    value = serializers.FloatField(allow_null=True)
    unit = serializers.CharField(allow_null=True)
    submission_url = serializers.URLField()
    list_entry_id = serializers.CharField()


class ClaimCheckSerializer(serializers.Serializer[dict[str, Any]]):
    claim = serializers.CharField(help_text="The sentence as read (normalised, at most 500 characters).")
    read = inline_serializer(
        "ClaimRead",
        {
            "rank": serializers.IntegerField(allow_null=True),
            "release": serializers.CharField(allow_null=True),
            "kind": serializers.CharField(allow_null=True),
            "metric": serializers.CharField(),
            "numbers": serializers.ListField(child=serializers.FloatField()),
            "term": serializers.CharField(allow_null=True),
        },
    )
    verdict = serializers.ChoiceField(choices=["supported", "not-supported", "cannot-check"])
    verdict_label = serializers.CharField()
    reasons = serializers.ListField(child=serializers.CharField())
    list = ClaimListSerializer(allow_null=True)
    entry = ClaimEntrySerializer(allow_null=True)
    messaging_term = serializers.CharField(
        allow_null=True,
        help_text="The IO500 Messaging Policy term of the entry found: verified (on a published IO500 list) "
        "or unverified.",
    )
    citation = serializers.CharField(allow_null=True, help_text="The placement as the policy asks it quoted.")
    policy = inline_serializer(
        "ClaimPolicy", {"url": serializers.URLField(), "source": serializers.URLField()}
    )


class ClaimCheckView(APIView):
    """Whether the published lists support a sentence quoting an IO500 result ("#1 on the SC25
    Production list with 32,165"), and the citation the IO500 Messaging Policy asks for."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "claim", OpenApiTypes.STR, required=True, description="The sentence to check (any wording)."
            )
        ],
        responses=ClaimCheckSerializer,
        summary="Check a claim about an IO500 result",
    )
    def get(self, request: Request) -> Response:
        return Response(check_claim(request.query_params.get("claim", "")).as_dict())
