"""/accounts/: sign-up, activation, API token and password reset with the registry's templates.

Included before django.contrib.auth.urls, so these password-reset routes win; login and logout
come from Django.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from submissions.accounts import views as account_views

app_name = "accounts"

urlpatterns = [
    path("signup/", account_views.signup, name="signup"),
    path("activate/<str:uidb64>/<str:token>/", account_views.activate, name="activate"),
    path("resend-activation/", account_views.resend_activation, name="resend-activation"),
    path("token/", account_views.api_token, name="api-token"),
    # Asked by nginx only (docker/nginx.conf keeps it internal): may this request upload?
    path("upload-allowed/", account_views.upload_allowed, name="upload-allowed"),
    path(
        "password_reset/",
        auth_views.PasswordResetView.as_view(
            template_name="accounts/password_reset_form.html",
            email_template_name="accounts/password_reset_email.txt",
            subject_template_name="accounts/password_reset_subject.txt",
            success_url=reverse_lazy("accounts:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
        name="password_reset_complete",
    ),
]
