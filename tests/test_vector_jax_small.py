"""The JAX Kuhn, Leduc and push/fold engines (``vector.jax``) against their numpy twins.

Both backends built with the same seed deal the same first hands; then both are stepped with the same random
legal actions (every other step on a random subset of tables, ``active``). While the numpy engine deals, the
JAX state takes its new cards, so every decision's seat, mask and observation and every hand's rewards are
compared; then the JAX engine deals and the numpy engine takes its cards, so the hands JAX dealt are checked
(valid, evenly spread) and paid as the numpy engine pays them. Compiling a configuration costs seconds, so
each runs once on a large batch.
"""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from poker_envs import vector
from poker_envs.vector.sampling import random_legal_actions

import jax
jnp = jax.numpy
from jax.experimental import checkify  # noqa: E402

from poker_envs.vector import functional  # noqa: E402

PF_3 = {"num_players": 3, "ante_bb": 0.1, "rake": 0.05, "rake_cap_bb": 1.0, "stacks_bb": [3.0, 7.5, 12.3]}
PF_6 = {"num_players": 6, "ante_bb": 0.125, "rake": 0.1, "stacks_bb": [1.5, 3.0, 7.5, 10.0, 12.3, 20.0],
        "obs_encoder": "push_fold"}
PF_2 = {"num_players": 2, "ante_bb": 0.25, "rake": 0.05, "rake_cap_bb": 0.15, "stacks_bb": [2.5, 15.5]}
CONFIGS = [  # (game, config, tables): every batched encoder of each game; push/fold heads-up and 6-max
    ("kuhn_poker", {"obs_encoder": "infostate"}, 1024),
    ("leduc_holdem", {}, 1024),
    ("leduc_holdem", {"obs_encoder": "rank_chips"}, 1024),
    ("push_fold", PF_2, 1024),
    ("push_fold", PF_6, 1024),
]
HANDS = 2000  # completed hands of each phase, per configuration


def assert_decisions_equal(np_out: Any, jax_out: Any, rows: Any = slice(None)) -> None:
    """Same seat to act, mask and (to float32 rounding) observation at ``rows``."""
    np.testing.assert_array_equal(np.asarray(jax_out.current_player)[rows], np_out.current_player[rows])
    np.testing.assert_array_equal(np.asarray(jax_out.action_mask)[rows], np_out.action_mask[rows])
    np.testing.assert_allclose(np.asarray(jax_out.observation)[rows], np_out.observation[rows], rtol=1e-6, atol=1e-6)


def assert_results_equal(np_out: Any, jax_out: Any, rtol: float) -> None:
    np.testing.assert_array_equal(np.asarray(jax_out.terminated), np_out.terminated)
    rewards = np.asarray(jax_out.rewards)
    assert rewards.dtype == np.float32
    np.testing.assert_allclose(rewards, np_out.rewards, rtol=rtol, atol=rtol)


def check_payouts(game: str, config: dict[str, Any], out: Any) -> None:
    """Finished hands: zero-sum in Kuhn and Leduc (chips within the game's limits); push/fold pays out what
    was put in less a rake within its cap."""
    done = np.asarray(out.terminated)
    rewards = np.asarray(out.rewards, dtype=np.float64)
    assert not rewards[~done].any()
    if not done.any():
        return
    sums = rewards[done].sum(1)
    if game != "push_fold":
        assert (sums == 0).all()
        low, top = (1, 2) if game == "kuhn_poker" else (0, 13)  # Leduc: a tie splits; at most 13 chips in
        chips = np.abs(rewards[done])
        assert (chips >= low).all() and (chips <= top).all() and (chips == np.round(chips)).all()
        return
    rake, cap = config.get("rake", 0.0), config.get("rake_cap_bb")
    assert (sums <= 1e-5).all()
    if not rake:
        np.testing.assert_allclose(sums, 0.0, atol=1e-5)
    elif cap is not None:
        assert (sums >= -cap - 1e-5).all()


