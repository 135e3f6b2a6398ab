from __future__ import annotations

from django.urls import path

from submissions import api
from submissions.review.api import EntryDecisionApi

app_name = "submissions-api"

urlpatterns = [
    path("submissions/", api.SubmissionListCreateApi.as_view(), name="submission-list"),
    path("submissions/<int:pk>/", api.SubmissionDetailApi.as_view(), name="submission-detail"),
    path("submissions/<int:pk>/decisions/", EntryDecisionApi.as_view(), name="submission-decisions"),
]
