"""The shared regret helpers (agent_zoo/regret.py): hand-worked cases, and bit-for-bit agreement with the
formulas each solver used inline before they moved there (written out here as the reference)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agent_zoo.regret import (
    average_weight,
    binary_instant_regrets,
    discount_factor,
    normalize,
    regret_matching,
    regret_matching_list,
    update_regrets,
)


def test_regret_matching_by_hand() -> None:
    regrets = np.array([[1.0, 3.0, -2.0], [-1.0, -1.0, 0.0], [0.0, 2.0, 2.0]])
    uniform = np.array([[1 / 3, 1 / 3, 1 / 3], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    got = regret_matching(regrets, uniform)
    np.testing.assert_array_equal(got, [[0.25, 0.75, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    # Without a fallback, a row with no positive regret is uniform over the whole axis.
    np.testing.assert_array_equal(regret_matching(np.array([[-1.0, 0.0]])), [[0.5, 0.5]])
    # Along another axis: (prefix, action, class) as the multi-way solver stores it.
    r = np.zeros((1, 2, 3))
    r[0, :, 0] = [1.0, 3.0]
    np.testing.assert_array_equal(regret_matching(r, axis=1)[0, 1], [0.75, 0.5, 0.5])


def test_update_regrets_plus_and_discount_by_hand() -> None:
    cum = np.array([1.0, -1.0, 0.5])
    update_regrets(cum, np.array([1.0, -1.0, -1.0]), plus=True)
    np.testing.assert_array_equal(cum, [2.0, 0.0, 0.0])
    cum = np.array([2.0, -2.0])
    update_regrets(cum, np.array([0.0, 0.0]), discount=(discount_factor(2, 1.0), discount_factor(2, 0.0)))
    np.testing.assert_array_equal(cum, [2.0 * 2 / 3, -2.0 * 0.5])
    assert discount_factor(5, None) == 1.0
    assert average_weight(4, 0.0) == 1.0 and average_weight(4, 1.0) == 4.0 and average_weight(3, 2.0) == 9.0


def test_binary_instant_regrets_by_hand() -> None:
    # Action 1 gains 2 over action 0 and is played with probability 1/4: the policy's value is v0 + 0.5.
    got = binary_instant_regrets(np.array([0.25]), np.array([2.0]))
    np.testing.assert_array_equal(got, [[-0.5, 1.5]])


def test_normalize_falls_back_to_uniform() -> None:
    np.testing.assert_array_equal(normalize(np.array([[0.0, 0.0], [1.0, 3.0]])), [[0.5, 0.5], [0.25, 0.75]])


# The formulas as they were written inline in the solvers before this module (the reference).
def _old_cfr_regret_matching(regrets: np.ndarray, uniform: np.ndarray) -> np.ndarray:
    w = np.maximum(regrets, 0.0)
    total = w.sum(axis=1, keepdims=True)
    return np.divide(w, total, out=uniform.copy(), where=total > 0.0)


def _old_two_action_cfr_plus(reg: np.ndarray, prob: np.ndarray, gain: np.ndarray) -> np.ndarray:
    reg = reg.copy()
    reg[:, 1] = np.maximum(reg[:, 1] + (1.0 - prob) * gain, 0.0)
    reg[:, 0] = np.maximum(reg[:, 0] - prob * gain, 0.0)
    total = reg[:, 0] + reg[:, 1]
    return np.where(total > 0, reg[:, 1] / np.where(total > 0, total, 1.0), 0.5)


def _old_threshold(regrets: np.ndarray) -> np.ndarray:
    pos = np.maximum(regrets, 0.0)
    total = pos.sum(axis=1)
    return np.where(total > 0, pos[:, 1] / np.where(total > 0, total, 1.0), 0.5)


@pytest.mark.parametrize("seed", range(5))
def test_same_bits_as_the_old_inline_formulas(seed: int) -> None:
    rng = np.random.default_rng(seed)
    regrets = rng.normal(size=(200, 4)) * (rng.random((200, 4)) < 0.6)
    legal = rng.random((200, 4)) < 0.8
    legal[:, 0] = True
    regrets = np.where(legal, regrets, 0.0)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    assert regret_matching(regrets, uniform).tobytes() == _old_cfr_regret_matching(regrets, uniform).tobytes()

    reg = np.maximum(rng.normal(size=(169, 2)), 0.0) * (rng.random((169, 2)) < 0.5)
    prob, gain = rng.random(169), rng.normal(size=169)
    new = reg.copy()
    update_regrets(new, binary_instant_regrets(prob, gain), plus=True)
    assert regret_matching(new)[:, 1].tobytes() == _old_two_action_cfr_plus(reg, prob, gain).tobytes()

    two = rng.normal(size=(101, 2)) * (rng.random((101, 2)) < 0.5)
    assert regret_matching(two)[:, 1].tobytes() == _old_threshold(two).tobytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=4))
@example([0.0])  # one action, no regret
@example([-3.0, -1.0])  # no positive regret: uniform
@example([0.0, -0.0, 0.0])  # signed zeros count as no regret
@example([5e-324, 0.0])  # a subnormal positive regret takes all the weight
@example([1e6, 1e6, -1e6, 1e-6])  # ties at the top and a tiny positive share
def test_list_form_equals_the_array_form(regrets: list[float]) -> None:
    assert regret_matching_list(regrets) == regret_matching(np.array([regrets]))[0].tolist()


def test_solvers_use_the_shared_module() -> None:
    """No solver keeps a private copy of the regret-matching rule."""
    import agent_zoo.cfr.mccfr as mccfr
    import agent_zoo.cfr.solvers as solvers
    import agent_zoo.push_fold.multiway as multiway
    import agent_zoo.push_fold.solver as push_fold
    import agent_zoo.threshold.solver as threshold

    assert solvers.regret_matching is regret_matching and mccfr.regret_matching_list is regret_matching_list
    for module in (solvers, mccfr, push_fold, multiway):
        assert module.update_regrets is update_regrets
    assert threshold.regret_matching is regret_matching and multiway.regret_matching is regret_matching
