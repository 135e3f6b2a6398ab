"""Reading a checkout of the public IO500/submission-data repository as it is.

The repository keeps every submission at `<institution>/<system>/<filesystem>/<year>/submission-<N>/`.
Names were used as folder names without escaping, so a '/' inside a name becomes extra folders
(`EPCC/Archer/work / fs2/2019/submission-207`), names keep stray spaces, and nothing stops a checkout
from holding symbolic links, duplicated numbers or odd year folders. This module turns such a tree
into the same `RawFolder` rows that `IO500Data.raw_folders()` reads from the shared data's flat
`index.csv`, and says in `problems` why every submission-looking folder it did not return was left out.

Only the file system is read: no database, no file contents (the importer reads those later).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from registry.importer.source import RawFolder

SUBMISSION_NAME = re.compile(r"submission-(\d+)")
YEAR_NAME = re.compile(r"\d{4}")
# The real repository has submission folders at depth 5 to 7; a much deeper tree is a loop made by
# hand or a hostile checkout, and reading it would only cost time.
MAX_DEPTH = 12
# Submission numbers end up in an integer column; a bigger number cannot be stored.
MAX_IO500_ID = 2**31 - 1
# institution, system, at least one filesystem component, year, submission-N
MIN_COMPONENTS = 5
LISTED_STRAY_FILES = 3
LISTS_DIR = "lists"


@dataclass(frozen=True)
class NestedCorpus:
    """What a checkout holds: the submissions to import and one sentence per thing left out."""

    folders: list[RawFolder]
    problems: list[str]


def nested_raw_folders(root: Path) -> NestedCorpus:
    """Find every `submission-N` folder below `root` and split its path into the list fields.

    Symbolic links are reported and never followed (a checkout must not make the importer read
    files outside it); dot-folders (.git, .github) and files at the top (README.md) are ignored;
    the walk does not look inside a submission folder. Returned folders are sorted by number.
    """
    if not root.is_dir():
        return NestedCorpus(folders=[], problems=[f"{root} is not a folder; no submission was read."])
    found, problems = _walk(root)
    folders: list[RawFolder] = []
    for io500_id in sorted(found):
        places = found[io500_id]
        if len(places) > 1:
            where = ", ".join(str(root.joinpath(*place)) for place in places)
            problems.append(
                f"submission-{io500_id} appears {len(places)} times ({where}); none of them was "
                "imported, since the number must name one submission."
            )
            continue
        folder = _split(root, io500_id, places[0], problems)
        if folder is not None:
            folders.append(folder)
    return NestedCorpus(folders=folders, problems=problems)


def looks_like_submission_data(root: Path) -> bool:
    """True for a checkout of IO500/submission-data, so the import can tell it from the shared data.

    The shared data folder has `lists/` and flat `submissions/submission-N/`; a checkout has no
    `lists/` and at least one `*/*/*/*/submission-N` folder. Links and dot-folders do not count, and
    the search stops at the first hit.
    """
    if not root.is_dir() or (root / LISTS_DIR).exists():
        return False
    level = [root]
    for _ in range(MIN_COMPONENTS - 1):
        level = [Path(entry.path) for directory in level for entry in _subfolders(directory)]
    return any(
        SUBMISSION_NAME.fullmatch(entry.name) for directory in level for entry in _subfolders(directory)
    )


def _subfolders(directory: Path) -> list[os.DirEntry[str]]:
    """Real (not linked) sub-folders without a leading dot; an unreadable folder has none."""
    try:
        with os.scandir(directory) as entries:
            return [
                entry
                for entry in entries
                if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return []


def _walk(root: Path) -> tuple[dict[int, list[tuple[str, ...]]], list[str]]:
    """Collect the relative path of every submission folder by number, with the problems met.

    An explicit stack (not recursion) and the depth bound keep a pathological tree from exhausting
    the interpreter; entries are sorted so problems come out in the same order on every run.
    """
    found: dict[int, list[tuple[str, ...]]] = {}
    problems: list[str] = []
    stack: list[tuple[str, ...]] = [()]
    while stack:
        relative = stack.pop()
        directory = root.joinpath(*relative)
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as error:
            problems.append(f"{directory} cannot be read ({error.strerror or error}); skipped.")
            continue
        stray_files: list[str] = []
        subfolders: list[tuple[str, ...]] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = directory / entry.name
            if not _is_utf8(entry.name):
                problems.append(f"{path!r} has a name that is not UTF-8; skipped.")
                continue
            match = SUBMISSION_NAME.fullmatch(entry.name)
            if entry.is_symlink():
                if match or entry.is_dir():
                    problems.append(f"{path} is a symbolic link; links are not followed, skipped.")
                elif relative:
                    stray_files.append(entry.name)
                continue
            if not entry.is_dir(follow_symlinks=False):
                if relative:
                    stray_files.append(entry.name)
                continue
            child = (*relative, entry.name)
            if len(child) > MAX_DEPTH:
                problems.append(
                    f"{path} is more than {MAX_DEPTH} folders below {root}; not read (a submission "
                    "sits at <institution>/<system>/<filesystem>/<year>/submission-N)."
                )
            elif match:
                found.setdefault(int(match.group(1)), []).append(child)
            else:
                subfolders.append(child)
        if stray_files:
            problems.append(_stray_files_problem(directory, stray_files))
        stack.extend(reversed(subfolders))
    return found, problems


def _split(root: Path, io500_id: int, relative: tuple[str, ...], problems: list[str]) -> RawFolder | None:
    """Turn `<institution>/<system>/<filesystem...>/<year>/submission-N` into a RawFolder.

    The folders between system and year are joined with '/', which gives back names that held a
    '/'; surrounding spaces are stripped as `IO500Data.raw_folders()` strips the index columns.
    """
    path = root.joinpath(*relative)
    if io500_id > MAX_IO500_ID:
        problems.append(f"{path}: the number {io500_id} is too large for a submission id; skipped.")
        return None
    if len(relative) < MIN_COMPONENTS:
        problems.append(
            f"{path} cannot be split into institution/system/filesystem/year: it sits "
            f"{len(relative)} folder(s) deep, a submission needs at least {MIN_COMPONENTS}; skipped."
        )
        return None
    year = relative[-2].strip()
    if not YEAR_NAME.fullmatch(year):
        problems.append(f"{path}: the folder above it, {relative[-2]!r}, is not a 4-digit year; skipped.")
        return None
    institution = relative[0].strip()
    system = relative[1].strip()
    filesystem = "/".join(relative[2:-2]).strip()
    if not (institution and system and filesystem):
        problems.append(f"{path}: the institution, system or file-system name is blank; skipped.")
        return None
    return RawFolder(
        io500_id=io500_id,
        institution=institution,
        system=system,
        filesystem=filesystem,
        year=int(year),
        path=path,
    )


def _stray_files_problem(directory: Path, names: list[str]) -> str:
    """One sentence for the files of a folder that no submission folder holds."""
    shown = ", ".join(names[:LISTED_STRAY_FILES])
    more = f" and {len(names) - LISTED_STRAY_FILES} more" if len(names) > LISTED_STRAY_FILES else ""
    return (
        f"{directory} holds {len(names)} file(s) outside any submission-N folder ({shown}{more}); "
        "not imported."
    )


def _is_utf8(name: str) -> bool:
    """Names that the OS gave as undecodable bytes (surrogate escapes) cannot be stored as text."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
