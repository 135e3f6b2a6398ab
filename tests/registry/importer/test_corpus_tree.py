"""A checkout of IO500/submission-data (nested folders) reads back as the flat index's RawFolder rows."""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.importer.corpus_tree import MAX_DEPTH, looks_like_submission_data, nested_raw_folders
from registry.importer.source import IO500Data, RawFolder, read_csv

# A plain name, a trailing space in the system name, and a '/' inside the file-system name.
SHARED_SAMPLE_IDS = (3, 90, 207)


def submission(root: Path, relative: str, files: tuple[str, ...] = ("result_summary.txt",)) -> Path:
    folder = root / relative
    folder.mkdir(parents=True)
    for name in files:
        (folder / name).write_text("[RESULT] ior-easy-write 1.0 GiB/s : time 300.0 seconds\n")
    return folder


def fields(folder: RawFolder) -> tuple[int, str, str, str, int]:
    return (folder.io500_id, folder.institution, folder.system, folder.filesystem, folder.year)


def test_a_normal_tree_gives_one_folder_per_submission_sorted_by_number(tmp_path):
    submission(tmp_path, "Lab B/Sys/Lustre/2023/submission-12")
    submission(tmp_path, "Lab A/Big System/DAOS/2020/submission-5")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.problems == []
    assert [fields(folder) for folder in corpus.folders] == [
        (5, "Lab A", "Big System", "DAOS", 2020),
        (12, "Lab B", "Sys", "Lustre", 2023),
    ]
    assert corpus.folders[0].path == tmp_path / "Lab A/Big System/DAOS/2020/submission-5"


def test_a_slash_inside_a_filesystem_name_is_restored_from_the_extra_folders(tmp_path):
    submission(tmp_path, "EPCC/Archer/work / fs2/2019/submission-207")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.problems == []
    assert [fields(folder) for folder in corpus.folders] == [(207, "EPCC", "Archer", "work / fs2", 2019)]
    assert corpus.folders[0].path.name == "submission-207"


def test_spaces_around_names_are_stripped_like_the_index_columns(tmp_path):
    submission(tmp_path, " Cloud/Block Volume running Scale /Scale/2019/submission-90")

    [folder] = nested_raw_folders(tmp_path).folders

    assert (folder.institution, folder.system, folder.filesystem) == (
        "Cloud",
        "Block Volume running Scale",
        "Scale",
    )


def test_a_duplicated_submission_number_skips_every_copy_and_names_both_paths(tmp_path):
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-7")
    submission(tmp_path, "Other/Sys/GPFS/2020/submission-7")
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-8")

    corpus = nested_raw_folders(tmp_path)

    assert [folder.io500_id for folder in corpus.folders] == [8]
    [problem] = corpus.problems
    assert "submission-7 appears 2 times" in problem
    assert "Lab/Sys/Lustre/2019/submission-7" in problem
    assert "Other/Sys/GPFS/2020/submission-7" in problem


def test_leading_zeros_make_the_same_number_a_duplicate(tmp_path):
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-7")
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-007")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.folders == []
    assert len(corpus.problems) == 1


def test_a_year_folder_that_is_not_four_digits_is_reported_and_skipped(tmp_path):
    submission(tmp_path, "Lab/Sys/Lustre/19/submission-4")
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-5")

    corpus = nested_raw_folders(tmp_path)

    assert [folder.io500_id for folder in corpus.folders] == [5]
    [problem] = corpus.problems
    assert "Lab/Sys/Lustre/19/submission-4" in problem
    assert "'19'" in problem
    assert "4-digit year" in problem


def test_a_submission_too_close_to_the_root_cannot_be_split(tmp_path):
    submission(tmp_path, "Lab/Sys/2019/submission-4")
    submission(tmp_path, "submission-6")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.folders == []
    assert len(corpus.problems) == 2
    assert all("cannot be split" in problem for problem in corpus.problems)


def test_a_symlinked_folder_is_reported_and_not_followed(tmp_path):
    elsewhere = submission(tmp_path / "outside", "Lab/Sys/Lustre/2019/submission-9")
    checkout = tmp_path / "checkout"
    submission(checkout, "Lab/Sys/Lustre/2019/submission-1")
    (checkout / "Lab/Sys/Lustre/2019/submission-9").symlink_to(elsewhere, target_is_directory=True)
    (checkout / "Linked Lab").symlink_to(tmp_path / "outside/Lab", target_is_directory=True)

    corpus = nested_raw_folders(checkout)

    assert [folder.io500_id for folder in corpus.folders] == [1]
    link_note = "is a symbolic link; links are not followed, skipped."
    assert sorted(corpus.problems) == [
        f"{checkout / 'Lab/Sys/Lustre/2019/submission-9'} {link_note}",
        f"{checkout / 'Linked Lab'} {link_note}",
    ]


