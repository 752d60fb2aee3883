"""Exact expected values, best responses and exploitability on a compiled ``GameTree``.

Three vectorised passes (see ``tree.py`` for the sequence form they run on):

* ``reach``: top-down over one player's infoset tree: the realization plan ``x[seq]``, the player's
  own probability of playing every sequence.
* ``terminal_weights`` + ``bincount``: for player ``p``, ``chance * payoff_p * prod_{q != p} x_q`` at
  every terminal, summed per sequence of ``p`` (a sparse matrix-vector product).
* ``backward``: bottom-up over ``p``'s infoset tree: counterfactual action values and infoset
  values, taking the expectation under a policy, or the maximum (a best response).

Exploitability follows OpenSpiel: ``nash_conv = sum_p (best-response value_p - policy value_p)``
(the sum in eq. (3) of Hirano & Tsuruoka's two-stage averaging paper) and
``exploitability = nash_conv / num_players``; both in chips per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent_zoo.cfr.tree import GameTree, PlayerTree


@dataclass(frozen=True)
class ExploitabilityResult:
    """Best-response gains of a policy profile, in chips per game."""

    nash_conv: float  # sum over players of (best-response value - policy value): eq. (3) of Hirano & Tsuruoka
    exploitability: float  # nash_conv / num_players: OpenSpiel's ``exploitability``
    br_values: np.ndarray  # (n,) value of each player's best response against the others' policy
    policy_values: np.ndarray  # (n,) value of each player when everyone follows the policy


def reach(pt: PlayerTree, local_policy: np.ndarray) -> np.ndarray:
    """Realization plan of one player: own probability of each local sequence (index 0 = empty)."""
    num_info, num_actions = pt.legal.shape
    x = np.empty(1 + num_info * num_actions)
    x[0] = 1.0
    plan = x[1:].reshape(num_info, num_actions)
    for level in pt.levels:
        plan[level] = x[pt.parent_seq[level]][:, None] * local_policy[level]
    return x


def terminal_weights(tree: GameTree, plans: list[np.ndarray], player: int, base: np.ndarray | None = None) -> np.ndarray:
    """``base * (reach of every other player)`` at each terminal; ``base`` defaults to
    ``chance * payoff_player`` (``tree.terminal_chance`` gives the others' and chance's reach alone)."""
    w = (tree.terminal_cu[:, player] if base is None else base).copy()
    for q, (pt, x) in enumerate(zip(tree.players, plans)):
        if q != player:
            w *= x[pt.terminal_seq]
    return w


def sequence_values(tree: GameTree, plans: list[np.ndarray], player: int) -> np.ndarray:
    """Counterfactual payoff collected directly at each of ``player``'s sequences (no later own decision)."""
    pt = tree.players[player]
    return np.bincount(pt.terminal_seq, terminal_weights(tree, plans, player), minlength=pt.num_sequences)


def backward(
    pt: PlayerTree, seq_values: np.ndarray, local_policy: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, float]:
    """Bottom-up pass: (action values (I_p, A), infoset values (I_p,), value at the root).

    Values are counterfactual (weighted by chance and the other players' reach). With
    ``local_policy=None`` each infoset takes its best legal action (a best response).
    """
    num_info, num_actions = pt.legal.shape
    flat = seq_values.astype(np.float64, copy=True)
    q = flat[1:].reshape(num_info, num_actions)
    v = np.zeros(num_info)
    for level in reversed(pt.levels):
        if local_policy is None:
            vl = (q[level] + pt.illegal_penalty[level]).max(axis=1)
        else:
            vl = (local_policy[level] * q[level]).sum(axis=1)
        v[level] = vl
        flat += np.bincount(pt.parent_seq[level], vl, minlength=flat.size)
    return q, v, float(flat[0])


def _plans(tree: GameTree, policy: np.ndarray) -> list[np.ndarray]:
    policy = tree.check_policy(policy)
    return [reach(pt, part) for pt, part in zip(tree.players, tree.split(policy))]


