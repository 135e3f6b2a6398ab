"""Archives are read in place: nesting, several runs, junk, damage, hostile member names, caps."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.model import Era, ReadError
from scoring.readers.locate import Limits, read_runs
from scoring.readers.walk import Limits as ArchiveLimits

Submission = Callable[[int], Path]


def _files_of(folder: Path, prefix: str) -> dict[str, bytes]:
    return {
        f"{prefix}/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _tar(target: Path, files: dict[str, bytes], mode: str = "w:gz") -> Path:
    with tarfile.open(target, mode) as tar:  # type: ignore[call-overload]
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return target


def _zip(target: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(name, data)
    return target


def test_it_reads_a_deeply_nested_run_in_a_tgz(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(
        submission(702) / "results" / "2024.04.24-22.14.03", "home/user/io500/results/2024.04.24-22.14.03"
    )
    (run,) = read_runs(_tar(tmp_path / "io500-host-2024.04.24-22.14.03.tgz", files))
    assert run.path == "home/user/io500/results/2024.04.24-22.14.03"
    assert run.claimed is not None and run.claimed.hash == "5468A6C3"
    assert len(run.phases["ior-hard-write"].ranks) == 240
    assert "ior-hard-write.csv" in run.files


@pytest.mark.parametrize("mode", ["w", "w:bz2", "w:xz"])
def test_it_reads_plain_bzip2_and_xz_tarballs(submission: Submission, tmp_path: Path, mode: str) -> None:
    files = _files_of(submission(45), "2020.07.14-01.17.59-app")
    (run,) = read_runs(_tar(tmp_path / "result.tar", files, mode))
    assert run.era is Era.C_ISC20 and len(run.phases) == 12


def test_an_isc20_dual_run_tarball_gives_two_runs(submission: Submission, tmp_path: Path) -> None:
    files = {
        **_files_of(submission(45), "results/2020.07.14-01.17.59-app"),
        **_files_of(
            submission(465) / "results" / "results" / "2020.09.28-02.46.18-scr",
            "results/2020.07.14-01.17.59-scr",
        ),
    }
    app, script = read_runs(_tar(tmp_path / "io500-host-2020.07.14-01.17.59.tgz", files))
    assert (app.era, script.era) == (Era.C_ISC20, Era.SHELL_GIB)
    assert app.timestamp == "2020.07.14-01.17.59"
    assert app.path.endswith("-app") and script.path.endswith("-scr")


def test_it_reads_a_zip_and_ignores_macos_debris(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(submission(162) / "results", "submission/results")
    files["__MACOSX/submission/results/._result_summary.txt"] = b"\x00\x05\x16\x07junk"
    files["submission/results/._result_summary.txt"] = b"\x00\x05\x16\x07junk"
    (run,) = read_runs(_zip(tmp_path / "sub.zip", files))
    assert run.era is Era.SHELL and run.claimed is not None and run.claimed.score == 11.5769
    assert not any("._" in name or "__MACOSX" in name for name in run.files)
    assert run.read_notes == []


def test_a_truncated_gzip_is_a_clear_read_error(submission: Submission, tmp_path: Path) -> None:
    archive = _tar(tmp_path / "run.tgz", _files_of(submission(45), "run"))
    archive.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    with pytest.raises(ReadError, match="damaged or truncated"):
        read_runs(archive)


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2", "w:xz"])
def test_a_tarball_cut_in_its_compression_trailer_is_a_clear_read_error(
    submission: Submission, tmp_path: Path, mode: str
) -> None:
    # Every tar member is intact; only the end of the compressed stream is missing.
    archive = _tar(tmp_path / "run.tar", _files_of(submission(45), "run"), mode)
    archive.write_bytes(archive.read_bytes()[:-1])
    with pytest.raises(ReadError, match=r"^run\.tar: The \w+ stream is truncated"):
        read_runs(archive)


def test_a_gzip_with_a_wrong_crc_is_a_clear_read_error(submission: Submission, tmp_path: Path) -> None:
    archive = _tar(tmp_path / "run.tgz", _files_of(submission(45), "run"))
    data = bytearray(archive.read_bytes())
    data[-8] ^= 0x01
    archive.write_bytes(bytes(data))
    with pytest.raises(ReadError, match=r"^run\.tgz: The gzip stream is damaged \(CRC check failed"):
        read_runs(archive)


def test_an_oversized_pax_header_is_a_clear_read_error(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(submission(45), "run")
    target = tmp_path / "run.tgz"
    with tarfile.open(target, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("run/result.txt")
        info.pax_headers = {"comment": "x" * 100_000}
        info.size = len(files["run/result.txt"])
        tar.addfile(info, io.BytesIO(files["run/result.txt"]))
    with pytest.raises(
        ReadError, match=r"^run\.tgz: The archive member .*pax extended header.*at most 64\.0 KiB"
    ):
        read_runs(target)


def test_a_corrupt_zip_is_a_clear_read_error(submission: Submission, tmp_path: Path) -> None:
    archive = _zip(tmp_path / "run.zip", _files_of(submission(45), "run"))
    data = bytearray(archive.read_bytes())
    data[40:400] = b"\xff" * 360  # inside the first member's compressed data
    archive.write_bytes(bytes(data))
    with pytest.raises(ReadError, match="damaged or truncated"):
        read_runs(archive)


@pytest.mark.parametrize("kind", ["tgz", "zip"])
def test_an_empty_archive_is_a_clear_read_error(tmp_path: Path, kind: str) -> None:
    archive = _tar(tmp_path / "empty.tgz", {}) if kind == "tgz" else _zip(tmp_path / "empty.zip", {})
    with pytest.raises(ReadError, match="empty archive"):
        read_runs(archive)


def test_an_archive_without_results_says_what_is_missing(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "scripts.tgz", {"io500.sh": b"#!/bin/bash\n"})
    with pytest.raises(ReadError, match=r"No IO500 result was found in scripts\.tgz"):
        read_runs(archive)


def test_absolute_and_parent_member_names_are_skipped_with_a_note(
    submission: Submission, tmp_path: Path
) -> None:
    files = _files_of(submission(45), "run")
    files["/etc/result_summary.txt"] = b"IO500 version x\n"
    files["../../escape/result.txt"] = b"[run]\n"
    (run,) = read_runs(_tar(tmp_path / "run.tgz", files))
    assert run.path == "run"
    unsafe = [note for note in run.read_notes if note.code == "read-member-unsafe"]
    assert len(unsafe) == 2


def test_symlink_members_are_skipped_with_a_note(submission: Submission, tmp_path: Path) -> None:
    archive = _tar(tmp_path / "run.tgz", _files_of(submission(45), "run"))
    with tarfile.open(archive, "w:gz") as tar:
        for name, data in _files_of(submission(45), "run").items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("run/config-orig.ini.link")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        tar.addfile(link)
    (run,) = read_runs(archive)
    assert [note.code for note in run.read_notes] == ["read-member-link"]
    assert "config-orig.ini.link" not in run.files


def test_an_oversize_member_is_not_read(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(submission(45), "run")
    files["run/ior-easy-write.txt"] = b"x" * 5000
    limits = Limits(max_file_bytes=4096)
    (run,) = read_runs(_tar(tmp_path / "run.tgz", files), limits=limits)
    assert run.phases["ior-easy-write"].raw is None
    assert "read-member-too-large" in [note.code for note in run.read_notes]


def test_a_compression_bomb_stops_at_the_stream_cap(tmp_path: Path) -> None:
    # 64 MiB of zeros compress to ~64 KiB; the cap makes it a bomb without filling the test disk.
    archive = tmp_path / "bomb.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("run/filler.bin")
        info.size = 64 * 1024 * 1024
        tar.addfile(info, io.BytesIO(bytes(info.size)))
    with pytest.raises(ReadError, match=r"unpacks to more than 8\.0 MiB"):
        read_runs(archive, limits=Limits(archive=ArchiveLimits(max_unpacked_bytes=8 * 1024 * 1024)))


def test_nested_archives_are_listed_but_not_opened(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(submission(45), "run")
    files["run/inner.tgz"] = gzip.compress(b"not opened")
    (run,) = read_runs(_tar(tmp_path / "run.tgz", files))
    assert "inner.tgz" in run.files
    assert [note.code for note in run.read_notes] == ["read-nested-archive"]


def test_a_binary_summary_is_a_read_error(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "junk.tgz", {"run/result_summary.txt": b"\x7fELF\x00\x00\x01binary"})
    with pytest.raises(ReadError, match="contains binary data"):
        read_runs(archive)


def test_a_file_that_is_no_archive_is_a_read_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.pdf"
    bogus.write_bytes(b"%PDF-1.4 not an archive")
    with pytest.raises(ReadError, match="not an archive the registry can open"):
        read_runs(bogus)


def test_a_missing_path_is_a_read_error(tmp_path: Path) -> None:
    with pytest.raises(ReadError, match="does not exist"):
        read_runs(tmp_path / "nowhere.tgz")


def test_symlinks_in_a_folder_are_not_followed(submission: Submission, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for path in submission(45).iterdir():
        (run_dir / path.name).write_bytes(path.read_bytes())
    (run_dir / "secret.txt").symlink_to("/etc/hostname")
    (run,) = read_runs(run_dir)
    assert "secret.txt" not in run.files
    assert [note.code for note in run.read_notes] == ["read-member-link"]


def test_a_stray_result_txt_does_not_sink_the_real_run(submission: Submission, tmp_path: Path) -> None:
    files = _files_of(submission(45), "run")
    files["tools/other/result.txt"] = b"accuracy = 0.93\n"
    (run,) = read_runs(_tar(tmp_path / "run.tgz", files))
    assert run.path == "run"
    (stray,) = [note for note in run.read_notes if note.code == "read-folder-unreadable"]
    assert "tools/other" in stray.message