def test_the_top_level_readme_and_dot_folders_are_not_submissions(tmp_path):
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-2")
    (tmp_path / "README.md").write_text("# IO500 submissions\n")
    submission(tmp_path, ".git/objects/aa/bb/submission-3")
    submission(tmp_path, ".github/workflows/x/2019/submission-4")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.problems == []
    assert [folder.io500_id for folder in corpus.folders] == [2]


def test_files_outside_submission_folders_below_the_top_are_reported(tmp_path):
    submission(tmp_path, "Lab/Sys/Lustre/2019/submission-2")
    submission(tmp_path, "Lab/Sys/Lustre/2019/run-2", files=("result.txt",))

    corpus = nested_raw_folders(tmp_path)

    assert [folder.io500_id for folder in corpus.folders] == [2]
    assert corpus.problems == [
        f"{tmp_path / 'Lab/Sys/Lustre/2019/run-2'} holds 1 file(s) outside any submission-N folder "
        "(result.txt); not imported."
    ]


def test_the_walk_does_not_look_inside_a_submission_folder(tmp_path):
    outer = submission(tmp_path, "Lab/Sys/Lustre/2019/submission-2")
    submission(outer, "a/b/c/2019/submission-3")

    corpus = nested_raw_folders(tmp_path)

    assert corpus.problems == []
    assert [folder.io500_id for folder in corpus.folders] == [2]


def test_folders_deeper_than_the_bound_are_refused(tmp_path):
    shallow = "/".join(f"d{level}" for level in range(MAX_DEPTH - 2))
    deep = "/".join(f"d{level}" for level in range(MAX_DEPTH + 3))
    submission(tmp_path, f"{shallow}/2019/submission-1")
    submission(tmp_path, f"{deep}/2019/submission-2")

    corpus = nested_raw_folders(tmp_path)

    assert [folder.io500_id for folder in corpus.folders] == [1]
    assert corpus.folders[0].filesystem == "/".join(f"d{level}" for level in range(2, MAX_DEPTH - 2))
    [problem] = corpus.problems
    too_deep = tmp_path.joinpath(*[f"d{level}" for level in range(MAX_DEPTH + 1)])
    assert problem.startswith(f"{too_deep} is more than {MAX_DEPTH} folders below")


def test_a_missing_root_is_a_problem_not_a_crash(tmp_path):
    corpus = nested_raw_folders(tmp_path / "nowhere")

    assert corpus.folders == []
    assert corpus.problems == [f"{tmp_path / 'nowhere'} is not a folder; no submission was read."]


def test_a_checkout_is_recognised_and_the_shared_data_folder_is_not(tmp_path, io500_data):
    checkout = tmp_path / "checkout"
    submission(checkout, "Lab/Sys/Lustre/2019/submission-1")
    flat = tmp_path / "flat"
    submission(flat, "submissions/submission-1")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "Lab").symlink_to(checkout / "Lab", target_is_directory=True)

    assert looks_like_submission_data(checkout)
    assert not looks_like_submission_data(io500_data)
    assert not looks_like_submission_data(flat)
    assert not looks_like_submission_data(linked)
    assert not looks_like_submission_data(tmp_path / "nowhere")
    (checkout / "lists").mkdir()
    assert not looks_like_submission_data(checkout)


def test_the_nested_layout_of_the_shared_index_reads_back_like_the_flat_index(tmp_path, io500_data):
    data = IO500Data(io500_data)
    index_rows = {int(row["submission_id"]): row for row in _index(io500_data)}
    flat = {folder.io500_id: folder for folder in data.raw_folders() if folder.io500_id in SHARED_SAMPLE_IDS}
    assert sorted(flat) == list(SHARED_SAMPLE_IDS)
    checkout = tmp_path / "submission-data"
    for io500_id in SHARED_SAMPLE_IDS:
        shutil.copytree(flat[io500_id].path, checkout / index_rows[io500_id]["source_path"])

    corpus = nested_raw_folders(checkout)

    assert corpus.problems == []
    assert [fields(folder) for folder in corpus.folders] == [fields(flat[i]) for i in SHARED_SAMPLE_IDS]
    for folder in corpus.folders:
        assert folder.path == checkout / index_rows[folder.io500_id]["source_path"]
        assert _files(folder.path) == _files(flat[folder.io500_id].path)
    assert looks_like_submission_data(checkout)


def _index(io500_data: Path) -> list[dict[str, str]]:
    return read_csv(io500_data / "submissions" / "index.csv")


def _files(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())
