"""Anonymous readers of published lists and history charts are answered from the public cache before
sessions, log-in checks or queries; nobody else is, and nothing personal is ever stored there."""

from __future__ import annotations

import contextlib
import datetime
import gzip
import json
import random
import time
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.http import Http404, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.test import Client, RequestFactory
from django.urls import resolve
from django.utils import timezone

from registry.core.public_cache import (
    PUBLIC_ROUTES,
    LocalCopies,
    PublicCacheMiddleware,
    StoredResponse,
    mark_public,
    public_route,
)
from registry.core.query_params import canonical_query
from registry.models import Release
from tests.reliability.records import record
from tests.support.chart_data import build_history
from tests.support.volume import volume

pytestmark = pytest.mark.django_db

PUBLIC_URLS = (
    "/lists/isc41/io500/",
    "/",
    "/history/",
    "/charts/history/points.json",
    "/charts/history/trends.json?kind=main",
    "/charts/history/shares.json",
    "/charts/history/shares.csv",
    "/charts/radar/isc41/io500.json",
    "/file-systems/",
    "/file-systems/lustre/",
    "/vendors/thinkparq/",
    "/sites/",
    "/charts/file-systems/daos/trends.json",
)


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_a_second_anonymous_read_of_public_content_runs_no_query(client, django_assert_num_queries, url):
    build_history()
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]


def test_tracking_parameters_and_parameter_order_share_one_stored_answer(client, django_assert_num_queries):
    build_history()
    first = client.get("/lists/isc41/io500/?o=bw&filesystem=lustre")
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get("/lists/isc41/io500/?utm_source=mail&filesystem=lustre&o=bw&fbclid=x&q=")
    assert again.content == first.content


def test_a_repeated_parameter_is_answered_but_never_stored(client):
    build_history()
    # The view reads the last value: the two orders are two different pages.
    scc_last = client.get("/charts/history/trends.json?kind=main&kind=scc")
    main_last = client.get("/charts/history/trends.json?kind=scc&kind=main")
    assert scc_last.json()["kind"] == "scc" and main_last.json()["kind"] == "main"
    assert "ETag" not in scc_last and "ETag" not in main_last
    assert not _public_keys()


@pytest.mark.parametrize(
    "query",
    [
        "x=1",  # a name no view reads
        "_=1700000000",  # a cache buster
        "kind=MAIN",  # a value in another spelling than the site's links use
        "kind=%20main",
        "kind=main&kind=main",  # the same value twice
        "q=a&kind=main",  # a list page's parameter on a chart
    ],
)
def test_a_query_the_site_never_links_to_is_answered_but_never_stored(client, query):
    build_history()
    answer = client.get(f"/charts/history/points.json?{query}")
    assert answer.status_code == 200
    assert "ETag" not in answer
    assert not _public_keys()


@pytest.mark.parametrize("url", ["/history/", "/charts/history/points.json"])
def test_a_file_system_name_no_one_types_is_refused_with_the_reason_and_not_stored(client, url):
    build_history()
    answer = client.get(url, {"filesystem": "f" * 65})
    assert answer.status_code == 400
    assert "at most 64 characters" in answer.content.decode()
    assert not _public_keys()


def test_tracking_tags_are_answered_from_the_entry_of_the_page_without_them(
    client, django_assert_num_queries
):
    build_history()
    client.get("/charts/history/trends.json?kind=scc")
    keys = _all_cache_keys()
    with django_assert_num_queries(0):
        tagged = client.get("/charts/history/trends.json?kind=scc&utm_source=news&utm_medium=mail&gclid=7")
    assert tagged.json()["kind"] == "scc"
    assert _all_cache_keys() == keys


# Answered from the charts and list-body caches once warm: cheap enough for thousands of requests.
CHEAP_URLS = (
    "/",
    "/lists/isc41/io500/",
    "/history/",
    "/charts/history/points.json",
    "/charts/history/trends.json",
    "/charts/history/shares.json",
    "/charts/radar/isc41/io500.json",
)
# Every kind of junk query comes round every 10 queries and every page every 50: 1,000 reach each
# of the 7 x 22 combinations of a cheap page and a junk kind six times on average (the suite's share;
# a cache key per query would show as hundreds of new keys); `make reliability` sends 10,000.
JUNK_QUERIES = volume(suite=1_000, full=10_000)


