from __future__ import annotations

from django.urls import path, re_path

from frontend.lists import views
from frontend.lists.bulk_api import BulkDownloadView

app_name = "frontend"

# Release slugs are lower-case (sc17 ... isc26); kinds are the ListKind values.
RELEASE = r"(?P<release>[a-z0-9]+)"
KIND = r"(?P<kind>[a-z0-9-]+)"

urlpatterns = [
    path("", views.home, name="home"),
    path("lists/", views.lists_index, name="lists"),
    re_path(r"^entries/(?P<entry_id>[a-z0-9-]{1,80})/$", views.entry, name="entry"),
    re_path(r"^lists/all\.(?P<fmt>csv|json)\.gz$", BulkDownloadView.as_view(), name="bulk-download"),
    path("lists/README.txt", views.downloads_readme_view, name="downloads-readme"),
    re_path(rf"^lists/{RELEASE}/{KIND}\.(?P<fmt>csv|json)$", views.list_download, name="list-download"),
    re_path(rf"^lists/{RELEASE}/{KIND}/$", views.list_page, name="list"),
    re_path(rf"^lists/{RELEASE}/$", views.release_page, name="release"),
]