@pytest.mark.parametrize("game, config, tables", CONFIGS, ids=lambda x: x if isinstance(x, str) else None)
def test_matches_numpy_engine(game: str, config: dict[str, Any], tables: int) -> None:
    rtol = 1e-5 if game == "push_fold" else 1e-6
    venv = vector.make(game, tables, seed=3, **config)
    jenv = vector.make(game, tables, seed=3, backend="jax", **config)
    out, jout = venv.reset(), jenv.reset()
    np.testing.assert_array_equal(np.asarray(jenv.state.cards), venv.cards)  # same first hands for the same seed
    assert_decisions_equal(out, jout)
    observe = jax.jit(jenv.game.observe)
    rng = np.random.default_rng(1)

    # Phase 1: the numpy engine deals; the JAX state takes its new cards.
    finished = step = 0
    while finished < HANDS:
        actions = random_legal_actions(out.action_mask, rng)
        active = rng.random(tables) < 0.6 if step % 2 else np.ones(tables, dtype=bool)
        before = np.asarray(jenv.state.cards)
        out, jout = venv.step(actions, active=active), jenv.step(actions, active=active)
        assert_results_equal(out, jout, rtol)
        check_payouts(game, config, jout)
        np.testing.assert_array_equal(np.asarray(jenv.state.cards)[~active], before[~active])  # idle tables kept
        if out.terminated.any():
            jenv.state = jenv.state._replace(cards=jnp.asarray(venv.cards, jnp.int32))
            jout = observe(jenv.state, jout.rewards, jout.terminated)
        assert_decisions_equal(out, jout)
        finished += int(out.terminated.sum())
        step += 1

    # Phase 2: the JAX engine deals; the numpy engine takes its cards and must pay its hands the same.
    fresh = np.zeros(tables, dtype=bool)  # the numpy observation was computed from the JAX cards
    num_cards = 52 if game == "push_fold" else venv.num_cards
    counts = np.zeros((venv.cards.shape[1], num_cards), dtype=np.int64)
    dealt = 0
    while dealt < HANDS:
        actions = random_legal_actions(out.action_mask, rng)
        active = rng.random(tables) < 0.6 if step % 2 else np.ones(tables, dtype=bool)
        out, jout = venv.step(actions, active=active), jenv.step(actions, active=active)
        assert_results_equal(out, jout, rtol)
        check_payouts(game, config, jout)
        fresh = np.where(active, ~out.terminated, fresh)
        assert_decisions_equal(out, jout, fresh)
        np.testing.assert_array_equal(np.asarray(jout.current_player), out.current_player)
        np.testing.assert_array_equal(np.asarray(jout.action_mask), out.action_mask)
        cards = np.asarray(jenv.state.cards)
        new = cards[out.terminated]
        assert ((new >= 0) & (new < num_cards)).all()
        srt = np.sort(new, axis=1)
        assert (srt[:, 1:] != srt[:, :-1]).all()  # distinct cards
        for place in range(cards.shape[1]):
            counts[place] += np.bincount(new[:, place], minlength=num_cards)
        dealt += len(new)
        venv.cards[:] = cards
        step += 1
    expected = dealt / num_cards  # every card equally likely at every place of the deal: a chi-square bound
    chi2 = ((counts - expected) ** 2 / expected).sum(1)
    df = num_cards - 1
    assert (chi2 < df + 6 * np.sqrt(2 * df) + 10).all(), chi2


@pytest.mark.parametrize("game, config", [
    ("kuhn_poker", {"obs_encoder": "default"}), ("leduc_holdem", {"obs_encoder": "infostate"}), ("push_fold", PF_3),
])
def test_host_checks_match_numpy_engine(game: str, config: dict[str, Any]) -> None:
    """Same errors for bad actions, ``active`` and reset options; same first hands for given decks and seeds."""
    b = 6
    venv = vector.make(game, b, seed=5, **config)
    jenv = vector.make(game, b, seed=5, backend="jax", **config)
    assert_decisions_equal(venv.reset(), jenv.reset())
    k = venv.cards.shape[1]
    decks = np.argsort(np.random.default_rng(0).random((b, 52 if game == "push_fold" else venv.num_cards)), 1)[:, :k]
    out, jout = venv.reset(options={"decks": decks}), jenv.reset(options={"decks": decks})
    np.testing.assert_array_equal(np.asarray(jenv.state.cards), decks)
    assert_decisions_equal(out, jout)
    assert_decisions_equal(venv.reset(seed=9), jenv.reset(seed=9))
    np.testing.assert_array_equal(np.asarray(jenv.state.cards), venv.cards)
    legal = np.argmax(out.action_mask, axis=1)
    illegal = legal.copy()
    illegal[4] = 0 if game == "leduc_holdem" else 2  # Leduc: fold with nothing to call
    bad_calls: list[tuple[Any, ...]] = [
        ("step", legal[:-1]), ("step", legal.astype(np.float64)), ("step", legal.astype(bool)), ("step", illegal),
        ("step", legal, np.ones(b + 1, dtype=bool)), ("step", legal, np.ones(b, dtype=np.int64)),
        ("step", illegal, np.arange(b) == 4),
        ("reset", None, {"buttons": np.zeros(b, dtype=np.int64)}), ("reset", None, {"deck": decks}),
        ("reset", None, {"decks": np.zeros_like(decks)}), ("reset", None, {"decks": decks[:-1]}),
    ]
    for method, *args in bad_calls:
        with pytest.raises((ValueError, TypeError)) as np_error:
            getattr(venv, method)(*args)
        with pytest.raises(np_error.type) as jax_error:
            getattr(jenv, method)(*args)
        assert str(jax_error.value) == str(np_error.value), (method, args)
    with pytest.raises(ValueError, match="is illegal for seat 0 at table 4"):
        jenv.step(illegal)
    with pytest.raises(ValueError, match="has no button"):
        jenv.reset(options={"buttons": np.zeros(b, dtype=np.int64)})