def _policy_values(tree: GameTree, plans: list[np.ndarray]) -> np.ndarray:
    prob = np.ones(tree.num_terminals)
    for pt, x in zip(tree.players, plans):
        prob *= x[pt.terminal_seq]
    return prob @ tree.terminal_cu


def expected_values(tree: GameTree, policy: np.ndarray) -> np.ndarray:
    """Expected chips won per game by each player when all follow ``policy`` (I, A)."""
    return _policy_values(tree, _plans(tree, policy))


def best_response_values(tree: GameTree, policy: np.ndarray) -> np.ndarray:
    """Value of each player's exact best response against the others playing ``policy``."""
    plans = _plans(tree, policy)
    return np.array(
        [backward(pt, sequence_values(tree, plans, p), None)[2] for p, pt in enumerate(tree.players)]
    )


def best_response_policy(tree: GameTree, policy: np.ndarray, player: int) -> np.ndarray:
    """``policy`` with ``player``'s rows replaced by a pure best response (ties: lowest action id)."""
    plans = _plans(tree, policy)
    pt = tree.players[player]
    q, _, _ = backward(pt, sequence_values(tree, plans, player), None)
    best = np.where(pt.legal, q, -np.inf).argmax(axis=1)
    out = np.array(policy, dtype=np.float64, copy=True)
    out[pt.infosets] = 0.0
    out[pt.infosets, best] = 1.0
    return out


def own_reach(tree: GameTree, policy: np.ndarray) -> np.ndarray:
    """(I,) each infoset's player's own probability of reaching it under ``policy`` (I, A): the realization plan
    at the sequence just before the infoset."""
    out = np.zeros(tree.num_infosets)
    for pt, part in zip(tree.players, tree.split(tree.check_policy(policy))):
        out[pt.infosets] = reach(pt, part)[pt.parent_seq]
    return out


def average_policy(tree: GameTree, policies: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
    """The behaviour policy of the mixture that draws ``policies[k]`` with probability ``weights[k]`` (uniform by
    default) once per game and plays it throughout: at each infoset the members' rows weighted by weight x own
    reach (realization-equivalent to the mixture, Kuhn's theorem; the average strategy of CFR and fictitious
    play). An infoset no member reaches gets the uniform legal policy."""
    if not len(policies):
        raise ValueError("policies must hold at least one policy")
    w = np.full(len(policies), 1.0) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (len(policies),) or np.any(w < 0) or not w.sum() > 0:
        raise ValueError(f"weights must be {len(policies)} non-negative numbers, not all 0, got {weights!r}")
    num, den = np.zeros(tree.legal_mask.shape), np.zeros(tree.num_infosets)
    for wk, policy in zip(w, policies):
        r = wk * own_reach(tree, policy)
        num += r[:, None] * policy
        den += r
    return average_from_sums(tree, num, den)


def average_from_sums(tree: GameTree, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``average_policy`` from its running sums: reach-weighted rows ``num`` (I, A) and reaches ``den`` (I,), so a
    caller can add members one at a time."""
    return np.where(den[:, None] > 0, num / np.where(den > 0, den, 1.0)[:, None], tree.uniform_policy())


def exploitability(tree: GameTree, policy: np.ndarray) -> ExploitabilityResult:
    """Exact NashConv and exploitability (NashConv / n) of ``policy`` (I, A) on ``tree``."""
    return exploitability_of_parts(tree, tree.split(tree.check_policy(policy)))


def exploitability_of_parts(tree: GameTree, parts: list[np.ndarray]) -> ExploitabilityResult:
    """``exploitability`` for a policy already split per player (``GameTree.split``), unchecked."""
    plans = [reach(pt, part) for pt, part in zip(tree.players, parts)]
    br = np.array([backward(pt, sequence_values(tree, plans, p), None)[2] for p, pt in enumerate(tree.players)])
    values = _policy_values(tree, plans)
    nash_conv = float(np.sum(br - values))
    return ExploitabilityResult(nash_conv, nash_conv / tree.num_players, br, values)
