"""The JAX session engine (``poker_envs.vector.jax.holdem_session``) against the numpy one, step for step.

Both backends are built by ``vector.make`` from the same arguments and played with the same first buttons,
decks and actions; the numpy engine deals every later hand as the JAX engine dealt it (its dealer replays the
JAX state's ``hand_decks``). Every output of every step must be equal (floats to 1e-6): observation, mask,
seat to act, public state, rewards, ``terminated``, ``hand_over``, ``eliminated``, and the session arrays
between hands. The hard cases (eliminations, several out in one hand, tied places, heads-up after
eliminations, blind levels, forced bets all-in, hands the forced bets decide, prizes by place and by ICM)
must occur, or the test fails. (The numpy engine is itself bound to the AEC env by ``test_vector_sessions``.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import jax  # noqa: F401  (the [jax] extra, installed by make test)
import jax.numpy as jnp
import numpy as np
import pytest
from test_vector_sessions import LEVELS, TOURNAMENT, biased_actions

from poker_envs import vector
from poker_envs.core.cards import shuffled_deck
from poker_envs.vector.holdem_session import VectorHoldemSession
from poker_envs.vector.jax.holdem_session import JaxHoldemSession
from poker_envs.vector.sampling import Dealer

STATE = ("stacks", "results", "seated", "place", "hand_number", "level", "blinds", "hand_start", "first_button",
         "hand_decks", "final_places")


class ReplayDealer:
    """The numpy engine's dealer, dealing the hands the JAX engine dealt in the same call (``queue``)."""

    def __init__(self, dealer: Dealer) -> None:
        self.dealer = dealer
        self.queue: np.ndarray | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.dealer, name)

    def deal(self, rng: np.random.Generator, count: int, decks: np.ndarray | None = None) -> np.ndarray:
        """The queued hands (count must match), or the given decks as the real dealer deals them."""
        if decks is not None or self.queue is None:
            return self.dealer.deal(rng, count, decks)
        assert len(self.queue) == count, (len(self.queue), count)
        return self.queue.copy()


def assert_same(a: Any, b: Any, what: str, approx: bool = False) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    if approx:
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6, err_msg=what)
    else:
        np.testing.assert_array_equal(b, a, err_msg=what)


