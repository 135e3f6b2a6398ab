from __future__ import annotations

from django.urls import path

from submissions import views
from submissions.audits import views as audit_views
from submissions.review import views as review_views
from submissions.run_tokens import views as run_token_views

# The public page of a submission (/submissions/<id>/, "submissions:detail") is presentation and lives
# in frontend.pages; the root URLs (registry.urls) put it in this namespace beside these routes.
app_name = "submissions"

urlpatterns = [
    path("upload/", views.upload, name="upload"),
    path("mine/", views.mine, name="mine"),
    path("run-tokens/", run_token_views.run_tokens, name="run-tokens"),
    path("audits/<int:pk>/", audit_views.audit_page, name="audit"),
    path("objections/<slug:release>/", audit_views.objections_page, name="objections"),
    path("<int:pk>/status.json", views.status, name="status"),
    path("<int:pk>/files/<int:archive_id>/", views.download, name="download"),
    path("after-login/", views.after_login, name="after-login"),
    path("<int:pk>/system/", review_views.system_edit, name="system-edit"),
    path("<int:pk>/replace/", review_views.replace, name="replace"),
    path("<int:pk>/withdraw/", review_views.withdraw, name="withdraw"),
    path("<int:pk>/questionnaire/", review_views.questionnaire_edit, name="questionnaire"),
    path("<int:pk>/submit/", review_views.submit, name="submit"),
    path("<int:pk>/publication-name/", review_views.publication_name, name="publication-name"),
    path("<int:pk>/comments/", review_views.comment_post, name="comment"),
]
