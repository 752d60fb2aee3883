"""One poker table shared by several remote clients (the MCP server's game state, ``wrappers.mcp_server``).

The first seats are the clients' (each held by a token from :meth:`SharedTable.join`); the last seats, one per
opponent spec, are played by zoo agents. A hand is dealt once every client seat is held and, between hands, once
every client has asked for the next one (so nobody misses a result). The zoo agents act as soon as it is their
turn. A client acts with an action word and, for a bet or raise, the street total in the table's unit (the JSON
view's ``unit``); the word and amount are read by the text views' reply parser with snapping off, so an amount
that is not a legal size is refused with the legal actions, never moved to a nearby one.

Every refusal is a :class:`TableError` whose message names what is wrong and what is allowed. Thread-safe.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from poker_envs import catalog
from poker_envs.text import TextTable
from poker_envs.text.parser import format_amount
from wrappers.single_agent import as_agent, make_aec
from wrappers.text_env import TEXT_GAMES

ACTION_WORDS = ("fold", "check", "call", "bet", "raise", "all-in")  # the words act() takes (the views' action kinds)
SIZED_WORDS = ("bet", "raise")  # the words that take an amount (the street total after the action)
MAX_LISTED = 8  # legal bets/raises listed one by one in an error; more are written as a range


class TableError(ValueError):
    """A refused request: the message names what is wrong and what is allowed."""


@dataclass
class Hand:
    """The hand in play (or just finished) and what each seat won."""

    number: int  # hands dealt before this one
    rewards: list[float]  # each seat's result so far, in big blinds (final once over)
    over: bool = False


class SharedTable:
    """A table of ``game`` with ``seats`` seats; ``opponents`` (zoo agent specs) play the last seats.

    Args:
        game: a game the text views speak (``wrappers.text_env.TEXT_GAMES``).
        seats: seats at the table (the game's limits apply).
        opponents: one zoo agent spec per zoo seat (``"heuristic"``, ``"random"``, ``"cfr:..."``); at most
            ``seats - 1``: the other seats are the clients'.
        seed: seeds the deals and the zoo agents' choices (None: fresh entropy).
        amounts: the unit of the JSON view and of act()'s amounts: ``"chips"`` or ``"bb"``.
    """

    def __init__(self, game: str = "nolimit", seats: int = 2, opponents: Sequence[str] = ("heuristic",),
                 seed: int | None = None, amounts: str = "chips") -> None:
        if game not in TEXT_GAMES:
            what = "a game of poker_envs.catalog" if game not in catalog.keys() else "a game the text views speak"
            raise ValueError(f"game {game!r} is not {what}; choose one of {list(TEXT_GAMES)}")
        if isinstance(seats, bool) or not isinstance(seats, int) or seats < 2:
            raise ValueError(f"seats must be an int >= 2, not {seats!r}")
        if isinstance(opponents, str) or len(opponents) > seats - 1:
            raise ValueError(f"opponents must be a list of at most {seats - 1} zoo agent specs (one per zoo seat; "
                             f"at least one seat is a client's), not {opponents!r}")
        self.game = game
        self.env = make_aec(game, history=True, num_players=seats)
        self.views = TextTable.for_env(self.env, amounts=amounts, snap=False)
        self.num_seats = seats
        self.client_seats = tuple(range(seats - len(opponents)))
        self.agents = {len(self.client_seats) + i: as_agent(spec, self.env) for i, spec in enumerate(opponents)}
        self.opponents = tuple(opponents)
        seeds = np.random.SeedSequence(seed)
        self._first_seed = int(seeds.generate_state(1, np.uint64)[0] >> np.uint64(1))
        self._rng = np.random.default_rng(seeds.spawn(1)[0])  # the zoo agents' choices
        self._tokens: dict[str, int] = {}
        self._ready: set[int] = set()  # client seats that asked for the next hand
        self._hand: Hand | None = None
        self._lock = threading.RLock()

    # Seats -----------------------------------------------------------------------------------------
    def join(self) -> dict[str, Any]:
        """Take the lowest free client seat: its token and the table's state for it."""
        with self._lock:
            held = set(self._tokens.values())
            free = [s for s in self.client_seats if s not in held]
            if not free:
                raise TableError(f"the table is full: every client seat ({list(self.client_seats)}) is held; "
                                 f"seats {sorted(self.agents)} are zoo agents'")
            token = secrets.token_urlsafe(16)
            self._tokens[token] = free[0]
            self._maybe_deal()
            return {"token": token, **self._state(free[0])}

    def leave(self, token: str) -> dict[str, Any]:
        """Free the seat of ``token``; the next join takes it (a hand in play waits for it)."""
        with self._lock:
            seat = self._seat(token)
            del self._tokens[token]
            self._ready.discard(seat)
            return {"seat": seat, "left": True}

    # Reading -----------------------------------------------------------------------------------------
    def state(self, token: str) -> dict[str, Any]:
        """Where the table stands for the seat of ``token`` (see :meth:`_state`)."""
        with self._lock:
            return self._state(self._seat(token))

    def legal_actions(self, token: str) -> dict[str, Any]:
        """The seat's legal actions now (empty unless it is its turn), as in the JSON view."""
        with self._lock:
            seat = self._seat(token)
            state = self._state(seat)
            legal = state["view"]["legal_actions"] if state["status"] == "your_turn" else []
            return {"seat": seat, "status": state["status"], "unit": self.views_unit(), "legal_actions": legal}

    def views_unit(self) -> str:
        """The unit of every amount in the view and in act() ("chips" or "big blinds")."""
        return "big blinds" if self.views.amounts == "bb" or self.views.sizing.betting == "push_fold" else "chips"

    # Playing -----------------------------------------------------------------------------------------
    def act(self, token: str, action: str, amount: float | None = None) -> dict[str, Any]:
        """Play ``action`` (one of ``ACTION_WORDS``; ``amount``: the street total of a bet or raise) for the seat."""
        with self._lock:
            seat = self._seat(token)
            status = self._status(seat)
            if status != "your_turn":
                raise TableError(self._not_your_turn(seat, status))
            observation = self.env.observe(self.env.possible_agents[seat])
            reply = self._reply(action, amount)
            parsed = self.views.parse(reply, observation)
            if parsed.action is None:
                raise TableError(f"{reply!r} is not legal here: {parsed.message}; legal now: {self._legal_text(seat)}")
            hand = self._hand
            assert hand is not None  # your_turn: a hand is in play
            self._step(hand, parsed.action)
            self._play_agents(hand)
            return {"played": parsed.message, **self._state(seat)}

    def next_hand(self, token: str) -> dict[str, Any]:
        """Ask for the next hand; it is dealt once every client seat is held and has asked."""
        with self._lock:
            seat = self._seat(token)
            if self._hand is None or not self._hand.over:
                raise TableError("the hand is still being played" if self._hand is not None else
                                 "no hand has been dealt yet: the first is dealt once every client seat is held "
                                 f"(waiting for seats {self._waiting_for()})")
            self._ready.add(seat)
            self._maybe_deal()
            return self._state(seat)

    # Internals ---------------------------------------------------------------------------------------
    def _seat(self, token: str) -> int:
        if not isinstance(token, str) or token not in self._tokens:
            raise TableError("unknown token: join_table gives a seat and its token (a token is freed by leave_table)")
        return self._tokens[token]

    def _waiting_for(self) -> list[int]:
        """Client seats the next deal waits for: not held, or (between hands) not yet asked for it."""
        held = set(self._tokens.values())
        between = self._hand is not None and self._hand.over
        return [s for s in self.client_seats if s not in held or (between and s not in self._ready)]

    def _maybe_deal(self) -> None:
        if (self._hand is None or self._hand.over) and not self._waiting_for():
            number = 0 if self._hand is None else self._hand.number + 1
            self.env.reset(seed=self._first_seed if number == 0 else None)  # later hands: the button moves on
            for seat, agent in self.agents.items():
                agent.begin_hand(seat)
            self._hand = Hand(number, [0.0] * self.num_seats)
            self._ready.clear()
            self._play_agents(self._hand)

    def _step(self, hand: Hand, action: int | None) -> None:
        env = self.env
        env.step(action)
        for seat, agent in enumerate(env.possible_agents):
            hand.rewards[seat] += float(env.rewards.get(agent, 0.0))

    def _play_agents(self, hand: Hand) -> None:
        """Let the zoo agents act (and pass the turns of finished seats) until a client must act or the hand ends."""
        env = self.env
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                self._step(hand, None)
                continue
            seat = env.possible_agents.index(agent)
            if seat not in self.agents:
                return
            self._step(hand, self.agents[seat].act(env.observe(agent), self._rng))
        hand.over = True

    def _to_act(self) -> int | None:
        env = self.env
        if self._hand is None or self._hand.over:
            return None
        return env.possible_agents.index(env.agent_selection)

    def _status(self, seat: int) -> str:
        if self._hand is None or (self._hand.over and seat in self._ready):
            return "waiting_for_players"
        if self._hand.over:
            return "hand_over"
        return "your_turn" if self._to_act() == seat else "other_turn"

    def _state(self, seat: int) -> dict[str, Any]:
        """``status``: ``waiting_for_players`` (``waiting_for``: client seats not held, or not yet asked for the
        next hand), ``your_turn``, ``other_turn`` (``to_act``: whose) or ``hand_over`` (``result``: every seat's
        reward in big blinds); ``view``: the JSON view for the seat (None before the first deal)."""
        status = self._status(seat)
        out: dict[str, Any] = {"seat": seat, "status": status, "hand": None if self._hand is None else self._hand.number,
                               "to_act": self._to_act(), "waiting_for": self._waiting_for() if status == "waiting_for_players" else []}
        out["view"] = None if self._hand is None else self.views.state_json(self.env.observe(self.env.possible_agents[seat]))
        if self._hand is not None and self._hand.over:
            rewards = self._hand.rewards
            out["result"] = {"rewards_bb": {str(s): rewards[s] for s in range(self.num_seats)}, "your_reward_bb": rewards[seat]}
        return out

    def _not_your_turn(self, seat: int, status: str) -> str:
        if status == "other_turn":
            return f"it is seat {self._to_act()}'s turn, not yours (seat {seat}): wait_for_turn waits for yours"
        if status == "hand_over":
            return "the hand is over: next_hand asks for the next one"
        return f"no hand is in play: waiting for client seats {self._waiting_for()} (to join, or to ask for the next hand)"

    def _reply(self, action: Any, amount: Any) -> str:
        """The reply text the views' parser reads for ``action`` and ``amount``; raises TableError on bad input."""
        legal = self._legal_text(self.env.possible_agents.index(self.env.agent_selection))
        if not isinstance(action, str) or action.strip().lower() not in ACTION_WORDS:
            raise TableError(f"unknown action {action!r}: use one of {', '.join(ACTION_WORDS)}; legal now: {legal}")
        word = action.strip().lower()
        if amount is None:
            return word
        if word not in SIZED_WORDS:
            raise TableError(f"{word} takes no amount (only bet and raise do: the street total); legal now: {legal}")
        if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not math.isfinite(amount) or amount <= 0:
            raise TableError(f"amount must be a positive number (the street total in {self.views_unit()}), not {amount!r}")
        return f"{'bet' if word == 'bet' else 'raise to'} {format_amount(float(amount))}"

    def _legal_text(self, seat: int) -> str:
        """The seat's legal actions as act() takes them (``fold, call, raise to 6, raise to 9, all-in``); more than
        ``MAX_LISTED`` bets or raises are written as their range (``raise to 4..200``)."""
        legal = self.views.state_json(self.env.observe(self.env.possible_agents[seat]))["legal_actions"]
        texts = [a["text"] for a in legal]
        sized = [i for i, a in enumerate(legal) if a["action"] in SIZED_WORDS]
        if len(sized) > MAX_LISTED:  # chip-by-chip sizes: ids in a row, smallest first
            low, high = legal[sized[0]], legal[sized[-1]]
            verb = "bet" if low["action"] == "bet" else "raise to"
            texts[sized[0] : sized[-1] + 1] = [f"{verb} {format_amount(low['to'])}..{format_amount(high['to'])}"]
        return ", ".join(texts) or "none"
