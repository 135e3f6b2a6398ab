"""The bulk download of every public list (frontend.lists.bulk), as an API view so that the OpenAPI
schema documents it next to the list API."""

from __future__ import annotations

import json

from django.http import HttpResponse, HttpResponseBase, HttpResponseNotModified, JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from frontend.lists.bulk import BULK_CACHE_SECONDS, BULK_FORMATS, BulkFile, bulk_file
from frontend.lists.readme import describedby, readme_url

RETRY_AFTER_SECONDS = 30


class GzipRenderer(BaseRenderer):
    """The view's one media type. Its answers are HttpResponses, which skip rendering; DRF's own
    error answers (a failed throttle, say) come out as JSON bytes."""

    media_type = "application/gzip"
    format = "gz"
    charset = None
    render_style = "binary"

    def render(
        self, data: object, accepted_media_type: str | None = None, renderer_context: object = None
    ) -> bytes:
        return json.dumps(data).encode()


DESCRIPTION = """Every entry of every published IO500 list in the registry, gzip-compressed: `csv` or `json`.

Each row has the columns of the per-list downloads (`/lists/<release>/<kind>.csv` and `.json`):
the list page's columns; the citable `list_entry_id` (`io500-<release>-<kind>-v<version>-<rank>`),
the submission's permalink and the list it belongs to (`list_release`, `list_kind`, `list_version`,
`list_provenance`, `list_official`, ...); io500.org's list-download columns under io500.org's names
(`information_system`, `io500_bw`, `ior_easy_write`, ..., `repository_url`); every phase value and
time recomputed here from the raw files, with its unit in the column name (`ior-easy-write
recomputed (GiB/s)`, `ior-easy-write time (seconds)`); and the system description. io500.org's
phase columns are authoritative for the official lists' ranks, the recomputed ones for what the raw
files show: `/lists/README.txt` (the `Link` header) says it, and describes every column. The JSON
holds the same rows (`rows`), what each column holds (`columns`) and the lists (`lists`).

Only lists anyone may read are included: published or superseded, out of embargo. Rows of lists
with `list_official` false were reconstructed here by the registry's rules and are not official
IO500 lists. The file is built once per change of the lists; `ETag` and `If-None-Match` spare a
download of the same file. While it is being built, the answer is 503 with `Retry-After`."""


def bulk_response(found: BulkFile, if_none_match: str | None) -> HttpResponseBase:
    if if_none_match == found.etag:
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = found.etag
        return not_modified
    response = HttpResponse(found.body, content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{found.filename}"'
    response["ETag"] = found.etag
    response["Content-Length"] = str(len(found.body))
    response["X-Generated-At"] = found.generated_at
    response["X-Lists"] = str(found.lists)
    response["X-Rows"] = str(found.rows)
    response["Link"] = describedby(readme_url())
    # The same bytes for everyone until the lists change; shared caches may keep them.
    response["Cache-Control"] = f"public, max-age={min(BULK_CACHE_SECONDS, 3600)}"
    return response


class BulkDownloadView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    renderer_classes = [GzipRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[BaseRenderer, str]:
        # Whatever the client accepts, the answer is the file (or a short JSON error): never a 406.
        renderer = GzipRenderer()
        return renderer, renderer.media_type

    @extend_schema(
        operation_id="lists_bulk_download",
        parameters=[
            OpenApiParameter(
                "fmt",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                enum=list(BULK_FORMATS),
                description="csv or json",
            )
        ],
        summary="Every public list, complete, in one compressed file",
        description=DESCRIPTION,
        responses={
            (200, "application/gzip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="gzip-compressed CSV or JSON (see the description)."
            ),
            304: OpenApiResponse(description="Not modified: the ETag given in If-None-Match is current."),
            503: OpenApiResponse(description="The file is being built; Retry-After says when to ask again."),
        },
    )
    def get(self, request: Request, fmt: str) -> HttpResponseBase:
        found = bulk_file(fmt)
        if found is None:
            busy = JsonResponse(
                {"detail": "The bulk download is being prepared; ask again in half a minute."}, status=503
            )
            busy["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return busy
        return bulk_response(found, request.headers.get("If-None-Match"))
