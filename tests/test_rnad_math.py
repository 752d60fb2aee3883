"""R-NaD building blocks on hand-worked data: V-trace, reward transformation, NeuRD, averaging rates."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agent_zoo.rnad.config import RNaDConfig
from agent_zoo.rnad.learner import lerp_, reg_update_rate
from agent_zoo.rnad.numpy_net import post_process_policy
from agent_zoo.rnad.vtrace import neurd_loss, player_weights, reward_transform, v_trace


def _three_step_example(player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seat 0 acts, seat 1 acts, seat 0 acts and the hand ends paying (+2, -2); eta = 0, c = 1."""
    v = np.array([[0.5], [0.1], [-0.3]])
    valid = np.ones((3, 1))
    pid = np.array([[0], [1], [0]])
    actions = np.array([[1], [2], [0]])
    mu = np.array([[0.5], [0.25], [0.8]])
    pi = np.array([[0.4], [0.5], [0.6]])
    rewards = np.zeros((3, 1, 2))
    rewards[2, 0] = [2.0, -2.0]
    zeros_q = np.zeros((3, 1, 3))
    return v_trace(v, valid, pid, actions, mu, pi, rewards, np.zeros((3, 1)), zeros_q, player, c=1.0)


def test_vtrace_hand_worked_player0() -> None:
    # ratios pi/mu: 0.8, 2, 0.75. Backwards for seat 0:
    # t=2: target = -0.3 + 0.75 * (2 - (-0.3)) = 1.425; correction = (2 - (-0.3)) / 0.8 = 2.875
    # t=1: opponent: carried importance weight 2, nothing received
    # t=0: target = 0.5 + (0.8*2) * (0 + (-0.3) - 0.5) + min(1, 1.6) * (1.425 - (-0.3)) = 0.945
    #      correction = (0 + 2 * 1.425 - 0.5) / 0.5 = 4.7
    v_target, has_played, q = _three_step_example(0)
    assert has_played[:, 0].tolist() == [True, False, True]
    assert v_target[0, 0] == pytest.approx(0.945)
    assert v_target[2, 0] == pytest.approx(1.425)
    np.testing.assert_allclose(q[0, 0], [0.5, 0.5 + 4.7, 0.5])  # v + correction at the taken action
    np.testing.assert_allclose(q[2, 0], [-0.3 + 2.875, -0.3, -0.3])
    np.testing.assert_allclose(q[1, 0], 0.0)


def test_vtrace_hand_worked_player1() -> None:
    # Seat 1 decides once, at t=1; seat 0's last move (ratio 0.75) is carried back:
    # target = 0.1 + (2*0.75) * (-2 + 0 - 0.1) = -3.05; correction = (0.75*(-2) - 0.1) / 0.25 = -6.4
    v_target, has_played, q = _three_step_example(1)
    assert has_played[:, 0].tolist() == [False, True, False]
    assert v_target[1, 0] == pytest.approx(-3.05)
    np.testing.assert_allclose(q[1, 0], [0.1, 0.1, 0.1 - 6.4])


def test_vtrace_on_policy_targets_are_returns() -> None:
    """With pi = mu, lambda = 1 and c >= 1 the V-trace target is the sampled return, whatever v is."""
    rng = np.random.default_rng(0)
    t_len, batch = 7, 4
    pid = rng.integers(0, 2, size=(t_len, batch))
    valid = np.ones((t_len, batch))
    valid[5:, 1] = 0.0  # a shorter trajectory
    rewards = rng.normal(size=(t_len, batch, 2)) * valid[..., None]
    probs = rng.uniform(0.1, 1.0, size=(t_len, batch))
    v = rng.normal(size=(t_len, batch))
    for player in (0, 1):
        vt, has, _ = v_trace(
            v, valid, pid, np.zeros((t_len, batch), dtype=np.int64), probs, probs, rewards,
            np.zeros((t_len, batch)), np.zeros((t_len, batch, 3)), player, c=1.0,
        )  # fmt: skip
        returns = np.cumsum(rewards[::-1, :, player], axis=0)[::-1]
        np.testing.assert_allclose(vt[has], returns[has])
        assert not vt[~has].any()


