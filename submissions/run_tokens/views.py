"""The run tokens page of a logged-in submitter: ask for a token, see the tokens and their use."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from submissions.permissions import authenticated_user
from submissions.run_tokens.forms import RunTokenForm
from submissions.run_tokens.models import RunToken
from submissions.run_tokens.selectors import run_tokens_of
from submissions.run_tokens.services import run_token_issue

_SHOWN = 50


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def run_tokens(request: HttpRequest) -> HttpResponse:
    user = authenticated_user(request.user)
    form = RunTokenForm(request.POST or None)
    issued: RunToken | None = None
    if request.method == "POST" and form.is_valid():
        try:
            issued = run_token_issue(
                user=user, release=form.cleaned_data["release"], system_name=form.cleaned_data["system_name"]
            )
        except ValidationError as error:
            for field, errors in error.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            form = RunTokenForm()
    context = {
        "form": form,
        "issued": issued,
        "tokens": run_tokens_of(user=user)[:_SHOWN],
        "lifetime_hours": settings.RUN_TOKEN_LIFETIME_HOURS,
    }
    return render(request, "submissions/run_tokens.html", context, status=400 if form.errors else 200)
