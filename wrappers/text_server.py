"""An HTTP and WebSocket server of :class:`~wrappers.text_env.TextPokerEnv` in OpenEnv's wire format.

OpenEnv (Meta PyTorch and Hugging Face, ``openenv-core`` on PyPI) is the environment protocol that
language-model RL trainers consume: TRL's GRPO rollouts, torchforge and the Hugging Face Hub's environment
Spaces speak it. Its simulation-mode endpoints are implemented here with FastAPI, without depending on
``openenv-core``:

=====================  ==========================================================================
``POST /reset``        ``{"seed"?: int >= 0, "episode_id"?: str, "session_token"?: str}`` ->
                       ``{"observation", "reward", "done", "metadata"}``; creates the session
                       ``episode_id`` (a fresh id when none is given: it is in ``observation.episode_id``)
                       or, with its ``session_token``, starts a new episode in it
``POST /step``         ``{"action": {"message": "<reply>"}, "episode_id": str, "session_token": str}``
                       -> the same shape
``GET /state``         ``?episode_id=...&session_token=...`` -> ``{"episode_id", "step_count", ...}``
``POST /close``        ``{"episode_id": str, "session_token": str}`` frees a session
``GET /health``        ``{"status": "healthy"}``; ``GET /metadata``, ``GET /schema`` (JSON schemas)
``WS /ws``             OpenEnv's session socket (what ``openenv``'s ``EnvClient`` connects to): messages
                       ``{"type": "reset"|"step"|"state"|"close", "data": {...}}`` as JSON text frames,
                       answers ``{"type": "observation"|"state"|"error", "data": {...}}``; one session
                       per socket
=====================  ==========================================================================

OpenEnv's own HTTP ``/reset`` and ``/step`` are stateless (a fresh environment per request; sessions live on
the socket). Here HTTP keeps sessions too, keyed by ``episode_id`` (a field OpenEnv's ``ResetRequest`` has,
and an extra field of ``StepRequest``, which allows extras), so a trainer can run many episodes over plain
HTTP. Errors are JSON ``{"detail": "<one line>", "code": "<CODE>"}`` with status 400 (``INVALID_JSON``: not
JSON, or not UTF-8), 403 (``NOT_OWNER``: no or another session's ``session_token``), 404 (``UNKNOWN_EPISODE``;
``NOT_FOUND`` for an unknown path), 405 (``METHOD_NOT_ALLOWED``), 409 (``EPISODE_DONE``: step after the end,
reset first), 422 (``VALIDATION_ERROR``: a missing field, an action that is not ``{"message": str}``, a
negative seed) or 503 (``CAPACITY_REACHED``: ``max_sessions`` are open; close some); an environment that fails
answers 500 (``EXECUTION_ERROR``, the exception's type and message). The socket answers the same codes in
``{"type": "error", "data": {"message", "code"}}``, and ``BINARY_FRAME`` to a binary frame.

Sessions belong to the client that made them: the reset that creates a session answers a fresh
``metadata["session_token"]``, and every later reset, step, state or close of that episode (over HTTP, or a
socket taking the episode over by naming its ``episode_id``) must send it, so no client can play or end
another's episode. A socket that never names an episode needs no token (its session is its own, closed
with the socket); a socket that took over an HTTP session leaves it open when it closes.

Every reset reports the seed it used in ``metadata["seed"]``: a reset without one draws it from the server's
seed sequence (``--seed``), so any episode can be replayed with ``{"seed": ...}``.

Run: ``python -m wrappers.text_server --game nolimit --players 6 --opponents heuristic --port 8000``.
"""

from __future__ import annotations

import argparse
import hmac
import importlib.metadata
import json
import secrets
import socket
import sys
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

try:
    from fastapi import Body, FastAPI, Request, WebSocket, WebSocketDisconnect
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from pydantic import BaseModel, ConfigDict, Field, ValidationError
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.websockets import WebSocketState
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(f"wrappers.text_server needs FastAPI and uvicorn: pip install 'poker-envs[server]' ({exc})") from exc

