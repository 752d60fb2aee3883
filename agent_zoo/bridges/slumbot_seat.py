"""A zoo agent in Slumbot's seat: it acts from the observation a poker_envs environment gives it, never from the wire.

At each decision the hand so far (the client's cards, the board, Slumbot's action string) is replayed onto a
``nolimit_holdem_v0`` environment at Slumbot's table (blinds 50/100, 20,000 chips): the environment is reset with
the known cards on the Slumbot positions (the button on seat 1), the actions are played on its rules state by
``slumbot_codec.replay`` (Slumbot bets any chip amount, which no action id of a pot-fraction ``bet_sizing`` may
name), and the agent acts from ``env.observe`` for its seat, exactly as in a tournament. Its action id becomes
the API's ``incr`` through the rules' own reading of the id (``action_to_chips``). Slumbot's cards are unknown
until a showdown: the environment holds stand-ins (the lowest unseen cards), which no observation of the agent's
seat shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agent_zoo.agent import Agent
from agent_zoo.bridges.slumbot_codec import BIG_BLIND, BUTTON, SMALL_BLIND, STACK, incr_of_action, replay
from agent_zoo.registry import make_agent, needed_env_options
from poker_envs import nolimit_holdem_v0
from poker_envs.core.cards import NUM_CARDS, cards_arg
from poker_envs.games.holdem import HoldemState
from poker_envs.session import AEC_SESSION_ARGS

TABLE = {"num_players": 2, "small_blind": SMALL_BLIND, "big_blind": BIG_BLIND, "starting_stack": STACK}
FIXED = (*TABLE, "ante", *AEC_SESSION_ARGS)  # arguments Slumbot's table sets: refused in env_config


def stand_ins(hole: Sequence[int], board: Sequence[int], count: int = 2) -> list[int]:
    """The ``count`` lowest card ids that are neither in ``hole`` nor on ``board``: the unknown hand's stand-ins."""
    seen = set(hole) | set(board)
    return [c for c in range(NUM_CARDS) if c not in seen][:count]


def holes_for(position: int, hole: Sequence[int], other: Sequence[int]) -> list[list[int]]:
    """Hole cards by Slumbot position: ``hole`` at ``position``, ``other`` at the other one."""
    return [list(hole), list(other)] if position == 0 else [list(other), list(hole)]


class AgentSeat:
    """One zoo agent (a registry spec) playing Slumbot's positions through a poker_envs environment."""

    def __init__(self, spec: str, env_config: Mapping[str, Any] | None = None) -> None:
        """``env_config``: more ``nolimit_holdem_v0`` arguments (``obs_encoder``, ``bet_sizing``, ``history``); the
        table's own (players, blinds, ante, stacks) and sessions are Slumbot's and are refused."""
        config = dict(env_config or {})
        fixed = sorted(k for k in config if k in FIXED)
        if fixed:
            raise ValueError(f"env_config: {', '.join(fixed)} {'is' if len(fixed) == 1 else 'are'} fixed by Slumbot's "
                             "table (heads-up, blinds 50/100, 20,000 chips, one hand at a time); leave "
                             f"{'it' if len(fixed) == 1 else 'them'} out")
        options = {**config, **needed_env_options([spec], config)}
        self.env = nolimit_holdem_v0.raw_env(**TABLE, **options)
        self.agent: Agent = make_agent(spec, self.env)
        self.spec = spec

    def begin_hand(self, position: int) -> None:
        """Tell the agent a hand starts with it on Slumbot ``position`` (its environment seat)."""
        self.agent.begin_hand(position)

    def observe(self, position: int, hole: Sequence[int | str], board: Sequence[int | str], action: str
                ) -> tuple[dict[str, np.ndarray], HoldemState]:
        """The observation of ``position`` after the hand so far, and the environment's rules state there.

        A SlumbotActionError if ``action`` does not replay, a ValueError if ``position`` is not the one to act."""
        mine, table = cards_arg(hole, "hole_cards"), cards_arg(board, "board")
        self.env.reset(seed=0, options={"button": BUTTON, "hole": holes_for(position, mine, stand_ins(mine, table)),
                                        "board": table})
        state = self.env.state
        assert isinstance(state, HoldemState)
        replay(state, action)
        if state.current_player() != position:
            raise ValueError(f"action {action!r}: the player to act is position {state.current_player()}, not the "
                             f"client's position {position}")
        return self.env.observe(self.env.possible_agents[position]), state

    def act(self, position: int, hole: Sequence[int | str], board: Sequence[int | str], action: str,
            rng: np.random.Generator) -> str:
        """The agent's action at ``position`` after ``action`` (the API's string), as ``/api/act``'s ``incr``."""
        observation, state = self.observe(position, hole, board, action)
        choice = int(self.agent.act(observation, rng))
        if not 0 <= choice < len(observation["action_mask"]) or not observation["action_mask"][choice]:
            raise ValueError(f"agent {self.spec} chose action {choice}, which its observation's action_mask does not "
                             f"allow (legal ids: {np.flatnonzero(observation['action_mask']).tolist()})")
        return incr_of_action(state, choice)
