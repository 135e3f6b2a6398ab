"""The upload form: the archive, the system description fields and the job files IO500 asks for.

The form only collects and parses input; the system description is validated by the same code the
API uses (`system_description_clean`, called by the service), so both give the same messages. The
description may be given as fields, as JSON text, or as a file (a document in the IO500 community
schema, a flat JSON object, or the IO500 info creator's system-information.txt); with a text or a
file the fields become optional, and fields that are filled in win over the same ones in it.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms

from registry.models import Release
from submissions.json_input import MAX_BYTES, JsonRefused, loads_bounded
from submissions.models import EXTRA_FILE_FIELDS, ListCategory
from submissions.system.description import COUNT_FIELDS, NETWORK_FIELD, TEXT_FIELDS
from submissions.system.files import SystemFileUnreadable, read_system_upload
from submissions.system.hardware_fields import QUANTITY_FIELDS, quantity_help

REQUIRED_SYSTEM_FIELDS = (
    "system_name",
    "institution_name",
    "filesystem_type",
    "client_nodes",
    "procs_per_node",
)
ARCHIVE_EXTENSIONS = ".tar,.tgz,.tar.gz,.tbz2,.tar.bz2,.txz,.tar.xz,.zip"


class _NoLongEcho:
    """A widget that does not send back a value longer than any accepted one: the error names the
    limit, and a 6.7 MiB text repeated in the form made a 13 MiB answer."""

    echo_limit = MAX_BYTES

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, str) and len(value) > self.echo_limit:
            return None
        shown: str | None = super().format_value(value)  # type: ignore[misc]
        return shown


class BoundedTextInput(_NoLongEcho, forms.TextInput):
    echo_limit = 1_000


class BoundedNumberInput(_NoLongEcho, forms.NumberInput):
    echo_limit = 1_000


class BoundedTextarea(_NoLongEcho, forms.Textarea):
    pass


def open_releases() -> Any:
    return Release.objects.open_for_submissions()


class SubmissionUploadForm(forms.Form):
    archive = forms.FileField(
        label="Result archive",
        help_text="The whole result folder of the run as .tar.gz, .tar.bz2, .tar.xz, .tar or .zip.",
        widget=forms.ClearableFileInput(attrs={"accept": ARCHIVE_EXTENSIONS}),
    )
    job_script = forms.FileField(label="Job script", required=False, help_text="The script that ran io500.")
    job_output = forms.FileField(
        label="Job output", required=False, help_text="The job's standard output and error (one file)."
    )
    release = forms.ModelChoiceField(
        queryset=Release.objects.none(),
        required=False,
        to_field_name="slug",
        empty_label="No release yet",
        help_text="The list release this result is submitted to (only releases open for submissions).",
    )
    category = forms.ChoiceField(
        label="List",
        choices=ListCategory.choices,
        initial=ListCategory.RESEARCH,
        # Optional for the clients that post the form without it (scripts): Research, as before.
        required=False,
        widget=forms.RadioSelect,
        help_text=(
            "The ranked list this run asks for; the committee confirms it on review. Production needs a "
            "production system rated Fully Reproducible; everything else is ranked on the Research list."
        ),
    )
    ten_node = forms.BooleanField(
        label="Submit to the 10 client-node lists",
        required=False,
        help_text=(
            "The run used exactly 10 client nodes. The 10-node lists read the node count from the run's "
            "own outputs, not from the description."
        ),
    )
    system_json = forms.CharField(
        label="Full system description (optional)",
        required=False,
        widget=BoundedTextarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=(
            "A JSON object: the registry's field names, the IO500 system-information names, or a whole "
            'document in the IO500 community schema ({"DATA": {"type": "Site", ...}}, as io500.org\'s '
            "submission system saves it). Fields filled in above win."
        ),
    )
    system_file = forms.FileField(
        label="System description file (optional)",
        required=False,
        help_text=(
            "The same as a file: a JSON document in the IO500 community schema (site.json), a JSON "
            "object, or the system-information.txt of the IO500 info creator."
        ),
    )

    def __init__(self, *args: Any, preselect: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        release_field = self.fields["release"]
        assert isinstance(release_field, forms.ModelChoiceField)
        release_field.queryset = open_releases()
        if not self.is_bound:
            # The release a link asked for (?release=, the call page's), else the soonest open one:
            # most uploads are for the open call, and "No release yet" stays one click away.
            open_now = list(release_field.queryset)
            chosen = next((r for r in open_now if r.slug == preselect.strip().lower()), None)
            self.initial.setdefault("release", chosen or (open_now[0] if open_now else None))
        # With a description text or file, the fields are optional: the document holds them.
        document_given = bool((self.data.get("system_json") or "").strip() if self.data else False) or bool(
            self.files and self.files.get("system_file")
        )
        # The questionnaire fields, in the order IO500 asks for them; labels come from the validator.
        for name, label in TEXT_FIELDS.items():
            self.fields[name] = forms.CharField(
                label=label.capitalize(),
                required=name in REQUIRED_SYSTEM_FIELDS and not document_given,
                max_length=255,
                widget=BoundedTextInput,
            )
        for name, label in COUNT_FIELDS.items():
            self.fields[name] = forms.IntegerField(
                label=label.capitalize(),
                required=name in REQUIRED_SYSTEM_FIELDS and not document_given,
                min_value=0,
                widget=BoundedNumberInput,
            )
        self.fields[NETWORK_FIELD] = forms.CharField(
            label="Client network bandwidth per node",
            required=False,
            widget=BoundedTextInput,
            help_text='In Gbit/s, e.g. "100" or "200 Gbit/s".',
        )
        for name, (label, _family, _unit) in QUANTITY_FIELDS.items():
            self.fields[name] = forms.CharField(
                label=label.capitalize(),
                required=False,
                widget=BoundedTextInput,
                help_text=quantity_help(name),
            )

    def clean_system_json(self) -> dict[str, Any]:
        text = self.cleaned_data.get("system_json", "").strip()
        if not text:
            return {}
        try:
            data = loads_bounded(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(f"This is not valid JSON (line {exc.lineno}: {exc.msg}).") from exc
        except JsonRefused as exc:
            raise forms.ValidationError(str(exc)) from exc
        if not isinstance(data, dict):
            raise forms.ValidationError("The full system description must be a JSON object.")
        return data

    def clean_system_file(self) -> dict[str, Any]:
        upload = self.cleaned_data.get("system_file")
        if not upload:
            return {}
        try:
            return read_system_upload(upload, upload.size)
        except SystemFileUnreadable as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("system_json") and cleaned.get("system_file"):
            self.add_error(
                "system_file", "Give the full system description either as text or as a file, not both."
            )
        return cleaned

    def system_data(self) -> dict[str, Any] | None:
        """The full description given as text or file (None when only fields were filled in)."""
        document = self.cleaned_data.get("system_json") or self.cleaned_data.get("system_file")
        return dict(document) if document else None

    def system_fields(self) -> dict[str, Any]:
        """The description fields filled in on the form; they win over the same ones of the document."""
        fields: dict[str, Any] = {}
        for name in (*TEXT_FIELDS, *COUNT_FIELDS, NETWORK_FIELD, *QUANTITY_FIELDS):
            value = self.cleaned_data.get(name)
            if value not in (None, ""):
                fields[name] = value
        return fields

    def extra_files(self) -> dict[str, Any]:
        files = {kind: self.cleaned_data.get(field) for field, kind in EXTRA_FILE_FIELDS.items()}
        return {kind: file for kind, file in files.items() if file}

    def system_field_names(self) -> list[str]:
        return [*TEXT_FIELDS, *COUNT_FIELDS, NETWORK_FIELD, *QUANTITY_FIELDS]
