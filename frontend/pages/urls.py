from __future__ import annotations

from django.urls import path

from frontend.charts.entities import ENTITY_KINDS
from frontend.pages import claims, entities, files, info
from frontend.pages import views as pages

app_name = "pages"

urlpatterns = [
    path("systems/<int:pk>/", pages.system_page, name="system"),
    path("compare/", pages.compare_page, name="compare"),
    path("history/", pages.history_page, name="history"),
    path("rules/", info.rules_page, name="rules"),
    path("how-to-run/", info.how_to_run_page, name="how-to-run"),
    path("call/", info.call_page, name="call"),
    path("about/", info.about_page, name="about"),
    path("faq/", info.faq_page, name="faq"),
    path("claims/", claims.claim_check_page, name="claims"),
    *(
        route
        for kind, words in ENTITY_KINDS.items()
        for route in (
            path(f"{words['path']}/", entities.index_page, {"kind": kind}, name=f"{kind}-index"),
            path(f"{words['path']}/<slug:slug>/", entities.detail_page, {"kind": kind}, name=kind),
        )
    ),
]

# Joined to the `submissions` namespace by the root URLs (registry.urls): the submission page keeps its
# address and its name, submissions:detail.
submission_urlpatterns = [
    path("<int:pk>/", pages.submission_page, name="detail"),
    path("<int:pk>/files/<int:archive_id>/view/", files.archive_files, name="files"),
    path("<int:pk>/files/<int:archive_id>/view/<int:member>/", files.archive_file, name="file"),
    path("<int:pk>/findings/<int:finding_id>/source/", files.finding_source, name="finding-source"),
]
