from __future__ import annotations

from django.urls import path

from submissions import api

app_name = "submissions-api"

urlpatterns = [
    path("submissions/", api.SubmissionListCreateApi.as_view(), name="submission-list"),
    path("submissions/<int:pk>/", api.SubmissionDetailApi.as_view(), name="submission-detail"),
]
