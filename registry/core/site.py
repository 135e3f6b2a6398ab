"""The registry's canonical address (settings.SITE_URL), the one place that builds it.

Absolute links (permalinks in downloads, links in mails) use it whichever host name a request came
by, so a cached page or download is the same for every reader; caches that hold such links key on
`site_fingerprint()`, so a changed address never reuses them.
"""

from __future__ import annotations

import hashlib

from django.conf import settings


def site_url(path: str = "") -> str:
    """An absolute link to `path` on the canonical address (the address itself for no path)."""
    return str(settings.SITE_URL).rstrip("/") + path


def site_fingerprint() -> str:
    """A short digest of the address, for cache keys of answers that hold absolute links."""
    return hashlib.sha256(str(settings.SITE_URL).encode()).hexdigest()[:12]
