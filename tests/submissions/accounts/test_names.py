"""Which user names a new account may take (submissions.accounts.names)."""

from __future__ import annotations

from submissions.accounts.names import hidden_characters, skeleton, username_problems

EXISTING = ["alice", "ceo"]


def test_hidden_and_direction_characters_are_named() -> None:
    assert hidden_characters("a\u202eb\u200bc\u2066") == ["U+202E", "U+200B", "U+2066"]
    assert hidden_characters("J\u00f6rg_2") == []


def test_a_name_in_another_script_is_compared_by_the_latin_letters_it_looks_like() -> None:
    assert skeleton("\u0441\u0435\u043e") == "ceo"  # Cyrillic es, ie, o
    assert skeleton("\uff21\uff2c\uff29\uff23\uff25") == "alice"  # fullwidth capitals
    assert skeleton("J\u00f6rg") == "j\u00f6rg"


def test_names_that_pass_for_another_are_refused_and_others_are_welcome() -> None:
    assert username_problems("\u0441\u0435\u043e", existing=EXISTING)
    assert username_problems("\u0430lice", existing=[])  # a Cyrillic a among Latin letters
    assert username_problems("Alice", existing=EXISTING)
    for welcome in ("bob", "J\u00f6rg", "\u0418\u0432\u0430\u043d", "\u674e\u96f7", "ceo_2"):
        assert username_problems(welcome, existing=EXISTING) == [], welcome
