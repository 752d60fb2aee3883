"""The JAX hold'em engine (``vector.make(..., backend="jax")``) against the rules core and the numpy engine.

The differential machinery of ``test_vector_holdem`` plays the JAX engine (first hands from given decks and
buttons, then its own auto-reset deals) and replays every hand in the rules core, floats to 1e-6 (JAX
computes in float32). The functional form (``vector.functional``) is checked under ``jit``, ``lax.scan`` and
``vmap``; illegal actions, the checked step, sharding over two devices and the numpy engine's errors too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import checkify

from poker_envs import nolimit_holdem_v0, vector
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.vector.holdem import VectorHoldem
from poker_envs.vector.jax.holdem import from_numpy
from poker_envs.vector.jax.stateful import JaxVectorGame
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector import functional
from poker_envs.vector.base import VectorStep
from conftest import FAST_COMPILE_FLAG, users_compile_env
from test_vector_holdem import play, random_actions, random_config, replay_core

ROOT = Path(__file__).resolve().parents[1]
TOL = 1e-6


class HostView:
    """A JAX engine whose outputs come back as numpy arrays (the replay loop reads them element by element)."""

    def __init__(self, venv: Any) -> None:
        self.venv = venv

    def __getattr__(self, name: str) -> Any:
        return getattr(self.venv, name)

    def reset(self, **kwargs: Any) -> VectorStep:
        return VectorStep(*map(np.asarray, jax.tree_util.tree_leaves(self.venv.reset(**kwargs))))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> VectorStep:
        return VectorStep(*map(np.asarray, jax.tree_util.tree_leaves(self.venv.step(actions, active))))


def replay_all(game: str, cfg: dict[str, Any], num_envs: int, seed: int, hands: int, seen: Counter,
               encoder: str = "default", raise_weight: float = 1.0) -> int:
    """Play ``hands`` hands per table in the JAX engine and replay each in the rules core; hands checked."""
    module = {"nolimit_holdem": nolimit_holdem_v0}.get(game) or __import__(f"poker_envs.{game}_v0", fromlist=["x"])
    venv = HostView(vector.make(game, num_envs=num_envs, seed=seed, backend="jax", obs_encoder=encoder, **cfg))
    env = module.raw_env(**cfg, obs_encoder=encoder)
    played = play(venv, num_envs, seed, hands, raise_weight)
    for table in played:
        for button, deck, decisions, rewards in table:
            replay_core(env, button, deck, decisions, rewards, 1.0 / cfg["big_blind"], seen, atol=TOL)
    return num_envs * hands


def compare_first_hands(game: str, cfg: dict[str, Any], num_envs: int, seed: int, seen: Counter | None = None) -> int:
    """Both backends dealt the same decks and buttons, stepped with the same random legal actions until every
    table's first hand ended: every output of every table in its first hand equal (floats to 1e-6; the public
    state, with ``public=True`` in ``cfg``, exactly, its decisions and pass turns counted in ``seen``)."""
    a = vector.make(game, num_envs=num_envs, seed=seed, **cfg)
    b = vector.make(game, num_envs=num_envs, seed=seed, backend="jax", **cfg)
    rng = np.random.default_rng(seed + 1)
    n = a.num_players
    decks = a.deck[np.argsort(rng.random((num_envs, len(a.deck))), axis=1)[:, : a.deal_size]]
    options = {"decks": decks, "buttons": rng.integers(0, n, size=num_envs)}
    out_a, out_b = a.reset(options=options), b.reset(options=options)
    first = np.ones(num_envs, dtype=bool)
    for _ in range(a.max_game_length + 1):
        np.testing.assert_allclose(out_a.observation[first], np.asarray(out_b.observation)[first], rtol=TOL, atol=TOL)
        np.testing.assert_array_equal(out_a.action_mask[first], np.asarray(out_b.action_mask)[first])
        np.testing.assert_array_equal(out_a.current_player[first], np.asarray(out_b.current_player)[first])
        if out_a.public is not None or out_b.public is not None:
            np.testing.assert_array_equal(out_a.public[first], np.asarray(out_b.public)[first])
            if seen is not None:
                seen["public decisions"] += int(first.sum())
                seen["pass turns"] += int((out_a.public[first, 7] == -1).sum())  # actor -1
        if not first.any():
            return num_envs
        actions = random_actions(out_a.action_mask, rng, 2.0)
        out_a, out_b = a.step(actions), b.step(actions)
        np.testing.assert_allclose(out_a.rewards[first], np.asarray(out_b.rewards)[first], rtol=TOL, atol=TOL)
        np.testing.assert_array_equal(out_a.terminated[first], np.asarray(out_b.terminated)[first])
        first &= ~out_a.terminated
    raise AssertionError("a hand ran past the game's maximum length")


@pytest.mark.slow
@pytest.mark.parametrize("game,betting,target,batch", [
    ("nolimit_holdem", "nolimit", 10_000, 2_000), ("limit_holdem", "limit", 3_000, 1_500),
    ("shortdeck_holdem", "nolimit", 2_000, 2_000),
])
def test_first_hands_match_the_numpy_engine(game: str, betting: str, target: int, batch: int) -> None:
    """At least 10,000 no-limit (2-10 seats, every sizing, uneven and tiny stacks, antes), 3,000 limit and
    2,000 short-deck first hands identical in both backends (the numpy engine's own test binds it to the rules
    core over as many hands; the next test replays the JAX engine's hands there directly)."""
    rng = np.random.default_rng({"nolimit_holdem": 214, "limit_holdem": 215}.get(game, 216))
    checked = 0
    while checked < target:
        checked += compare_first_hands(game, random_config(rng, betting), batch, checked)
    assert checked >= target


@pytest.mark.parametrize("game,hole", [("omaha", 4), ("omaha", 6)])
def test_omaha_and_potlimit_first_hands(game: str, hole: int) -> None:
    """Pot-limit Omaha (4 and 6 hole cards): first hands identical in both backends, and some replayed in the
    rules core through the pot-limit maximum and the two-plus-three showdowns (pot-limit hold'em takes the same
    kernels' paths: the cap in raise_range, the rest hold'em's)."""
    rng = np.random.default_rng(300 + hole)
    extra = dict(hole_cards=hole) if game == "omaha" else {}
    max_players = 7 if hole == 6 else 10
    assert compare_first_hands(game, dict(random_config(rng, "potlimit", max_players), **extra), 1_000, 1) == 1_000
    seen: Counter = Counter()
    replay_all(game, dict(random_config(rng, "potlimit", max_players), **extra), 400, 2, 1, seen, raise_weight=2.0)
    assert seen["pot-limit maximum"] >= 5 and seen["side pot"] >= 5, seen
    assert game != "omaha" or seen["omaha rule decides"] >= 3, seen


def test_public_state_matches_the_numpy_engine() -> None:
    """``public=True``: the JAX ``VectorStep.public`` equal to the numpy engine's (bound to the AEC env's
    ``observation["public"]`` by ``test_vector_sessions``). The JAX engine itself at every decision of the first
    hands of pot-limit Omaha (random seats, stacks, antes); its public kernel, fed the numpy engine's own tables,
    over 300 steps each of no-limit (2-10 seats, random sizings, short stacks and antes), pot-limit Omaha and
    hands the forced bets decide (pass turns, ``actor`` -1)."""
    rng = np.random.default_rng(412)
    seen: Counter = Counter()
    assert compare_first_hands("omaha", dict(random_config(rng, "potlimit", 8), public=True), 300, 0, seen) == 300
    assert seen["public decisions"] >= 1_000, seen
    forced = dict(num_players=3, small_blind=1, big_blind=2, starting_stack=[1, 2, 50], ante=1)
    runs = [("nolimit_holdem", random_config(rng, "nolimit")) for _ in range(4)]
    runs += [("omaha", random_config(rng, "potlimit", 8)), ("nolimit_holdem", forced)]
    for i, (game, cfg) in enumerate(runs):
        venv = vector.make(game, 64, seed=i, public=True, **cfg)
        out, tables, expected = venv.reset(), [], []
        for _ in range(300):  # the tables of every step, stacked into one batch for the kernel
            tables.append({name: getattr(venv.tables, name).copy() for name in j.FIELDS})
            expected.append(out.public)
            out = venv.step(random_actions(out.action_mask, rng, 2.0))
        fields = {name: jnp.asarray(np.concatenate([t[name] for t in tables])) for name in j.FIELDS}
        state = j.HoldemTables(**fields, key=jax.random.key(0), illegal=jnp.zeros(64 * 300, bool))
        got = jax.jit(lambda s, r=venv.rules: j.encode_public(s, r, *j.raise_range(s, r)))(state)
        np.testing.assert_array_equal(np.concatenate(expected), np.asarray(got), err_msg=f"{game} {cfg}")
        seen["kernel decisions"] += 64 * 300
        seen["pass turns"] += int((np.concatenate(expected)[:, 7] == -1).sum())  # actor -1
    assert seen["pass turns"] >= 20, seen


@pytest.mark.slow
@pytest.mark.parametrize("game,betting,target,batch", [
    # 2,000 no-limit hands as two compiled configurations of 1,000 tables, not four of 500: each configuration costs
    # a JAX compile, and two meet every case below (2026-11-26: 620 short all-in raises, 1,507 side pots, 208 split
    # pots, 30 odd chips, 148 short big blinds, 16 hands decided by the forced bets; 57 s of CPU instead of 100)
    ("nolimit_holdem", "nolimit", 2_000, 1_000), ("limit_holdem", "limit", 1_500, 750),
    ("shortdeck_holdem", "nolimit", 500, 500),
])
def test_first_hands_match_the_rules_core(game: str, betting: str, target: int, batch: int) -> None:
    """The JAX engine's first hands replayed in the rules core, through its hard cases: short all-ins, side
    pots, split pots, odd chips, short big blinds, hands decided by the forced bets (and limit's completions
    and half-bet all-ins, short deck's ranking)."""
    rng = np.random.default_rng({"nolimit_holdem": 114, "limit_holdem": 115}.get(game, 116))
    seen: Counter = Counter()
    checked, seed = 0, 0
    while checked < target:
        seed += 1
        checked += replay_all(game, random_config(rng, betting), batch, seed, 1, seen, raise_weight=2.0)
    if game == "nolimit_holdem":  # few random configurations put two seats all-in on the forced bets: one does
        forced = dict(num_players=3, small_blind=1, big_blind=2, starting_stack=[1, 2, 50], ante=1)
        replay_all(game, forced, 60, 0, 1, seen)
    cases = ["short all-in raise", "side pot", "split pot", "odd chip"]
    cases += ["short big blind", "decided by the forced bets"] if game == "nolimit_holdem" else []
    cases += ["short big blind", "limit completion", "limit half-bet all-in"] if betting == "limit" else []
    cases += ["ranking decides"] if game == "shortdeck_holdem" else []
    assert min(seen[c] for c in cases) >= 10, seen


@pytest.mark.parametrize("encoder", ["default", "flat56", "flat107", "poker_cnn"])
@pytest.mark.parametrize("game,betting", [("nolimit_holdem", "nolimit"), ("limit_holdem", "limit")])
def test_auto_reset_hands_match_the_rules_core(game: str, betting: str, encoder: str) -> None:
    """Hands dealt by the JAX engine itself (its key, the button moving on) replay in the rules core too,
    with every batched encoder."""
    rng = np.random.default_rng(7)
    cfg = random_config(rng, betting)
    cfg["small_blind"] = max(cfg["small_blind"], 1)
    assert replay_all(game, cfg, 64, 3, 4, Counter(), encoder=encoder) == 256


def test_pooled_odd_chips_match_numpy_and_the_rules_core() -> None:
    """``odd_chips="pooled"`` (pokerkit's rule: hands that win no pot mucked, the pots pooled, the odd chips of a
    split to the first winner clockwise) in the JAX engine's settlement: 800 five-handed first hands with uneven
    stacks and antes equal the numpy engine's (actions, masks, rewards) and replay in the rules core; split pots
    with odd chips are counted (about 40 expected, at least 20 required), and so are the hands the per-pot rule
    (``"per_pot"``, the numpy engine on the same deals and actions) would pay differently (at least 3)."""
    config = HoldemConfig(num_players=5, ante=1, starting_stacks=(13, 40, 7, 25, 60), odd_chips="pooled")
    game = HoldemGame(config)
    env = SimpleNamespace(game=game, encoder=HoldemDefaultEncoder(game))
    tables, seed = 800, 5
    jax_engine = HostView(JaxVectorGame(from_numpy(VectorHoldem(1, config)), tables, seed=seed))
    played = play(jax_engine, tables, seed, 1, raise_weight=6.0)
    numpy_played = play(VectorHoldem(tables, config, seed=seed), tables, seed, 1, raise_weight=6.0)
    per_pot = play(VectorHoldem(tables, replace(config, odd_chips="per_pot"), seed=seed), tables, seed, 1, raise_weight=6.0)
    seen: Counter = Counter()
    for [hand], [twin], [other] in zip(played, numpy_played, per_pot):
        button, deck, decisions, rewards = hand
        assert (button, deck) == (twin[0], twin[1]) == (other[0], other[1])
        assert [(p, a) for p, _, _, a in decisions] == [(p, a) for p, _, _, a in twin[2]] == [(p, a) for p, _, _, a in other[2]]
        for (_, mask, _, _), (_, want, _, _) in zip(decisions, twin[2]):
            np.testing.assert_array_equal(mask, want)
        np.testing.assert_allclose(rewards, twin[3], rtol=TOL, atol=TOL)
        replay_core(env, button, deck, decisions, rewards, 1 / config.big_blind, seen, atol=TOL)
        seen["per-pot pays otherwise"] += not np.allclose(rewards, other[3], rtol=TOL, atol=TOL)
    assert seen["odd chip"] >= 20 and seen["per-pot pays otherwise"] >= 3, seen


def test_same_seed_deals_the_numpy_engines_first_hands() -> None:
    """A seed deals the same first hands (buttons and cards) in both backends, so their first outputs agree."""
    cfg = dict(num_players=6, ante=1, starting_stack=[50, 300, 120, 80, 200, 10])
    a = vector.make("nolimit_holdem", num_envs=32, seed=5, **cfg)
    b = vector.make("nolimit_holdem", num_envs=32, seed=5, backend="jax", **cfg)
    out_a, out_b = a.reset(), b.reset()
    np.testing.assert_array_equal(a.tables.deck, b.tables.deck)
    np.testing.assert_array_equal(a.tables.button, b.tables.button)
    np.testing.assert_allclose(out_a.observation, np.asarray(out_b.observation), atol=TOL)
    np.testing.assert_array_equal(out_a.action_mask, np.asarray(out_b.action_mask))
    assert isinstance(out_b.observation, jax.Array)
    np.testing.assert_array_equal(a.reset(seed=9).action_mask, np.asarray(b.reset(seed=9).action_mask))
    np.testing.assert_array_equal(a.tables.button, b.tables.button)


def test_active_tables_advance_alone_as_in_numpy() -> None:
    """``step(actions, active)``: the same tables advance and the others keep their outputs, in both backends."""
    cfg = dict(num_players=3, starting_stack=[40, 90, 65])
    a = vector.make("nolimit_holdem", num_envs=40, seed=2, **cfg)
    b = vector.make("nolimit_holdem", num_envs=40, seed=2, backend="jax", **cfg)
    decks = np.argsort(np.random.default_rng(3).random((40, 52)), axis=1)[:, :11]
    out_a = a.reset(options={"decks": decks})
    b.reset(options={"decks": decks})
    rng = np.random.default_rng(4)
    first = np.ones(40, dtype=bool)  # tables still in their first hand (later hands are dealt differently)
    for _ in range(12):
        active = rng.random(40) < 0.5
        actions = random_actions(out_a.action_mask, rng)
        out_a, out_b = a.step(actions, active), b.step(actions, active)
        np.testing.assert_allclose(out_a.rewards[first], np.asarray(out_b.rewards)[first], atol=TOL)
        np.testing.assert_array_equal(out_a.terminated[first], np.asarray(out_b.terminated)[first])
        assert not np.asarray(out_b.terminated)[~active].any() and not np.asarray(out_b.rewards)[~active].any()
        first &= ~out_a.terminated
        np.testing.assert_allclose(out_a.observation[first], np.asarray(out_b.observation)[first], atol=TOL)
        np.testing.assert_array_equal(out_a.action_mask[first], np.asarray(out_b.action_mask)[first])
    assert 0 < first.sum() < 40


def test_bad_input_gets_the_numpy_engines_errors() -> None:
    venv = vector.make("nolimit_holdem", num_envs=4, seed=0, backend="jax")
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.ones(4, dtype=np.int64))
    out = venv.reset()
    with pytest.raises(ValueError, match="actions must have shape"):
        venv.step(np.ones(3, dtype=np.int64))
    with pytest.raises(TypeError, match="actions must be an integer array"):
        venv.step(np.ones(4, dtype=np.float32))
    acts = np.ones(4, dtype=np.int64)
    acts[2] = 0 if np.asarray(out.action_mask)[2, 0] == 0 else 99
    with pytest.raises(ValueError, match=r"actions\[2\] = .* is illegal for seat \d at table 2; legal ids"):
        venv.step(acts)
    with pytest.raises(ValueError, match="active must have shape"):
        venv.step(np.ones(4, dtype=np.int64), active=np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match="buttons must hold values 0..1"):
        venv.reset(options={"buttons": np.array([0, 1, 2, 0])})
    with pytest.raises(ValueError, match="deals a card twice"):
        venv.reset(options={"decks": np.zeros((4, 9), dtype=np.int64)})
    with pytest.raises(ValueError, match="unknown reset options"):
        venv.reset(options={"deck": [1, 2, 3]})
    with pytest.raises(ValueError, match="backend must be one of"):
        vector.make("nolimit_holdem", num_envs=4, backend="torch")
    with pytest.raises(ValueError, match="num_envs"):
        vector.make("nolimit_holdem", num_envs=0, backend="jax")
    with pytest.raises(ValueError, match="reward_unit"):
        vector.make("limit_holdem", num_envs=4, reward_unit="dollars", backend="jax")
    with pytest.raises(ValueError, match="starting_stack: the batched engine counts chips in int32"):
        vector.make("limit_holdem", num_envs=4, starting_stack=[2**30, 2**30], backend="jax")


