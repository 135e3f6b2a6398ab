"""The files of one result directory, as the readers see them: names plus lazily loaded text.

`scoring.readers.locate` builds one `RunFiles` per result directory, whether the bytes come from a folder
on disk or from an archive that is never extracted. Readers only ask for the files they need, by
name, and get decoded text or `None` (with a read note saying why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scoring.codes import note
from scoring.model import Finding

# Loads the bytes of one file (at most the per-file cap plus one byte, so oversize is detectable).
Loader = Callable[[], bytes]


@dataclass
class RunFiles:
    """The files directly inside one result directory (`direct`) plus everything below it (`all_names`).

    `direct` maps a base name to its loader; `all_names` lists every file of the run relative to the
    run directory, sorted, for `RunResult.files`.
    """

    path: str  # the run directory relative to the input, "." for the input itself
    direct: dict[str, Loader]
    all_names: tuple[str, ...]
    max_file_bytes: int
    notes: list[Finding] = field(default_factory=list)
    # extra files found outside the run directory that still describe it (e.g. io500.sh one level up)
    outside: dict[str, tuple[str, Loader]] = field(default_factory=dict)
    # entries directly in the directory that are not regular files: name -> "directory"/"link"/"special"
    irregular: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, str | None] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return name in self.direct

    def names(self) -> list[str]:
        return sorted(self.direct)

    def text(self, name: str) -> str | None:
        """The decoded text of a file of this directory, or None when absent, too large or binary."""
        if name in self._cache:
            return self._cache[name]
        loader = self.direct.get(name)
        result = None if loader is None else self._decode(name, loader)
        self._cache[name] = result
        return result

    def outside_text(self, name: str) -> tuple[str, str] | None:
        """(relative path, text) of a file found next to the run rather than in it."""
        found = self.outside.get(name)
        if found is None:
            return None
        relpath, loader = found
        text = self._decode(relpath, loader)
        return None if text is None else (relpath, text)

    def _decode(self, name: str, loader: Loader) -> str | None:
        data = loader()
        if len(data) > self.max_file_bytes:
            self.notes.append(
                note(
                    "read-member-too-large",
                    f"{name} is larger than {self.max_file_bytes // (1024 * 1024)} MiB and was not read; "
                    "IO500 result files are small text files.",
                )
            )
            return None
        # A NUL byte never occurs in the text the benchmark writes: the file is binary or corrupt.
        if b"\x00" in data:
            self.notes.append(
                note(
                    "read-file-binary",
                    f"{name} contains binary data instead of text and was not read.",
                )
            )
            return None
        return data.decode("utf-8", errors="replace")
