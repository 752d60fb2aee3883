"""The contract every game's rules follow: a small mutable state walked by envs and solvers alike.

Nothing here (or in any rules module) imports gymnasium or pettingzoo. A state is a node of the
game tree: chance nodes deal, player nodes take discrete action ids in
``0 .. game.num_distinct_actions - 1``, terminal nodes pay ``returns()``. ``apply`` changes the
state in place and ``child`` returns a changed copy, so solvers can branch and step back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Self

import numpy as np

CHANCE = -1
TERMINAL = -4


class GameState(ABC):
    """One node of a game; subclasses keep their fields public and cheap to copy."""

    num_players: int

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, ``CHANCE`` while cards are being dealt, ``TERMINAL`` once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted action ids legal for the player to act (outcome ids at a chance node)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs at a chance node."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Play ``action`` (or chance outcome) in place; raise ValueError naming the legal ones if illegal."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Chips won (+) or lost (-) by each seat; only meaningful at a terminal node."""

    @abstractmethod
    def information_state_string(self, player: int) -> str:
        """What ``player`` knows here (own cards, public cards, all actions), as a stable key."""

    def action_to_string(self, action: int) -> str:
        return str(action)

    # Derived helpers shared by every game.
    def child(self, action: int) -> Self:
        new = self.clone()
        new.apply(action)
        return new

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions_mask(self, num_actions: int) -> np.ndarray:
        mask = np.zeros(num_actions, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def sample_chance(self, rng: np.random.Generator) -> int:
        """Draw a chance outcome with ``rng``; games with cheaper dealing override this."""
        outcomes = self.chance_outcomes()
        probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
        return outcomes[int(rng.choice(len(outcomes), p=probs))][0]


class Game(ABC):
    """Configuration of one game; builds initial states."""

    name: str
    num_players: int
    num_distinct_actions: int
    max_game_length: int  # upper bound on player decisions in one game (for max_cycles checks)

    @abstractmethod
    def new_initial_state(self, **options: Any) -> GameState:
        """The root of the game tree (usually a chance node). Games document their ``options``."""


def play_chance(state: GameState, rng: np.random.Generator) -> None:
    """Resolve chance nodes with ``rng`` until a player must act or the game ends."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
