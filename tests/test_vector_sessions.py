"""Batched sessions (poker_envs.vector.holdem_session) against the AEC environment, session for session.

Every table of the batched engine is shadowed by an AEC environment of the same configuration dealt the
same decks, with the same first button, and stepped with the same actions: at every step of every session
the seat to act, the mask, the observation, the public state, the rewards, the seats eliminated and the
sessions' ends must be identical. The hard cases (eliminations, blind levels, blinds and antes all-in,
heads-up after eliminations, hands decided by the forced bets, split pots, prizes by place and by ICM)
must occur, or the test fails.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from poker_envs import limit_holdem_v0, nolimit_holdem_v0, shortdeck_holdem_v0, vector
from poker_envs.core.cards import shuffled_deck
from poker_envs.encoders.public import decode_public
from poker_envs.vector.holdem_session import VectorHoldemSession, seat_deck

AEC = {"nolimit_holdem": nolimit_holdem_v0, "limit_holdem": limit_holdem_v0, "shortdeck_holdem": shortdeck_holdem_v0}
LEVELS = [(1, 2, 0), (2, 4, 1), (4, 8, 2), (10, 20, 5)]


def biased_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions leaning to calls and the largest raise, so stacks bust and blinds go all-in."""
    weights = mask * np.where(np.arange(mask.shape[1]) == mask.shape[1] - 1, 3.0, 1.0)
    weights[:, 1] *= 2.0
    cdf = np.cumsum(weights, 1)
    u = rng.random(len(mask)) * cdf[:, -1]
    return (cdf <= u[:, None]).sum(1)