def test_functional_loop_under_jit_scan_and_vmap() -> None:
    """``init``/``step`` in one jitted ``lax.scan`` with on-device random actions: chips are conserved at every
    table and step, stacks never go negative, hands end and are paid; ``vmap`` over keys runs too."""
    game = functional.make("nolimit_holdem", num_players=6, starting_stack=[50, 300, 120, 80, 200, 10], ante=1,
                           reward_unit="chips")
    stacks0 = jnp.asarray(game.config.starting_stacks)

    def body(carry: Any, _: Any) -> tuple[Any, Any]:
        state, out, key = carry
        key, sub = jax.random.split(key)
        state, out = game.step(state, functional.random_actions(sub, out.action_mask))
        conserved = (state.stacks + state.contributed == stacks0).all()
        legal = jnp.take_along_axis(out.action_mask, jnp.ones((out.action_mask.shape[0], 1), jnp.int32), 1).all()
        return (state, out, key), (out.rewards.sum(), out.terminated.sum(), conserved & (state.stacks >= 0).all() & legal,
                                   state.illegal.any())

    @jax.jit
    def run(key: jax.Array) -> Any:
        state, out = game.init(key, 256)
        return jax.lax.scan(body, (state, out, jax.random.fold_in(key, 1)), length=60)[1]

    paid, ended, ok, illegal = map(np.asarray, run(jax.random.key(0)))
    assert ok.all() and not illegal.any()
    np.testing.assert_array_equal(paid, 0.0)  # zero-sum in whole chips
    assert ended.sum() > 256
    states, outs = jax.vmap(lambda key: game.init(key, 8))(jax.random.split(jax.random.key(1), 3))
    assert outs.observation.shape == (3, 8, *game.observation_shape)
    assert not np.array_equal(np.asarray(states.deck[0]), np.asarray(states.deck[1]))