from wrappers.text_env import TEXT_GAMES, TextPokerEnv

ENV_NAME = "poker_envs_text"
MAX_EPISODE_ID = 255  # as OpenEnv's ResetRequest
MAX_TOKEN = 255  # longest session_token accepted (the server's are 22 characters)
MAX_FRAME_BYTES = 4 << 20  # largest WebSocket message accepted (4 MiB: a 1 MB reply fits); a larger one closes the socket with 1009
HTTP_CODES = {400: "INVALID_JSON", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}  # Starlette's own refusals


# Wire models (OpenEnv: Action / Observation / State / ResetRequest / StepRequest) -----------------
class PokerAction(BaseModel):
    """The model's reply: free text the table's parser reads (``"raise to 12"``, ``"call"``, ...)."""

    model_config = ConfigDict(extra="forbid")
    message: str = Field(description="the reply text")
    metadata: dict[str, Any] = Field(default_factory=dict, description="free metadata, not read")


class PokerObservation(BaseModel):
    """What the learner sees: the prompt, the same table as JSON, and how its last reply was read."""

    prompt: str = Field(description="the text the model reads (a reprompt after a failed reply)")
    state: dict[str, Any] = Field(description="the table as JSON (poker_envs.text.TextTable.state_json)")
    episode_id: str
    step_count: int
    reprompt: bool = Field(description="True when the last reply failed and this is the same decision again")
    failure: str | None = Field(default=None, description="why the last reply failed (poker_envs.text.FAILURE_KINDS)")


class PokerState(BaseModel):
    """A session's bookkeeping (``GET /state``)."""

    model_config = ConfigDict(extra="allow")
    episode_id: str
    step_count: int = Field(ge=0)
    done: bool
    seed: int
    state: dict[str, Any]


class ResetRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int | None = Field(default=None, ge=0, description="seed of the episode")
    episode_id: str | None = Field(default=None, min_length=1, max_length=MAX_EPISODE_ID)
    session_token: str | None = Field(default=None, max_length=MAX_TOKEN, description="needed to reset an existing session")


class StepRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: PokerAction
    episode_id: str = Field(min_length=1, max_length=MAX_EPISODE_ID)
    timeout_s: float | None = Field(default=None, gt=0, description="accepted for OpenEnv; a step never waits")
    request_id: str | None = Field(default=None, max_length=255)
    session_token: str | None = Field(default=None, max_length=MAX_TOKEN, description="the session's token (from its reset)")


class CloseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    episode_id: str = Field(min_length=1, max_length=MAX_EPISODE_ID)
    session_token: str | None = Field(default=None, max_length=MAX_TOKEN, description="the session's token (from its reset)")


class ServerError(Exception):
    """A refusal: HTTP status, OpenEnv-style code, one-line message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# Sessions ----------------------------------------------------------------------------------------
@dataclass
class Session:
    """One client's environment and where its episode stands."""

    episode_id: str
    env: TextPokerEnv
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))  # the owner's proof (module doc)
    lock: threading.Lock = field(default_factory=threading.Lock)
    seed: int = 0
    step_count: int = 0
    done: bool = True
    observation: dict[str, Any] = field(default_factory=dict)


PLAIN = (str, int, float, bool, type(None))


