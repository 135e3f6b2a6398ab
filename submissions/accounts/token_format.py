"""What an API token looks like and how it is stored, without Django: the tokens module issues and
checks them, and the private test stack (tests/reliability/stack.py) writes them into its database
the same way, without a Django process of its own."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_PREFIX = "io500_"


def token_new() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_shown_prefix(token: str) -> str:
    """The first characters kept beside the digest, so that a person can tell their tokens apart."""
    return token[: len(TOKEN_PREFIX) + 6]
