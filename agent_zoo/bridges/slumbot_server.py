"""A local stand-in for Slumbot's server: the same HTTP API (``slumbot_http``), a simple seeded bot, no internet.

It checks a client offline: ``python -m agent_zoo.bridges.slumbot_server --port 8765`` serves until interrupted,
and ``python -m agent_zoo.bridges.slumbot --url http://127.0.0.1:8765 ...`` plays it. In Python,
``with SlumbotServer(seed=0) as server:`` serves on a free port of 127.0.0.1 (``server.url``) in a thread.

The hands follow the protocol of slumbot.com: heads-up no-limit hold'em, blinds 50/100, 20,000 chips each
reset every hand, the client's position alternating from hand to hand (``client_pos`` 0: the big blind; 1: the
small blind and button, who acts first pre-flop), the bot's actions answered with the client's, the rules'
checks on every action (``slumbot_codec``, ``HoldemState.apply_raw``). At the end of a hand the reply has
``winnings`` (the client's chips), ``bot_hole_cards`` at a showdown, ``baseline_winnings`` (the client's winnings
less what the bot won in the client's seat playing itself on the same cards, Slumbot's own variance reduction)
and the session's ``session_num_hands``, ``session_total`` and ``session_baseline_total``. A new hand requested
before the last one ended abandons it (it is not counted). The bot is not Slumbot: it calls, checks, folds
(15% facing a bet) and bets or raises half the pot, the pot or two pots at random.
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from agent_zoo.bridges.slumbot_codec import SlumbotActionError, apply, encode, new_state, parse_incr, slumbot_game
from poker_envs.core.cards import card_to_str
from poker_envs.core.sizing import fraction_raise_to
from poker_envs.games.base import TERMINAL, play_chance
from poker_envs.games.holdem import HoldemGame, HoldemState

BOT_SIZES = (Fraction(1, 2), Fraction(1), Fraction(2))  # the bot's bets and raises: pot fractions


def bot_action(state: HoldemState, rng: np.random.Generator) -> tuple[str, int]:
    """The bot's action at ``state`` as (letter, bet-to): fold 15% facing a bet; bet or raise (a pot fraction of
    ``BOT_SIZES``, all-in where the stack is shorter) 25% facing a bet and 35% otherwise; else check or call."""
    seat = state.current_player()
    owe = state.to_call(seat)
    legal = state.legal_raise_range()
    draw = rng.random()
    if owe > 0 and draw < 0.15:
        return "f", 0
    if legal is not None and draw >= (0.75 if owe > 0 else 0.65):
        size = BOT_SIZES[int(rng.integers(len(BOT_SIZES)))]
        return "b", min(fraction_raise_to(state.max_bet(), state.pot() + owe, size, legal[0]), legal[1])
    return ("c" if owe > 0 else "k"), 0


@dataclass
class Hand:
    """The hand of one session: the rules state with every card fixed, the client's position."""

    state: HoldemState
    client_pos: int
    baseline: int  # what the bot won in the client's seat playing itself on these cards
    old_action: str = ""


@dataclass
class Session:
    """One token's session: its running totals and the hand in play."""

    rng: np.random.Generator
    first_pos: int  # the client's position in the session's first hand (then alternating)
    hands: int = 0  # hands finished
    started: int = 0  # hands dealt
    total: int = 0
    baseline_total: int = 0
    hand: Hand | None = None