def test_reward_transform_is_zero_sum_and_matches_eq6_in_expectation() -> None:
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(4, 2, 3))
    pi = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    reg = rng.dirichlet(np.ones(3), size=(4, 2))
    log_ratio = np.log(pi / reg)
    pid = rng.integers(0, 2, size=(4, 2))
    valid = np.ones((4, 2))
    eta = 0.2
    r0, q0 = reward_transform(pi, log_ratio, pid, valid, 0, eta)
    r1, q1 = reward_transform(pi, log_ratio, pid, valid, 1, eta)
    np.testing.assert_allclose(r0 + r1, 0.0)  # eq. (6) keeps the game zero-sum
    kl = (pi * log_ratio).sum(-1)
    assert (kl >= 0).all()
    own = pid == 0
    np.testing.assert_allclose(r0[own], -eta * kl[own])  # the actor pays eta * KL(pi || pi_reg)
    np.testing.assert_allclose(r0[~own], eta * kl[~own])  # its opponent gains it
    # The expectation of the sampled eq. (6) term under pi is the per-step term.
    np.testing.assert_allclose((pi * q0).sum(-1), r0)
    r_zero, q_zero = reward_transform(pi, log_ratio, pid, valid, 0, 0.0)
    assert not r_zero.any() and not q_zero.any()


def test_neurd_gradient_moves_logits_along_advantage() -> None:
    logits = torch.tensor([[0.3, -0.2, 0.1]], requires_grad=True)
    legal = torch.ones(1, 3)
    pi = torch.softmax(logits.detach(), -1)
    q = torch.tensor([[1.0, -2.0, 0.5]])
    loss = neurd_loss(logits, pi, q, legal, torch.tensor([0.5]), beta=2.0, clip=100.0)
    loss.backward()
    adv = q - (pi * q).sum(-1, keepdim=True)
    # -grad = weight * (advantage - its mean): logits follow q - v (up to a shift softmax ignores),
    # with no pi(a) factor, unlike the softmax policy gradient.
    np.testing.assert_allclose(-logits.grad.numpy(), 0.5 * (adv - adv.mean()).numpy(), rtol=1e-6)


def test_neurd_threshold_and_clip() -> None:
    legal = torch.ones(1, 3)
    q = torch.tensor([[5.0, 0.0, 0.0]])
    # Centred logits (4, -2, -2) sit on the +-beta box: the positive advantage of action 0 cannot push
    # it higher and the negative ones cannot push the others lower, so nothing moves ...
    logits = torch.tensor([[4.0, -2.0, -2.0]], requires_grad=True)
    pi = torch.softmax(logits.detach(), -1)
    neurd_loss(logits, pi, q, legal, torch.ones(1), beta=2.0, clip=100.0).backward()
    assert not logits.grad.any()
    # ... while with a wider box the same advantages do move the logits.
    logits.grad = None
    neurd_loss(logits, pi, q, legal, torch.ones(1), beta=5.0, clip=100.0).backward()
    assert logits.grad[0, 0] < 0.0
    # Clip: advantages beyond clip count as clip.
    a = torch.zeros(1, 3, requires_grad=True)
    b = torch.zeros(1, 3, requires_grad=True)
    pi0 = torch.full((1, 3), 1 / 3)
    neurd_loss(a, pi0, torch.tensor([[300.0, 0.0, 0.0]]), legal, torch.ones(1), 2.0, clip=1.0).backward()
    neurd_loss(b, pi0, torch.tensor([[3.0, 0.0, 0.0]]), legal, torch.ones(1), 2.0, clip=1.0).backward()
    torch.testing.assert_close(a.grad, b.grad)


def test_neurd_ignores_illegal_actions() -> None:
    logits = torch.tensor([[0.0, 0.4, -0.1]], requires_grad=True)
    legal = torch.tensor([[0.0, 1.0, 1.0]])
    pi = torch.tensor([[0.0, 0.6, 0.4]])
    neurd_loss(logits, pi, torch.tensor([[9.0, 1.0, -1.0]]), legal, torch.ones(1), 2.0, 100.0).backward()
    assert logits.grad[0, 0] == 0.0
    assert logits.grad[0, 1] < 0.0 < logits.grad[0, 2]  # better legal action's logit goes up


def test_player_weights_average_each_player_separately() -> None:
    has0 = np.array([[1, 0], [0, 1], [1, 0]], dtype=bool)
    has1 = np.array([[0, 1], [1, 0], [0, 0]], dtype=bool)
    w = player_weights(has0) + player_weights(has1)
    np.testing.assert_allclose(w, [[1 / 3, 1 / 2], [1 / 2, 1 / 3], [1 / 3, 0.0]])
    # two runs of one column each: every run averages over its own decisions only
    np.testing.assert_allclose(player_weights(has0, num_runs=2), [[1 / 2, 0.0], [0.0, 1.0], [1 / 2, 0.0]])
    np.testing.assert_allclose(player_weights(has1, num_runs=2), [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])