def _junk_query(rng: random.Random, number: int, *, spellings: bool) -> str:
    """A query the site never links to: it must cost a render, never a cache key. `spellings` adds
    declared names in spellings no link uses, which cost a list page a full render."""
    made_up = (
        f"x{number}=1",
        f"_={number}",
        f"callback=jQuery{number}",
        f"page={number}",
        f"%ff{number}=1",
        f"a%00b={number}",
        f"q=&q=&n{number}=",  # repeated, and an unknown name
        f"kind=&kind=&z={number}",
        f"utm_source={number}&fbclid={number}&x={number}",  # tracking tags around junk
        f"utm_campaign={number}",  # tracking tags alone: the canonical entry, no new key
    )
    misspelt = (
        f"o=%20bw{number}",
        f"w_bw={number}e0",
        f"year=0{number}",
        f"version=0{number}",
        f"kind=MAIN&x={number}",
        f"q=%00{number}",
        f"filesystem={'f' * 65}{number}",
        f"q={'q' * 65}{number}",
        f"formula=bw*md*{number}",  # a formula in another spelling than the site's links write
        f"formula=BW%20*%20{number}",
        f"formula=bw%20*%20({number}%20%2B",  # one that cannot be read
        f"reproducibility=Limited{number}",
    )
    return rng.choice(made_up + misspelt if spellings else made_up)


@pytest.mark.fuzz
def test_thousands_of_made_up_queries_add_no_cache_key(client):
    history = build_history()
    submission = history.submissions[0]
    # The pages that run a visibility query, ten times slower: a share of the queries each.
    fingerprinted = (
        f"/submissions/{submission.pk}/",
        f"/systems/{history.lustre.pk}/",
        f"/charts/systems/{history.lustre.pk}/history.json",
        f"/charts/submissions/{submission.pk}/phases.json",
        f"/charts/submissions/{submission.pk}/timeline.json",
        f"/charts/submissions/{submission.pk}/ranks.json",
    )
    urls = [*CHEAP_URLS, *fingerprinted]
    for url in urls:  # every canonical page and its data, stored once
        assert client.get(url).status_code == 200
    before = _all_cache_keys()
    assert any(":public:" in key for key in before)
    rng = random.Random(13)
    statuses: dict[int, int] = {}
    for number in range(JUNK_QUERIES):
        url = fingerprinted[number % len(fingerprinted)] if number % 50 == 0 else CHEAP_URLS[number % 7]
        # Misspelt list parameters cost a full render (the list caches refuse them): a tenth of those.
        spellings = url not in ("/", "/lists/isc41/io500/") or number % 10 == 0
        status = client.get(f"{url}?{_junk_query(rng, number, spellings=spellings)}").status_code
        statuses[status] = statuses.get(status, 0) + 1
    assert set(statuses) <= {200, 400, 404}, statuses
    added = _all_cache_keys() - before
    record(
        "cache-keys",
        "junk query strings",
        requests=JUNK_QUERIES,
        keys_added=len(added),
        statuses={str(code): count for code, count in sorted(statuses.items())},
    )
    assert added == set()


def test_made_up_names_in_a_path_add_no_cache_key(client):
    build_history()
    for url in CHEAP_URLS:
        client.get(url)
    before = _all_cache_keys()
    for number in range(50):
        for url in (
            f"/charts/radar/nothere{number}/io500.json",
            f"/lists/nothere{number}/io500/",
            f"/lists/isc41/nokind{number}/",
            f"/systems/{900_000 + number}/",
            f"/charts/systems/{900_000 + number}/history.json",
            f"/submissions/{900_000 + number}/",
        ):
            assert client.get(url).status_code == 404, url
    assert _all_cache_keys() - before == set()


PUBLIC_SAMPLE_QUERY = (
    "q=a&filesystem=lustre&vendor=ddn&nodes_min=1&nodes_max=99&year=2041&o=bw&w_bw=2&w_md=1"
    "&reproducibility=limited&institution_type=university&formula=bw*md"
    "&version=1&kind=main&phase=easy-write&claim=%231+at+ISC41&unrelated=1"
)


