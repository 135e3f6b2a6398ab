"""The system-description files an unpacked archive carries (system.json, site.json,
system-information.txt, ...), read while the scratch folder still exists.

Only the text is taken here; what it means is decided when the outcome is recorded
(submissions.system.services), beside the rest of the description.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from submissions.system.files import MAX_SYSTEM_FILE_BYTES, SYSTEM_FILE_NAMES, decode_system_bytes

MAX_SYSTEM_FILES = 8


@dataclass(frozen=True)
class FoundSystemFile:
    path: str  # relative to the archive's top, as the submitter packed it
    text: str
    problems: list[str] = field(default_factory=list)


def _depth_then_name(path: Path) -> tuple[int, str]:
    return len(path.parts), str(path)


def find_system_files(folder: Path) -> list[FoundSystemFile]:
    """The description files under `folder`, the shallowest first (the one packed beside the results
    before one deep inside a run directory)."""
    wanted = {name.casefold() for name in SYSTEM_FILE_NAMES}
    candidates = sorted(
        (
            path.relative_to(folder)
            for path in folder.rglob("*")
            if path.name.casefold() in wanted and path.is_file() and not path.is_symlink()
        ),
        key=_depth_then_name,
    )
    found: list[FoundSystemFile] = []
    for relative in candidates[:MAX_SYSTEM_FILES]:
        path = folder / relative
        size = path.stat().st_size
        if size > MAX_SYSTEM_FILE_BYTES:
            found.append(
                FoundSystemFile(
                    relative.as_posix(),
                    "",
                    [
                        f"The file is {size:,} bytes; a system description may be at most "
                        f"{MAX_SYSTEM_FILE_BYTES:,}."
                    ],
                )
            )
            continue
        text, problems = decode_system_bytes(path.read_bytes())
        found.append(FoundSystemFile(relative.as_posix(), text, problems))
    return found