def test_illegal_actions_fold_in_the_pure_step_and_raise_in_the_checked_one() -> None:
    game = functional.make("nolimit_holdem", num_players=3)
    state, out = game.init(jax.random.key(3), 6)
    mask = np.asarray(out.action_mask)
    actions = mask.argmax(1).astype(np.int32)
    actions[4] = game.num_actions  # out of range
    new, _ = jax.jit(game.step)(state, jnp.asarray(actions))
    illegal = np.asarray(new.illegal)
    assert illegal.tolist() == [False] * 4 + [True, False]
    seat = int(np.asarray(state.player)[4])
    assert bool(np.asarray(new.folded)[4, seat]) or int(np.asarray(new.length)[4]) == 0  # folded (or hand over)
    with pytest.raises(checkify.JaxRuntimeError, match=f"actions\\[4\\] = {game.num_actions} is illegal for seat {seat} at table 4"):
        functional.checked(game)(state, jnp.asarray(actions))
    actions[4] = mask[4].argmax()
    checked_state, _ = functional.checked(game)(state, jnp.asarray(actions))
    assert not np.asarray(checked_state.illegal).any()


SHARDED = """
import numpy as np, jax
from poker_envs import vector
assert len(jax.local_devices()) == 2
a = vector.make("nolimit_holdem", num_envs=8, seed=1, backend="jax", num_players=3)
b = vector.make("nolimit_holdem", num_envs=8, seed=1, backend="jax", num_players=3, shard=False)
out_a, out_b = a.reset(), b.reset()
rng = np.random.default_rng(0)
for _ in range(30):
    acts = np.argmax(np.where(np.asarray(out_a.action_mask) == 1, rng.random((8, a.num_actions)), -1), axis=1)
    out_a, out_b = a.step(acts), b.step(acts)
    assert np.array_equal(np.asarray(out_a.observation), np.asarray(out_b.observation))
    assert np.array_equal(np.asarray(out_a.rewards), np.asarray(out_b.rewards))
assert len(a.state.stacks.sharding.device_set) == 2 and len(b.state.stacks.sharding.device_set) == 1
try:
    vector.make("nolimit_holdem", num_envs=7, backend="jax")
except ValueError as error:
    assert "num_envs (7) must be a multiple of the 2 local devices" in str(error)
    print("SHARDED_OK")
"""


