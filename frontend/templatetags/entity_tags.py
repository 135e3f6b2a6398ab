"""{{ value|entity_url:"filesystem" }}: the page of the site, vendor or file system a recorded name
belongs to (by its canonical name), or "" when nothing meaningful was recorded."""

from __future__ import annotations

from django import template
from django.urls import reverse

from registry.lists.facet_names import KINDS, canonical, slug

register = template.Library()


@register.filter
def entity_url(value: object, kind: str) -> str:
    if kind not in KINDS or kind == "country" or not isinstance(value, str):
        return ""
    name = canonical(kind, value)
    return reverse(f"pages:{kind}", args=[slug(name)]) if name else ""
