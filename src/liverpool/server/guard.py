"""What every HTTP answer carries and which hosts are served: the security
headers (a Content-Security-Policy with nothing inline, no sniffing, no
referrer beyond this site, never in a frame) and the allowed ``Host`` names
(``liverpool serve --allowed-hosts``), against DNS rebinding."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Iterable

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .probes import send_error

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "BodyGuard", "HttpHosts",
           "SecurityHeaders", "default_hosts", "host_allowed", "parse_hosts"]

#: the page loads its scripts, styles and data from this server only; its icon
#: is a data: URL; it is shown in no frame
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)
#: the OpenAPI pages (FastAPI's, from a CDN with inline scripts) keep their own
_NO_POLICY = ("/docs", "/redoc")


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = not str(scope.get("path", "")).startswith(_NO_POLICY)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                headers.extend(SECURITY_HEADERS)
                if policy:
                    headers.append((b"content-security-policy",
                                    CONTENT_SECURITY_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyGuard:
    """ASGI middleware: an HTTP request's body is read here first, at most
    ``limit`` bytes (a longer one, by its ``Content-Length`` or as it comes,
    is refused: 413 ``server_too_big``), and the body of an ``/api/`` request
    must be JSON in UTF-8 (else 422 ``server_bad_text`` or ``server_bad_json``,
    nested too deep included), whole within ``seconds`` (else 408
    ``server_too_slow``: a body sent a byte at a time would hold the connection): the documented ``{"detail": {"code",
    "message"}}`` in the language of the query's ``lang``. The app then
    reads the body from here."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = 10.0) -> None:
        self.app = app
        self.limit = int(limit)
        self.seconds = float(seconds)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await send_error(scope, send, 413, "server_too_big", limit=self.limit)
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        deadline = asyncio.get_running_loop().time() + self.seconds
        while more:
            try:
                message = await asyncio.wait_for(
                    receive(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                seconds = int(self.seconds) if self.seconds.is_integer() else self.seconds
                await send_error(scope, send, 408, "server_too_slow", seconds=seconds)
                return
            if message["type"] != "http.request":
                return  # (the client went away)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await send_error(scope, send, 413, "server_too_big", limit=self.limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        if body and str(scope.get("path", "")).startswith("/api/"):
            try:
                json.loads(body.decode("utf-8"))
            except UnicodeDecodeError:
                await send_error(scope, send, 422, "server_bad_text")
                return
            except (ValueError, RecursionError):
                await send_error(scope, send, 422, "server_bad_json")
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class HttpHosts(TrustedHostMiddleware):
    """Starlette's TrustedHostMiddleware on HTTP requests (a request for another
    ``Host`` gets 400 ``server_bad_host``; the hosts match as :func:`host_allowed`
    matches them). WebSocket upgrades are checked by the handler itself
    (:func:`host_allowed`), which refuses them as it refuses a foreign Origin."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.allow_any:
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
        if not host_allowed(host, list(self.allowed_hosts)):
            await send_error(scope, send, 400, "server_bad_host")  # (in the documented form)
            return
        await self.app(scope, receive, send)


def host_allowed(header: str | None, allowed: list[str] | None) -> bool:
    """Whether a ``Host`` header names one of the ``allowed`` hosts (None: any),
    as TrustedHostMiddleware matches them (``*.example.org``, ``*``).

    >>> host_allowed("Game.example:8000", ["game.example"]), host_allowed("evil", ["a"])
    (True, False)
    """
    if allowed is None or "*" in allowed:
        return True
    if not header:
        return False
    host = parse_hosts([header])
    if len(host) != 1:
        return False
    name = host[0]
    return any(name == p or (p.startswith("*.") and name.endswith(p[1:])) for p in allowed)


def parse_hosts(values: Iterable[str]) -> list[str]:
    """``--allowed-hosts`` as given (each may list several, comma-separated) →
    the host names, lower case, without ports; ``*`` allows any.

    >>> parse_hosts(["example.org, Game.Example.org:8000", "[::1]", "*.lan"])
    ['example.org', 'game.example.org', '[::1]', '*.lan']
    """
    out: list[str] = []
    for value in values:
        for part in value.split(","):
            host = part.strip().lower()
            if not host:
                continue
            if host.startswith("["):  # [v6]:port
                host = host[:host.index("]") + 1] if "]" in host else host
            elif host.count(":") == 1:  # name:port
                host = host.split(":")[0]
            elif ":" in host:  # a bare IPv6 address
                host = f"[{host}]"
            if host not in out:
                out.append(host)
    return out


def default_hosts(bound: str) -> list[str]:
    """The hosts served when ``--allowed-hosts`` is not given: the one the
    server binds and this machine as localhost; for every address (``0.0.0.0``
    or ``::``) also this machine's name (and ``NAME.local``) and its addresses.

    >>> default_hosts("127.0.0.1")
    ['127.0.0.1', 'localhost', '[::1]']
    """
    hosts = parse_hosts([bound, "localhost", "127.0.0.1", "[::1]"])
    if bound in ("0.0.0.0", "::", ""):  # noqa: S104 - naming the wildcard, not binding it
        hosts = [h for h in hosts if h not in ("0.0.0.0", "[::]", "")]  # noqa: S104
        name = socket.gethostname()
        names = [name, f"{name}.local"]
        with contextlib.suppress(OSError):
            names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
        # the address other machines reach (a UDP socket connected: no packet is sent)
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET,
                                                         socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            names.append(str(probe.getsockname()[0]))
        hosts += [h for h in parse_hosts(names) if h not in hosts]
    return hosts
