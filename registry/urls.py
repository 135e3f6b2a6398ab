from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from registry import health
from registry.api_docs import ApiDocsView

urlpatterns = [
    path("admin/", admin.site.urls),
    # The registry's account pages first: its password-reset routes replace Django's.
    path("accounts/", include("submissions.account_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("review/", include("registry.publishing_urls")),
    path("review/", include("submissions.review_urls")),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("submissions.api_urls")),
    path("api/v1/", include("registry.api_urls")),
    path("submissions/", include("submissions.urls")),
    path("charts/", include("frontend.chart_urls")),
    path("", include("frontend.page_urls")),
    path("", include("frontend.urls")),
]

# Friendly pages without the database: a 503 while it is down, a plain 500 otherwise.
handler500 = "registry.errors.server_error"