def json_safe(value: Any) -> Any:
    """``info`` values as JSON: arrays to lists, numpy scalars to Python, other objects to their ``str``."""
    if isinstance(value, PLAIN):
        return value
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): v if type(v) in PLAIN else json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in PLAIN else json_safe(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return str(value)


class SessionTable:
    """Sessions by episode id, each with its own env; thread-safe (FastAPI runs sync endpoints in threads)."""

    def __init__(self, make_env: Callable[[], TextPokerEnv], max_sessions: int, seed: int | None) -> None:
        if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or max_sessions < 1:
            raise ValueError(f"max_sessions must be an int >= 1, not {max_sessions!r}")
        self.make_env = make_env
        self.max_sessions = max_sessions
        self._seeds = np.random.default_rng(np.random.SeedSequence(seed))
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, episode_id: str, token: str | None) -> Session:
        """The session ``episode_id``, if ``token`` is its owner's."""
        with self._lock:
            session = self._sessions.get(episode_id)
        if session is None:
            raise ServerError(404, "UNKNOWN_EPISODE", f"unknown episode_id {episode_id!r}: POST /reset creates it")
        authorize(session, token)
        return session

    def open(self, episode_id: str | None, token: str | None) -> tuple[Session, bool]:
        """The session ``episode_id`` (an existing one needs its owner's ``token``; created when new, with a
        fresh id when None) and whether it was created."""
        with self._lock:
            if episode_id is not None and episode_id in self._sessions:
                session = self._sessions[episode_id]
                authorize(session, token)
                return session, False
            if len(self._sessions) >= self.max_sessions:
                raise ServerError(503, "CAPACITY_REACHED", f"{self.max_sessions} sessions are open (max_sessions); POST /close some first")
            episode_id = episode_id or uuid.uuid4().hex
            session = Session(episode_id, env=None)  # type: ignore[arg-type]  # the env is built outside the lock
            self._sessions[episode_id] = session
        try:
            session.env = self.make_env()
        except Exception:
            with self._lock:
                self._sessions.pop(episode_id, None)
            raise
        return session, True

    def close(self, episode_id: str, token: str | None) -> None:
        with self._lock:
            session = self._sessions.get(episode_id)
            if session is None:
                raise ServerError(404, "UNKNOWN_EPISODE", f"unknown episode_id {episode_id!r}")
            authorize(session, token)
            del self._sessions[episode_id]
        with session.lock:
            session.env.close()

    def draw_seed(self) -> int:
        with self._lock:
            return int(self._seeds.integers(2**63))

    # The environment calls ----------------------------------------------------------------
    def reset(self, request: ResetRequest) -> dict[str, Any]:
        return self.reset_session(self.open(request.episode_id, request.session_token)[0], request.seed)

    def reset_session(self, session: Session, seed: int | None) -> dict[str, Any]:
        """A new episode in ``session`` (its owner checked): ``seed``, or one drawn from the server's sequence."""
        seed = seed if seed is not None else self.draw_seed()
        with session.lock:
            prompt, info = session.env.reset(seed=seed)
            session.seed, session.step_count, session.done = seed, 0, False
            return self._result(session, prompt, None, info)

    def step(self, request: StepRequest) -> dict[str, Any]:
        session = self.get(request.episode_id, request.session_token)
        with session.lock:
            if session.done:
                raise ServerError(409, "EPISODE_DONE", f"episode {session.episode_id!r} is over: POST /reset starts the next")
            prompt, reward, terminated, truncated, info = session.env.step(request.action.message)
            session.step_count += 1
            session.done = terminated or truncated
            return self._result(session, prompt, reward, info)

    def state(self, episode_id: str, token: str | None) -> dict[str, Any]:
        session = self.get(episode_id, token)
        with session.lock:
            if not session.observation:
                raise ServerError(409, "EPISODE_DONE", f"episode {episode_id!r} has not been reset yet")
            obs = session.observation
            return PokerState(episode_id=episode_id, step_count=session.step_count, done=session.done, seed=session.seed, state=obs["state"]).model_dump()

    def _result(self, session: Session, prompt: str, reward: float | None, info: dict[str, Any]) -> dict[str, Any]:
        state = info.pop("state")  # JSON already (poker_envs.text.STATE_SCHEMA)
        observation = PokerObservation(
            prompt=prompt, state=state, episode_id=session.episode_id, step_count=session.step_count,
            reprompt=bool(info.get("reprompt", False)), failure=info.get("failure"),
        ).model_dump()
        session.observation = observation
        metadata = json_safe({k: v for k, v in info.items() if k not in ("reprompt", "failure")})
        metadata["seed"] = session.seed
        metadata["session_token"] = session.token  # (only the owner gets here)
        return {"observation": observation, "reward": reward, "done": session.done, "metadata": metadata}


