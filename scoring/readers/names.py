"""Archive member names: the relative path a member may take, or why it may not take any.

Used by the archive walker (`scoring.readers.walk`) for every archive, whoever reads it.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from scoring.readers.tarstream import shown_name

# Real result folders are two or three levels deep with short names; these bounds keep hostile
# names from reaching the file system's own limits, where errors would be cryptic, and bound the
# folders one member can imply.
MAX_NAME_BYTES = 255
MAX_PATH_CHARS = 1024
MAX_DEPTH = 64


class UnsafeName(Exception):
    """The name cannot be used as a path (absolute, `..`, NUL, control characters, not UTF-8)."""


class NameOverLimit(Exception):
    """The name is longer or deeper than any archive may hold."""


def member_path(name: str) -> PurePosixPath | None:
    """The relative path a member may be written to, None for the archive root itself.

    Raises UnsafeName or NameOverLimit, with a message for the submitter, before anything is written.
    """
    _check_characters(name)
    unified = name.replace("\\", "/")
    if unified.startswith("/") or (len(unified) > 1 and unified[1] == ":"):
        raise UnsafeName(
            f'The archive member "{shown_name(name)}" has an absolute path; archives must only hold '
            "relative paths."
        )
    parts = [part for part in unified.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise UnsafeName(
            f'The archive member "{shown_name(name)}" contains ".." and would be written outside the '
            "result folder."
        )
    if not parts:
        return None
    _check_lengths(name, parts)
    return PurePosixPath(*parts)


def _check_characters(name: str) -> None:
    if "\x00" in name:
        raise UnsafeName(f'The archive member "{shown_name(name)}" has a NUL byte in its name.')
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        # tarfile hands undecodable bytes back as surrogate escapes.
        raise UnsafeName(
            f'The name of the archive member "{shown_name(name)}" is not valid UTF-8; rename the file '
            "with plain characters and pack the archive again."
        ) from None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise UnsafeName(
            f'The name of the archive member "{shown_name(name)}" contains a control character '
            "(such as a line break or an escape); rename the file and pack the archive again."
        )


def _check_lengths(name: str, parts: list[str]) -> None:
    longest = max(len(part.encode("utf-8")) for part in parts)
    if longest > MAX_NAME_BYTES:
        raise NameOverLimit(
            f'The archive member "{shown_name(name)}" has a file or folder name that is too long '
            f"({longest} bytes); names may be at most {MAX_NAME_BYTES} bytes."
        )
    if len(name) > MAX_PATH_CHARS or len(parts) > MAX_DEPTH:
        raise NameOverLimit(
            f'The archive member "{shown_name(name)}" has a path that is too long ({len(name):,} '
            f"characters, {len(parts)} levels); paths may be at most {MAX_PATH_CHARS:,} characters "
            f"and {MAX_DEPTH} levels deep."
        )
