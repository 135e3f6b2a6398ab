"""Forms of the account pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from submissions.accounts.backends import inactive_user_with_password
from submissions.accounts.names import validate_new_username


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label="E-mail address", help_text="The activation link and the committee's decisions go here."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        # Invisible characters, mixed look-alike scripts and another account's look-alike: refused
        # with the reason (submissions.accounts.names).
        self.fields["username"].validators.append(validate_new_username)


class LoginForm(AuthenticationForm):
    """Django's log-in form, but an account whose activation link was never opened is told so (when
    the password is right) instead of being told the password is wrong."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "not_activated": (
            "This account is not activated yet: open the link in the activation e-mail we sent when "
            "you signed up, or have it sent again below."
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.not_activated_user: User | None = None

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError as error:
            username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
            if error.code != "invalid_login" or not username or not password:
                raise
            self.not_activated_user = inactive_user_with_password(username, password)
            if self.not_activated_user is None:
                raise
            raise ValidationError(self.error_messages["not_activated"], code="not_activated") from None
