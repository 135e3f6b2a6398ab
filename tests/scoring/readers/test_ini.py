"""The INI reader follows the IO500 application's own parser rules (src/ini-parse.c)."""

from __future__ import annotations

from scoring.readers.ini import parse_ini


def test_keys_before_the_first_section_go_to_the_unnamed_section() -> None:
    document = parse_ini(
        "version         = io500-isc21\nconfig-hash     = DC3487CB\n\n[ior-easy-write]\nscore = 1.5\n"
    )
    assert document.as_app_sees_it() == [
        ("", [("version", "io500-isc21"), ("config-hash", "DC3487CB")]),
        ("ior-easy-write", [("score", "1.5")]),
    ]


def test_a_value_stops_at_a_comment_and_loses_trailing_blanks_and_cr() -> None:
    document = parse_ini("[run]\nSCORE           = 104.304104 \r\nexe = ./ior -a POSIX ; the api\n")
    assert document.as_app_sees_it() == [
        ("", []),
        ("run", [("SCORE", "104.304104"), ("exe", "./ior -a POSIX")]),
    ]


def test_keys_with_an_empty_value_are_skipped_as_the_app_skips_them() -> None:
    document = parse_ini("version         = \n[debug]\npause-dir = \nstonewall-time = 300\n")
    assert document.as_app_sees_it() == [("", []), ("debug", [("stonewall-time", "300")])]
    # The configuration view keeps them, so a reviewer sees that the option exists but is unset.
    assert document.as_config() == {"": {"version": ""}, "debug": {"pause-dir": "", "stonewall-time": "300"}}


def test_error_comments_are_kept_with_their_section() -> None:
    document = parse_ini(
        "[run]\nprocs = 160\n; ERROR INVALID stonewall-time < 30s\n\n"
        "[find]\n; ERROR INVALID Find didn't find anything\n"
    )
    run = document.section("run")
    find = document.section("find")
    assert run is not None and run.comments == ["ERROR INVALID stonewall-time < 30s"]
    assert find is not None and find.comments == ["ERROR INVALID Find didn't find anything"]


def test_a_value_with_a_semicolon_inside_a_word_is_no_key_line() -> None:
    # The app's key regex cannot match "a;b" (the value stops at ';' and the rest is no comment).
    document = parse_ini("[run]\nexe = ./ior -o a;b\n")
    assert document.as_app_sees_it() == [("", []), ("run", [])]
    assert document.unparsed == [(2, "exe = ./ior -o a;b")]


def test_sections_and_keys_are_looked_up_case_insensitively() -> None:
    document = parse_ini("[Debug]\nStonewall-Time = 300\n")
    assert document.value("debug", "stonewall-time") == "300"
    assert document.value("global", "datadir") is None


def test_an_inline_comment_after_a_section_header_is_allowed() -> None:
    document = parse_ini("[global] # paths\ndatadir = /scratch\n")
    assert document.as_app_sees_it() == [("", []), ("global", [("datadir", "/scratch")])]
