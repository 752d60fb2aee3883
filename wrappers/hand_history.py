"""Record every hand played through a hold'em environment as a PHH hand history.

``HandHistoryRecorder(env)`` wraps ``nolimit_holdem_v0`` / ``limit_holdem_v0`` / ``shortdeck_holdem_v0``
(``env()`` or ``raw_env``; short deck is PHH variant ``NS``, its three-of-a-kind rule has no code) and, each time a hand ends, turns the finished game state into a ``poker_envs.phh.Hand``:
kept in ``recorder.hands`` and/or appended to a ``.phhs`` file (one table ``[k]`` per hand, written
when the hand ends, so an interrupted run keeps every finished hand; an existing file is continued).

PHH seating: ``p1`` is the seat left of the button (the small blind; heads-up the big blind), ``pN``
the button. ``players`` holds the agent names (``player_3`` ...), ``seats`` the environment seat + 1
of each, ``finishing_stacks`` the stacks after the hand, ``hand`` the hand number. In a session (many hands
per episode, ``poker_envs.session``) every hand is recorded as it ends, with the session's carried stacks as
its starting stacks, only the seats still in play, and ``_session_hand`` (1-based hand of the episode) and
``_level`` (1-based blind level, tournaments). Every hole card
is written (the environment knows them all) and, at a showdown, every remaining hand is shown.
Hands left before the game ends (a reset mid-hand) and hands with an illegal move (``env()`` forfeits the
mover's hand as a fold, also where the rules allow no fold, so the hand would not replay) are not hand
histories: they are counted in ``recorder.unfinished`` and a warning says so.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from poker_envs.games.base import TERMINAL
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame, HoldemState
from poker_envs.phh import Hand, append, count_tables, format_cards
from poker_envs.phh_replay import REPLAY_VARIANTS



_SHAPE = ("betting", "ranking", "hole_cards", "hand_rule", "board_cards")  # what a PHH variant code fixes


def phh_variant(game: HoldemGame) -> str:
    """The PHH variant code of a hold'em-family game (NT, FT, NS, PO); ValueError for one the specification
    has no code for."""
    cfg = game.config
    mine = {"betting": cfg.betting, "ranking": game.ranking.name, "hole_cards": cfg.hole_cards,
            "hand_rule": cfg.hand_rule, "board_cards": cfg.board_cards}
    for code, variant in REPLAY_VARIANTS.items():
        wanted = {name: variant.get(name, HoldemConfig.__dataclass_fields__[name].default) for name in _SHAPE}
        if wanted == mine and game.deck == game.ranking.cards:
            return code
    raise ValueError(f"game {game.name!r} has no PHH variant code: hand histories cannot record it")


def hand_from_state(state: HoldemState, players: list[str] | None = None, number: int | None = None,
                    extra: dict[str, Any] | None = None) -> Hand:
    """The PHH hand of a finished hold'em state (``players``: names by engine seat)."""
    if state.current_player() != TERMINAL:
        raise ValueError("the hand is not over: only finished hands are hand histories")
    cfg = state.config
    variant = phh_variant(state.game)
    n = state.num_players
    order = [(state.button + 1 + i) % n for i in range(n)]  # PHH index -> engine seat
    label = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    actions = [f"d dh {label[seat]} {format_cards(state.hole[seat])}" for seat in order]
    for street, records in enumerate(state.history):
        lo, hi = state.game.board_after[street - 1] if street else 0, state.game.board_after[street]
        if hi > lo:
            actions.append(f"d db {format_cards(state.board[lo:hi])}")
        for rec in records:
            if rec.kind == FOLD:
                actions.append(f"{label[rec.player]} f")
            elif rec.kind in (CHECK, CALL):
                actions.append(f"{label[rec.player]} cc")
            elif rec.kind in (BET, RAISE):
                actions.append(f"{label[rec.player]} cbr {rec.total}")
    live = [seat for seat in order if not state.folded[seat]]
    if len(live) > 1:
        actions.extend(f"{label[seat]} sm {format_cards(state.hole[seat])}" for seat in live)
    returns = state.chip_returns()
    fields: dict[str, Any] = {}
    if number is not None:
        fields["hand"] = number
    fields["seats"] = [seat + 1 for seat in order]
    limit = cfg.betting == "limit"
    if limit:
        fields["_max_raises_per_round"] = cfg.max_raises_per_round
        if not cfg.headsup_cap:
            fields["_headsup_cap"] = False
    fields["_odd_chips"] = cfg.odd_chips  # how split pots were paid (replay reads it; pokerkit's "pooled" if absent)
    fields.update(extra or {})
    return Hand(
        variant=variant,
        antes=(cfg.ante,) * n,
        ante_trimming_status=True,  # the engine's antes are uniform and layered with the bets
        blinds_or_straddles=(cfg.small_blind, cfg.big_blind) + (0,) * (n - 2),
        min_bet=None if limit else cfg.big_blind,
        small_bet=cfg.big_blind if limit else None,
        big_bet=2 * cfg.big_blind if limit else None,
        starting_stacks=tuple(state.starting_stacks[seat] for seat in order),
        actions=tuple(actions),
        players=tuple(players[seat] for seat in order) if players is not None else None,
        finishing_stacks=tuple(state.starting_stacks[seat] + returns[seat] for seat in order),
        fields=fields,
    )


