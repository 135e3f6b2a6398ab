"""Forms of the account pages."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label="E-mail address", help_text="The activation link and the committee's decisions go here."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
