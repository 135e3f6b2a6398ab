"""The committee's audit pages (under /review/); the submitter's are in submissions.urls."""

from __future__ import annotations

from django.urls import path, re_path

from submissions.audits import views

app_name = "audits"

RELEASE = r"(?P<release>[a-z0-9]+)"

urlpatterns = [
    re_path(rf"^releases/{RELEASE}/audit/$", views.release_audit_page, name="release"),
    re_path(rf"^releases/{RELEASE}/audit/draw/$", views.release_audit_draw_now, name="draw"),
    path("objections/<int:pk>/answer/", views.objection_answer_post, name="answer"),
    path("objection-answers/<int:pk>/revoke/", views.objection_revoke_post, name="revoke"),
]