def authorize(session: Session, token: str | None) -> None:
    """A ``NOT_OWNER`` refusal unless ``token`` is the session's (compared in constant time)."""
    if token is None:
        raise ServerError(403, "NOT_OWNER", f"episode {session.episode_id!r} belongs to the client that created it: send its "
                          "session_token (metadata.session_token of the reset that created it)")
    if not hmac.compare_digest(token.encode(), session.token.encode()):
        raise ServerError(403, "NOT_OWNER", f"session_token does not match episode {session.episode_id!r}")


class SocketSession:
    """One WebSocket's session: its messages answered in OpenEnv's socket format (module doc). The session is
    the one the socket's first reset created (closed with the socket) or took over with its token (left open)."""

    def __init__(self, table: SessionTable) -> None:
        self.table = table
        self.session: Session | None = None
        self.created = False

    async def answer(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one received frame (an ASGI ``websocket.receive`` message); None after a close message."""
        text = frame.get("text")
        if text is None:
            return error_message("BINARY_FRAME", "binary frames are not read: send each message as JSON in a text frame")
        try:
            message = json.loads(text)
        except ValueError as exc:
            return error_message("INVALID_JSON", f"the message is not valid JSON ({exc})")
        kind = message.get("type") if isinstance(message, dict) else None
        data = message.get("data", {}) if isinstance(message, dict) else {}
        try:
            if not isinstance(data, dict):
                raise ServerError(422, "VALIDATION_ERROR", f"data must be a JSON object, not {type(data).__name__}")
            if kind == "reset":
                return {"type": "observation", "data": await run_in_threadpool(self.reset, ResetRequest.model_validate(data))}
            if kind == "step":
                request = StepRequest(action=PokerAction.model_validate(data), episode_id=self.current().episode_id, session_token=self.current().token)
                return {"type": "observation", "data": await run_in_threadpool(self.table.step, request)}
            if kind == "state":
                return {"type": "state", "data": await run_in_threadpool(self.table.state, self.current().episode_id, self.current().token)}
            if kind == "close":
                return None
            raise ServerError(422, "UNKNOWN_TYPE", f"message type {kind!r} is not one of 'reset', 'step', 'state', 'close'")
        except ServerError as exc:
            return error_message(exc.code, exc.message)
        except ValidationError as exc:
            return error_message("VALIDATION_ERROR", one_line(exc))
        except Exception as exc:  # the environment failed: say so and keep the socket
            return error_message("EXECUTION_ERROR", f"{type(exc).__name__}: {exc}")

    def current(self) -> Session:
        if self.session is None:
            raise ServerError(409, "EPISODE_DONE", "no episode on this socket yet: send a reset first")
        return self.session

    def reset(self, request: ResetRequest) -> dict[str, Any]:
        if self.session is None:
            self.session, self.created = self.table.open(request.episode_id, request.session_token)
        elif request.episode_id not in (None, self.session.episode_id):
            raise ServerError(422, "VALIDATION_ERROR", f"this socket plays episode {self.session.episode_id!r}, not "
                              f"{request.episode_id!r}: open another socket for another episode")
        return self.table.reset_session(self.session, request.seed)

    def release(self) -> None:
        """At the socket's end: close the session it created (one it took over stays its owner's)."""
        if self.session is not None and self.created:
            try:
                self.table.close(self.session.episode_id, self.session.token)
            except ServerError:
                pass  # closed by POST /close meanwhile
        self.session = None


def error_message(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "data": {"message": message, "code": code}}


# The app -----------------------------------------------------------------------------------------
def package_version() -> str:
    """The installed poker-envs version ("unknown" when run from a checkout that is not installed)."""
    try:
        return importlib.metadata.version("poker-envs")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def one_line(error: ValidationError | RequestValidationError) -> str:
    parts = []
    for e in error.errors():
        loc = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
    return "; ".join(parts)


def make_app(make_env: Callable[[], TextPokerEnv], max_sessions: int = 1024, seed: int | None = None) -> FastAPI:
    """The FastAPI app serving ``make_env()`` environments, one per session (``uvicorn`` runs it)."""
    make_env().close()  # a configuration error surfaces here, not at the first request
    table = SessionTable(make_env, max_sessions, seed)
    app = FastAPI(title="poker-envs text environment", description=__doc__.split("\n\n")[0])
    app.state.sessions = table

    @app.exception_handler(ServerError)
    async def server_error(_: Request, exc: ServerError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            return JSONResponse({"detail": f"the body is not valid UTF-8 JSON ({one_line(exc)})", "code": "INVALID_JSON"}, status_code=400)
        return JSONResponse({"detail": one_line(exc), "code": "VALIDATION_ERROR"}, status_code=422)

    @app.exception_handler(HTTPException)
    async def refused(_: Request, exc: HTTPException) -> JSONResponse:  # Starlette's own: unknown path, unreadable body
        code = HTTP_CODES.get(exc.status_code, "HTTP_ERROR")
        detail = f"the body is not valid UTF-8 JSON ({exc.detail})" if code == "INVALID_JSON" else str(exc.detail)
        return JSONResponse({"detail": detail, "code": code}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def failed(_: Request, exc: Exception) -> JSONResponse:  # the environment failed: a JSON 500, not a bare page
        return JSONResponse({"detail": f"{type(exc).__name__}: {exc}", "code": "EXECUTION_ERROR"}, status_code=500)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "healthy"}

    @app.get("/metadata")
    def metadata() -> dict[str, Any]:
        return {"name": ENV_NAME, "description": "One seat of a hold'em table played by text (poker-envs)", "version": package_version(), "active_sessions": len(table), "max_sessions": table.max_sessions}

    @app.get("/schema")
    def schema() -> dict[str, Any]:
        return {"action": PokerAction.model_json_schema(), "observation": PokerObservation.model_json_schema(), "state": PokerState.model_json_schema()}

    # The answers are plain JSON already (json_safe): JSONResponse skips FastAPI's recursive re-encoding.
    @app.post("/reset")
    def reset(request: ResetRequest = Body(default_factory=ResetRequest)) -> JSONResponse:
        return JSONResponse(table.reset(request))

    @app.post("/step")
    def step(request: StepRequest) -> JSONResponse:
        return JSONResponse(table.step(request))

    @app.get("/state")
    def state(episode_id: str | None = None, session_token: str | None = None) -> dict[str, Any]:
        if episode_id is None:
            raise ServerError(422, "VALIDATION_ERROR", "episode_id is required: GET /state?episode_id=...&session_token=...")
        return table.state(episode_id, session_token)

    @app.post("/close")
    def close(request: CloseRequest) -> dict[str, Any]:
        table.close(request.episode_id, request.session_token)
        return {"episode_id": request.episode_id, "closed": True}

    @app.websocket("/ws")
    async def ws(socket_: WebSocket) -> None:
        await socket_.accept()
        link = SocketSession(table)
        try:
            while True:
                frame = await socket_.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                answer = await link.answer(frame)
                if answer is None:
                    break
                await socket_.send_json(answer)
        except WebSocketDisconnect:
            pass  # the client went away mid-answer: nothing to tell anyone
        finally:
            await run_in_threadpool(link.release)
            if socket_.client_state is WebSocketState.CONNECTED and socket_.application_state is WebSocketState.CONNECTED:
                try:
                    await socket_.close()
                except (RuntimeError, OSError, WebSocketDisconnect):
                    pass  # closed by the client meanwhile

    return app


# Command line ------------------------------------------------------------------------------------
EXAMPLES = (  # the end of --help: commands to copy (the arguments after python -m wrappers.text_server)
    "--game nolimit --opponents heuristic --port 8000",
    "--game limit --players 6 --opponents random --seat rotate --seed 7",
    "--game nolimit --hands-per-episode 20 --amounts bb --host 0.0.0.0 --port 0",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m wrappers.text_server",
        description="Serve one seat of a hold'em table, played by text, to language-model trainers (OpenEnv HTTP + WebSocket).",
        epilog="examples:\n" + "\n".join(f"  python -m wrappers.text_server {c}" for c in EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the examples keep one command a line
    )
    parser.add_argument("--game", default="nolimit", help=f"one of {', '.join(TEXT_GAMES)} (default nolimit)")
    parser.add_argument("--players", type=int, default=2, help="seats at the table, the learner's included (default 2)")
    parser.add_argument("--opponents", default="heuristic", help="a zoo agent spec for every other seat, or one per other seat separated by commas (default heuristic)")
    parser.add_argument("--seat", default="0", help="the learner's seat: an int, 'rotate' or 'random' (default 0)")
    parser.add_argument("--hands-per-episode", type=int, default=1, help="hands per episode: more than 1 plays a session with carried stacks (default 1)")
    parser.add_argument("--max-reprompts", type=int, default=2, help="reprompts after a failed reply before the fallback (default 2)")
    parser.add_argument("--invalid-penalty", type=float, default=0.0, help="big blinds taken for every failed reply (default 0)")
    parser.add_argument("--amounts", default="chips", help="amounts in the prompt: chips or bb (default chips)")
    parser.add_argument("--summary", default="results", choices=["results", "hands", "hud"],
                        help="earlier hands of a session in the prompt: net results, every hand, or opponents' tracker statistics and the last hands (default results)")
    parser.add_argument("--summary-hands", type=int, default=2, help="with --summary hud: the last hands shown in full (default 2)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; 0.0.0.0 serves other machines)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one, printed at start)")
    parser.add_argument("--max-sessions", type=int, default=1024, help="sessions open at once (default 1024)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the seeds drawn for resets that give none (default: fresh entropy)")
    return parser


def env_factory(args: argparse.Namespace) -> Callable[[], TextPokerEnv]:
    """The per-session env builder from the command line (raises ValueError on a bad combination)."""
    if args.players < 2:
        raise ValueError(f"--players must be at least 2, not {args.players}")
    seat: int | str = int(args.seat) if args.seat.lstrip("-").isdigit() else args.seat
    specs = [s.strip() for s in args.opponents.split(",")]
    if any(not s for s in specs):
        raise ValueError(f"--opponents {args.opponents!r} has an empty spec")
    opponents: str | list[str] = specs[0] if len(specs) == 1 else specs
    config: dict[str, Any] = {"num_players": args.players}
    if args.hands_per_episode != 1:
        config["hands_per_episode"] = args.hands_per_episode

    def make() -> TextPokerEnv:
        return TextPokerEnv(args.game, opponents=opponents, seat=seat, max_reprompts=args.max_reprompts,
                            invalid_penalty=args.invalid_penalty, amounts=args.amounts, summary=args.summary,
                            summary_hands=args.summary_hands, **config)

    return make


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    parser.error = lambda message: parser.exit(2, f"{parser.prog}: error: {message}\n")  # type: ignore[method-assign]  # one line, no usage
    args = parser.parse_args(argv)
    try:
        import uvicorn
    except ImportError:
        parser.exit(2, f"{parser.prog}: error: uvicorn is not installed: pip install 'poker-envs[server]'\n")
    try:
        if not 0 <= args.port <= 65535:
            raise ValueError(f"--port must be in 0..65535, not {args.port}")
        app = make_app(env_factory(args), max_sessions=args.max_sessions, seed=args.seed)
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(2048)  # listening before the line below is printed: a client that reads it can connect at once
    except (ValueError, TypeError, KeyError, ImportError, OSError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    host, port = sock.getsockname()[:2]
    print(f"serving {args.game} ({args.players} seats, opponents {args.opponents}) on http://{host}:{port}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=MAX_FRAME_BYTES))
    server.run(sockets=[sock])


if __name__ == "__main__":
    main(sys.argv[1:])
