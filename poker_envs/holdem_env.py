"""What the hold'em-family environments share: the AEC adapter with button rotation, fixed deals and sessions.

The arguments become a rules configuration in ``poker_envs.games.holdem_args`` (checked there, once)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from poker_envs.aec import ActionMap, PokerAECEnv, warn_unknown_options
from poker_envs.encoders.base import EncoderSpec, resolve_encoder
from poker_envs.encoders.catalog import available_encoders
from poker_envs.encoders.history import history_option
from poker_envs.encoders.public import public_space
from poker_envs.games.holdem import HoldemConfig, HoldemGame, HoldemState
from poker_envs.games.holdem_args import seeded_button
from poker_envs.render.holdem import render_holdem
from poker_envs.session import SeatedHoldemView, Session, SessionConfig

RESET_OPTIONS = ("button", "deck", "hole", "board")
SESSION_RESET_OPTIONS = ("button", "decks")

__all__ = ["HoldemAECEnv"]


class HoldemAECEnv(PokerAECEnv):
    """One hand per episode; the button moves one seat per reset, and ``reset(seed=s)`` puts it on a seat drawn
    from ``s`` (so seeding every episode, the usual habit, does not pin it to one seat; one seed still always
    gives the same hand).

    ``reset(options={"button": b, "deck": [...]})`` fixes the button (duplicate evaluation: pass it with the
    seed) and the deck order (see ``poker_envs.games.holdem`` for the dealing order), or
    ``{"hole": [[c, c], ...], "board": [...]}`` fixes the cards directly; the rotation continues from a
    fixed button.

    Sessions (``session=``, docs/holdem.md "Sessions"): many hands per episode with stacks carried over;
    reset options ``"button"`` (first hand's button) and ``"decks"`` (one deck per hand, in dealing order;
    hands past the list are dealt at random). ``self.game`` is then the template table the spaces are built
    for (every seat holding all the chips, the first level's blinds); each hand is a game of its own.
    """

    def __init__(
        self,
        config: HoldemConfig,
        reward_unit: str,
        obs_encoder: EncoderSpec,
        render_mode: str | None,
        session: SessionConfig | None = None,
        history: bool = False,
        *,
        public: bool = True,
        action_map: ActionMap | None = None,
    ) -> None:
        """``public=False`` leaves the ``"public"`` betting state out of the observations (an env keeping another
        library's observation dict); ``action_map``: env action ids other than the rules' (``aec.ActionMap``)."""
        if reward_unit not in ("big_blinds", "chips"):
            raise ValueError(f"reward_unit must be 'big_blinds' or 'chips', got {reward_unit!r}")
        session = session or SessionConfig()
        session.check_seats(config.num_players)
        n, total = config.num_players, sum(config.starting_stacks)
        if session.blind_levels:
            sb, bb, ante = session.blind_levels[0]
            config = replace(config, small_blind=sb, big_blind=bb, ante=ante)
        self.config = config  # the table at the start of an episode
        self.session_config = session
        template = replace(config, starting_stacks=(total,) * n) if session.is_session else config
        game = HoldemGame(template)
        encoder = resolve_encoder(obs_encoder, game, available_encoders())
        if session.rebuy:  # wins are banked: what a seat is up or down over the session grows with the hands
            hands = session.hands_per_episode
            encoder.widen_for_session(hands * max(config.starting_stacks), hands * total)
        scale = 1.0 / config.big_blind if reward_unit == "big_blinds" else 1.0
        levels = session.blind_levels or ((config.small_blind, config.big_blind, config.ante),)
        chips = max([total] + [bb + ante for _, bb, ante in levels])
        hand = history_option(history, n, config.hole_cards, sum(config.board_cards), game.max_game_length, chips, session.is_session)
        super().__init__(game, encoder, render_holdem, render_mode, reward_scale=scale,
                         public_space=public_space(n, chips, session.hands_per_episode, len(levels) - 1) if public else None,
                         history=hand, action_map=action_map)
        self._next_button = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_button = seeded_button(seed, self.config.num_players)
        super().reset(seed=seed, options=options)

    def _button_option(self, options: dict[str, Any]) -> int:
        """The button of the episode's first hand: the option, else the rotation; the rotation moves on."""
        button = options.get("button", self._next_button)
        n = self.config.num_players
        if isinstance(button, bool) or not isinstance(button, int | np.integer) or not 0 <= button < n:
            raise ValueError(f"reset option 'button' must be a seat 0..{n - 1}, got {button!r}")
        self._next_button = (int(button) + 1) % n
        return int(button)

    def _new_session(self, options: dict[str, Any]) -> Session | None:
        if not self.session_config.is_session:
            return None
        self._read_decks(options, SESSION_RESET_OPTIONS)
        session = Session(self.session_config, self.config.starting_stacks)
        session.button = self._button_option(options)
        return session

    def _encoder_view(self, state: HoldemState, seat: int) -> tuple[Any, int]:
        seats = self._table.seats
        if len(seats) == self.config.num_players:
            return state, seat  # nobody eliminated: rules seats are the environment's
        return SeatedHoldemView(state, seats, self.config.num_players), seats[seat]

    def _new_state(self, options: dict[str, Any]) -> HoldemState:
        session = self.session
        if session is not None:
            sb, bb, ante = session.blinds((self.config.small_blind, self.config.big_blind, self.config.ante))
            stacks = tuple(int(round(x)) for x in session.hand_stacks())
            cfg = replace(self.config, num_players=len(stacks), small_blind=sb, big_blind=bb, ante=ante, starting_stacks=stacks)
            return HoldemGame(cfg).new_initial_state(button=self._table.seats.index(session.button), deck=self._hand_deck())
        warn_unknown_options(options, RESET_OPTIONS, self.metadata["name"])
        return self.game.new_initial_state(
            button=self._button_option(options), deck=options.get("deck"), hole=options.get("hole"), board=options.get("board", ())
        )
