"""Text people typed on pages: bidi controls neutralised, user names compared by one key."""

from __future__ import annotations

from django.template import engines

from registry.core.text import isolate, no_bidi, username_key


def test_isolate_removes_bidi_controls_escapes_and_isolates() -> None:
    assert isolate("a\u202e<b>\u2067") == "<bdi>a&lt;b&gt;</bdi>"
    assert isolate(None) == "" and isolate("") == ""
    assert no_bidi("x\u200fy") == "xy" and no_bidi(3) == 3


def test_the_filters_are_built_in_for_every_template() -> None:
    template = engines["django"].from_string('<p title="{{ v|no_bidi }}">{{ v|isolate }}</p>')
    assert template.render({"v": "r\u202el"}) == '<p title="rl"><bdi>rl</bdi></p>'


def test_user_name_keys_fold_width_and_case() -> None:
    assert username_key("\uff21lice") == username_key("ALICE") == "alice"
