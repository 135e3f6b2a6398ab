"""Archives built on the fly for the tests: real result folders and hostile constructions."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
from pathlib import Path


def pack_folder(folder: Path, compression: str = "gz") -> bytes:
    """The folder as a tar archive ("gz", "bz2", "xz" or "" for plain), its name as the top folder.

    Deterministic: the same folder always gives the same bytes (gzip would stamp the current time),
    which the duplicate-upload tests rely on. gzip's fastest level: its default (9) cost several
    CPU-seconds a run for a few per cent of bytes that no test looks at.
    """
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(folder, arcname=folder.name)
    plain = buffer.getvalue()
    if compression == "gz":
        return gzip.compress(plain, compresslevel=1, mtime=0)
    if compression == "bz2":
        return bz2.compress(plain)
    if compression == "xz":
        return lzma.compress(plain)
    return plain


def zip_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            zf.write(path, f"{folder.name}/{path.relative_to(folder)}")
    return buffer.getvalue()


def tar_of(*members: tuple[tarfile.TarInfo, bytes | None], compression: str = "gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=f"w:{compression}" if compression else "w") as tar:  # type: ignore[call-overload]
        for info, data in members:
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return buffer.getvalue()


def file_member(name: str, data: bytes = b"hello\n") -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), data


def special_member(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info, None


def zip_of(*entries: tuple[zipfile.ZipInfo | str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buffer.getvalue()
