from __future__ import annotations

from django.urls import path

from submissions import views

app_name = "submissions"

urlpatterns = [
    path("upload/", views.upload, name="upload"),
    path("mine/", views.mine, name="mine"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/status.json", views.status, name="status"),
    path("<int:pk>/files/<int:archive_id>/", views.download, name="download"),
]