def test_tables_shard_over_the_local_devices() -> None:
    """With two (forced host) devices the tables split over both and play as on one device."""
    flags = f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count=2".strip()
    env = dict(os.environ, XLA_FLAGS=flags, JAX_PLATFORMS="cpu")
    run = subprocess.run([sys.executable, "-c", SHARDED], capture_output=True, text=True, cwd=ROOT, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "SHARDED_OK" in run.stdout


@pytest.fixture(scope="module")
def forty_tables_into_the_hand() -> tuple:
    """(game, state): 40 four-seat tables six random steps into their hand, some all-in (built and compiled once
    for every case of the showdown test)."""
    game = functional.make("nolimit_holdem", num_players=4, starting_stack=[30, 80, 12, 55], ante=1)
    state, out = game.init(jax.random.key(5), 40)
    for t in range(6):  # into the hand, some all-in
        state, out = game.step(state, functional.random_actions(jax.random.key(t), out.action_mask))
    return game, state


@pytest.mark.parametrize("ended", [0, 3, 16, 40])
def test_showdowns_on_gathered_rows_equal_every_row(ended: int, forty_tables_into_the_hand: tuple) -> None:
    """Settling only the tables whose hand ended (gathered into a quarter of the rows) pays what settling every
    table pays, and deals new cards exactly there; past the capacity every table is done."""
    from poker_envs.vector.jax import _holdem_kernels as j

    game, state = forty_tables_into_the_hand
    over = jnp.asarray(np.random.default_rng(ended).permutation(40) < ended)
    key = jax.random.key(9)
    won_g, decks_g = j.showdowns(state, game.rules, over, key, game.deck, capacity=10)
    won_e, decks_e = j.showdowns(state, game.rules, over, key, game.deck, capacity=40)
    np.testing.assert_array_equal(np.asarray(won_g), np.asarray(won_e))
    assert (np.asarray(won_e).sum(1) == 0).all() and not np.asarray(won_e)[~np.asarray(over)].any()
    for decks in (np.asarray(decks_g), np.asarray(decks_e)):
        np.testing.assert_array_equal(decks[~np.asarray(over)], np.asarray(state.deck)[~np.asarray(over)])
        assert all(len(set(row)) == decks.shape[1] for row in decks.tolist())
    if 0 < ended <= 10:
        assert not np.array_equal(np.asarray(decks_g), np.asarray(decks_e))  # the gathered path dealt its own


OPTIMISED = """
import sys
import numpy as np
sys.path.insert(0, "tests")
from test_vector_jax_holdem import optimisation_run
np.savez(sys.argv[1], **optimisation_run())
"""


def optimisation_run() -> dict[str, np.ndarray]:
    """60 steps of 64 six-seat no-limit tables (short stacks, an ante, pot-fraction raises, the public state on)
    from seeded deals and actions: every output, stacked."""
    cfg = dict(num_players=6, ante=1, starting_stack=[50, 300, 120, 8, 200, 10], bet_sizing=(0.33, 0.7, 1.5),
               public=True)
    venv = vector.make("nolimit_holdem", num_envs=64, seed=4, backend="jax", **cfg)
    out = venv.reset()
    rng = np.random.default_rng(5)
    steps: dict[str, list[np.ndarray]] = {"observation": [], "mask": [], "player": [], "rewards": [], "public": []}
    for _ in range(60):
        for name, value in zip(steps, (out.observation, out.action_mask, out.current_player, out.rewards, out.public)):
            steps[name].append(np.asarray(value))
        out = venv.step(random_actions(np.asarray(out.action_mask), rng, 2.0))
    return {name: np.stack(values) for name, values in steps.items()}


def test_the_optimised_build_plays_as_the_suites_build(tmp_path: Path) -> None:
    """The suite compiles with faster compiler settings (conftest: they halve the compile time); a program
    compiled as users compile it gives the same outputs over 60 steps of 64 tables."""
    env = users_compile_env()
    assert env["JAX_DISABLE_MOST_OPTIMIZATIONS"] == "0" and FAST_COMPILE_FLAG not in env.get("XLA_FLAGS", "")
    path = tmp_path / "optimised.npz"
    run = subprocess.run([sys.executable, "-c", OPTIMISED, str(path)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    optimised, here = np.load(path), optimisation_run()
    assert here["rewards"].any() and (here["public"][:, :, 7] >= 0).any()
    for name in ("mask", "player", "public"):
        np.testing.assert_array_equal(optimised[name], here[name], err_msg=name)
    for name in ("observation", "rewards"):
        np.testing.assert_allclose(optimised[name], here[name], rtol=TOL, atol=TOL, err_msg=name)
