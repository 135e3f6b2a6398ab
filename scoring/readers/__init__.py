"""Readers: turn the files of one result directory into a `RunResult`, whatever era wrote them."""

from __future__ import annotations

from scoring.model import RunResult
from scoring.readers.c_app import looks_like_c_app, read_c_app
from scoring.readers.dev_script import OUTPUT, is_dev_output, read_dev_script
from scoring.readers.files import RunFiles
from scoring.readers.shell_era import console_log_name, read_shell

__all__ = ["RunFiles", "read_run"]


def read_run(files: RunFiles) -> RunResult:
    """Read one result directory; raises ReadError when it holds no readable phase."""
    if looks_like_c_app(files):
        return read_c_app(files)
    if files.has("result_summary.txt") or console_log_name(files) is not None:
        return read_shell(files)
    if files.has(OUTPUT) and is_dev_output(files.text(OUTPUT)):
        return read_dev_script(files)
    return read_shell(files)
