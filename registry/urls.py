from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from frontend.pages.urls import submission_urlpatterns as submission_page_urlpatterns
from registry.core import health
from registry.core.api_docs import ApiDocsView, ApiSchemaView
from registry.core.api_root import ApiRootView
from submissions import urls as submission_urls
from submissions.accounts import views as account_views

urlpatterns = [
    path("admin/", admin.site.urls),
    # The registry's account pages first: its log-in and password-reset routes replace Django's.
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/", include("submissions.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("review/", include("registry.lists.publishing_urls")),
    path("review/", include("submissions.review.urls")),
    path("review/", include("submissions.audits.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/schema/", ApiSchemaView.as_view(), name="schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", ApiRootView.as_view(), name="api-root"),
    path("api/v1/", include("submissions.api_urls")),
    path("api/v1/", include("registry.lists.api_urls")),
    # The submission page (frontend.pages) joins the submissions app's routes in their namespace.
    path(
        "submissions/",
        include((submission_page_urlpatterns + submission_urls.urlpatterns, submission_urls.app_name)),
    ),
    path("charts/", include("frontend.charts.urls")),
    path("", include("frontend.pages.urls")),
    path("", include("frontend.lists.urls")),
]

# Friendly pages without the database: a 503 while it is down, a plain 500 otherwise; JSON under /api/.
handler500 = "registry.core.errors.server_error"
# JSON under /api/ (an unknown API path is a JSON 404, not a page), the site's pages elsewhere.
handler400 = "registry.core.api_errors.bad_request"
handler403 = "registry.core.api_errors.permission_denied"
handler404 = "registry.core.api_errors.page_not_found"
