"""Random damage to real result files never makes a reader fail with anything but ReadError."""

from __future__ import annotations

import io
import random
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.model import ReadError, RunResult
from scoring.readers import RunFiles, read_run
from scoring.readers.locate import read_runs
from tests.scoring.corpus import data_root
from tests.support.volume import volume

# One run directory per format family: shell GB/s, shell GiB/s, io-500-dev, ISC20, ISC21 extended,
# ISC24 with per-rank CSVs, ISC25 with the rnd4K phase.
SAMPLES = (
    "submission-162/results",
    "submission-465/results/results/2020.09.28-02.46.18-scr",
    "submission-198",
    "submission-45",
    "submission-582",
    "submission-702/results/2024.04.24-22.14.03",
    "submission-738/results/2025.05.07-09.01.18",
)
READ_SUFFIXES = (".txt", ".csv", ".ini", ".cfg", ".sh")


def _load(relative: str) -> dict[str, bytes]:
    folder = data_root() / "submissions" / relative
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.iterdir())
        if path.is_file() and path.name.endswith(READ_SUFFIXES)
    }


CORPUS = {relative: _load(relative) for relative in SAMPLES}


def _mutate(data: bytes, kind: str, rng: random.Random) -> bytes:
    if kind == "flip":
        buffer = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if buffer:
                buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        return bytes(buffer)
    if kind == "truncate":
        return data[: rng.randrange(len(data) + 1)]
    if kind == "shuffle":
        lines = data.split(b"\n")
        rng.shuffle(lines)
        return b"\n".join(lines)
    if kind == "numbers":
        # Replace digits with the spellings that break naive parsers.
        bad = rng.choice([b"nan", b"inf", b"-1", b"1e999", b"", b"0x1F", b"\xff\xfe"])
        return data.replace(rng.choice(b"0123456789").to_bytes(1, "big"), bad, rng.randint(1, 5))
    return data + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))


def _constant(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def _files(relative: str, contents: dict[str, bytes]) -> RunFiles:
    loaders: dict[str, Callable[[], bytes]] = {name: _constant(data) for name, data in contents.items()}
    return RunFiles(
        path=relative, direct=loaders, all_names=tuple(sorted(contents)), max_file_bytes=16 * 2**20
    )


def _read_or_refuse(files: RunFiles) -> RunResult | None:
    try:
        return read_run(files)
    except ReadError as error:
        assert str(error)  # a refusal always explains itself
        return None


@settings(
    max_examples=volume(suite=100, full=300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    sample=st.sampled_from(SAMPLES),
    picks=st.lists(
        st.tuples(
            st.integers(0, 10_000), st.sampled_from(["flip", "truncate", "shuffle", "numbers", "append"])
        ),
        min_size=1,
        max_size=4,
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_mutated_result_files_read_or_raise_read_error(
    sample: str, picks: list[tuple[int, str]], seed: int
) -> None:
    rng = random.Random(seed)
    contents = dict(CORPUS[sample])
    names = sorted(contents)
    for index, kind in picks:
        name = names[index % len(names)]
        contents[name] = _mutate(contents[name], kind, rng)
    run = _read_or_refuse(_files(sample, contents))
    if run is not None:
        for phase in (*run.phases.values(), *run.extra_phases.values()):
            assert phase.value >= 0 and phase.value == phase.value  # never negative, never NaN


@settings(max_examples=volume(suite=30, full=60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sample=st.sampled_from(SAMPLES),
    cut=st.floats(0.0, 1.0),
    flips=st.lists(st.tuples(st.floats(0.0, 1.0), st.integers(0, 255)), max_size=6),
)
def test_damaged_tarballs_read_or_raise_read_error(
    sample: str, cut: float, flips: list[tuple[float, int]]
) -> None:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as tar:
        for name, data in CORPUS[sample].items():
            info = tarfile.TarInfo(f"run/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    damaged = bytearray(packed.getvalue())
    for position, value in flips:
        damaged[int(position * (len(damaged) - 1))] = value
    data = bytes(damaged[: max(1, int(cut * len(damaged)))] if cut < 1.0 else damaged)
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "upload.tgz"
        archive.write_bytes(data)
        try:
            read_runs(archive)
        except ReadError as error:
            assert str(error)
