from __future__ import annotations

from django import forms

from submissions.audits.models import ObjectionAnswer


class AuditAnswerForm(forms.Form):
    archive = forms.FileField(label="The re-run's result directory, packed (.tgz, .tar.gz, .tar.bz2, .zip)")


class ObjectionForm(forms.Form):
    snapshot = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), label="What is wrong with this entry", max_length=5000
    )


class ObjectionAnswerForm(forms.Form):
    outcome = forms.ChoiceField(choices=ObjectionAnswer.Outcome.choices, widget=forms.RadioSelect)
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label="Answer", max_length=5000)


class RevokeForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Why revoke", max_length=5000)
