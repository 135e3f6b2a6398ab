"""Forms of the workflow pages. They parse input; the services decide and validate the rules."""

from __future__ import annotations

from typing import Any

from django import forms

from registry.models import Release
from submissions.forms import ARCHIVE_EXTENSIONS, open_releases
from submissions.models import EntryDecision, ListCategory, Reproducibility
from submissions.review.models import QUESTIONNAIRE_MIN_WORDS, QUESTIONNAIRE_OPTIONAL, QUESTIONNAIRE_SECTIONS
from submissions.review.rules import TRANSITIONS, Actor
from submissions.system.description import COUNT_FIELDS, NETWORK_FIELD, TEXT_FIELDS
from submissions.system.hardware_fields import QUANTITY_FIELDS, quantity_help


class QuestionnaireForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (title, question) in QUESTIONNAIRE_SECTIONS.items():
            self.fields[name] = forms.CharField(
                label=title,
                help_text=(
                    f"{question} (optional)"
                    if name in QUESTIONNAIRE_OPTIONAL
                    else f"{question} (at least {QUESTIONNAIRE_MIN_WORDS} words)"
                ),
                required=False,  # the service names every short answer in one sentence each
                widget=forms.Textarea(attrs={"rows": 3}),
            )


class SubmitForm(forms.Form):
    release = forms.ModelChoiceField(
        queryset=open_releases(),
        to_field_name="slug",
        required=False,
        empty_label="(keep the release chosen at upload)",
        help_text="The list release this result is submitted to.",
    )
    anonymous = forms.BooleanField(
        required=False,
        label="Publish anonymously",
        help_text='The lists show "anonymous" instead of your name.',
    )
    reviewed = forms.BooleanField(required=False, label="I have reviewed my submission.")
    followed_rules = forms.BooleanField(required=False, label="I have read and followed the IO500 rules.")
    permission_to_publish = forms.BooleanField(
        required=False, label="I grant IO500 permission to publish this submission."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        release_field = self.fields["release"]
        assert isinstance(release_field, forms.ModelChoiceField)
        release_field.queryset = open_releases()


def _phase_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


class GapFields(forms.Form):
    """The phases whose missing raw outputs the committee was shown, echoed back so that the
    decision names exactly them (the service refuses when the gap changed meanwhile)."""

    gap_phases = forms.CharField(required=False, widget=forms.HiddenInput)

    def named_phases(self) -> list[str]:
        return _phase_names(self.cleaned_data.get("gap_phases") or "")


class DecisionForm(GapFields):
    action = forms.ChoiceField(
        choices=[(t.action, t.label) for t in TRANSITIONS.values() if t.actor is Actor.COMMITTEE]
    )
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    accept_gap = forms.BooleanField(required=False)
    # Set by the confirmation page: a destructive decision is taken only once it was confirmed.
    confirmed = forms.BooleanField(required=False)


class GapAcceptForm(GapFields):
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class AssessForm(forms.Form):
    reproducibility = forms.ChoiceField(choices=Reproducibility.choices, label="Reproducibility")
    category = forms.ChoiceField(choices=ListCategory.choices, label="List category")
    # Empty (a form posted without it): the submitter's request stands.
    ten_node = forms.TypedChoiceField(
        choices=[("yes", "10-node lists too"), ("no", "not the 10-node lists")],
        coerce=lambda value: value == "yes",
        empty_value=None,
        required=False,
        label="10-node lists",
    )
    reason = forms.CharField(required=False, label="Note", widget=forms.Textarea(attrs={"rows": 2}))


class CommentForm(forms.Form):
    body = forms.CharField(label="Comment", widget=forms.Textarea(attrs={"rows": 3}), max_length=10_000)
    parent = forms.IntegerField(required=False, widget=forms.HiddenInput)


class SystemEditForm(forms.Form):
    """The description fields of the upload form; a blank clears a field, the service checks values."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in TEXT_FIELDS.items():
            self.fields[name] = forms.CharField(label=label.capitalize(), required=False, max_length=255)
        for name, label in COUNT_FIELDS.items():
            self.fields[name] = forms.IntegerField(label=label.capitalize(), required=False, min_value=0)
        self.fields[NETWORK_FIELD] = forms.CharField(
            label="Client network bandwidth per node",
            required=False,
            help_text='In Gbit/s, e.g. "100" or "200 Gbit/s".',
        )
        for name, (label, _family, _unit) in QUANTITY_FIELDS.items():
            self.fields[name] = forms.CharField(
                label=label.capitalize(), required=False, help_text=quantity_help(name)
            )


class ReplaceForm(forms.Form):
    archive = forms.FileField(
        label="Corrected result archive",
        help_text="The whole result folder again, as .tar.gz, .tar.bz2, .tar.xz, .tar or .zip.",
        widget=forms.ClearableFileInput(attrs={"accept": ARCHIVE_EXTENSIONS}),
    )


class EntryDecisionForm(forms.Form):
    """A per-entry decision as posted by the review page, the draft list page or the confirm step."""

    kind = forms.ChoiceField(choices=EntryDecision.Kind.choices)
    reason = forms.CharField(required=False, max_length=10_000, widget=forms.Textarea(attrs={"rows": 3}))
    list_kind = forms.CharField(required=False, max_length=32)
    release = forms.ModelChoiceField(queryset=Release.objects.all(), to_field_name="slug", required=False)
    duplicate_of = forms.IntegerField(required=False, min_value=1)
    # The confirm step: the first post shows what the decision does; only the second takes it.
    confirmed = forms.BooleanField(required=False)
    next = forms.CharField(required=False, max_length=500)
