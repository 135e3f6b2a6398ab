"""The committee's release form. It parses input; registry.lists.releases decides."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from registry.lists.releases import (
    DEFAULT_AUDIT_ANSWER_DAYS,
    DEFAULT_AUDIT_SHARE_PERCENT,
    ReleaseDates,
    ReleaseSettings,
)
from registry.models import KIND_ORDER, Release
from submissions.audits.models import AuditDraw
from submissions.audits.selectors import release_audit_draw

_VERSION_TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class ReleaseForm(forms.Form):
    name = forms.CharField(max_length=16, help_text="ISC or SC and the two-digit year, e.g. ISC27.")
    publication_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), help_text="The day the lists are released (the BoF)."
    )
    submission_deadline = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The last day submissions are taken; empty: the publication day.",
    )
    embargo_end = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=(
            "Until then (UTC) the release's new submissions and lists are visible to the committee only."
        ),
    )
    list_kinds = forms.MultipleChoiceField(
        choices=[(kind.value, kind.label) for kind in KIND_ORDER],
        widget=forms.CheckboxSelectMultiple,
        help_text="The lists this release publishes.",
    )
    bundled_runner_kinds = forms.MultipleChoiceField(
        required=False,
        choices=[(kind.value, kind.label) for kind in KIND_ORDER],
        widget=forms.CheckboxSelectMultiple,
        label="Lists that take results of the bundled runner",
        help_text=(
            "Runs made with the registry's own runner instead of the official IO500 application. IO500's "
            "rules ask list submissions to use the official release; by default only the Historical list "
            "takes them."
        ),
    )
    run_tokens_required = forms.BooleanField(
        required=False,
        label="Require run tokens",
        help_text=(
            "Every run must be made with a run token the submitter asked the registry for "
            "(io500 config.ini --timestamp=<token>); a run without a valid token gets an error and "
            "cannot be accepted."
        ),
    )
    accepted_versions = forms.CharField(
        required=False,
        help_text=(
            "IO500 version tags whose results this release accepts, separated by commas (e.g. isc26_v2); "
            "a run of another version gets a warning. Empty: not known."
        ),
    )

    audit_share_percent = forms.FloatField(
        label="Audit share (%)",
        initial=DEFAULT_AUDIT_SHARE_PERCENT,
        min_value=0,
        max_value=100,
        widget=forms.NumberInput(attrs={"step": "any"}),
        help_text=(
            "At the submission deadline a seeded draw picks this share of the release's runs (rounded up, "
            "at least one) and asks each submitter to re-run one phase. Above 0, at most 100."
        ),
    )
    audit_answer_days = forms.IntegerField(
        label="Days to answer an audit",
        initial=DEFAULT_AUDIT_ANSWER_DAYS,
        min_value=1,
        help_text="How many days after the draw a drawn submitter has to upload the re-run; at least 1.",
    )

    def __init__(self, *args: Any, release: Release | None = None, **kwargs: Any) -> None:
        # The recorded draw, when the audits were drawn: the form says so and keeps its settings.
        self.audit_draw: AuditDraw | None = release_audit_draw(release) if release is not None else None
        if release is not None:
            kwargs.setdefault(
                "initial",
                {
                    "name": release.name,
                    "publication_date": release.publication_date,
                    "submission_deadline": release.submission_deadline,
                    "embargo_end": release.embargo_end,
                    "list_kinds": list(release.list_kinds),
                    "bundled_runner_kinds": list(release.bundled_runner_kinds),
                    "run_tokens_required": release.run_tokens_required,
                    "accepted_versions": ", ".join(release.accepted_versions),
                    "audit_share_percent": release.audit_share_percent,
                    "audit_answer_days": release.audit_answer_days,
                },
            )
        super().__init__(*args, **kwargs)
        if release is not None:
            # The name is the release's identity (its URLs and its lists): it is not edited.
            self.fields["name"].disabled = True
        if self.audit_draw is not None:
            # The draw is recorded with these settings (release_update refuses a change too).
            for name in ("audit_share_percent", "audit_answer_days"):
                self.fields[name].disabled = True

    def clean_audit_share_percent(self) -> float:
        share: float = self.cleaned_data["audit_share_percent"]
        if share <= 0:
            raise forms.ValidationError("Give a share above 0 %, so that at least one run is drawn.")
        return share

    def clean_accepted_versions(self) -> tuple[str, ...]:
        raw = self.cleaned_data.get("accepted_versions") or ""
        tags = tuple(tag.strip() for tag in raw.split(",") if tag.strip())
        wrong = [tag for tag in tags if _VERSION_TAG.fullmatch(tag) is None]
        if wrong:
            raise forms.ValidationError(
                f"Not a version tag: {', '.join(wrong)}. Write the tags as git names them, e.g. isc26_v2."
            )
        return tags

    def release_settings(self) -> ReleaseSettings:
        data = self.cleaned_data
        return ReleaseSettings(
            dates=ReleaseDates(
                publication_date=data["publication_date"],
                submission_deadline=data.get("submission_deadline"),
                embargo_end=data.get("embargo_end"),
            ),
            list_kinds=tuple(data["list_kinds"]),
            bundled_runner_kinds=tuple(data.get("bundled_runner_kinds") or ()),
            run_tokens_required=bool(data.get("run_tokens_required")),
            accepted_versions=data["accepted_versions"],
            audit_share_percent=data["audit_share_percent"],
            audit_answer_days=data["audit_answer_days"],
        )
