"""{{ value|entity_url:"filesystem" }}: the page of the site, vendor or file system a recorded name
belongs to (by its canonical name), or "" when nothing meaningful was recorded."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, reverse

from registry.lists.facet_names import KINDS, canonical, slug

register = template.Library()


@register.filter
def entity_url(value: object, kind: str) -> str:
    if kind not in KINDS or kind == "country" or not isinstance(value, str):
        return ""
    return _entity_url(kind, value, get_script_prefix())


@functools.lru_cache(maxsize=8192)
def _entity_url(kind: str, value: str, script_prefix: str) -> str:
    # An entity page's rows name the same few sites, vendors and file systems again and again: the
    # canonical name and reverse() cost a third of rendering a page of a thousand entries.
    name = canonical(kind, value)
    return reverse(f"pages:{kind}", args=[slug(name)]) if name else ""
