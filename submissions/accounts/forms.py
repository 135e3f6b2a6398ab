"""Forms of the account pages."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

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