def run(game: str, kwargs: dict[str, Any], tables: int, sessions: int, seed: int, subsets: bool) -> Counter:
    """Play ``sessions`` sessions on ``tables`` tables of both backends and compare every step."""
    rng = np.random.default_rng(seed)
    npe = vector.make(game, tables, seed=seed, **kwargs)
    jxe = vector.make(game, tables, seed=seed, backend="jax", **kwargs)
    assert isinstance(npe, VectorHoldemSession) and isinstance(jxe.game, JaxHoldemSession)
    replay = ReplayDealer(npe._dealer)
    npe._dealer = replay
    n = npe.num_players
    seen: Counter = Counter()
    ended = 0

    def compare(a: Any, b: Any, when: str) -> None:
        for name in ("action_mask", "current_player", "public", "terminated", "hand_over", "eliminated"):
            assert_same(getattr(a, name), getattr(b, name), f"{name} {when}")
        assert_same(a.observation, b.observation, f"observation {when}", approx=True)
        assert_same(a.rewards, b.rewards, f"rewards {when}", approx=True)
        state = jxe.tables
        for name in STATE:
            mine, theirs = getattr(npe, name), getattr(state, name)
            if name == "final_places":  # where a session just ended (a reset starts the JAX state's at zero)
                mine, theirs = mine[a.terminated], np.asarray(theirs)[a.terminated]
            assert_same(mine, theirs, f"{name} {when}")

    def count_start(rows: np.ndarray) -> None:
        t, seated = npe.tables, npe.seated[rows]
        seen["hands"] += len(rows)
        seen["level > 0"] += int((npe.level[rows] > 0).sum())
        seen["forced bets all-in"] += int((seated & (t.stacks[rows] == 0)).any(1).sum())
        seen["decided by the forced bets"] += int(t.passing[rows].sum())
        seen["heads-up after eliminations"] += int((seated.sum(1) == 2).sum()) if n > 2 else 0

    for reset in range(2):  # the second reset: the sessions' first buttons one seat on from the last ones
        decks = np.stack([np.stack([shuffled_deck(rng) for _ in range(3)]) for _ in range(tables)])
        if game == "shortdeck_holdem":
            decks = np.stack([[[c for c in d if c // 4 >= 4] for d in row] for row in decks])
        options: dict[str, Any] = {"decks": decks}  # the same number of hands at each reset: one compiled step
        if reset == 0:
            options["buttons"] = rng.integers(n, size=tables)
        b = jxe.reset(options=options)
        replay.queue = np.asarray(jxe.tables.hand_decks)
        a = npe.reset(options=options)
        compare(a, b, f"after reset {reset}")
        count_start(np.arange(tables))
        stop = ended + sessions // 2
        step = 0
        while ended < stop:
            actions = biased_actions(a.action_mask, rng)
            active = None  # with subsets always an array (all tables every other step): one compiled step
            if subsets:
                active = rng.random(tables) < 0.6 if step % 2 else np.ones(tables, dtype=bool)
            in_play = npe.seated.sum(1)
            b = jxe.step(actions, active)
            over = np.asarray(b.hand_over)
            seen["hands over beyond one chunk"] += int(n > 2 and over.sum() > max(1, tables // 4))  # settled in a loop
            replay.queue = np.asarray(jxe.tables.hand_decks)[over]
            a = npe.step(actions, active)
            compare(a, b, f"at step {step} of reset {reset}")
            step += 1
            out = a.eliminated
            seen["eliminated"] += int(out.sum())
            places = np.where(a.terminated[:, None], npe.final_places, npe.place)
            for row in np.flatnonzero(out.sum(1) > 1):
                seen["several out in one hand"] += 1
                seen["tied places"] += len(set(places[row][out[row]].tolist())) < out[row].sum()
            done = a.terminated
            seen["ended with one left"] += int((done & (in_play - out.sum(1) == 1)).sum())
            seen["ended by hands"] += int((done & (in_play - out.sum(1) > 1)).sum())
            ended += int(done.sum())
            count_start(np.flatnonzero(over))
    return seen


OUT = ("eliminated", "heads-up after eliminations", "several out in one hand")
ENDS = ("ended by hands", "ended with one left")


@pytest.mark.parametrize(
    ("game", "kwargs", "tables", "sessions", "subsets", "required"),
    [
        ("nolimit_holdem", dict(num_players=5, starting_stack=[20, 30, 25, 12, 40], **TOURNAMENT), 48, 100, True,
         (*OUT, *ENDS, "level > 0", "decided by the forced bets", "forced bets all-in", "hands over beyond one chunk")),
        ("nolimit_holdem", dict(num_players=3, starting_stack=16, ante=1, bet_sizing="chips", hands_per_episode=6,
                                payouts=[0.7, 0.3], reward_unit="chips", obs_encoder="flat56"), 32, 60, False,
         (*OUT, *ENDS, "tied places")),
        ("limit_holdem", dict(num_players=4, starting_stack=24, hands_per_episode=25, blind_levels=LEVELS[:3],
                              hands_per_level=4, obs_encoder="flat107"), 32, 40, True, (*OUT, "level > 0")),
        pytest.param("nolimit_holdem", dict(num_players=4, starting_stack=[10, 20, 30, 2], hands_per_episode=6, rebuy=True),
                     16, 20, False, ("ended by hands",), marks=pytest.mark.slow),
        pytest.param("omaha", dict(num_players=4, starting_stack=20, hands_per_episode=8, blind_levels=LEVELS[:2],
                                   hands_per_level=2, payouts=[0.7, 0.3]), 16, 30, True, (*OUT, "level > 0"),
                     marks=pytest.mark.slow),
    ],
    ids=["tournament5_subsets", "chips3_icm_flat56", "limit4_levels_flat107", "cash_rebuy", "omaha4_subsets"],
)
def test_jax_sessions_equal_numpy(
    game: str, kwargs: dict[str, Any], tables: int, sessions: int, subsets: bool, required: tuple[str, ...]
) -> None:
    """200 sessions over three configurations (and, marked slow, 20 cash sessions with rebuys and 30 pot-limit
    Omaha tournaments: four hole cards dealt to the seats in play), every output of every step compared."""
    seen = run(game, kwargs, tables, sessions, seed=tables + sessions, subsets=subsets)
    missing = [c for c in required if seen[c] == 0]
    assert not missing, (missing, seen)


def test_jax_icm_equals_the_sessions_icm() -> None:
    """``jax._holdem_session_kernels.icm`` (the subset dynamic program) against ``poker_envs.session.icm`` (the walk over
    finishing orders) for 3 and 10 seats, some out of play, random payouts: equal to 1e-6."""

    from poker_envs.session import icm
    from poker_envs.vector.jax._holdem_session_kernels import icm as jax_icm

    rng = np.random.default_rng(0)
    for n in (3, 10):
        stacks = rng.integers(1, 200, size=(8, n))
        seated = rng.random((8, n)) < 0.7
        seated[:, :2] = True
        payouts = np.sort(rng.random(rng.integers(1, n + 1)))[::-1]
        payouts /= payouts.sum()
        pay = np.r_[payouts, np.zeros(n)][:n]
        got = np.asarray(jax_icm(jnp.asarray(stacks, jnp.int32), jnp.asarray(seated), pay))
        for r in range(8):
            seats = np.flatnonzero(seated[r])
            want = np.zeros(n)
            want[seats] = icm(stacks[r, seats].astype(float), payouts[: len(seats)].tolist())
            np.testing.assert_allclose(got[r], want, rtol=0, atol=1e-6, err_msg=f"{n} seats, table {r}")