class ReadRecordingQuery(QueryDict):
    """A query that remembers which names were asked for ("*" when all of them were read)."""

    def __init__(self, query: str) -> None:
        self.names_read: set[str] = set()
        self.paused = False
        super().__init__(query)
        self.names_read.clear()  # filling the dictionary is no reading

    def _read(self, name: str) -> None:
        if not self.paused:
            self.names_read.add(name)

    def __getitem__(self, key: str) -> Any:
        self._read(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._read(str(key))
        return super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._read(key)
        return super().get(key, default)

    def getlist(self, key: str, default: Any = None) -> Any:
        self._read(key)
        return super().getlist(key, default)

    def _everything(self, method: str, *args: Any) -> Any:
        self._read("*")
        return getattr(super(), method)(*args)

    def lists(self) -> Any:
        return self._everything("lists")

    def items(self) -> Any:
        return self._everything("items")

    def keys(self) -> Any:
        return self._everything("keys")

    def dict(self) -> Any:
        return self._everything("dict")

    def copy(self) -> Any:
        return self._everything("copy")

    def urlencode(self, safe: str | None = None) -> str:
        return str(self._everything("urlencode", safe))


def test_every_public_view_reads_only_the_query_parameters_its_route_declares(monkeypatch):
    """A name read but not declared would make two different pages share one stored answer."""
    from frontend.lists import body as list_body

    def only_checking(params: ReadRecordingQuery, names: Any) -> Any:
        # The list-body cache looks at the whole query to refuse made-up ones; it renders nothing.
        params.paused = True
        try:
            return canonical_query(params, names)
        finally:
            params.paused = False

    monkeypatch.setattr(list_body, "canonical_query", only_checking)
    history = build_history()
    submission = history.submissions[0]
    urls = [
        *CHEAP_URLS,
        f"/submissions/{submission.pk}/",
        f"/systems/{history.lustre.pk}/",
        f"/charts/systems/{history.lustre.pk}/history.json",
        f"/charts/submissions/{submission.pk}/phases.json",
        f"/charts/submissions/{submission.pk}/timeline.json",
        f"/charts/submissions/{submission.pk}/ranks.json",
        "/lists/",
        "/lists/isc41/",
        "/rules/",
        "/how-to-run/",
        "/call/",
        "/about/",
        "/claims/",
        "/file-systems/",
        "/vendors/intel/",
        "/charts/sites/nope/trends.json",
    ]
    covered = set()
    for url in urls:
        found = public_route(url)
        assert found is not None, url
        route, _ = found
        covered.add(route)
        request = RequestFactory().get(url)
        request.user = AnonymousUser()
        query = ReadRecordingQuery(PUBLIC_SAMPLE_QUERY)
        request.GET = query  # type: ignore[assignment]
        match = resolve(url)
        with contextlib.suppress(Http404):
            match.func(request, *match.args, **match.kwargs)
        assert query.names_read <= set(route.params), url
    assert covered == set(PUBLIC_ROUTES)


def test_a_system_rank_history_is_public_without_any_query(client, django_assert_num_queries):
    # Submission and system pages read their visibility on every request (frontend/pages/test_page_cache.py).
    history = build_history()
    url = f"/charts/systems/{history.lustre.pk}/history.json"
    first = client.get(url)
    with django_assert_num_queries(0):
        assert client.get(url).content == first.content


def test_a_value_holding_an_ampersand_is_not_read_as_two_parameters(client):
    build_history()
    searched = client.get("/lists/isc41/io500/", {"q": "a&o=bw"}).content
    sorted_by_bw = client.get("/lists/isc41/io500/", {"q": "a", "o": "bw"}).content
    assert searched != sorted_by_bw
    assert client.get("/lists/isc41/io500/", {"q": "a&o=bw"}).content == searched


@pytest.mark.parametrize("url", ["/charts/history/points.json", "/lists/isc41/io500/"])
def test_a_reader_that_accepts_gzip_gets_the_same_bytes_compressed(client, url):
    build_history()
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert packed["ETag"] == f"W/{plain['ETag']}"
    assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content)
    assert "Content-Encoding" not in plain


