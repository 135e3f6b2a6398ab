"""The `list_description` filter: io500.org's list description HTML, sanitised
(frontend.lists.description)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from frontend.lists.description import sanitise_description

register = template.Library()


@register.filter
def list_description(html: str) -> SafeString:
    # Safe to mark: sanitise_description escapes all text and emits only its allow-listed tags.
    return mark_safe(sanitise_description(html))
