"""io500.org's list descriptions on the list pages: their links and formatting kept, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from frontend.lists.description import sanitise_description
from registry.models import ListSnapshot
from tests.factories import make_release, make_submission, publish_list


def test_links_and_basic_formatting_survive_with_rel_noopener_nofollow() -> None:
    given = (
        '<p>See the <a href="/lists/sc19/ten-node/">10 node list</a> and '
        '<a href="https://zenodo.org/record/2602025" target="_blank">Zenodo</a><sup>1</sup>.</p>'
    )
    assert sanitise_description(given) == (
        '<p>See the <a href="/lists/sc19/ten-node/" rel="noopener nofollow">10 node list</a> and '
        '<a href="https://zenodo.org/record/2602025" rel="noopener nofollow">Zenodo</a><sup>1</sup>.</p>'
    )


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ('<a href="javascript:alert(1)">x</a>', "x"),
        ('<a href="//evil.example/">x</a>', "x"),
        ('<a href="data:text/html,x" onclick="y">x</a>', "x"),
        ("<script>alert(1)</script>ok", "ok"),
        ('<img src="x" onerror="alert(1)">&lt;b&gt;', "&lt;b&gt;"),
        ('<p style="x" onclick="y">open<b>bold', "<p>open<b>bold</b></p>"),
        ("</p></a>text", "text"),
        (
            '<a href="https://ok.example/?a=1&amp;b=&quot;">q</a>',
            '<a href="https://ok.example/?a=1&amp;b=&quot;" rel="noopener nofollow">q</a>',
        ),
    ],
)
def test_everything_else_is_dropped_or_escaped(given: str, shown: str) -> None:
    assert sanitise_description(given) == shown


def test_an_imported_list_page_keeps_its_description_links(client: Client, imported_history: Path) -> None:
    html = client.get("/lists/sc19/io500/").content.decode()
    assert '<a href="/lists/sc19/ten-node/" rel="noopener nofollow">10 node challenge ranked list</a>' in html


@pytest.mark.django_db
def test_a_hostile_description_is_not_run(client: Client) -> None:
    release = make_release(name="SC47")
    snapshot = publish_list(release, "io500", [make_submission(release=release)])
    ListSnapshot.objects.filter(pk=snapshot.pk).update(
        description=(
            '<p onmouseover="steal()">Hi <a href="javascript:steal()">there</a><script>steal()</script></p>'
        )
    )
    html = client.get("/lists/sc47/io500/").content.decode()
    assert "<p>Hi there</p>" in html and "steal()" not in html
