"""gzip for every text answer (issue 28, item 5): list pages, CSV, JSON, the API, logged-in pages;
never twice (the bulk .gz files, static files), and never an answer that reflects input next to the
CSRF token (BREACH)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_release, make_submission, publish_list

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture
def published() -> None:
    release = make_release(name="SC80", publication_date="2080-11-15")
    publish_list(release, "io500", [make_submission(release=release) for _ in range(20)])


def compressed(response: Any) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Encoding"] == "gzip", (
        response.get("Content-Type"),
        response.get("Content-Encoding"),
    )
    assert "Accept-Encoding" in response["Vary"]
    return gzip.decompress(response.content)


@pytest.mark.parametrize(
    "url",
    ["/", "/lists/sc80/io500/", "/lists/sc80/io500.csv", "/lists/sc80/io500.json",
     "/api/v1/lists/sc80/io500/", "/api/v1/lists/", "/api/v1/", "/api/schema/", "/api/docs/"],
)  # fmt: skip
def test_every_text_answer_is_compressed_for_a_client_that_accepts_it(
    client: Client, published: None, url: str
) -> None:
    body = compressed(client.get(url, headers=GZIP))
    assert body  # and it decompresses
    plain = client.get(url)
    assert "Content-Encoding" not in plain  # a client that does not ask for gzip gets none
    assert plain.content == body


def test_the_json_download_reads_back_after_decompression(client: Client, published: None) -> None:
    document = json.loads(compressed(client.get("/lists/sc80/io500.json", headers=GZIP)))
    assert len(document["rows"]) == 20


def test_a_logged_in_page_is_compressed(client: Client, submitter: Any, published: None) -> None:
    client.force_login(submitter)
    body = compressed(client.get("/submissions/mine/", headers=GZIP)).decode()
    assert "csrfmiddlewaretoken" in body  # the log-out form: a masked token, new in every answer


def test_a_logged_in_answer_reflecting_the_query_is_not_compressed(
    client: Client, submitter: Any, published: None
) -> None:
    client.force_login(submitter)
    response = client.get("/lists/sc80/io500/?q=guess", headers=GZIP)
    assert response.status_code == 200 and "Content-Encoding" not in response
    # Anonymous, the same page holds no token: compressed.
    client.logout()
    compressed(client.get("/lists/sc80/io500/?q=guess", headers=GZIP))


def test_a_form_sent_back_with_its_errors_is_not_compressed(client: Client, submitter: Any) -> None:
    response = client.post("/accounts/login/", {"username": "someone", "password": "wrong"}, headers=GZIP)
    assert response.status_code == 200 and "Content-Encoding" not in response


def test_the_bulk_gzip_file_is_not_compressed_again(client: Client, published: None) -> None:
    response = client.get("/lists/all.csv.gz", headers=GZIP)
    assert response.status_code == 200 and "Content-Encoding" not in response
    assert gzip.decompress(response.content).startswith(b'"rank","id"')
