"""Who is looking at the memory page: an API key given once to a login form.

A browser cannot attach an ``Authorization`` header to links and form posts,
so the login form puts the key in an HttpOnly, SameSite=Strict cookie scoped to
``/ui``. The key stays with the browser; the server only hashes it, exactly as
:func:`api.deps.tenant` does for the REST API, and the key picks the tenant.
Without configured keys the app only binds to loopback (see
:func:`api.app.create_app`) and every page is the default tenant, like the API.
"""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

from fastapi import Request, Response

from api.deps import hash_key
from api.errors import APIError, Unauthorized

COOKIE = "graphmem_key"
PREFIX = "/ui"


class LoginRequired(APIError):
    """A page asked for without a valid key: go to the login form (303 See Other)."""

    status = 303


class CrossSiteRequest(APIError):
    status = 403


def keys_required(request: Request) -> bool:
    return bool(request.app.state.api_keys)


def tenant_for_key(request: Request, key: str) -> str | None:
    found = request.app.state.api_keys.get(hash_key(key)) if key else None
    return None if found is None else str(found)


def page_tenant(request: Request) -> str:
    """The tenant of a page request; a missing or wrong key sends a GET to the login form."""
    state = request.app.state
    if request.method != "GET":
        same_origin(request)
    if not keys_required(request):
        state.rate_limits.check("local")
        return str(state.settings.default_tenant)
    key = request.cookies.get(COOKIE, "")
    found = tenant_for_key(request, key)
    if found is None:
        if request.method == "GET":
            here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            raise LoginRequired("log in with an API key",
                                headers={"Location": f"{PREFIX}/login?next={quote(here)}"})
        raise Unauthorized("log in with an API key first")
    state.rate_limits.check(hash_key(key))
    return found


def same_origin(request: Request) -> None:
    """Refuse a form posted from another site.

    With keys the SameSite cookie already keeps other sites out; without keys there
    is no cookie at all, and any web page could post to the loopback server, so the
    ``Origin`` a browser sends with every post (``null`` from sandboxed frames) must be
    this server's own.
    """
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise CrossSiteRequest("this form must be sent from the memory page itself")


def safe_next(target: str | None) -> str:
    """Only a path inside the page is a place to go back to (no open redirect)."""
    if target and target.startswith(f"{PREFIX}/") and not target.startswith("//"):
        return target
    return f"{PREFIX}/memories"


def remember_key(response: Response, request: Request, key: str) -> None:
    response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path=PREFIX,
                        secure=request.url.scheme == "https")


def forget_key(response: Response) -> None:
    response.delete_cookie(COOKIE, path=PREFIX)


async def form_fields(request: Request) -> dict[str, list[str]]:
    """An ``application/x-www-form-urlencoded`` body (the page's only kind of post)."""
    body = await request.body()
    try:
        return parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20_000)
    except (UnicodeDecodeError, ValueError) as err:
        raise APIError("the form could not be read: send it url-encoded in UTF-8") from err
