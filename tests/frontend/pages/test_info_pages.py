"""The information pages: the rules in our words with their sources, how to run, the call for
submissions, about (with its questions), and how the public cache keeps them."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from frontend.pages import sources
from frontend.pages.selectors import call_state, provenance_counts
from registry.lists.releases import ReleaseDates, ReleaseSettings, release_open
from registry.models import ListSnapshot
from tests.factories import make_release, make_submission, publish_list

pytestmark = pytest.mark.django_db

HEX = re.compile(r"[0-9a-f]{7,40}")


def _days(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


def test_every_rule_the_brief_names_is_summarised_with_a_dated_source():
    anchors = {rule.anchor for rule in sources.RULES}
    assert {
        "stonewall",
        "fixed-parameters",
        "what-may-change",
        "score",
        "production-research",
        "client-nodes",
        "one-per-system",
        "disclosure",
        "messaging",
    } <= anchors
    for rule in sources.RULES:
        assert rule.sources, rule.anchor
        for source in rule.sources:
            assert source.url.startswith(("https://io500.org/", "https://github.com/IO500/")), source
            assert HEX.fullmatch(source.commit), source
            datetime.date.fromisoformat(source.date)
            assert source.commit in source.commit_url and source.path in source.commit_url


def test_rule_sources_lists_each_document_once_in_the_order_first_cited():
    listed = sources.rule_sources()
    assert len(listed) == len(set(listed))
    assert listed[0] == sources.RULES[0].sources[0]
    cited = {source for rule in sources.RULES for source in rule.sources}
    assert set(listed) == cited


def test_the_rules_page_shows_each_rule_linked_to_io500_org_and_its_commit(client):
    html = client.get("/rules/").content.decode()
    for rule in sources.RULES:
        assert f'id="{rule.anchor}"' in html
        section = html.split(f'id="{rule.anchor}"', 1)[1].split("</section>", 1)[0]
        for source in rule.sources:
            assert f'href="{source.url}"' in section, (rule.anchor, source.url)
            assert source.short_commit in section
    assert "300 seconds" in html
    assert "&quot;verified&quot;" in html and "&quot;unverified&quot;" in html
    assert "docs/list-rules.md" in html


def test_how_to_run_covers_the_official_application_and_the_bundled_runner(client, settings):
    settings.SITE_URL = "https://registry.example"
    html = client.get("/how-to-run/").content.decode()
    for step in ("git clone -b io500-", "./prepare.sh", "./io500 config.ini", "make -C runner", "--pack"):
        assert step in html, step
    # The submit tool is shown with the registry's own address, ready to copy.
    assert "runner/io500-submit" in html and "--url https://registry.example --token TOKEN" in html
    assert 'href="/submissions/upload/"' in html and 'href="/rules/"' in html


def test_the_call_page_shows_an_open_release_with_its_deadline_versions_and_upload_link(client):
    make_release(
        name="ISC40",
        publication_date=_days(40),
        submission_deadline=_days(20),
        accepted_versions=["io500-isc40", "io500-isc40_v1"],
        list_kinds=["production", "research", "full"],
    )
    html = client.get("/call/").content.decode()
    assert "ISC40 is open for submissions" in html
    assert _days(20).strftime("%-d %B %Y") in html
    assert "<code>io500-isc40_v1</code>" in html
    assert "Production, Research, Full" in html
    assert 'href="/submissions/upload/?release=isc40"' in html
    assert 'data-role="no-open-call"' not in html


def test_without_an_open_call_the_page_names_the_next_and_the_last_one(client):
    make_release(name="SC38", publication_date=_days(-200), submission_deadline=_days(-215))
    make_release(name="ISC39", publication_date=_days(-20), submission_deadline=_days(-35))
    make_release(name="SC39", publication_date=_days(10), submission_deadline=_days(-3))
    html = client.get("/call/").content.decode()
    assert 'data-role="no-open-call"' in html
    assert "is open for submissions" not in html
    no_call = html.split('data-role="no-open-call"', 1)[1].split("</p>", 1)[0]
    # SC39 is still ahead but closed three days ago; ISC39 is the newest past call (not SC38).
    assert "SC39's lists are due on" in no_call and _days(-3).strftime("%-d %B %Y") in no_call
    assert "The last call, for ISC39" in no_call and "SC38" not in no_call


def test_call_state_orders_open_calls_soonest_first_and_picks_the_newest_closed():
    make_release(name="SC38", publication_date=_days(-200), submission_deadline=_days(-215))
    make_release(name="ISC39", publication_date=_days(-20), submission_deadline=_days(-35))
    later = make_release(name="ISC41", publication_date=_days(200), submission_deadline=_days(180))
    sooner = make_release(name="SC40", publication_date=_days(60), submission_deadline=_days(30))
    state = call_state()
    assert [call.release for call in state.open] == [sooner, later]
    assert state.open[0].kinds == ["IO500", "10 Node Challenge", "Full", "Historical"]
    assert state.upcoming is None
    assert state.last_closed is not None and state.last_closed.name == "ISC39"


def test_opening_a_release_refreshes_the_cached_call_page(django_capture_on_commit_callbacks):
    reader = Client()
    assert 'data-role="no-open-call"' in reader.get("/call/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        release_open(
            name="SC45",
            settings=ReleaseSettings(
                dates=ReleaseDates(publication_date=_days(50), submission_deadline=_days(25)),
                list_kinds=("production", "research", "full", "historical"),
            ),
        )
    assert "SC45 is open for submissions" in reader.get("/call/").content.decode()


def test_the_about_page_counts_lists_by_provenance_and_holds_the_questions(client):
    release = make_release(name="SC30", publication_date=_days(-400))
    publish_list(release, "io500", [make_submission()], provenance=ListSnapshot.Provenance.RECORDED)
    publish_list(release, "full", [make_submission()], provenance=ListSnapshot.Provenance.RECONSTRUCTED)
    assert provenance_counts() == {"recorded": 1, "reconstructed": 1, "published_here": 0}
    html = client.get("/about/").content.decode()
    assert "This is not io500.org." in html
    assert "Recorded (1 list)" in html and "Published here (0 lists)" in html
    assert sources.SUBMISSION_DATA_COMMIT[:7] in html and sources.WEBPAGE_SNAPSHOT[:7] in html
    assert 'id="faq"' in html
    faq = client.get("/faq/")
    assert faq.status_code == 301 and faq.url == "/about/#faq"


@pytest.mark.parametrize("path", ["/rules/", "/how-to-run/", "/call/", "/about/", "/lists/"])
def test_an_information_page_is_answered_from_the_public_cache(path, django_assert_num_queries):
    make_release(name="SC30", publication_date=_days(-400), submission_deadline=_days(-420))
    first = Client().get(path)
    assert first.status_code == 200
    # Only the cache generations are read: no query at all.
    with django_assert_num_queries(0):
        again = Client().get(path)
    assert again.content == first.content


def test_the_site_navigation_links_every_information_page(client):
    html = client.get("/rules/").content.decode()
    header = html.split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/rules/"' in header and 'href="/how-to-run/"' in header
    footer = html.split('<footer class="site-footer">', 1)[1]
    for path in ("/lists/", "/rules/", "/how-to-run/", "/call/", "/about/", "/about/#faq"):
        assert f'href="{path}"' in footer, path
