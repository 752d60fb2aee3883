"""NashConv of a multi-way push/fold strategy profile on fresh deals, without the best-response bias.

A seat's best response picks, per information set (earlier actions, own class), the action with the higher
counterfactual value against the fixed profile. Estimating those values on a sample and taking the maximum
on the *same* sample is biased upwards (the maximum of two noisy estimates exceeds the larger true value),
and a strategy solved on a sample scored on that sample is biased downwards (it fits its noise).
So the fresh deals are split in two halves A and B (alternate chunks of independent streams):

* the best response chosen on A is scored on B and the one chosen on B on A (cross-fitting). Each is a
  fixed strategy scored on deals it was not chosen on, so the estimate is unbiased for *its* gain, which is
  at most the true best-response gain: in expectation the cross-fitted NashConv is a lower bound, tight
  once the halves are large enough to pick the right action wherever it matters;
* the plug-in figure (maximum on all fresh deals) is an upper bound in expectation and is reported too.

The reported standard error is the per-deal spread of the cross-fitted gain divided by sqrt(deals).
"""

from __future__ import annotations

import time

import numpy as np

from agent_zoo.push_fold.multiway_game import (
    DealSample,
    Evaluator,
    Profile,
    action_factors,
    others_reach,
    sample_deals,
    terminal_payoffs,
)
from poker_envs.games.push_fold import PushFoldConfig


def _chunks(deals: int, chunk: int) -> list[int]:
    sizes = [chunk] * (deals // chunk)
    if deals % chunk:
        sizes.append(deals % chunk)
    return sizes


def _per_deal_gain(profiles: list[Profile], strategy: list[np.ndarray], response: list[np.ndarray],
                   classes: np.ndarray, payoffs: list[np.ndarray]) -> np.ndarray:  # fmt: skip
    """Per deal, the sum over seats of (seat plays ``response``, others ``strategy``) minus (all play ``strategy``)."""
    n = classes.shape[1]
    base = action_factors(profiles, strategy, classes)
    reach = [others_reach(f) for f in base]
    gain = np.zeros(len(classes))
    for s in range(n):
        swapped = action_factors(profiles, [response[t] if t == s else strategy[t] for t in range(n)], classes)
        for prof, pay, f, g, r in zip(profiles, payoffs, base, swapped, reach):
            if prof.actions[s] == -1:
                continue
            gain += pay[:, s] * r[s] * (g[s] - f[s])
    return gain


def _per_deal_diffs(profiles: list[Profile], strategy: list[np.ndarray], classes: np.ndarray,
                    payoffs: list[np.ndarray]) -> dict[tuple[int, int], np.ndarray]:  # fmt: skip
    """Per (seat, prefix) and deal, value of going all-in minus folding at that deal's own class."""
    diffs: dict[tuple[int, int], np.ndarray] = {}
    for prof, pay, f in zip(profiles, payoffs, action_factors(profiles, strategy, classes)):
        reach = others_reach(f)
        for s, a in enumerate(prof.actions):
            if a == -1:
                continue
            others = pay[:, s] * reach[s]
            key = (s, prof.prefixes[s])
            diffs[key] = diffs.get(key, 0.0) + (others if a == 1 else -others)
    return diffs


def out_of_sample_nash_conv(config: PushFoldConfig, profiles: list[Profile], strategy: list[np.ndarray], deals: int,
                            seed: int, evaluate_batch: Evaluator, chunk: int = 200_000, z: float = 2.0) -> dict[str, float]:  # fmt: skip
    """NashConv (BB per hand) of ``strategy`` on ``deals`` fresh deals: the cross-fitted estimate, its
    standard error, and the plug-in figure; the deals come from ``seed`` (one the solver did not train on).

    A half's best response deviates from ``strategy`` at an information set only where its estimated gain
    exceeds ``z`` standard errors there (it is still a fixed strategy scored on the other half, so the
    estimate stays a lower bound in expectation; the screen keeps noise-driven deviations, which lose on
    the other half, from dragging it below zero)."""
    if deals < 2000:
        raise ValueError(f"deals must be at least 2000, got {deals}")
    started = time.perf_counter()
    n = config.num_players
    sizes = _chunks(deals, min(chunk, deals // 2))
    c = len(strategy[0][0])
    sums: list[dict[tuple[int, int], np.ndarray]] = [{} for _ in range(2)]  # half -> (seat, prefix) -> (sum, sum of squares) per class

    def chunk_data(k: int) -> tuple[DealSample, list[np.ndarray]]:
        sample = sample_deals(n, sizes[k], np.random.default_rng([seed, k]), evaluate_batch)
        return sample, terminal_payoffs(config, profiles, sample)

    for k in range(len(sizes)):
        sample, payoffs = chunk_data(k)
        for (s, prefix), d in _per_deal_diffs(profiles, strategy, sample.classes, payoffs).items():
            cls = sample.classes[:, s]
            acc = sums[k % 2].setdefault((s, prefix), np.zeros((2, c)))
            acc[0] += np.bincount(cls, weights=d, minlength=c)
            acc[1] += np.bincount(cls, weights=d * d, minlength=c)
    half_deals = [sum(sizes[0::2]), sum(sizes[1::2])]
    responses = []
    for h in range(2):
        resp = [strategy[s].copy() for s in range(n)]
        for (s, prefix), (total, squares) in sums[h].items():
            m = half_deals[h]
            se = np.sqrt(np.maximum(squares - total**2 / m, 0.0))  # of the sum, treating deals as i.i.d.
            sigma = strategy[s][prefix]
            resp[s][prefix] = np.where(total > z * se, 1.0, np.where(total < -z * se, 0.0, sigma))
        responses.append(resp)
    plugin = 0.0
    for key in sums[0]:
        d = (sums[0][key][0] + sums[1][key][0]) / deals
        sigma = strategy[key[0]][key[1]]
        plugin += float((np.maximum(d, 0) * (1 - sigma) + np.maximum(-d, 0) * sigma).sum())
    gains = []
    for k in range(len(sizes)):
        sample, payoffs = chunk_data(k)
        gains.append(_per_deal_gain(profiles, strategy, responses[1 - k % 2], sample.classes, payoffs))
    per_deal = np.concatenate(gains)
    return {
        "nash_conv": float(per_deal.mean()),
        "nash_conv_stderr": float(per_deal.std(ddof=1) / np.sqrt(len(per_deal))),
        "plugin": float(plugin),
        "seconds": time.perf_counter() - started,
    }
