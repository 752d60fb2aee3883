"""Batched sessions (poker_envs.vector.holdem_session) against the AEC environment, session for session.

Every table of the batched engine is shadowed by an AEC environment of the same configuration dealt the
same decks, with the same first button, and stepped with the same actions: at every step of every session
the seat to act, the mask, the observation, the public state, the rewards, the seats eliminated and the
sessions' ends must be identical. The hard cases (eliminations, blind levels, blinds and antes all-in,
heads-up after eliminations, hands decided by the forced bets, split pots, prizes by place and by ICM)
must occur, or the test fails.
"""

from __future__ import annotations

import importlib
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


def run_sessions(game: str, kwargs: dict[str, Any], tables: int, sessions: int, seed: int, subsets: bool = False) -> Counter:
    """Play until ``sessions`` sessions have ended on ``tables`` batched tables and their AEC twins; compare
    every step. The first sessions are dealt from reset's ``decks`` option, later ones from the engine.
    ``subsets``: every other step advances a random subset of the tables (``step(actions, active=...)``)."""
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
        active = rng.random(tables) < 0.5 if subsets and rng.random() < 0.5 else np.ones(tables, dtype=bool)
        out = venv.step(actions, active=active if subsets else None)
        for t, env in enumerate(envs):
            if not active[t]:
                assert not out.hand_over[t] and not out.rewards[t].any()
                continue
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
        ("nolimit_holdem", dict(num_players=4, starting_stack=15, hands_per_episode=5, blind_levels=LEVELS,
                                hands_per_level=2, payouts=[1.0]), 16, 30, (*OUT, *ENDS, "level > 0")),
    ],
    ids=["tournament5", "chips3_icm", "limit4_levels", "shortdeck6_flat56", "cash_rebuy", "winner_takes_all_subsets"],
)
def test_sessions_equal_the_aec_env(
    game: str, kwargs: dict[str, Any], tables: int, sessions: int, required: tuple[str, ...]
) -> None:
    """300 sessions over six configurations (about 1,900 hands), every step compared; the last one advances
    random subsets of the tables."""
    subsets = kwargs.get("payouts") == [1.0]
    seen = run_sessions(game, kwargs, tables, sessions, seed=sessions + tables, subsets=subsets)
    missing = [c for c in (*required, "forced bets all-in") if seen[c] == 0]
    assert not missing, (missing, seen)
    if kwargs.get("rebuy"):
        assert seen["eliminated"] == 0


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        ("nolimit_holdem", dict(num_players=6, starting_stack=[30, 8, 50, 3, 20, 12], ante=1)),
        ("nolimit_holdem", dict(num_players=3, starting_stack=[1, 1, 9], ante=1)),  # hands the forced bets decide
        ("limit_holdem", dict(num_players=3, starting_stack=40)),
    ],
)
def test_public_state_of_one_hand_episodes_equals_the_aec_env(game: str, kwargs: dict[str, Any]) -> None:
    """``public=True`` on the plain engine: every decision's public vector as the AEC env's, 600+ hands."""
    tables, rng = 32, np.random.default_rng(7)
    venv = vector.make(game, tables, seed=3, public=True, **kwargs)
    envs = [AEC[game].raw_env(**kwargs) for _ in range(tables)]
    out = venv.reset()

    def deal(t: int) -> None:
        envs[t].reset(seed=0, options={"button": int(venv.tables.button[t]), "deck": venv.tables.deck[t].tolist()})

    for t in range(tables):
        deal(t)
    hands = passes = 0
    while hands < 600:
        for t, env in enumerate(envs):
            obs = env.observe(env.agent_selection)
            assert env.agent_selection == f"player_{out.current_player[t]}"
            np.testing.assert_array_equal(out.public[t], obs["public"], err_msg=f"public state of table {t}")
            passes += int(venv.tables.passing[t])
        actions, active = biased_actions(out.action_mask, rng), rng.random(tables) < 0.7
        out = venv.step(actions, active=active)
        for t in np.flatnonzero(active).tolist():
            envs[t].step(int(actions[t]))
            if out.terminated[t]:
                assert all(envs[t].terminations.values())
                hands += 1
                deal(t)
    assert passes > 0 or kwargs["starting_stack"] != [1, 1, 9]


