"""A person against a zoo agent, heads-up, at a table the viewer's server holds.

``PlayTable`` builds the catalog game's AEC environment (``agent_zoo.tournament.build_env``, with the options the
agent's registry entry asks for), the agent (``agent_zoo.registry.make_agent``), and plays through the
environment's API: the agent acts from ``env.observe`` as in any tournament, the person's action ids go to
``env.step``. Between the person's decisions the agent's moves run at once. ``view()`` is what the page shows:
the table (hold'em family: a frame as the replays draw it, the agent's cards face down until a showdown; the
other games: what the person's seat knows), the legal actions, the hand's log, the result and the running total.

The server is the table's host: it reads the rules state to show the person's own cards and the showdown, as
a dealer does; the agent sees only its observations.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from agent_zoo.observe import public_state
from agent_zoo.play import MenuItem, chips, menu_item
from agent_zoo.registry import make_agent, needed_env_options
from agent_zoo.tournament import build_env
from agent_zoo.viewer.frames import Frame, end_frame, table_frame
from poker_envs import catalog
from poker_envs.core.cards import card_to_str
from poker_envs.encoders.public import PublicState
from poker_envs.games.base import ActionKind
from poker_envs.games.holdem import STREET_NAMES, HoldemState

SIZED = (ActionKind.BET, ActionKind.RAISE)
RANGE_AT = 7  # this many bet or raise sizes a chip apart, or more, are offered as an amount input, not as buttons
SEED_BOUND = 2**31


class PlayTable:
    """Heads-up play of catalog game ``game`` against agent ``agent`` (a registry spec), the person at ``seat``."""

    def __init__(self, game: str = "nolimit", agent: str = "random", seed: int | None = None,
                 env_config: dict[str, Any] | None = None, seat: int = 0) -> None:
        self.entry = catalog.game(game)
        config = {**(env_config or {}), **needed_env_options([agent], env_config or {})}
        if config.get("num_players", 2) != 2:
            raise ValueError(f"env_config num_players={config['num_players']!r}: the play table is heads-up (2 players)")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        self.env = build_env(self.entry.key, config, players=2)
        self.ids = list(self.env.possible_agents)
        self.seat = seat
        self.agent_spec = agent
        self.agent = make_agent(agent, self.env)
        self.names = ["you" if s == seat else agent for s in range(2)]
        self.rng = np.random.default_rng(seed)
        self.total = 0.0  # the person's rewards summed over the finished hands (the environment's reward unit)
        self.hands = 0  # hands finished
        self.log: list[str] = []  # the hand in play, in words
        self.won = 0.0  # the person's reward in the hand in play
        self.over = True  # the hand is over (or none was dealt): new_hand deals the next
        self.started = False  # the environment has been reset
        self.seen = 0  # the environment's hands_done when this table last looked
        self.board_seen = 0
        self.new_hand()

    # ---- playing --------------------------------------------------------------------------------------

    def new_hand(self) -> None:
        """Deal the next hand (the next of a session, else a new episode) and play until the person acts."""
        if not self.over:
            raise ValueError("the hand in play is not over yet")
        self.over, self.log, self.won, self.board_seen = False, [], 0.0, 0
        self._advance()

    def act(self, action: int | None = None, amount: float | None = None) -> None:
        """The person's move: an action id, or (``amount``) the bet or raise to that many chips; a ValueError
        names what is legal."""
        if self.over:
            raise ValueError("the hand is over: deal the next one")
        menu = self.menu()
        if amount is not None:
            fits = [m for m in menu if m.to is not None and float(m.to) == float(amount)]
            if not fits:
                sizes = [chips(m.to) for m in menu if m.to is not None]
                raise ValueError(f"amount {amount!r} is not a legal bet or raise-to size here; legal sizes: "
                                 f"{', '.join(sizes) or 'none'}")
            action = fits[0].action
        legal = {m.action: m.label for m in menu}
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise ValueError(f"action {action!r} is not legal here; legal actions: "
                             + ", ".join(f"{a} ({label})" for a, label in legal.items()))
        self._step(self.seat, action, self.env.observe(self.ids[self.seat]))
        self._advance()

    def _advance(self) -> None:
        """Step the environment until the person must choose (more than one legal action) or the hand ends."""
        env = self.env
        while True:
            if not self.started or not env.agents:
                if self.started and self.over:
                    return
                env.reset(seed=int(self.rng.integers(SEED_BOUND)))
                self.started, self.seen = True, 0
                self.agent.begin_hand(1 - self.seat)
                continue
            agent_id = env.agent_selection
            if env.terminations[agent_id] or env.truncations[agent_id]:
                env.step(None)  # a seat whose game is over
                continue
            if self.over:
                return  # the next hand of a session waits for new_hand
            s = self.ids.index(agent_id)
            obs = env.observe(agent_id)
            legal = np.flatnonzero(obs["action_mask"])
            if s == self.seat and len(legal) > 1:
                return
            action = int(legal[0]) if s == self.seat else int(self.agent.act(obs, self.rng))
            self._step(s, action, obs)

    def _step(self, seat: int, action: int, obs: dict[str, np.ndarray]) -> None:
        env = self.env
        self.log.append(f"{self.names[seat]}: {self._item(action, obs).label}")
        env.step(action)
        self.won += env.rewards[self.ids[self.seat]]
        over = env.hands_done != self.seen
        self._note_board(env.last_hand[0] if over else env.state)
        if over:  # the hand is over: count it
            self.seen = env.hands_done
            self.total += self.won
            self.hands += 1
            self.over = True

    def _note_board(self, state: Any) -> None:
        """Log the board when cards were dealt (the hold'em family's states have one)."""
        board = list(getattr(state, "board", ()))
        if len(board) > self.board_seen:
            self.log.append(f"board: {' '.join(card_to_str(c) for c in board)}")
            self.board_seen = len(board)

    # ---- what the page shows ---------------------------------------------------------------------------

    def _public(self, obs: dict[str, np.ndarray]) -> PublicState | None:
        return public_state(obs) if "public" in obs else None

    def _item(self, action: int, obs: dict[str, np.ndarray]) -> MenuItem:
        """What action ``action`` of the seat to act means (hold'em family: the zoo's menu item, else the rules' words)."""
        state, public = self.env.state, self._public(obs)
        if public is not None:
            return menu_item(state, action, public)
        kind = state.action_kind(action)
        return MenuItem(action, kind, None, state.action_to_string(action))

    def menu(self) -> list[MenuItem]:
        """The person's legal actions (empty when it is not the person's turn)."""
        if self.over:
            return []
        obs = self.env.observe(self.ids[self.seat])
        return [self._item(int(a), obs) for a in np.flatnonzero(obs["action_mask"])]

    def view(self) -> dict[str, Any]:
        """The JSON the page draws: the table, the legal actions, the hand's log and the totals."""
        menu = self.menu()
        sized = [m for m in menu if m.kind in SIZED and m.to is not None]
        amounts = sorted(float(m.to) for m in sized)
        ranged = len(amounts) >= RANGE_AT and all(b - a == 1 for a, b in itertools.pairwise(amounts))
        buttons = [m for m in menu if not (ranged and m in sized)]
        return {
            "game": self.entry.key, "games": catalog.keys(), "title": self.entry.title, "agent": self.agent_spec, "seat": self.seat,
            "names": self.names, "hands": self.hands, "total": self.total, "unit": self.entry.reward_unit,
            "won": self.won if self.over else None, "over": self.over, "log": self.log,
            "legal": [{"id": m.action, "label": m.label, "kind": m.kind.name.lower()} for m in buttons],
            "sizes": {"min": amounts[0], "max": amounts[-1], "kind": sized[0].kind.name.lower()} if ranged else None,
            **self._table_view(),
        }

    def _table_view(self) -> dict[str, Any]:
        """``table``: a frame where the game has a public betting state, else ``info``: the person's knowledge."""
        state = self.env.last_hand[0] if self.over else self.env.state
        text = self.log[-1] if self.log else ""
        if isinstance(state, HoldemState):
            return {"table": self._holdem_frame(state, text), "info": None}
        obs = self.env.observe(self.ids[self.seat])
        public = self._public(obs)
        if public is not None and hasattr(state, "hole"):  # push/fold: the same table, from the public state
            return {"table": self._public_frame(state, public, text), "info": None}
        info = f"your view: {state.information_state_string(self.seat)}"
        if self.over:
            info += " | at the end: " + ", ".join(f"{self.names[s]} {state.information_state_string(s)}" for s in range(2))
        return {"table": None, "info": info}

    def _holdem_frame(self, state: HoldemState, text: str) -> Frame:
        if not self.over:
            return table_frame(state, self.names, [s == self.seat for s in range(2)], text)
        showdown = state.strengths is not None
        visible = [s == self.seat or (showdown and not state.folded[s]) for s in range(2)]
        return end_frame(state, self.names, visible, state.chip_returns())

    def _public_frame(self, state: Any, public: PublicState, text: str) -> Frame:
        live = state.live()
        showdown = self.over and sum(live) > 1
        seats = []
        for s in range(2):
            shown = s == self.seat or (showdown and live[s])
            seats.append({"name": self.names[s], "cards": [card_to_str(c) if shown else None for c in state.hole[s]],
                          "stack": public.stacks[s], "bet": public.bets[s], "folded": bool(public.folded[s]),
                          "all_in": bool(public.all_in[s]), "button": s == public.button})
        if self.over:
            for s, r in enumerate(state.returns()):
                seats[s]["won"] = float(r)
        street = public.street if 0 <= public.street < len(STREET_NAMES) else 0
        return {"street": STREET_NAMES[street], "board": [card_to_str(c) for c in state.board], "pot": public.pot,
                "seats": seats, "to_act": public.actor if public.actor >= 0 else None, "actor": None, "text": text,
                "over": self.over}
