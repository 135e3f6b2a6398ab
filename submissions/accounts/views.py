"""Account pages: sign up, activate, API token. Thin: forms parse, services act."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST, require_safe

from registry.core.ratelimit import too_many_response
from submissions.accounts.forms import LoginForm, SignupForm
from submissions.accounts.models import ApiToken
from submissions.accounts.services import activation_resend, user_activate, user_signup
from submissions.accounts.tokens import api_token_issue, api_token_user_id, token_in_header
from submissions.permissions import authenticated_user


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("submissions:mine")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            for field, errors in error.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            return render(request, "accounts/signup_done.html", {"email": form.cleaned_data["email"]})
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


# The account whose right password was typed before its activation: the only one the log-in page's
# "send the activation e-mail again" button may mail.
RESEND_SESSION_KEY = "activation_resend_user"


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def form_invalid(self, form: LoginForm) -> HttpResponse:  # type: ignore[override]
        if form.not_activated_user is not None:
            self.request.session[RESEND_SESSION_KEY] = form.not_activated_user.pk
        return super().form_invalid(form)


@require_POST
def resend_activation(request: HttpRequest) -> HttpResponse:
    """Mail the activation link again to the account the log-in form proved the password of."""
    user_pk = request.session.get(RESEND_SESSION_KEY)
    user = User.objects.filter(pk=user_pk).first() if user_pk is not None else None
    if user is None or user.is_active:
        request.session.pop(RESEND_SESSION_KEY, None)
        messages.info(request, "Log in with your user name and password.")
        return redirect("login")
    verdict = activation_resend(user=user)
    if not verdict.allowed:
        return too_many_response(
            request,
            "The activation e-mail was sent several times already. Look for it (and in your spam "
            "folder) before you ask again later.",
            verdict.retry_after,
        )
    messages.success(request, "The activation e-mail is on its way: open its link, then log in.")
    return redirect("login")


@require_GET
def activate(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    try:
        user = user_activate(uidb64=uidb64, token=token)
    except ValidationError as error:
        return render(
            request, "accounts/activate_failed.html", {"error": " ".join(error.messages)}, status=400
        )
    messages.success(request, f"Your account {user.get_username()} is active: log in to upload results.")
    return redirect("login")


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """Shows whether the user has a token; POST issues a new one, shown once (only a digest is kept)."""
    user = authenticated_user(request.user)
    new_token = ""
    if request.method == "POST":
        new_token = api_token_issue(user=user)
    current = ApiToken.objects.filter(user=user).order_by("-created_at").first()
    return render(request, "accounts/api_token.html", {"token": current, "new_token": new_token})


@never_cache
@require_safe
def upload_allowed(request: HttpRequest) -> HttpResponse:
    """204 naming the account (X-Upload-User) for a logged-in session or a valid API token, else 401.

    nginx asks this (`auth_request` in docker/nginx.conf) with the upload's headers but without its
    body, before it reads a byte of the body: an anonymous upload is refused before it costs the proxy
    disk, and nginx counts concurrent uploads per account by the id. It runs once per upload, so it
    only reads: the session, or one query for the token.
    """
    user_id: int | None = request.user.pk if request.user.is_authenticated else None
    if user_id is None and (token := token_in_header(request.headers.get("Authorization", ""))) is not None:
        user_id = api_token_user_id(token=token)
    if user_id is not None:
        allowed = HttpResponse(status=204)
        allowed["X-Upload-User"] = str(user_id)
        return allowed
    refused = HttpResponse(
        "Log in, or send your API token (Authorization: Token ...), to upload.\n",
        status=401,
        content_type="text/plain; charset=utf-8",
    )
    refused["WWW-Authenticate"] = "Token"
    return refused
