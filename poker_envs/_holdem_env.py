"""What the hold'em environments (limit, no-limit, short deck) share: config checks, button rotation, fixed deals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from poker_envs.aec import PokerAECEnv, warn_unknown_options
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.encoders.public import public_space
from poker_envs.games.holdem import MAX_PLAYERS, HoldemConfig, HoldemGame, HoldemState
from poker_envs.render.holdem import render_holdem
from poker_envs.session import SeatedHoldemView, Session, SessionConfig

RESET_OPTIONS = ("button", "deck", "hole", "board")
SESSION_RESET_OPTIONS = ("button", "decks")


def available_encoders() -> dict[str, type[Encoder]]:
    """The hold'em environments' ``obs_encoder`` names: their default plus the hold'em table as it is now."""
    from poker_envs.encoders.catalog import HOLDEM_ENCODERS  # read now, so later additions are offered

    return {"default": HoldemDefaultEncoder} | dict(HOLDEM_ENCODERS)


def short_deck_ranking(trips_beat_straight: bool) -> str:
    """The hand ranking of short deck's ``trips_beat_straight`` argument (checked to be a bool)."""
    if not isinstance(trips_beat_straight, bool):
        raise ValueError(f"trips_beat_straight must be True or False, got {trips_beat_straight!r}")
    return "short_deck_trips" if trips_beat_straight else "short_deck"


def _int_arg(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def holdem_config(
    betting: str,
    num_players: int,
    small_blind: int,
    big_blind: int,
    ante: int,
    starting_stack: int | Sequence[int],
    bet_sizing: str | tuple[float, ...] = "abstract",
    allow_fold_when_check: bool = False,
    ranking: str = "standard",
) -> HoldemConfig:
    """Check the environment arguments (errors name the argument; HoldemConfig checks the blinds) and build
    the rules config."""
    if isinstance(num_players, bool) or not isinstance(num_players, int | np.integer) or not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be an integer from 2 to {MAX_PLAYERS}, got {num_players!r}")
    if isinstance(starting_stack, int | np.integer) and not isinstance(starting_stack, bool):
        stacks = (_int_arg("starting_stack", starting_stack, 1),) * num_players
    elif isinstance(starting_stack, Sequence) and not isinstance(starting_stack, str):
        if len(starting_stack) != num_players:
            raise ValueError(f"starting_stack lists {len(starting_stack)} stacks for {num_players} players")
        stacks = tuple(_int_arg(f"starting_stack[{i}]", s, 1) for i, s in enumerate(starting_stack))
    else:
        raise ValueError(f"starting_stack must be a positive integer or a list of one per seat, got {starting_stack!r}")
    if isinstance(bet_sizing, list):
        bet_sizing = tuple(bet_sizing)
    return HoldemConfig(
        num_players=num_players,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        starting_stacks=stacks,
        betting=betting,
        allow_fold_when_check=allow_fold_when_check,
        bet_sizing=bet_sizing,
        ranking=ranking,  # the deck is the ranking's own (36 cards for the short-deck rankings)
    )


def seeded_buttons(seed: int | None, num_players: int, size: int) -> np.ndarray:
    """The buttons of ``size`` tables after ``reset(seed=seed)``: drawn from a child of the seed's sequence, so
    they are uniform over the seats yet fixed by the seed, and the cards the seed deals do not depend on them.
    The first is ``seeded_button(seed, num_players)`` (numpy draws bounded integers one by one)."""
    child = np.random.SeedSequence(seed).spawn(1)[0]
    return np.random.default_rng(child).integers(num_players, size=size)


def seeded_button(seed: int, num_players: int) -> int:
    """The button of the AEC env's ``reset(seed=seed)``: one table of ``seeded_buttons``."""
    return int(seeded_buttons(seed, num_players, 1)[0])


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
    ) -> None:
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
        public = public_space(n, chips, session.hands_per_episode, len(levels) - 1)
        super().__init__(game, encoder, render_holdem, render_mode, reward_scale=scale, public_space=public)
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
