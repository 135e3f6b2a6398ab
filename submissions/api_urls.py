from __future__ import annotations

from django.urls import path

from submissions import api, systems_api
from submissions.audits import api as audit_api
from submissions.review import api as review_api
from submissions.run_tokens import api as run_token_api

app_name = "submissions-api"

urlpatterns = [
    path("audits/", audit_api.AuditListApi.as_view(), name="audit-list"),
    path("audits/<int:pk>/answer/", audit_api.AuditAnswerApi.as_view(), name="audit-answer"),
    path("releases/<slug:release>/audit-draw/", audit_api.AuditDrawApi.as_view(), name="audit-draw"),
    path("releases/<slug:release>/objections/", audit_api.ObjectionListApi.as_view(), name="objection-list"),
    path("objections/<int:pk>/answer/", audit_api.ObjectionAnswerApi.as_view(), name="objection-answer"),
    path(
        "objection-answers/<int:pk>/revoke/",
        audit_api.ObjectionAnswerRevokeApi.as_view(),
        name="objection-answer-revoke",
    ),
    path("submissions/", api.SubmissionListCreateApi.as_view(), name="submission-list"),
    path("submissions/<int:pk>/", api.SubmissionDetailApi.as_view(), name="submission-detail"),
    path(
        "submissions/<int:pk>/decisions/", review_api.EntryDecisionApi.as_view(), name="submission-decisions"
    ),
    path(
        "submissions/<int:pk>/decisions/<int:decision_pk>/revoke/",
        review_api.EntryDecisionRevokeApi.as_view(),
        name="submission-decision-revoke",
    ),
    path("submissions/<int:pk>/assess/", review_api.AssessApi.as_view(), name="submission-assess"),
    path("submissions/<int:pk>/comments/", review_api.CommentApi.as_view(), name="submission-comments"),
    path("submissions/<int:pk>/submit/", review_api.SubmitApi.as_view(), name="submission-submit"),
    path("submissions/<int:pk>/review/", review_api.ReviewDecisionApi.as_view(), name="submission-review"),
    path(
        "submissions/<int:pk>/system/",
        review_api.SystemDescriptionEditApi.as_view(),
        name="submission-system",
    ),
    path(
        "submissions/<int:pk>/questionnaire/",
        review_api.QuestionnaireApi.as_view(),
        name="submission-questionnaire",
    ),
    path(
        "submissions/<int:pk>/revisions/", review_api.RevisionListApi.as_view(), name="submission-revisions"
    ),
    path("run-tokens/", run_token_api.RunTokenListCreateApi.as_view(), name="run-token-list"),
    path("submissions/<int:pk>/replace/", review_api.ReplaceApi.as_view(), name="submission-replace"),
    path("submissions/<int:pk>/withdraw/", review_api.WithdrawApi.as_view(), name="submission-withdraw"),
    path("systems/", systems_api.StorageSystemListApi.as_view(), name="system-list"),
    path("systems/<int:pk>/", systems_api.StorageSystemDetailApi.as_view(), name="system-detail"),
]
