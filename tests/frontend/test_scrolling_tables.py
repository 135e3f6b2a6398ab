"""Every data table of every template scrolls inside a box a keyboard can reach. At a phone's width a
table wider than its card must scroll (site.css), and a scrolling box needs a keyboard stop of its own
(axe: scrollable-region-focusable): the `.table-scroll` box with tabindex="0" around the table. A
table outside one is caught here, before a crawl finds the page it is on with enough rows to scroll."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEMPLATE_ROOTS = ("frontend", "registry", "submissions")
# The tables of data (class "data" or "stats"); the archive viewer's own tables wrap their lines.
DATA_TABLE = re.compile(r'<table class="(?:data|stats)\b[^"]*"[^>]*>')
# What may stand between the box and its table: template tags and comments, white space.
TAG_ENDS = {"%}": "{%", "#}": "{#"}
SCROLL_BOX = re.compile(r'<div class="table-scroll"[^>]*\btabindex="0"[^>]*>$')


def templates() -> list[Path]:
    return sorted(
        path for root in TEMPLATE_ROOTS for path in (REPO / root).rglob("*.html") if "templates" in path.parts
    )


def without_trailing_tags(text: str) -> str:
    """The text with the template tags, comments and white space at its end taken off."""
    text = text.rstrip()
    while text[-2:] in TAG_ENDS:
        text = text[: text.rfind(TAG_ENDS[text[-2:]])].rstrip()
    return text


def tables_outside_a_scroll_box(text: str) -> list[str]:
    outside = []
    for table in DATA_TABLE.finditer(text):
        before = without_trailing_tags(text[: table.start()])
        if not SCROLL_BOX.search(before):
            outside.append(table.group(0))
    return outside


def test_every_data_table_scrolls_in_a_box_the_keyboard_reaches() -> None:
    found = {
        str(path.relative_to(REPO)): outside
        for path in templates()
        if (outside := tables_outside_a_scroll_box(path.read_text()))
    }
    assert found == {}


def test_a_table_on_its_own_or_in_a_box_without_a_keyboard_stop_is_caught() -> None:
    assert tables_outside_a_scroll_box('<p>x</p>\n<table class="data">') == ['<table class="data">']
    assert tables_outside_a_scroll_box('<div class="table-scroll">\n  <table class="stats x">') != []
    boxed = '<div class="table-scroll" tabindex="0">\n  {% if rows %}\n  <table class="data" id="t">'
    assert tables_outside_a_scroll_box(boxed) == []
    assert templates(), "no template found: the roots moved"