def test_checked_step_raises_on_an_illegal_action() -> None:
    jenv = vector.make("leduc_holdem", 8, seed=0, backend="jax")
    jenv.reset()
    state, checked = jenv.state, functional.checked(jenv.game)
    state, out = checked(state, jnp.ones(8, jnp.int32))  # check or call: always legal
    actions = jnp.ones(8, jnp.int32).at[5].set(7)  # out of range
    with pytest.raises(checkify.JaxRuntimeError, match=r"actions\[5\] = 7 is illegal for seat 1 at table 5"):
        checked(state, actions)


PURE = [("leduc_holdem", {}, 3), ("push_fold", PF_3, 2)]  # Kuhn's step is Leduc's (``JaxSmallGame.step``)


def played_actions(game: str, old: Any, new: Any) -> np.ndarray:
    """The action each table's step played, read back from the state's record of it (hands still running)."""
    if game == "push_fold":
        return np.take_along_axis(new.actions, old.player[..., None], axis=-1)[..., 0]
    slot = np.argmax(new.history - old.history, axis=-1)  # the one action slot this step set
    base = 2 * old.moves if game == "kuhn_poker" else 12 * old.round + 3 * old.moves
    return slot - base


@pytest.mark.parametrize("game_name, config, bad_id", PURE, ids=[p[0] for p in PURE])
def test_pure_step_under_jit_and_scan(game_name: str, config: dict[str, Any], bad_id: int) -> None:
    """20 steps of ``lax.scan`` under ``jit`` with ``random_actions``; at every step some tables get an illegal
    action (out of range, or masked), which must be flagged and played as the lowest legal id."""
    b = 256
    if game_name == "push_fold":  # the first hands dealt on the host (``init``'s 52-card deal compiles slowly)
        jenv = vector.make(game_name, b, seed=2, backend="jax", **config)
        out = jenv.reset()
        game, first = jenv.game, (jenv.state, out)
    else:
        game, first = functional.make(game_name, **config), None

    def body(carry: Any, key: jax.Array) -> tuple[Any, tuple[Any, ...]]:
        state, out = carry
        k_act, k_bad, k_kind = jax.random.split(key, 3)
        mask = out.action_mask
        actions = functional.random_actions(k_act, mask)
        bad = jax.random.uniform(k_bad, (b,)) < 0.2
        u = jax.random.uniform(k_kind, (b,))
        masked = jnp.argmin(mask, axis=1).astype(jnp.int32)  # a masked id where there is one (Leduc)
        wrong = jnp.where((mask.min(1) == 0) & (u < 0.4), masked, jnp.where(u < 0.7, -1, bad_id))
        new, out = game.step(state, jnp.where(bad, wrong, actions))
        return (new, out), (state, new, out, actions, bad, jnp.argmax(mask, axis=1))

    @jax.jit
    def run(key: jax.Array) -> Any:
        k_init, k_steps = jax.random.split(key)
        return jax.lax.scan(body, game.init(k_init, b) if first is None else first, jax.random.split(k_steps, 20))

    _, trace = jax.device_get(run(jax.random.key(1)))
    old, new, out, actions, bad, lowest = trace
    np.testing.assert_array_equal(new.illegal, bad)
    assert bad.any()
    running = ~out.terminated
    played = played_actions(game_name, old, new)
    if game_name != "push_fold":  # one more action slot set, nothing else changed
        added = new.history[running] - old.history[running]
        assert (added >= 0).all() and (added.sum(-1) == 1).all()
    np.testing.assert_array_equal(played[running], np.where(bad, lowest, actions)[running])
    assert (bad & running).sum() > 100
    if game_name == "leduc_holdem":  # facing a raise the substitute folds: the folder loses what it put in
        folds = bad & (lowest == 0)
        assert folds.sum() > 20 and out.terminated[folds].all()
        seat = old.player[folds]
        lost = np.take_along_axis(old.contributions[folds], seat[:, None], axis=1)[:, 0]
        np.testing.assert_array_equal(np.take_along_axis(out.rewards[folds], seat[:, None], axis=1)[:, 0], -lost)
    assert out.terminated.sum() > b  # hands ended and were dealt again
    check_payouts(game_name, config, vector.VectorStep(None, None, None, out.rewards.reshape(-1, game.num_players),
                                                       out.terminated.reshape(-1)))
    srt = np.sort(new.cards, axis=-1)
    assert (srt[..., 1:] != srt[..., :-1]).all()
    possible = math.perm(52 if game_name == "push_fold" else game.num_cards, new.cards.shape[-1])
    assert len({tuple(c) for c in new.cards[-1]}) >= min(b // 4, possible)  # the tables hold different deals


def test_numpy_backend_never_imports_jax() -> None:
    code = ("import sys; from poker_envs import vector\n"
            "for g in ('kuhn_poker', 'leduc_holdem', 'push_fold'):\n"
            "    v = vector.make(g, 4, seed=0); v.reset(); v.step(v.reset().action_mask.argmax(1))\n"
            "assert 'jax' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
