"""The form that asks for a run token. It parses; services.run_token_issue decides."""

from __future__ import annotations

from typing import Any

from django import forms

from registry.models import Release
from submissions.run_tokens.selectors import releases_taking_tokens


class RunTokenForm(forms.Form):
    release = forms.ModelChoiceField(
        queryset=Release.objects.none(),
        to_field_name="slug",
        empty_label=None,
        help_text="The release the run will be submitted to (only releases open for submissions).",
    )
    system_name = forms.CharField(
        label="System", max_length=255, help_text="The system the run will be made on, as you will name it."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        release_field = self.fields["release"]
        assert isinstance(release_field, forms.ModelChoiceField)
        release_field.queryset = releases_taking_tokens()