def test_reg_update_rates() -> None:
    assert reg_update_rate(RNaDConfig(), 3) == 1.0
    assert reg_update_rate(RNaDConfig(two_stage="am"), 3) == pytest.approx(1 / 4)
    assert reg_update_rate(RNaDConfig(two_stage="ema", reg_gamma=0.01), 3) == 0.01
    sched = RNaDConfig(two_stage="ema", reg_gamma=0.001, reg_gamma_schedule=True)
    assert reg_update_rate(sched, 1) == 0.5
    assert reg_update_rate(sched, 998) == pytest.approx(1 / 999)
    assert reg_update_rate(sched, 5000) == 0.001
    with pytest.raises(ValueError, match="n counts"):
        reg_update_rate(sched, 0)


def test_am_rates_give_the_arithmetic_mean_of_parameters() -> None:
    reg = torch.nn.Linear(2, 1)
    target = torch.nn.Linear(2, 1)
    snapshots = [reg.weight.detach().clone()]
    gen = torch.Generator().manual_seed(0)
    cfg = RNaDConfig(two_stage="am")
    for n in range(1, 6):
        with torch.no_grad():
            target.weight.copy_(torch.randn(1, 2, generator=gen))
        snapshots.append(target.weight.detach().clone())
        lerp_(reg, target, reg_update_rate(cfg, n))
    torch.testing.assert_close(reg.weight.detach(), torch.stack(snapshots).mean(0))


def test_config_rejects_bad_values_by_name() -> None:
    with pytest.raises(ValueError, match="two_stage"):
        RNaDConfig(two_stage="median")
    with pytest.raises(ValueError, match="target_gamma"):
        RNaDConfig(target_gamma=0.0)
    with pytest.raises(ValueError, match="unknown RNaDConfig fields"):
        RNaDConfig.from_dict({"etaa": 1.0})


def test_post_process_policy_by_hand() -> None:
    # Descending 0.5, 0.3, 0.2 of 32 units: ceil 16, ceil 9.6 = 10, then only 6 of ceil 6.4 = 7 remain.
    out = post_process_policy(np.array([0.2, 0.5, 0.3]))
    np.testing.assert_allclose(out, np.array([6, 16, 10]) / 32)
    # 0.015 and 0.005 are under the 0.03 threshold: dropped, the rest renormalised (and exact in 32nds).
    np.testing.assert_allclose(post_process_policy(np.array([0.98, 0.015, 0.005])), [1.0, 0.0, 0.0])
    # Exact multiples stay put; an illegal action (0) stays 0.
    np.testing.assert_allclose(post_process_policy(np.array([0.25, 0.0, 0.75])), [0.25, 0.0, 0.75])
    # Every action under the threshold: the row is kept (then discretised: 40 x 1/40 -> 32 ones first).
    flat = post_process_policy(np.full(40, 1 / 40))
    assert flat.sum() == pytest.approx(1.0) and (flat[:32] == 1 / 32).all() and (flat[32:] == 0).all()
    # Switched off entirely.
    p = np.array([0.9, 0.07, 0.03])
    np.testing.assert_array_equal(post_process_policy(p, threshold=0, discretization=0), p)


def _post_process_loop(p: np.ndarray, threshold: float, units_total: int) -> np.ndarray:
    """The same algorithm action by action, as OpenSpiel's description reads."""
    p = p.copy()
    if p.max() >= threshold:
        p[p < threshold] = 0.0
    p /= p.sum()
    out = np.zeros_like(p)
    left = units_total
    for a in sorted(range(len(p)), key=lambda i: -p[i]):
        x = min(int(np.ceil(p[a] * units_total - 1e-9)), left)
        out[a] += x
        left -= x
    out[int(np.argmax(p))] += left
    return out / units_total


def test_post_process_policy_vectorised_equals_the_loop() -> None:
    rng = np.random.default_rng(5)
    logits = rng.normal(scale=3.0, size=(500, 3))
    logits[rng.random((500, 3)) < 0.2] = -np.inf  # some illegal actions
    logits[:, 0] = np.where(np.isinf(logits).all(axis=1), 0.0, logits[:, 0])
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    got = post_process_policy(p)
    want = np.stack([_post_process_loop(row, 0.03, 32) for row in p])
    np.testing.assert_allclose(got, want, atol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0)
    assert (got[p == 0] == 0).all()
