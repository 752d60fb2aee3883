"""Slumbot's HTTP API from the client's side: JSON over POST with the standard library (``urllib``).

Three endpoints under ``<url>/api/``: ``login`` (``{"username", "password"}`` -> ``{"token"}``), ``new_hand``
(``{"token"}``, the token optional on the first request) and ``act`` (``{"token", "incr"}``). Both answer the hand
as it stands: ``action`` (the action string, ``slumbot_codec``), ``client_pos``, ``hole_cards``, ``board``,
``token`` (it may change: the latest is used from then on) and, once the hand is over, ``winnings`` (the client's
chips), ``baseline_winnings``, ``bot_hole_cards`` (at a showdown) and the session's totals. A refusal is a JSON
body with ``error_msg`` (or an HTTP status other than 200): a ``SlumbotError`` naming the endpoint and the reason.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

DEFAULT_URL = "https://slumbot.com"


class SlumbotError(RuntimeError):
    """The server refused a request (its ``error_msg`` or HTTP status) or could not be reached."""


def check_url(url: str) -> str:
    """``url`` without a trailing ``/``; a ValueError unless it is an http:// or https:// address."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")) or len(url.split("://", 1)[1]) == 0:
        raise ValueError(f"url must be an http:// or https:// address such as {DEFAULT_URL}, got {url!r}")
    return url.rstrip("/")


class SlumbotConnection:
    """Requests to one Slumbot server; ``new_hand`` and ``login`` are tried ``retries`` times more when the server
    cannot be reached (an ``act`` is sent once: a second copy could play the action twice)."""

    def __init__(self, url: str = DEFAULT_URL, timeout: float = 30.0, retries: int = 2, wait: float = 2.0) -> None:
        self.url = check_url(url)
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries must be an integer >= 0, got {retries!r}")
        self.timeout = float(timeout)
        self.retries = retries
        self.wait = float(wait)

    def post(self, endpoint: str, body: dict[str, Any], retries: int = 0) -> dict[str, Any]:
        """POST ``body`` to ``/api/<endpoint>`` and return the JSON reply; SlumbotError for a refusal."""
        request = urllib.request.Request(f"{self.url}/api/{endpoint}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        for attempt in range(retries + 1):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    status, payload = response.status, response.read()
                break
            except urllib.error.HTTPError as exc:
                status, payload = exc.code, exc.read()
                break
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt == retries:
                    reason = getattr(exc, "reason", exc)
                    raise SlumbotError(f"/api/{endpoint}: {self.url} could not be reached ({reason})") from None
                time.sleep(self.wait)
        try:
            reply = json.loads(payload)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise SlumbotError(f"/api/{endpoint}: HTTP {status}, and the reply is no JSON: {payload[:200]!r}") from None
        if not isinstance(reply, dict):
            raise SlumbotError(f"/api/{endpoint}: HTTP {status}, the reply is not a JSON object: {reply!r:.200}")
        if "error_msg" in reply:
            raise SlumbotError(f"/api/{endpoint}: {reply['error_msg']}")
        if status != 200:
            raise SlumbotError(f"/api/{endpoint}: HTTP {status}: {reply!r:.200}")
        return reply

    def login(self, username: str, password: str) -> str:
        """A session token for a registered user (the hands count on the user's record at slumbot.com)."""
        reply = self.post("login", {"username": username, "password": password}, self.retries)
        token = reply.get("token")
        if not isinstance(token, str) or not token:
            raise SlumbotError(f"/api/login: the reply has no token: {reply!r:.200}")
        return token

    def new_hand(self, token: str | None) -> dict[str, Any]:
        """Start a hand (a new session when ``token`` is None)."""
        return self.post("new_hand", {"token": token} if token else {}, self.retries)

    def act(self, token: str, incr: str) -> dict[str, Any]:
        """Play ``incr`` (``k``, ``c``, ``f`` or ``b<N>``) in the hand of ``token``."""
        return self.post("act", {"token": token, "incr": incr})