def test_a_reader_holding_the_current_etag_gets_not_modified(client):
    build_history()
    first = client.get("/charts/history/trends.json")
    etag = first["ETag"]
    again = client.get("/charts/history/trends.json", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert client.get("/charts/history/trends.json", HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_security_headers_are_on_answers_from_the_cache(client):
    build_history()
    first = client.get("/lists/isc41/io500/")
    again = client.get("/lists/isc41/io500/")
    for header in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert again[header] == first[header]


def test_a_logged_in_reader_is_never_answered_from_or_stored_in_the_public_cache(client):
    build_history()
    reader = User.objects.create_user("reader-name", password="a-long-password-1")
    signed_in = Client()
    signed_in.force_login(reader)
    assert "reader-name" in signed_in.get("/lists/isc41/io500/").content.decode()
    anonymous = client.get("/lists/isc41/io500/").content.decode()
    assert "reader-name" not in anonymous
    assert "reader-name" in signed_in.get("/lists/isc41/io500/").content.decode()


def test_a_request_with_credentials_is_not_answered_from_the_public_cache(client):
    build_history()
    client.get("/charts/history/trends.json")
    with_token = client.get("/charts/history/trends.json", HTTP_AUTHORIZATION="Token nonsense")
    assert "ETag" not in with_token


def test_a_publish_is_seen_at_once_by_anonymous_readers(client, django_capture_on_commit_callbacks):
    # Set-up commits on its own in production; here the test's transaction holds it.
    with django_capture_on_commit_callbacks(execute=True):
        history = build_history()
    assert "ISC41" in client.get("/").content.decode()
    history.new.embargo_end = timezone.now() + datetime.timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        history.new.save(update_fields=["embargo_end"])
    assert "The newest IO500 list: SC40" in client.get("/").content.decode()
    releases = json.loads(client.get("/charts/history/trends.json").content)["releases"]
    assert "ISC41" not in [row["release"] for row in releases]


def test_an_unpublished_list_and_an_error_are_not_stored(client):
    build_history()
    assert client.get("/lists/isc99/io500/").status_code == 404
    assert client.get("/history/?kind=nonsense").status_code == 400
    assert not _public_keys()


def test_an_unmarked_or_personal_response_is_not_stored():
    factory = RequestFactory()

    def with_cookie(request):
        response = mark_public(HttpResponse(b"x" * 2000), 60)
        response.set_cookie("sessionid", "secret")
        return response

    def unmarked(request):
        return HttpResponse(b"x" * 2000)

    def with_csrf_token(request):
        return mark_public(HttpResponse(f"<input value={get_token(request)}>".encode() * 50), 60)

    for view in (with_cookie, unmarked, with_csrf_token):
        answer = PublicCacheMiddleware(view)(factory.get("/lists/isc41/io500/"))
        assert "ETag" not in answer
    assert not _public_keys()
    # The same path with a marked, impersonal response is stored: the refusals above are real.
    stored = PublicCacheMiddleware(lambda request: mark_public(HttpResponse(b"x" * 2000), 60))(
        factory.get("/lists/isc41/io500/")
    )
    assert "ETag" in stored
    assert _public_keys()


def test_a_cache_that_is_down_serves_the_page_uncached(monkeypatch):
    from registry.core import public_cache

    class DownCache:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("cache server refused the connection")

            return fail

    monkeypatch.setattr(public_cache, "cache", DownCache())
    monkeypatch.setattr(public_cache, "list_cache_generation", DownCache().get)

    def view(request):
        return mark_public(HttpResponse(b"the page" * 100), 60)

    answer = PublicCacheMiddleware(view)(RequestFactory().get("/lists/isc41/io500/"))
    assert isinstance(answer, HttpResponse)
    assert answer.status_code == 200
    assert answer.content == b"the page" * 100


def test_a_stored_answer_lasts_no_longer_than_the_next_embargo(client):
    from registry.core import public_cache

    history = build_history()
    soon = timezone.now() + datetime.timedelta(seconds=30)
    Release.objects.filter(pk=history.new.pk).update(embargo_end=soon)
    assert public_cache._seconds_before_expiry(3600, list_generation=99) <= 30
    Release.objects.filter(pk=history.new.pk).update(embargo_end=None)
    # The moment is remembered for the generation; a new generation asks again.
    assert public_cache._seconds_before_expiry(3600, list_generation=100) == 3600


def test_a_flushed_shared_cache_never_brings_back_a_copy_kept_in_the_process(client):
    history = build_history()
    before = client.get("/charts/history/trends.json").json()
    assert "ISC41" in [row["release"] for row in before["releases"]]
    # Renamed behind the caches' back, then the shared cache loses every key (a Redis restart).
    Release.objects.filter(pk=history.new.pk).update(name="ISC42")
    cache.clear()
    after = client.get("/charts/history/trends.json").json()
    assert "ISC42" in [row["release"] for row in after["releases"]]


def _answer_of(size: int, *, expires_in: float = 60.0) -> StoredResponse:
    return StoredResponse((), b"x" * size, None, '"e"', time.time() + expires_in)


def test_process_copies_stay_within_their_byte_budget_dropping_the_least_recently_read():
    copies = LocalCopies(max_bytes=1000)
    copies.put("a", _answer_of(400))
    copies.put("b", _answer_of(400))
    assert copies.get("a") is not None  # now "b" is the least recently read
    copies.put("c", _answer_of(400))
    assert copies.get("b") is None
    assert copies.get("a") is not None and copies.get("c") is not None
    copies.put("huge", _answer_of(5000))
    assert copies.get("huge") is None


def test_a_process_copy_is_not_served_after_its_deadline():
    copies = LocalCopies(max_bytes=1000)
    copies.put("old", _answer_of(10, expires_in=-1))
    assert copies.get("old") is None


def _all_cache_keys() -> set[str]:
    store = getattr(cache, "_cache", None)
    if isinstance(store, dict):
        return set(store)
    client = cache._cache.get_client()  # type: ignore[attr-defined]
    return {key.decode() for key in client.scan_iter("*")}


def _public_keys() -> list[str]:
    store = getattr(cache, "_cache", None)
    if isinstance(store, dict):
        return [key for key in store if ":public:" in key and "next-embargo-end" not in key]
    client = cache._cache.get_client()  # type: ignore[attr-defined]
    return [key.decode() for key in client.scan_iter("*public:*") if b"next-embargo-end" not in key]


FORMULAS = 40


def test_distinct_formulas_add_no_cache_entry_and_are_ranked_right(client):
    """Each formula is a new answer anyone can ask for; a stored one per formula filled the cache
    (0.9 MiB each on a real list). The rows they rank are cached once; the ranking never is."""
    build_history()
    plain = client.get("/lists/isc41/io500.json").json()
    for url in ("/lists/isc41/io500/", "/lists/isc41/io500.csv", "/api/v1/lists/isc41/io500/"):
        assert client.get(url).status_code == 200
    before = _all_cache_keys()
    scores = {row["id"]: row["score"] for row in plain["rows"]}
    assert len(scores) >= 2
    for number in range(1, FORMULAS + 1):
        formula = f"score * {number}"  # the canonical spelling, as the page's links write it
        query = f"formula={formula.replace(' ', '%20').replace('*', '%2A')}"
        page = client.get(f"/lists/isc41/io500/?{query}")
        assert page.status_code == 200 and formula in page.content.decode()
        for url in (f"/lists/isc41/io500.csv?{query}", f"/api/v1/lists/isc41/io500/?{query}"):
            assert client.get(url).status_code == 200
        answer = client.get(f"/lists/isc41/io500.json?{query}").json()
        assert answer["custom_formula"] == formula
        for row in answer["rows"]:
            assert row["custom_score"] == pytest.approx(scores[row["id"]] * number)
        ranked = [row["custom_score"] for row in answer["rows"]]
        assert ranked == sorted(ranked, reverse=True)
    weighted = client.get("/lists/isc41/io500.json?w_bw=3&w_md=1").json()
    assert weighted["custom_weights"] == {"bw": 3.0, "md": 1.0}
    added = _all_cache_keys() - before
    record("cache-keys", "distinct formulas", requests=FORMULAS * 4 + 1, keys_added=len(added), statuses={})
    assert added == set()
