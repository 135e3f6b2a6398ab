from __future__ import annotations

from django.urls import path, re_path

from registry.lists import api

app_name = "registry-api"

urlpatterns = [
    path("claims/check/", api.ClaimCheckView.as_view(), name="claim-check"),
    path("lists/", api.ListIndexView.as_view(), name="list-index"),
    re_path(r"^lists/(?P<release>[a-z0-9]+)/(?P<kind>[a-z0-9-]+)/$", api.ListView.as_view(), name="list"),
]
