"""The one policy for missing shared data: the test that asks fails, naming what it expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import data


def test_missing_data_fails_the_asking_test_and_names_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data, "IO500_DATA", tmp_path / "io500-data")
    with pytest.raises(pytest.fail.Exception, match=r"expected .*io500-data/submissions/index\.csv"):
        data.data_root()


def test_a_missing_run_fails_even_when_the_rest_of_the_data_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "submissions").mkdir()
    (tmp_path / "submissions" / "index.csv").write_text("submission_id\n")
    (tmp_path / "lists").mkdir()
    monkeypatch.setattr(data, "IO500_DATA", tmp_path)
    assert data.submissions_root() == tmp_path / "submissions"
    with pytest.raises(pytest.fail.Exception, match="submission-7"):
        data.submission_folder(7)


def test_the_real_data_is_where_the_tests_expect_it() -> None:
    assert data.submission_folder(33).is_dir()
