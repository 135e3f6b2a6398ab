"""Reading the submissions to compare from `?ids=12,34,56`."""

from __future__ import annotations

MIN_COMPARED = 2
MAX_COMPARED = 5


class CompareIdsError(ValueError):
    """The ids in the URL do not name 2 to 5 submissions."""


def parse_compare_ids(raw: str) -> list[int]:
    """Distinct submission ids in the order given; a clear sentence when they cannot be compared."""
    parts = [part.strip() for part in raw.replace(" ", ",").split(",") if part.strip()]
    if not parts:
        raise CompareIdsError(
            f"Choose {MIN_COMPARED} to {MAX_COMPARED} submissions to compare, "
            "giving their numbers separated by commas (for example ?ids=12,34)."
        )
    ids: list[int] = []
    for part in parts:
        if not part.isdigit() or int(part) == 0:
            raise CompareIdsError(
                f'"{part}" is not a submission number; '
                "give numbers separated by commas (for example ?ids=12,34)."
            )
        if int(part) not in ids:
            ids.append(int(part))
    if len(ids) < MIN_COMPARED:
        raise CompareIdsError(
            f"A comparison needs at least {MIN_COMPARED} different submissions; you gave {len(ids)}."
        )
    if len(ids) > MAX_COMPARED:
        raise CompareIdsError(
            f"At most {MAX_COMPARED} submissions can be compared at once; you gave {len(ids)}."
        )
    return ids
