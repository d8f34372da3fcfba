"""endpoint.py: one lazily built client per OpenAI-compatible endpoint, a key that never leaks."""

from __future__ import annotations

import doctest
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphmem import endpoint
from graphmem.endpoint import OpenAIEndpoint


def test_doctests() -> None:
    assert doctest.testmod(endpoint).failed == 0


def test_the_client_is_built_once_on_first_use_even_from_many_threads() -> None:
    ep = OpenAIEndpoint("http://127.0.0.1:9/v1", "sk-test", timeout=2.0, max_retries=0)
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: ep.client(), range(8)))
    assert len({id(c) for c in seen}) == 1
    client = ep.client()
    assert str(client.base_url).rstrip("/") == "http://127.0.0.1:9/v1"
    assert (client.timeout, client.max_retries) == (2.0, 0)
    ep.close()
    assert ep.client() is not client  # a closed pool is replaced, not reused


def test_the_key_is_scrubbed_and_never_in_the_repr() -> None:
    ep = OpenAIEndpoint("http://x/v1", "sk-abc123", timeout=1.0)
    assert ep.scrub("echo: Bearer sk-abc123") == "echo: Bearer ***"
    assert ep.holds_key("... sk-abc123 ...") and not ep.holds_key("nothing here")
    assert "sk-abc123" not in repr(ep)
    assert OpenAIEndpoint("http://x/v1", "", timeout=1.0).scrub("as is") == "as is"


def test_an_endpoint_without_a_key_still_gets_a_client() -> None:
    """The openai client refuses to start without a key; a local server needs none."""
    client = OpenAIEndpoint("http://127.0.0.1:9/v1", "", timeout=1.0).client()
    assert client.api_key == endpoint.NO_KEY


@pytest.mark.parametrize(("timeout", "retries", "word"), [(0.0, 1, "timeout"), (1.0, -1, "max_retries")])
def test_bad_settings_are_refused(timeout: float, retries: int, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        OpenAIEndpoint("http://x/v1", "k", timeout=timeout, max_retries=retries)