def test_bad_session_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="obs_encoder 'poker_cnn' has no batched session form"):
        vector.make("nolimit_holdem", 2, hands_per_episode=3, obs_encoder="poker_cnn")
    with pytest.raises(ValueError, match="hands_per_level"):
        vector.make("nolimit_holdem", 2, hands_per_episode=3, blind_levels=[(1, 2, 0)])
    with pytest.raises(ValueError, match="payouts lists 3 places"):
        vector.make("nolimit_holdem", 2, hands_per_episode=3, payouts=[0.5, 0.3, 0.2])
    with pytest.raises(ValueError, match="public must be True or False"):
        vector.make("limit_holdem", 2, public=1)
    venv = vector.make("nolimit_holdem", 2, num_players=3, hands_per_episode=3)
    with pytest.raises(ValueError, match=r"decks must have shape \(2, hands, k\)"):
        venv.reset(options={"decks": np.zeros((2, 11), dtype=np.int64)})
    with pytest.raises(ValueError, match="deals a card twice"):
        venv.reset(options={"decks": np.zeros((2, 1, 11), dtype=np.int64)})
    with pytest.raises(ValueError, match="unknown reset options"):
        venv.reset(options={"deck": 1})


def test_jax_backend_plays_sessions_and_takes_public() -> None:
    """Sessions and ``public=True`` run in JAX too (equal to numpy's: ``test_vector_jax_sessions``,
    ``test_vector_jax_holdem``); a bad session argument is refused as in numpy."""
    import jax  # noqa: F401  (the [jax] extra, installed by make test)
    from poker_envs.vector.jax.holdem_session import JaxHoldemSession

    venv = vector.make("nolimit_holdem", 2, backend="jax", hands_per_episode=4, payouts=[1.0])
    assert isinstance(venv.game, JaxHoldemSession)
    with pytest.raises(ValueError, match="payouts lists 3 places"):
        vector.make("nolimit_holdem", 2, backend="jax", hands_per_episode=3, payouts=[0.5, 0.3, 0.2])
    options = {"buttons": np.array([0, 1]), "decks": np.arange(18).reshape(2, 9)}
    a = vector.make("limit_holdem", 2, seed=0, public=True).reset(options=options)
    b = vector.make("limit_holdem", 2, seed=0, backend="jax", public=True).reset(options=options)
    assert b.public.shape == (2, 14 + 6 * 2)
    np.testing.assert_array_equal(a.public, np.asarray(b.public))
    assert vector.make("limit_holdem", 2, backend="jax").reset(seed=0).public is None


def test_seat_deck_deals_the_seats_in_play_as_the_aec_env() -> None:
    """Five seats, seats 1 and 3 out, button 4: the AEC env deals seats 0, 2, 4 (from seat 0, left of the
    button), so seat 0 gets cards 0 and 3, seat 2 cards 1 and 4, seat 4 cards 2 and 5; the board is 6..10."""
    raw = np.arange(15)[None, :]
    seated = np.array([[True, False, True, False, True]])
    full = seat_deck(raw, np.array([4]), seated, 2)
    # full layout: hole card i of the seat at place q from the button at q + 5 i (seat 0 is place 0)
    assert full[0, [0, 5]].tolist() == [0, 3] and full[0, [2, 7]].tolist() == [1, 4] and full[0, [4, 9]].tolist() == [2, 5]
    assert full[0, 10:].tolist() == [6, 7, 8, 9, 10]
    assert sorted(full[0].tolist()) == list(range(15))


@pytest.mark.parametrize("module", ["potlimit_holdem_v0", "omaha_v0"])
def test_potlimit_and_omaha_sessions_equal_the_aec_env(module: str) -> None:
    """Pot-limit hold'em and pot-limit Omaha (four hole cards dealt to the seats in play) in tournaments."""
    env_module = importlib.import_module(f"poker_envs.{module}")
    game = module.removesuffix("_v0")
    AEC[game] = env_module
    kwargs = dict(num_players=4, starting_stack=20, hands_per_episode=8, blind_levels=LEVELS[:2], hands_per_level=2,
                  payouts=[0.7, 0.3])
    seen = run_sessions(game, kwargs, tables=8, sessions=24, seed=5)
    missing = [c for c in (*OUT, "level > 0", "ended with one left") if seen[c] == 0]
    assert not missing, (missing, seen)
