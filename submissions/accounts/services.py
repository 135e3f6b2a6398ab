"""Accounts: sign-up with e-mail activation. Password reset is Django's own; API tokens are
submissions.accounts.tokens (issued from the token page)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from registry.core.ratelimit import Verdict, parse_rate, rate_hit
from registry.core.site import site_url


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    """Like the password-reset token, but also bound to `is_active`: a used link stops working."""

    key_salt = "submissions.accounts.ActivationTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


activation_tokens = ActivationTokenGenerator()


def activation_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("accounts:activate", kwargs={"uidb64": uid, "token": activation_tokens.make_token(user)})


def _send_activation(user: User) -> None:
    body = (
        f"Hello {user.get_username()},\n\n"
        "welcome to the IO500 results registry. Open this link to activate your account:\n\n"
        f"{site_url(activation_path(user))}\n\n"
        "If you did not sign up, ignore this message; the account stays inactive.\n"
    )
    send_mail("[IO500] Activate your registry account", body, None, [user.email])


def user_signup(*, username: str, email: str, password: str) -> User:
    """An inactive account and the mail with its activation link."""
    email = email.strip()
    if User.objects.filter(email__iexact=email).exists():
        raise ValidationError(
            {"email": "An account with this e-mail address exists already; reset its password instead."}
        )
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email, password=password, is_active=False)
        transaction.on_commit(lambda: _send_activation(user))
    return user


def activation_resend(*, user: User) -> Verdict:
    """Send the activation mail again, if the account is still inactive and within its limit.

    Counted per account (ACTIVATION_RESEND_RATE), on top of the per-address limit of the account
    forms, so that nobody who once typed the right password can flood the owner's inbox.
    """
    verdict = rate_hit(f"activation-resend:{user.pk}", parse_rate(settings.ACTIVATION_RESEND_RATE))
    if verdict.allowed and not user.is_active:
        _send_activation(user)
    return verdict


def user_activate(*, uidb64: str, token: str) -> User:
    """Activate the account the link names; ValidationError for a wrong, used or expired link."""
    try:
        user = User.objects.get(pk=int(force_str(urlsafe_base64_decode(uidb64))))
    except (ValueError, TypeError, OverflowError, User.DoesNotExist):
        user = None
    if user is None or not activation_tokens.check_token(user, token):
        raise ValidationError(
            "This activation link is not valid: it may have been used already or have expired. "
            "Log in if your account is active, or sign up again."
        )
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user
