"""Which ranked lists a history chart shows: a list kind from the URL, or a family of kinds."""

from __future__ import annotations

from registry.models import MAIN_KINDS, RANKED_KIND_VALUES, RANKED_KINDS, TEN_NODE_KINDS

KIND_FAMILIES: dict[str, tuple[str, ...]] = {
    "main": tuple(kind.value for kind in MAIN_KINDS),
    "ten-node-all": tuple(kind.value for kind in TEN_NODE_KINDS),
}
KIND_CHOICES: tuple[tuple[str, str], ...] = (
    ("main", "Main ranked lists (IO500, then Production and Research)"),
    ("ten-node-all", "All 10-node lists"),
    *((kind.value, f"{kind.label} only") for kind in RANKED_KINDS),
)


# The query parameters each public chart view reads (registry.core.public_cache keeps an answer only for
# a query of these): the history page and its points, its trends and shares, a submission's ranks.
HISTORY_PARAMS = ("kind", "filesystem")
KIND_PARAMS = ("kind",)
RANKS_PARAMS = ("phase",)


class KindError(ValueError):
    """The list kind asked for in the URL is not one a chart can show."""


def kinds_for(raw: str) -> tuple[str, ...]:
    """The ListKind values behind a `kind` URL parameter; empty means the main lists."""
    name = raw.strip().lower() or "main"
    if name in KIND_FAMILIES:
        return KIND_FAMILIES[name]
    if name in RANKED_KIND_VALUES:
        return (name,)
    choices = ", ".join(value for value, _ in KIND_CHOICES)
    raise KindError(f'"{raw}" is not a ranked list kind the charts can show; choose one of: {choices}.')


def kind_name(raw: str) -> str:
    """The canonical spelling of a valid `kind` parameter (for cache keys and links)."""
    kinds_for(raw)
    return raw.strip().lower() or "main"
