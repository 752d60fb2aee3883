"""The viewer's local web server: the page, its script and style, and the JSON the page reads.

Standard library only (``http.server``): one page and its files from the package (``static/``), and

* ``GET /api/hands``: the hands of the library (id, title, source, kind) and the files skipped;
* ``GET /api/hands/<id>``: one hand's replay (``names``, ``frames``, ``notes``; see ``agent_zoo.viewer.frames``);
* ``GET /api/play``: the play table's view (``PlayTable.view``), the table built on first use;
* ``POST /api/play/new`` ``{"game", "agent", "seed", "env_config"}`` (each optional): a new session;
* ``POST /api/play/deal``: the next hand; ``POST /api/play/act`` ``{"action": id}`` or ``{"amount": chips}``.

Bad requests are answered 400 with ``{"error": message}``; the message names the field and what is allowed.
One lock serialises the play table (the page sends one request at a time; the lock keeps two tabs honest).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from agent_zoo.viewer.library import Library
from agent_zoo.viewer.table import PlayTable

STATIC = {"index.html": "text/html; charset=utf-8", "viewer.js": "text/javascript; charset=utf-8",
          "viewer.css": "text/css; charset=utf-8"}
MAX_BODY = 1 << 16  # bytes of a request body


def static_file(name: str) -> bytes:
    """A file of the page, shipped as package data."""
    return resources.files("agent_zoo.viewer").joinpath("static", name).read_bytes()


class Viewer:
    """What the server answers: the library of hands and the play table (``table_settings`` build it)."""

    def __init__(self, library: Library, table_settings: dict[str, Any] | None = None,
                 make_table: Callable[..., PlayTable] = PlayTable) -> None:
        self.library = library
        self.table_settings = dict(table_settings or {})
        self.make_table = make_table
        self.table: PlayTable | None = None
        self.lock = threading.Lock()

    def get(self, path: str) -> tuple[int, Any]:
        """(status, JSON) of a GET of ``path``."""
        if path == "/api/hands":
            return 200, {"hands": self.library.listing(), "skipped": self.library.skipped}
        if path.startswith("/api/hands/"):
            word = path.removeprefix("/api/hands/")
            if not word.isdigit():
                return 404, {"error": f"hand id {word!r} is not a number"}
            try:
                return 200, self.library.replay(int(word))
            except KeyError as err:
                return 404, {"error": err.args[0]}
            except ValueError as err:  # an action the rules refuse, a log that does not add up
                return 400, {"error": str(err)}
        if path == "/api/play":
            with self.lock:
                return 200, self._table().view()
        return 404, {"error": f"no such path {path!r}"}

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """(status, JSON) of a POST of ``body`` to ``path``."""
        with self.lock:
            if path == "/api/play/new":
                unknown = sorted(set(body) - {"game", "agent", "seed", "env_config"})
                if unknown:
                    raise ValueError(f"unknown field(s) {unknown}; a new session takes game, agent, seed, env_config")
                given = {k: v for k, v in body.items() if v != ""}
                settings = {**self.table_settings, **given}
                if settings.get("game") != self.table_settings.get("game") and "env_config" not in given:
                    settings["env_config"] = {}  # the old game's configuration need not fit the new one
                self.table = self.make_table(**settings)
                self.table_settings = settings
                return 200, self.table.view()
            if path == "/api/play/deal":
                table = self._table()
                table.new_hand()
                return 200, table.view()
            if path == "/api/play/act":
                unknown = sorted(set(body) - {"action", "amount"})
                if unknown or len(body) != 1:
                    raise ValueError(f"an action is {{\"action\": id}} or {{\"amount\": chips}}, got {body!r}")
                table = self._table()
                amount = body.get("amount")
                if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int | float)):
                    raise ValueError(f"amount must be a number of chips, got {amount!r}")
                table.act(action=body.get("action"), amount=amount)
                return 200, table.view()
        return 404, {"error": f"no such path {path!r}"}

    def _table(self) -> PlayTable:
        if self.table is None:
            self.table = self.make_table(**self.table_settings)
        return self.table


class Handler(BaseHTTPRequestHandler):
    """Serves one ``Viewer`` (the server's ``viewer`` attribute)."""

    server: ViewerServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html") or path.startswith("/static/"):
            name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
            if name not in STATIC:
                self._send(404, b"not found", "text/plain; charset=utf-8")
                return
            self._send(200, static_file(name), STATIC[name])
            return
        try:
            status, data = self.server.viewer.get(path)
        except ValueError as err:
            status, data = 400, {"error": str(err)}
        self._json(status, data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._json(413, {"error": f"request body of {length} bytes; at most {MAX_BODY}"})
            return
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError as err:
            self._json(400, {"error": f"the request body is not JSON ({err.msg})"})
            return
        if not isinstance(body, dict):
            self._json(400, {"error": f"the request body must be a JSON object, got {type(body).__name__}"})
            return
        try:
            status, data = self.server.viewer.post(self.path.split("?", 1)[0], body)
        except (ValueError, TypeError) as err:
            status, data = 400, {"error": str(err)}
        self._json(status, data)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, allow_nan=False).encode(), "application/json")

    def _send(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


class ViewerServer(ThreadingHTTPServer):
    """A threading HTTP server of one ``Viewer``; ``port=0`` takes a free port (``server_address`` says which)."""

    daemon_threads = True

    def __init__(self, viewer: Viewer, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False) -> None:
        self.viewer = viewer
        self.verbose = verbose
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"
