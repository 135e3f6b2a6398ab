"""DRF throttle for API uploads: the same per-user buckets as the web form (registry.core.ratelimit)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from registry.core.ratelimit import upload_verdict


class UploadThrottle(BaseThrottle):
    """Counts POSTs (uploads) per user; reading is never throttled here."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method != "POST" or not request.user.is_authenticated:
            return True
        try:
            size = max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
        except ValueError:
            size = 0
        verdict = upload_verdict(int(request.user.pk), size)
        self._wait = None if verdict.allowed else float(verdict.retry_after)
        return verdict.allowed

    def wait(self) -> float | None:
        return self._wait
