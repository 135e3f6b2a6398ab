"""API tokens, stored only as a SHA-256 digest: a leaked database does not leak working tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """One API token of a user. The plain token is shown once, when it is issued, and never stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    # The token carries 256 random bits, so a plain (unsalted, fast) hash is enough: guessing is hopeless
    # either way, and a fast hash keeps the per-request lookup cheap.
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=16, help_text="The first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"API token {self.prefix}… of {self.user}"