class HandHistoryRecorder(BaseWrapper):
    """AEC wrapper that records each finished hand of a hold'em environment in PHH form.

    ``path``: a ``.phhs`` file each hand is appended to (None: none); ``keep``: also keep the hands
    in ``self.hands``; ``players``: names by seat (default: the environment's agent names).
    """

    def __init__(self, env: AECEnv, path: str | os.PathLike[str] | None = None, keep: bool = True,
                 players: list[str] | None = None) -> None:
        super().__init__(env)
        game = getattr(env.unwrapped, "game", None)
        if not isinstance(game, HoldemGame):
            raise ValueError(f"HandHistoryRecorder records hold'em environments (nolimit_holdem_v0, limit_holdem_v0, "
                             f"shortdeck_holdem_v0); got game {getattr(game, 'name', type(game).__name__)!r}")
        phh_variant(game)  # refuse now a variant that hand histories have no code for
        if path is not None and Path(path).suffix.lower() != ".phhs":
            raise ValueError(f"path must name a .phhs file (hands are appended to it), got {str(path)!r}")
        if players is not None and len(players) != game.num_players:
            raise ValueError(f"players names {len(players)} players, the table has {game.num_players}")
        self.path = None if path is None else Path(path)
        self.keep = keep
        self.players = list(players) if players is not None else list(env.possible_agents)
        self.hands: list[Hand] = []
        self.unfinished = 0  # hands left before the game ended or with an illegal move: not recorded
        self._count = count_tables(self.path) if self.path is not None else 0
        self._started = False  # a reset has happened (an episode may be in progress)
        self._seen = 0  # hands of this episode already recorded
        self._illegal = False  # the hand in progress had an illegal move (forfeited): it is not recorded
        self._metadata_name = env.unwrapped.metadata.get("name", "")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        raw = self.env.unwrapped
        if self._started and (raw.last_hand is None or raw.last_hand[0] is not raw.state):  # the hand in play is unpaid
            self.unfinished += 1
            warnings.warn("HandHistoryRecorder: a hand was left before the game ended (reset mid-hand) "
                          "and is not recorded", stacklevel=2)
        self.env.reset(seed=seed, options=options)
        self._started = True
        self._seen = 0
        self._illegal = False
        self._record_new()

    def step(self, action: Any) -> None:
        raw = self.env.unwrapped
        illegal = False
        if action is not None and raw.agents and not (raw.terminations[raw.agent_selection] or raw.truncations[raw.agent_selection]):
            move = raw.check_action(action)
            illegal = move is not None and not raw.is_legal(move)
        self.env.step(action)
        self._illegal = self._illegal or illegal  # only once the step is taken (raw_env raises instead)
        self._record_new()

    def _record_new(self) -> None:
        """Record the hand the environment finished since the last call (at most one per step)."""
        raw = self.env.unwrapped
        if raw.hands_done == self._seen:
            return
        self._seen = raw.hands_done
        state, agents, table = raw.last_hand
        if self._illegal:
            self._illegal = False
            self.unfinished += 1
            warnings.warn("HandHistoryRecorder: a hand with an illegal move (forfeited as a fold) is not recorded", stacklevel=3)
            return
        self._count += 1
        extra: dict[str, Any] = {"_env": self._metadata_name}
        names = [self.players[raw.possible_agents.index(a)] for a in agents]  # by rules seat
        if raw.session is not None:  # the hand's rules seats are the seats still in play
            n = state.num_players
            extra["seats"] = [table.seats[(state.button + 1 + i) % n] + 1 for i in range(n)]
            extra["_session_hand"] = table.hand_number + 1
            if raw.session.config.blind_levels:
                extra["_level"] = table.level + 1
        hand = hand_from_state(state, names, self._count, extra)
        if self.path is not None:
            append(hand, self.path, self._count)
        if self.keep:
            self.hands.append(hand)

    def __str__(self) -> str:
        return f"HandHistoryRecorder<{self.env!s}>"
