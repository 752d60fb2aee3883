"""Pot-fraction sizing is exact and the same in every engine.

``core.sizing`` is checked against the definition (round-half-up of an exact rational, computed with Python's
``Fraction``) on Python ints, numpy int64 and JAX int32 arrays, ties included; the rules core, the numpy engine and
the JAX engine then play more than 20,000 hands each with random pot fractions (written as floats, strings and
Fractions), "chips" and "abstract" sizing, 2-10 seats, every raise-to replayed in the rules core.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

import jax.numpy as jnp
import numpy as np
import pytest

from poker_envs import nolimit_holdem_v0, vector
from poker_envs.core.sizing import MAX_DENOMINATOR, fraction_raise_to, pot_fraction, pot_share
from poker_envs.games.base import play_chance
from poker_envs.games.holdem import BET, RAISE, HoldemConfig
from test_vector_holdem import play, random_config
from test_vector_jax_holdem import HostView

RNG_CHANCE = np.random.default_rng(0)  # never used: every deck given is full


def halves_up(pot: int, fraction: Fraction) -> int:
    """The definition: the nearest whole chip to ``fraction * pot``, a half rounded up."""
    return math.floor(fraction * pot + Fraction(1, 2))


@pytest.mark.parametrize(
    "given,exact",
    [(0.7, Fraction(7, 10)), ("2/3", Fraction(2, 3)), (" 0.35 ", Fraction(7, 20)), (1, Fraction(1)),
     (Fraction(5, 4), Fraction(5, 4)), (np.float64(1.5), Fraction(3, 2)), (np.int64(2), Fraction(2)), ("1e-1", Fraction(1, 10))],
)
def test_a_pot_fraction_is_the_decimal_or_ratio_written(given: Any, exact: Fraction) -> None:
    assert pot_fraction(given) == exact


@pytest.mark.parametrize("bad", [True, 0, -0.5, "0", "abc", "1/0", math.nan, math.inf, None, [0.5]])
def test_a_bad_pot_fraction_is_refused_by_name(bad: Any) -> None:
    with pytest.raises(ValueError, match="^sizing"):
        pot_fraction(bad, "sizing")


def test_the_issue_example_and_the_float_rule_it_replaces() -> None:
    """0.7 of a pot of 45 is 31.5: halves up, 32 chips. The float64 rule gave 31 (0.7 is stored below 0.7)."""
    assert int(0.7 * 45 + 0.5) == 31
    assert fraction_raise_to(0, 45, pot_fraction(0.7), 0) == 32
    assert fraction_raise_to(10, 45, pot_fraction(0.7), 0) == 42
    assert fraction_raise_to(10, 45, pot_fraction(0.7), 50) == 50  # lifted to the minimum raise-to


def test_pot_share_is_the_definition_on_ints_numpy_and_jax() -> None:
    rng = np.random.default_rng(3)
    den = rng.integers(1, MAX_DENOMINATOR + 1, size=4000)
    den[:1000] = rng.choice([2, 4, 10, 20, 100], size=1000)  # even denominators: ties are common
    num = rng.integers(1, 30 * den + 1)
    pot = rng.integers(0, 2**31 // 31 // 40, size=4000)  # every share fits in int32
    pot[:300] = (den[:300] // 2) * rng.integers(1, 9, size=300)  # odd multiples of half a denominator: ties
    want = np.array([halves_up(int(p), Fraction(int(a), int(b))) for p, a, b in zip(pot, num, den)])
    ties = sum(2 * (int(a) * int(p) % int(b)) == int(b) for p, a, b in zip(pot, num, den))
    assert ties >= 100  # the half-up case occurred
    assert [pot_share(int(p), int(a), int(b)) for p, a, b in zip(pot, num, den)] == want.tolist()
    np.testing.assert_array_equal(pot_share(pot, num, den), want)
    got = pot_share(jnp.asarray(pot, jnp.int32), jnp.asarray(num, jnp.int32), jnp.asarray(den, jnp.int32))
    assert got.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(got), want)


def test_configured_fractions_are_exact_and_checked_by_name() -> None:
    config = HoldemConfig(bet_sizing=(0.35, "2/3", Fraction(3, 2), 2))
    assert config.fractions == (Fraction(7, 20), Fraction(2, 3), Fraction(3, 2), Fraction(2))
    with pytest.raises(ValueError, match="bet_sizing pot fraction 0.30000000000000004 is exactly"):
        HoldemConfig(bet_sizing=(0.1 + 0.2,))
    with pytest.raises(ValueError, match="bet_sizing pot fraction 'half'"):
        HoldemConfig(bet_sizing=("half",))
    with pytest.raises(ValueError, match="distinct and increasing"):
        HoldemConfig(bet_sizing=("1/2", 0.5))
    with pytest.raises(ValueError, match="bet_sizing: a raise of 2000 pots"):
        vector.make("nolimit_holdem", num_envs=1, starting_stack=1_000_000, bet_sizing=(2000,))


def random_fractions(rng: np.random.Generator) -> tuple[Any, ...]:
    """1-4 distinct increasing pot fractions, written as floats, strings or Fractions, many with even
    denominators (ties) or decimals that binary floats store below their value (0.7, 0.35, 1.15, ...)."""
    below = [Fraction(s) for s in ("0.35", "0.7", "1.15", "2.3")]  # their floats round some halves down
    pool = [Fraction(int(a), int(b)) for b in (2, 3, 4, 5, 8, 10, 20, 100) for a in rng.integers(1, 3 * b, size=3)]
    picks = {pool[i] for i in rng.choice(len(pool), size=int(rng.integers(0, 4)), replace=False)}
    picks.update(below[i] for i in rng.choice(len(below), size=2, replace=False))
    forms = (lambda f: float(f) if f.denominator in (2, 4, 5, 8, 10, 20, 100) else str(f), str, lambda f: f)
    return tuple(forms[int(rng.integers(0, 3))](f) for f in sorted(picks))


def replay_chips(game: Any, button: int, deck: list[int], decisions: list[Any], rewards: np.ndarray, scale: float,
                 seen: Counter) -> None:
    """Replay one hand in the rules core: the engine's mask at every decision, each raise's chips through the
    rules, the rewards; the pot-fraction raises whose exact share is a half chip counted in ``seen``."""
    state = game.new_initial_state(button=button, deck=deck)
    play_chance(state, RNG_CHANCE)
    fractions = () if game.chips_sizing or game.config.betting == "limit" else game.fractions
    if state.is_terminal():  # decided by the forced bets: every seat passes once
        decisions = []
    for player, mask, _obs, action in decisions:
        assert state.current_player() == player
        np.testing.assert_array_equal(mask, state.legal_actions_mask(game.num_distinct_actions))
        kind, to = state.action_to_chips(action)
        if kind in (BET, RAISE) and 2 <= action < 2 + len(fractions):
            f = fractions[action - 2]
            pot_after_call = state.pot() + state.max_bet() - state.bets[player]
            share = halves_up(pot_after_call, f)
            if state.max_bet() + share > state.legal_raise_range()[0]:  # not lifted to the minimum raise
                assert to == state.max_bet() + share
                seen["tie"] += 2 * (f.numerator * pot_after_call % f.denominator) == f.denominator
                seen["float rule differs"] += int(state.max_bet() + float(f) * pot_after_call + 0.5) != to
                seen["fraction raise"] += 1
        state.apply(action)
        play_chance(state, RNG_CHANCE)
    assert state.is_terminal()
    np.testing.assert_allclose(rewards, state.returns() * scale, rtol=1e-6, atol=1e-6)


# The JAX engine replays four of the eight configurations (the two named sizings and the two fraction sets
# richest in half-chip ties): it is bound to the numpy engine hand for hand elsewhere
# (tests/test_vector_jax_holdem.py), and each configuration costs it a compilation.
JAX_CONFIGS = (0, 1, 4, 7)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_random_pot_fractions_play_as_the_rules_core(backend: str) -> None:
    """Over 20,000 hands (numpy) or 10,000 (JAX) of random fractions, "abstract" and "chips" at 2-10 seats,
    every mask, raise-to and reward is the rules core's; ties and the pots where the old float rule rounded
    otherwise occurred."""
    rng = np.random.default_rng(35)
    sizings: list[Any] = ["abstract", "chips"] + [random_fractions(rng) for _ in range(6)]
    configs = [dict(random_config(rng, "nolimit"), bet_sizing=sizing) for sizing in sizings]
    checked, seen = 0, Counter()
    for i, cfg in enumerate(configs):
        if backend == "jax" and i not in JAX_CONFIGS:
            continue
        venv = vector.make("nolimit_holdem", num_envs=200, seed=i, backend=backend, **cfg)
        played = play(HostView(venv) if backend == "jax" else venv, 200, i, 13, raise_weight=3.0)
        game = nolimit_holdem_v0.raw_env(**cfg).game
        for table in played:
            for button, deck, decisions, rewards in table:
                replay_chips(game, button, deck, decisions, rewards, 1.0 / cfg["big_blind"], seen)
                checked += 1
    assert checked >= (20_000 if backend == "numpy" else 10_000)
    assert seen["tie"] >= 100 and seen["float rule differs"] >= 10, seen
