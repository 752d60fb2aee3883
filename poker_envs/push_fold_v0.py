"""Push-or-fold hold'em as a PettingZoo AEC environment (rules: ``poker_envs.games.push_fold``).

``player_i`` is seat ``i`` in acting order (heads-up: player_0 = small blind/button, player_1 = big
blind; n players: the last two are the blinds). Between one-hand episodes positions belong to the
players (no button rotates, seeded or not): to compare agents, rotate them over the players as the
tournament does. Actions 0 = fold, 1 = all-in. Rewards are big blinds.
Configuration: ``num_players`` 2..6, ``stack_bb`` (starting stack incl. blind and ante) or per-seat
``stacks_bb``, ``ante_bb``, ``rake`` with optional ``rake_cap_bb``. ``obs_encoder`` names one of this
module's encoders or a hold'em encoder from ``encoders.catalog.HOLDEM_ENCODERS`` that accepts the game.
Reset option ``deck`` (card ids in dealing order: two rounds of hole cards from seat 0, then the board).
The public betting state (in big blinds) is in ``observation["public"]`` (``poker_envs.encoders.public``).

Sessions (opt-in; docs/holdem.md "Sessions"): ``hands_per_episode=N`` plays up to N hands with stacks
carried over; the rules seats rotate one place per hand (the button moves), so ``player_i`` is rules seat
``i`` only in the first hand. ``rebuy=True`` restarts every hand at the starting stacks; ``payouts``
pays prizes by finishing place (ICM on the stacks if the hands run out). A seat that cannot post the big
blind plus the ante is eliminated and the rest of its stack leaves play. Reset option ``decks``: one deck per
hand. Blind levels are not offered (push/fold counts in big blinds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from poker_envs.aec import PokerAECEnv, aec_metadata, classic_env, turn_based_env, warn_unknown_options
from poker_envs.encoders.base import EncoderSpec, resolve_encoder
from poker_envs.encoders.history import history_option
from poker_envs.encoders.public import TablePosition, public_space
from poker_envs.encoders.small_games import PUSH_FOLD_ENCODERS
from poker_envs.games.base import GameState
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame
from poker_envs.render.small_games import render_push_fold
from poker_envs.session import Session, acting_order, session_config

SESSION_RESET_OPTIONS = ("decks",)


def available_encoders() -> dict[str, type]:
    """This game's encoders plus the hold'em catalog as it is now (an unfit one refuses the game by name)."""
    from poker_envs.encoders import catalog

    return {**catalog.HOLDEM_ENCODERS, **PUSH_FOLD_ENCODERS}


class raw_env(PokerAECEnv):
    metadata = aec_metadata("push_fold_v0")

    def __init__(
        self,
        num_players: int = 2,
        stack_bb: float = 10.0,
        ante_bb: float = 0.0,
        rake: float = 0.0,
        rake_cap_bb: float | None = None,
        stacks_bb: Sequence[float] | None = None,
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
        hands_per_episode: int = 1,
        rebuy: bool = False,
        payouts: Sequence[float] | None = None,
        history: bool = False,
    ) -> None:
        session = session_config(hands_per_episode, rebuy, None, None, payouts)
        session.check_seats(num_players)
        config = PushFoldConfig(
            num_players=num_players,
            stack_bb=stack_bb,
            ante_bb=ante_bb,
            rake=rake,
            rake_cap_bb=rake_cap_bb,
            stacks_bb=None if stacks_bb is None else tuple(stacks_bb),
        )
        self.config = config  # the table at the start of an episode
        self.session_config = session
        n, total = config.num_players, sum(config.stacks)
        # In a session every hand is a game of its own; the spaces fit a table where any seat may hold every chip.
        game = PushFoldGame(replace(config, stacks_bb=(total,) * n) if session.is_session else config)
        encoder = resolve_encoder(obs_encoder, game, available_encoders())
        if session.rebuy:
            encoder.widen_for_session(hands_per_episode * max(config.stacks), hands_per_episode * total)
        public = public_space(n, total, session.hands_per_episode)
        hand = history_option(history, n, 2, 5, game.max_game_length, total, session.is_session)
        super().__init__(game, encoder, render_push_fold, render_mode, public_space=public, history=hand)

    def _new_session(self, options: dict[str, Any]) -> Session | None:
        if not self.session_config.is_session:
            return None
        self._read_decks(options, SESSION_RESET_OPTIONS)
        session = Session(self.session_config, self.config.stacks, need=1.0 + float(self.config.ante_bb))
        n = self.config.num_players
        session.button = 0 if n == 2 else n - 3  # the first hand seats player_i at rules seat i
        return session

    def _seating(self) -> TablePosition:
        session = self.session
        order = acting_order(session.seated, session.button)
        return TablePosition(self.config.num_players, tuple(order), session.hand_number, session.level)

    def _new_state(self, options: dict[str, Any]) -> GameState:
        session = self.session
        if session is not None:
            stacks = tuple(session.stacks[s] for s in self._table.seats)
            game = PushFoldGame(replace(self.config, num_players=len(stacks), stacks_bb=stacks))
            return game.new_initial_state(deck=self._hand_deck())
        warn_unknown_options(options, ("deck",), self.metadata["name"])
        return self.game.new_initial_state(deck=options.get("deck"))


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
