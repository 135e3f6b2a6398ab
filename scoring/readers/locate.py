"""Find the IO500 result directories inside a folder or an archive and read each into a `RunResult`.

`read_runs()` is the one entry point the rules and the Django pipeline call. Archives are never
extracted: members come from the archive walker (`scoring.readers.walk`, the one the upload
sandbox unpacks through, with the same limits and refusals), only regular files with safe names are
read, and every file is capped. Links, absolute or `..` names and nested archives are skipped with a
read note (the registry's sandboxed extraction rejects such uploads on its own; here they simply do
not take part in the reading).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from scoring.codes import note
from scoring.model import Finding, ReadError, RunResult
from scoring.readers import RunFiles, read_run
from scoring.readers.dev_script import MARKER as DEV_MARKER
from scoring.readers.walk import ArchiveRejected, Entry, walk_archive
from scoring.readers.walk import Limits as ArchiveLimits

MIB = 1024 * 1024

# Files that make their folder a result directory (the app's, the script's and io-500-dev's).
_SUMMARY_NAMES = ("result_summary.txt", "result.txt")
# Everything a reader may open ends like this; other members are listed but never decompressed.
_TEXT_SUFFIXES = (".txt", ".csv", ".ini", ".sh", ".cfg")
_ARCHIVE_SUFFIXES = (".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".zip", ".gz", ".7z")


@dataclass(frozen=True)
class Limits:
    """Caps that keep a hostile or broken upload from exhausting memory or time."""

    max_file_bytes: int = 16 * MIB  # the result text files are kilobytes; per-rank CSVs a few MiB
    max_kept_bytes: int = 256 * MIB  # text kept in memory from one archive
    # Members, bytes decompressed, compression ratio, names: the walker's, the same as the ingest's.
    archive: ArchiveLimits = field(default_factory=ArchiveLimits)
    # Each run is read and verified on its own (milliseconds each): thousands of tiny result folders
    # would keep a worker busy for minutes. The largest real upload of both corpora holds 8 runs.
    max_runs: int = 100


Loader = Callable[[], bytes]


@dataclass
class _Inventory:
    """Every regular file of the input (relative posix paths) and loaders for the readable ones."""

    files: list[str] = field(default_factory=list)
    loaders: dict[str, Loader] = field(default_factory=dict)
    notes: list[tuple[str, Finding]] = field(default_factory=list)  # (member path, note)
    kept_bytes: int = 0
    # Entries that are not regular files (relative posix path -> "directory" / "link" / "special"):
    # a run whose result.txt is a directory must not look like a run without a result.txt.
    irregular: dict[str, str] = field(default_factory=dict)


def read_runs(path: str | os.PathLike[str], *, limits: Limits | None = None) -> list[RunResult]:
    """Every IO500 run found in `path` (a result directory, a folder of them, or an archive)."""
    limits = limits or Limits()
    source = Path(path)
    label = source.name or str(source)
    if source.is_dir():
        inventory = _directory_inventory(source, limits)
    elif source.is_file():
        inventory = _archive_inventory(source, label, limits)
    elif source.exists() or source.is_symlink():
        raise ReadError(f"{label} is neither a folder nor a regular file, so it cannot be read.")
    else:
        raise ReadError(f"{label} does not exist.")
    return _read_inventory(inventory, label, limits)


# --- inventories ------------------------------------------------------------------------------
def _ignored(relpath: str) -> bool:
    """macOS archive debris: __MACOSX/ folders and ._* AppleDouble files carry no results."""
    parts = relpath.split("/")
    return "__MACOSX" in parts or parts[-1].startswith("._")


def _readable_name(relpath: str) -> bool:
    return relpath.lower().endswith(_TEXT_SUFFIXES)


def _note_nested_archive(inventory: _Inventory, relpath: str) -> None:
    if relpath.lower().endswith(_ARCHIVE_SUFFIXES):
        inventory.notes.append(
            (
                relpath,
                note(
                    "read-nested-archive",
                    f"{relpath} is an archive inside the upload; archives inside archives are not opened.",
                ),
            )
        )


def _directory_inventory(root: Path, limits: Limits) -> _Inventory:
    inventory = _Inventory()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            raise ReadError(f"The folder {folder.name} cannot be listed: {error.strerror}.") from error
        for entry in entries:
            relpath = PurePosixPath(Path(entry.path).relative_to(root).as_posix()).as_posix()
            if _ignored(relpath):
                continue
            if entry.is_symlink():
                inventory.notes.append((relpath, _link_note(relpath)))
                inventory.irregular[relpath] = "link"
                continue
            if entry.is_dir(follow_symlinks=False):
                inventory.irregular[relpath] = "directory"
                stack.append(Path(entry.path))
                continue
            if not entry.is_file(follow_symlinks=False):
                inventory.notes.append((relpath, _special_note(relpath)))
                inventory.irregular[relpath] = "special"
                continue
            _add_member_count(inventory, limits)
            inventory.files.append(relpath)
            _note_nested_archive(inventory, relpath)
            if _readable_name(relpath):
                inventory.loaders[relpath] = _file_loader(Path(entry.path), limits.max_file_bytes)
    return inventory


def _file_loader(file: Path, cap: int) -> Loader:
    def load() -> bytes:
        try:
            with open(file, "rb") as handle:
                return handle.read(cap + 1)
        except OSError as error:
            raise ReadError(f"The file {file.name} cannot be read: {error.strerror}.") from error

    return load


def _archive_inventory(archive: Path, label: str, limits: Limits) -> _Inventory:
    inventory = _Inventory()
    entries = 0
    try:
        for entry in walk_archive(archive, limits.archive):
            entries += 1
            _add_entry(inventory, entry, limits)
    except ArchiveRejected as error:
        raise ReadError(f"{label}: {error}") from None
    if entries == 0:
        raise ReadError(f"{label} is an empty archive.")
    return inventory


def _add_entry(inventory: _Inventory, entry: Entry, limits: Limits) -> None:
    if entry.problem is not None:
        inventory.notes.append((entry.name, _unsafe_note(entry.problem)))
        return
    relpath = "" if entry.path is None else entry.path.as_posix()
    if not relpath or _ignored(relpath):
        return
    if entry.kind == "dir":
        inventory.irregular[relpath] = "directory"
        return
    if entry.kind in ("symlink", "hardlink"):
        inventory.notes.append((relpath, _link_note(relpath)))
        inventory.irregular[relpath] = "link"
        return
    if entry.kind != "file":
        inventory.notes.append((relpath, _special_note(relpath)))
        inventory.irregular[relpath] = "special"
        return
    inventory.files.append(relpath)
    _note_nested_archive(inventory, relpath)
    if _readable_name(relpath):
        # Read now: a tar is one stream, and the walk moves on past this member's data.
        _keep(inventory, relpath, entry.read(limits.max_file_bytes + 1), limits)


def _keep(inventory: _Inventory, relpath: str, data: bytes, limits: Limits) -> None:
    inventory.kept_bytes += min(len(data), limits.max_file_bytes + 1)
    if inventory.kept_bytes > limits.max_kept_bytes:
        raise ReadError(
            f"The text files of this archive add up to more than {limits.max_kept_bytes // MIB} MiB; "
            "an IO500 result is far smaller, so it was not read."
        )
    inventory.loaders[relpath] = lambda: data


def _add_member_count(inventory: _Inventory, limits: Limits) -> None:
    if len(inventory.files) >= limits.archive.max_members:
        raise ReadError(
            f"The upload holds more than {limits.archive.max_members:,} files; an IO500 result has a "
            "few dozen."
        )


def _unsafe_note(problem: str) -> Finding:
    return note("read-member-unsafe", f"{problem} It was skipped.")


def _link_note(relpath: str) -> Finding:
    return note("read-member-link", f"{relpath} is a link, not a regular file; it was skipped.")


def _special_note(relpath: str) -> Finding:
    return note("read-member-special", f"{relpath} is not a regular file; it was skipped.")


# --- grouping into runs -----------------------------------------------------------------------
def _parent(relpath: str) -> str:
    head, _, _ = relpath.rpartition("/")
    return head or "."


def _basename(relpath: str) -> str:
    return relpath.rpartition("/")[2]


def _is_marker(relpath: str, inventory: _Inventory) -> bool:
    base = _basename(relpath)
    if base in _SUMMARY_NAMES:
        return True
    if base.startswith("io-500-summary") and base.endswith(".txt"):
        return True
    if base == "output.txt" and relpath in inventory.loaders:
        return DEV_MARKER.encode() in inventory.loaders[relpath]()
    return False


def _within(folder: str, relpath: str) -> bool:
    return folder == "." or relpath.startswith(folder + "/")


def _read_inventory(inventory: _Inventory, label: str, limits: Limits) -> list[RunResult]:
    run_dirs = sorted({_parent(path) for path in inventory.files if _is_marker(path, inventory)})
    if not run_dirs:
        raise ReadError(
            f"No IO500 result was found in {label}: it contains no result_summary.txt, result.txt, "
            "io-500-summary.<timestamp>.txt or io-500-dev output.txt."
        )
    if len(run_dirs) > limits.max_runs:
        raise ReadError(
            f"{label} holds {len(run_dirs)} result directories, more than the {limits.max_runs} read from "
            "one upload; an IO500 submission holds one run (the largest real one holds 8)."
        )
    # Each file belongs to the deepest result directory above it.
    members: dict[str, list[str]] = {folder: [] for folder in run_dirs}
    by_depth = sorted(run_dirs, key=lambda folder: folder.count("/") + (folder != "."), reverse=True)
    for path in inventory.files:
        owner = next((folder for folder in by_depth if _within(folder, path)), None)
        if owner is not None:
            members[owner].append(path)

    run_files = {folder: _run_files(folder, members[folder], inventory, limits) for folder in run_dirs}
    duplicates = _summary_copies(run_files, inventory)
    runs: list[RunResult] = []
    failures: list[ReadError] = []
    # Which runs each note concerns, found once: every run directory above its path, or every run when
    # none is (a loop over runs inside the loop over notes would cost runs x notes x runs).
    note_runs = [
        ([folder for folder in run_dirs if _within(folder, note_path)] or run_dirs, finding)
        for note_path, finding in inventory.notes
    ]
    notes_by_run: dict[str, list[Finding]] = {folder: [] for folder in run_dirs}
    for folders, finding in note_runs:
        for folder in folders:
            notes_by_run[folder].append(finding)
    for folder in run_dirs:
        if folder in duplicates:
            continue
        files = run_files[folder]
        files.notes.extend(notes_by_run[folder])
        for copy, original in duplicates.items():
            if original == folder:
                files.notes.append(
                    note(
                        "read-duplicate-summary",
                        f"{copy}/result_summary.txt is a byte-identical copy of this run's summary "
                        "and was not read as a run of its own.",
                    )
                )
        if _summary_only(files):
            files.notes.append(
                note(
                    "read-summary-only",
                    f"{folder} holds only result_summary.txt, without result.txt, the console log or "
                    "the tools' raw output, so its numbers cannot be checked against anything else.",
                )
            )
        try:
            runs.append(read_run(files))
        except ReadError as error:
            failures.append(error)
    if not runs:
        raise failures[0]
    # A stray result.txt of another tool must not sink the real runs next to it: say it was ignored.
    for failure in failures:
        for run in runs:
            run.read_notes.append(note("read-folder-unreadable", f"{failure} It was left out."))
    return runs


def _run_files(folder: str, paths: list[str], inventory: _Inventory, limits: Limits) -> RunFiles:
    prefix = "" if folder == "." else folder + "/"
    direct = {
        path[len(prefix) :]: inventory.loaders[path]
        for path in paths
        if _parent(path) == folder and path in inventory.loaders
    }
    all_names = tuple(sorted(path[len(prefix) :] for path in paths))
    files = RunFiles(path=folder, direct=direct, all_names=all_names, max_file_bytes=limits.max_file_bytes)
    files.irregular = _irregular_entries(folder, inventory)
    # A shell-era io500.sh often sits next to the results folder rather than in it.
    ancestor = folder
    while ancestor != ".":
        ancestor = _parent(ancestor)
        candidate = "io500.sh" if ancestor == "." else f"{ancestor}/io500.sh"
        if candidate in inventory.loaders:
            # Named relative to the run directory, like every other file of the run.
            files.outside["io500.sh"] = (posixpath.relpath(candidate, folder), inventory.loaders[candidate])
            break
    return files


def _irregular_entries(folder: str, inventory: _Inventory) -> dict[str, str]:
    """Entries directly in `folder` that are not regular files, including the directories that an
    archive only implies through the paths of its members (tar and zip need no directory entries)."""
    prefix = "" if folder == "." else folder + "/"
    entries = {
        path[len(prefix) :]: kind
        for path, kind in inventory.irregular.items()
        if path.startswith(prefix) and "/" not in path[len(prefix) :]
    }
    for path in inventory.files:
        if path.startswith(prefix):
            head, slash, _ = path[len(prefix) :].partition("/")
            if slash:
                entries.setdefault(head, "directory")
    return entries


def _summary_only(files: RunFiles) -> bool:
    names = files.direct.keys()
    if "result_summary.txt" not in names or "result.txt" in names:
        return False
    return not any(
        name.startswith(("io-500-summary", "ior", "mdtest")) and name.endswith(".txt") for name in names
    )


def _summary_copies(run_files: dict[str, RunFiles], inventory: _Inventory) -> dict[str, str]:
    """Summary-only folders whose result_summary.txt is a byte copy of another run's -> that run."""
    copies: dict[str, str] = {}
    complete = {folder: files for folder, files in run_files.items() if not _summary_only(files)}
    for folder, files in run_files.items():
        if folder in complete:
            continue
        summary = files.direct.get("result_summary.txt")
        if summary is None:
            continue
        content = summary()
        for other, other_files in complete.items():
            other_summary = other_files.direct.get("result_summary.txt")
            if other_summary is not None and other_summary() == content:
                copies[folder] = other
                break
    return copies