def run_sessions(game: str, kwargs: dict[str, Any], tables: int, sessions: int, seed: int) -> Counter:
    """Play until ``sessions`` sessions have ended on ``tables`` batched tables and their AEC twins; compare
    every step. The first sessions are dealt from reset's ``decks`` option, later ones from the engine."""
    rng = np.random.default_rng(seed)
    venv = vector.make(game, tables, seed=seed, **kwargs)
    assert isinstance(venv, VectorHoldemSession)
    n = venv.num_players
    envs = [AEC[game].raw_env(**kwargs) for _ in range(tables)]
    names = [f"player_{s}" for s in range(n)]
    given = 3
    decks = np.stack([np.stack([shuffled_deck(rng) for _ in range(given)]) for _ in range(tables)])
    if game == "shortdeck_holdem":
        decks = np.stack([[[c for c in d if c // 4 >= 4] for d in row] for row in decks])
    buttons = rng.integers(n, size=tables)
    out = venv.reset(options={"decks": decks, "buttons": buttons})
    hand_decks: list[list[Any]] = []
    for t, env in enumerate(envs):
        hand_decks.append([list(d) for d in decks[t]])
        env.reset(seed=0, options={"button": int(buttons[t]), "decks": hand_decks[t]})
    seen: Counter = Counter()
    ended = 0

    def count_start(rows: np.ndarray) -> None:
        tb = venv.tables
        seated = venv.seated[rows]
        seen["hands"] += len(rows)
        seen["level > 0"] += int((venv.level[rows] > 0).sum())
        seen["forced bets all-in"] += int((seated & (tb.stacks[rows] == 0)).any(1).sum())
        seen["decided by the forced bets"] += int(tb.passing[rows].sum())
        if n > 2:
            seen["heads-up after eliminations"] += int((seated.sum(1) == 2).sum())

    count_start(np.arange(tables))
    while ended < sessions:
        for t, env in enumerate(envs):
            agent = env.agent_selection
            assert agent == names[out.current_player[t]], (t, agent, out.current_player[t])
            obs = env.observe(agent)
            np.testing.assert_array_equal(out.action_mask[t], obs["action_mask"], err_msg=f"mask of table {t}")
            np.testing.assert_array_equal(out.observation[t], obs["observation"], err_msg=f"observation of table {t}")
            if not np.array_equal(out.public[t], obs["public"]):
                raise AssertionError(f"public state of table {t}:\n{decode_public(out.public[t], n)}\n"
                                     f"!= AEC {decode_public(obs['public'], n)}")
        actions = biased_actions(out.action_mask, rng)
        out = venv.step(actions)
        for t, env in enumerate(envs):
            if out.hand_over[t] and not out.terminated[t]:  # the AEC env deals the next hand in this step
                nxt = env.hands_done + 1
                if nxt < len(hand_decks[t]):  # a deck of reset's option: the engine dealt it too
                    assert venv.hand_decks[t].tolist() == hand_decks[t][nxt][: venv.hand_decks.shape[1]]
                else:
                    hand_decks[t].append(venv.hand_decks[t].tolist())
            hands = env.hands_done
            env.step(int(actions[t]))
            assert (env.hands_done != hands) == out.hand_over[t], t
            want = np.array([env.rewards.get(a, 0.0) for a in names])
            np.testing.assert_allclose(out.rewards[t], want, rtol=0, atol=1e-12, err_msg=f"rewards of table {t}")
            for s, a in enumerate(names):  # seats out earlier have left the AEC env's dicts
                want_done = env.terminations.get(a)
                got_done = bool(out.eliminated[t, s] or (out.terminated[t] and want_done is not None))
                assert got_done == bool(want_done), (t, a, want_done, out.eliminated[t], out.terminated[t])
            if out.hand_over[t]:
                state = env.last_hand[0]
                seen["split pot"] += any(len(w) > 1 for _, w in state.awards)
            seen["eliminated"] += int(out.eliminated[t].sum())
            if out.eliminated[t].sum() > 1:
                seen["several out in one hand"] += 1
                seen["tied places"] += len(env.session.eliminated[-1]) > 1
            while env.agents and env.terminations[env.agent_selection]:
                env.step(None)
            if out.terminated[t]:
                assert not env.agents
                ended += 1
                seen["ended with one left" if len(env.session.seated) == 1 else "ended by hands"] += 1
                np.testing.assert_array_equal(venv.final_places[t], _places(env.session))
                hand_decks[t] = [venv.hand_decks[t].tolist()]
                env.reset(options={"decks": hand_decks[t]})  # the button rotates from the last session's first
        started = np.flatnonzero(out.hand_over)
        if started.size:
            count_start(started)
    return seen


def _places(session: Any) -> np.ndarray:
    from agent_zoo.runner import finishing_places

    return finishing_places(session)


TOURNAMENT = dict(hands_per_episode=10, blind_levels=LEVELS, hands_per_level=2, payouts=[0.5, 0.3, 0.2])
OUT = ("eliminated", "heads-up after eliminations", "several out in one hand")  # tables that shrink
ENDS = ("ended by hands", "ended with one left")  # prizes by ICM and by place


@pytest.mark.parametrize(
    ("game", "kwargs", "tables", "sessions", "required"),
    [
        ("nolimit_holdem", dict(num_players=5, starting_stack=[20, 30, 25, 12, 40], **TOURNAMENT), 24, 100,
         (*OUT, *ENDS, "level > 0", "split pot", "decided by the forced bets")),
        ("nolimit_holdem", dict(num_players=3, starting_stack=16, ante=1, bet_sizing="chips", hands_per_episode=6,
                                payouts=[0.7, 0.3], reward_unit="chips"), 16, 50, (*OUT, *ENDS, "tied places")),
        ("limit_holdem", dict(num_players=4, starting_stack=24, hands_per_episode=25, blind_levels=LEVELS[:3],
                              hands_per_level=4, obs_encoder="flat107"), 16, 50, (*OUT, "level > 0", "split pot")),
        ("shortdeck_holdem", dict(num_players=6, starting_stack=30, hands_per_episode=8, blind_levels=LEVELS,
                                  hands_per_level=2, payouts=[0.65, 0.35], obs_encoder="flat56"), 16, 40,
         (*OUT, *ENDS, "level > 0", "tied places", "split pot")),
        ("nolimit_holdem", dict(num_players=4, starting_stack=[10, 20, 30, 2], hands_per_episode=6, rebuy=True,
                                obs_encoder="flat56"), 12, 30, ("ended by hands",)),
    ],
    ids=["tournament5", "chips3_icm", "limit4_levels", "shortdeck6_flat56", "cash_rebuy"],
)
def test_sessions_equal_the_aec_env(
    game: str, kwargs: dict[str, Any], tables: int, sessions: int, required: tuple[str, ...]
) -> None:
    """260 sessions over five configurations (2,000+ hands), every step compared."""
    seen = run_sessions(game, kwargs, tables, sessions, seed=sessions + tables)
    missing = [c for c in (*required, "forced bets all-in") if seen[c] == 0]
    assert not missing, (missing, seen)
    if kwargs.get("rebuy"):
        assert seen["eliminated"] == 0
