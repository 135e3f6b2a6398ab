from __future__ import annotations

from django.urls import path, re_path

from registry.lists import publishing_views

app_name = "publishing"

RELEASE = r"(?P<release>[a-z0-9]+)"
KIND = r"(?P<kind>[a-z0-9-]+)"

urlpatterns = [
    path("releases/", publishing_views.releases, name="releases"),
    path("releases/new/", publishing_views.release_new, name="release-new"),
    re_path(rf"^releases/{RELEASE}/edit/$", publishing_views.release_edit, name="release-edit"),
    re_path(rf"^releases/{RELEASE}/$", publishing_views.release_page, name="release"),
    re_path(rf"^releases/{RELEASE}/build/$", publishing_views.build, name="build"),
    re_path(rf"^releases/{RELEASE}/publish/$", publishing_views.publish_all, name="publish-all"),
    re_path(rf"^releases/{RELEASE}/lists/{KIND}/$", publishing_views.draft_page, name="draft"),
    re_path(rf"^releases/{RELEASE}/lists/{KIND}/publish/$", publishing_views.publish, name="publish"),
    re_path(rf"^releases/{RELEASE}/lists/{KIND}/exclude/$", publishing_views.exclude, name="exclude"),
    path("reverify/", publishing_views.reverify_runs, name="reverify"),
    path("reverify/<int:pk>/", publishing_views.reverify_detail, name="reverify-detail"),
]