@dataclass
class Dealer:
    """The API's logic without HTTP: ``handle(endpoint, body)`` -> (HTTP status, reply)."""

    seed: int = 0
    users: Mapping[str, str] = field(default_factory=dict)  # username -> password for /api/login
    max_hands: int | None = None  # hands a session may deal at most (then new_hand is refused): a server that stops
    game: HoldemGame = field(default_factory=slumbot_game)
    sessions: dict[str, Session] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._seeds = np.random.SeedSequence(self.seed)
        self._lock = threading.Lock()

    def handle(self, endpoint: str, body: Any) -> tuple[int, dict[str, Any]]:
        if not isinstance(body, dict):
            return 400, {"error_msg": "the request body must be a JSON object"}
        routes = {"login": self._login, "new_hand": self._new_hand, "act": self._act}
        if endpoint not in routes:
            return 404, {"error_msg": f"unknown endpoint /api/{endpoint}; known: login, new_hand, act"}
        with self._lock:
            try:
                return 200, routes[endpoint](body)
            except (SlumbotActionError, KeyError, ValueError) as exc:
                return 400, {"error_msg": str(exc).strip("'\"")}

    def _open_session(self) -> str:
        child = self._seeds.spawn(1)[0]
        rng = np.random.default_rng(child)
        token = f"{int(rng.integers(2**63)):016x}-{len(self.sessions):04d}"
        self.sessions[token] = Session(rng, int(rng.integers(2)))
        return token

    def _login(self, body: dict[str, Any]) -> dict[str, Any]:
        name, password = body.get("username"), body.get("password")
        if name not in self.users or self.users[name] != password:
            raise ValueError("Invalid username or password")
        return {"token": self._open_session()}

    def _session(self, body: dict[str, Any], new: bool) -> tuple[str, Session]:
        token = body.get("token")
        if token is None and new:
            token = self._open_session()
        if token not in self.sessions:
            raise ValueError(f"unknown token {token!r}")
        return token, self.sessions[token]

    def _new_hand(self, body: dict[str, Any]) -> dict[str, Any]:
        token, session = self._session(body, new=True)
        if self.max_hands is not None and session.started >= self.max_hands:
            raise ValueError(f"this server deals {self.max_hands} hands per session")
        client_pos = (session.first_pos + session.started) % 2
        session.started += 1
        deck = [int(c) for c in session.rng.permutation(self.game.deck)[: self.game.deal_size]]
        hole = [deck[0:2], deck[2:4]]
        board = deck[4:9]
        session.hand = Hand(new_state(self.game, hole, board), client_pos, self._baseline(hole, board, client_pos, session))
        self._bot_moves(session)
        return self._reply(token, session)

    def _baseline(self, hole: Sequence[Sequence[int]], board: Sequence[int], client_pos: int, session: Session) -> int:
        """The bot's winnings in ``client_pos`` playing itself on these cards (choices drawn from the session's
        generator before the hand is played)."""
        state = new_state(self.game, hole, board)
        play_chance(state, session.rng)
        while state.current_player() != TERMINAL:
            apply(state, *bot_action(state, session.rng))
            play_chance(state, session.rng)
        return state.chip_returns()[client_pos]

    def _act(self, body: dict[str, Any]) -> dict[str, Any]:
        token, session = self._session(body, new=False)
        hand = session.hand
        if hand is None:
            raise ValueError("no hand in progress: request /api/new_hand")
        incr = body.get("incr")
        if not isinstance(incr, str):
            raise ValueError(f"incr must be a string (k, c, f or b<N>), got {incr!r}")
        letter, to = parse_incr(incr)
        hand.old_action = encode(hand.state)
        try:
            apply(hand.state, letter, to)
        except ValueError as exc:
            raise ValueError(f"Illegal action {incr!r} after {hand.old_action!r}: {exc}") from None
        play_chance(hand.state, session.rng)
        self._bot_moves(session)
        return self._reply(token, session)

    def _bot_moves(self, session: Session) -> None:
        """The bot acts until the client must or the hand is over."""
        hand = session.hand
        assert hand is not None
        state = hand.state
        play_chance(state, session.rng)
        while state.current_player() not in (TERMINAL, hand.client_pos):
            apply(state, *bot_action(state, session.rng))
            play_chance(state, session.rng)

    def _reply(self, token: str, session: Session) -> dict[str, Any]:
        hand = session.hand
        assert hand is not None
        state, me = hand.state, hand.client_pos
        reply: dict[str, Any] = {
            "old_action": hand.old_action, "action": encode(state), "client_pos": me,
            "hole_cards": [card_to_str(c) for c in state.hole[me]], "board": [card_to_str(c) for c in state.board],
            "token": token,
        }
        if state.current_player() == TERMINAL:
            winnings = state.chip_returns()[me]
            session.hands += 1
            session.total += winnings
            session.baseline_total += winnings - hand.baseline
            if state.strengths is not None:  # a showdown
                reply["bot_hole_cards"] = [card_to_str(c) for c in state.hole[1 - me]]
            reply.update(winnings=winnings, baseline_winnings=winnings - hand.baseline,
                         session_num_hands=session.hands, session_total=session.total,
                         session_baseline_total=session.baseline_total)
            session.hand = None
        return reply


class _Handler(BaseHTTPRequestHandler):
    dealer: Dealer

    def do_POST(self) -> None:  # http.server's name for the handler of POST requests
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            status, reply = 400, {"error_msg": "the request body is no JSON"}
        else:
            path = self.path.rstrip("/")
            status, reply = (self.dealer.handle(path[len("/api/"):], body) if path.startswith("/api/")
                             else (404, {"error_msg": f"no such path {self.path}"}))
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no line on stderr per request
        pass


class SlumbotServer:
    """The local server on ``host``:``port`` (0: a free port) in a background thread; ``url`` is its address."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, seed: int = 0, users: Mapping[str, str] | None = None,
                 max_hands: int | None = None) -> None:
        self.dealer = Dealer(seed=seed, users=dict(users or {}), max_hands=max_hands)
        handler = type("Handler", (_Handler,), {"dealer": self.dealer})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving and free the port."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join()

    def __enter__(self) -> SlumbotServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_parser() -> argparse.ArgumentParser:
    from agent_zoo import cli

    parser = cli.parser("bridges.slumbot_server", __doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free port)")
    cli.add_seed(parser, what="the cards and the bot's choices")
    parser.add_argument("--user", nargs=2, action="append", default=[], metavar=("NAME", "PASSWORD"),
                        help="a user /api/login accepts (may be repeated)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        server = SlumbotServer(args.host, args.port, args.seed, dict(args.user))
    except OSError as exc:
        parser.exit(2, f"{parser.prog}: error: cannot listen on {args.host}:{args.port}: {exc}\n")
    print(f"serving Slumbot's API at {server.url} (interrupt to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()
