"""The public pages and chart data the public response cache may answer (registry.core.public_cache),
each with the query parameters its view reads: the only ones a stored answer's key holds.

Everything a submission's or a system's page and charts show is covered by its row's fingerprint.
"""

from __future__ import annotations

import re

from frontend.charts.kinds import HISTORY_PARAMS, KIND_CHOICES, KIND_PARAMS, RANKS_PARAMS
from frontend.charts.selectors import system_public_fingerprint
from frontend.lists.context import PAGE_PARAMS
from registry.core.public_cache import PublicRoute, public_expiry_register, public_routes_register
from registry.core.query_params import one_of, query_shapes_register
from registry.lists.selectors import next_embargo_end
from submissions.selectors import submission_public_fingerprint

# A claim as a person pastes it: printable, trimmed, short enough to keep.
CLAIM_SHAPE = re.compile(r"(?=\S)[^\x00-\x1f\x7f]{1,160}(?<=\S)")

PUBLIC_ROUTES = (
    PublicRoute(re.compile(r"^/$"), PAGE_PARAMS),
    PublicRoute(re.compile(r"^/lists/[a-z0-9]+/[a-z0-9-]+/$"), PAGE_PARAMS),
    # A release's page (its lists, what is new, the awards): served and cached by the list pages' code,
    # which reads the same query names.
    PublicRoute(re.compile(r"^/lists/[a-z0-9]+/$"), PAGE_PARAMS),
    PublicRoute(re.compile(r"^/history/$"), HISTORY_PARAMS),
    # The list index reads only the release picker's `?release=` (which redirects to that release).
    PublicRoute(re.compile(r"^/lists/$"), ("release",)),
    # The information pages (frontend.pages.info) read no query.
    PublicRoute(re.compile(r"^/(?:rules|how-to-run|call|about)/$"), ()),
    # The claim checker reads the sentence only; a long or odd one is answered but never kept.
    PublicRoute(re.compile(r"^/claims/$"), ("claim",)),
    PublicRoute(re.compile(r"^/charts/history/points\.json$"), HISTORY_PARAMS),
    PublicRoute(re.compile(r"^/charts/history/(?:trends\.json|shares\.json|shares\.csv)$"), KIND_PARAMS),
    # Site, vendor and file-system pages and their best-score chart read no query.
    PublicRoute(re.compile(r"^/(?:sites|vendors|file-systems)/(?:[a-z0-9-]+/)?$"), ()),
    PublicRoute(re.compile(r"^/charts/(?:sites|vendors|file-systems)/[a-z0-9-]+/trends\.json$"), ()),
    PublicRoute(re.compile(r"^/charts/radar/[a-z0-9]+/[a-z0-9-]+\.json$"), ()),
    PublicRoute(re.compile(r"^/charts/systems/\d+/history\.json$"), ()),
    PublicRoute(
        re.compile(r"^/(?:charts/)?submissions/(?P<pk>\d+)/(?:$|phases\.json$|timeline\.json$)"),
        (),
        submission_public_fingerprint,
    ),
    PublicRoute(
        re.compile(r"^/charts/submissions/(?P<pk>\d+)/ranks\.json$"),
        RANKS_PARAMS,
        submission_public_fingerprint,
    ),
    PublicRoute(re.compile(r"^/systems/(?P<pk>\d+)/$"), (), system_public_fingerprint),
)


def register() -> None:
    query_shapes_register({"kind": one_of([value for value, _ in KIND_CHOICES]), "claim": CLAIM_SHAPE})
    public_routes_register(*PUBLIC_ROUTES)
    # A list leaving its embargo changes the pages without a publish: no answer is kept past that.
    public_expiry_register(next_embargo_end)
