from __future__ import annotations

from django.urls import path

from submissions.review import views as review_views

app_name = "review"

urlpatterns = [
    path("", review_views.queue, name="queue"),
    path("<int:pk>/", review_views.review_detail, name="detail"),
    path("<int:pk>/decide/", review_views.decide, name="decide"),
    path("<int:pk>/assess/", review_views.assess, name="assess"),
    path("<int:pk>/accept-gap/", review_views.accept_gap, name="accept-gap"),
    path("<int:pk>/entry-decision/", review_views.entry_decide, name="entry-decide"),
    path(
        "<int:pk>/entry-decision/<int:decision_pk>/revoke/",
        review_views.entry_revoke,
        name="entry-revoke",
    ),
]
