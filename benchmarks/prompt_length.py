"""Prompt length of the text view's session summaries: characters of the prompt as a session goes on.

    python benchmarks/prompt_length.py [--players 6] [--hands 100] [--seed 0] [--agents heuristic random]

Plays one seeded cash session (``rebuy=True``: every seat starts each hand with its stack, so the session
lasts ``--hands`` hands) of no-limit hold'em with zoo agents (the ``--agents`` specs, seat by seat in turn) and
prints, at the first decision of some hands (hand 100 among them), the characters of the prompt the seat to act
would read in each form of ``TextTable.summary``: ``results`` (the net results of the last hands), ``hands``
(every finished hand's actions, as full hand histories in a prompt) and ``hud`` (each opponent's tracker
statistics and the last two hands), and the ratio ``hands / hud``. A property of the text, not a timing.
"""

from __future__ import annotations

import argparse

import numpy as np

from agent_zoo.registry import make_agent
from poker_envs import nolimit_holdem_v0
from poker_envs.encoders.public import decode_public
from poker_envs.text import TextTable
from wrappers.text_env import SessionHands

FORMS = ("results", "hands", "hud")


def prompt_lengths(players: int, hands: int, seed: int, agents: list[str], at: list[int]) -> dict[int, dict[str, int]]:
    """Per hand number (1-based) in ``at``: the prompt's characters in each summary form at the hand's first decision."""
    env = SessionHands(nolimit_holdem_v0.raw_env(num_players=players, hands_per_episode=hands, rebuy=True, history=True))
    views = {form: TextTable.for_env(env, summary=form) for form in FORMS}
    env.reset(seed=seed)
    seats = [make_agent(agents[s % len(agents)], env) for s in range(players)]
    rng = np.random.default_rng(seed)
    found: dict[int, dict[str, int]] = {}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        number = decode_public(obs["public"], players).hand_number + 1
        if number in at and number not in found:
            found[number] = {form: len(view.prompt(obs, env.hands if form != "results" else ())) for form, view in views.items()}
        env.step(seats[seat].act(obs, rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", nargs="+", default=["heuristic", "random"], help="zoo specs, one per seat in turn")
    args = parser.parse_args()
    at = sorted({1, 2, 10, 25, 50, args.hands} & set(range(1, args.hands + 1)))
    found = prompt_lengths(args.players, args.hands, args.seed, args.agents, at)
    print(f"no-limit hold'em, {args.players} seats, {args.hands}-hand cash session, seed {args.seed}, agents {' '.join(args.agents)}")
    print(f"{'hand':>5} {'results':>8} {'hands':>8} {'hud':>8} {'hands/hud':>10}")
    for number in at:
        row = found[number]
        print(f"{number:>5} {row['results']:>8} {row['hands']:>8} {row['hud']:>8} {row['hands'] / row['hud']:>9.2f}x")


if __name__ == "__main__":
    main()
