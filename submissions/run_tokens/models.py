"""The run tokens the registry issued."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RunToken(models.Model):
    """One token for one run of one system, for one release, issued to one account.

    The token is kept in plain text: it is no secret once used (it names the published result
    directory). What makes it worth something is that it did not exist before `issued_at` (the run's
    seeds derive from it) and that it is bound to `user` and used once.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="run_tokens")
    release = models.ForeignKey("registry.Release", on_delete=models.PROTECT, related_name="run_tokens")
    system_name = models.CharField(max_length=255, help_text="The system the submitter will run on.")
    token = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # The first submission of this account that named the token; a replacement of it may name it again.
    used_by = models.ForeignKey(
        "submissions.Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at", "-id"]

    def __str__(self) -> str:
        return f"run token {self.token} of {self.user}"
