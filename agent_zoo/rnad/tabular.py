"""Tabular last-iterate solvers on a compiled ``GameTree``: exact R-NaD and magnetic mirror descent.

Both run on the sequence form of ``agent_zoo.cfr.tree`` with exact values (no sampling, no network),
so they show what the algorithms reach when neither sampling nor function approximation costs anything.
Both are *last-iterate* methods: the policy they return is the current one, not an average.

* **Tabular R-NaD** (Perolat et al., "From Poincaré recurrence to convergence in imperfect information
  games: finding equilibrium via regularization", ICML 2021; Perolat et al., "Mastering the game of
  Stratego with model-free multiagent reinforcement learning", Science 2022; eq. (6) of Hirano &
  Tsuruoka's two-stage averaging paper). The reward of every decision is transformed with the
  regularisation policy ``pi_reg``: the actor loses ``eta * log(pi / pi_reg)(a)``, its opponent gains it.
  NeuRD (eq. (5), the replicator dynamics in logit space) then runs on the transformed game with exact
  action values: ``y(I, a) += step * (q(I, a) - v(I))``, ``pi = softmax(y)``, where ``q`` and ``v`` are
  the transformed values at ``I`` conditioned on reaching it (counterfactual values divided by the
  counterfactual reach). Every ``reg_interval`` iterations (Algorithm 1's M), or earlier once the inner
  dynamics have converged (``reg_tolerance``), ``pi_reg`` becomes the current policy.
* **Magnetic mirror descent** (Sokota, D'Orazio, Kolter, Loizou, Lanctot, Mitliagkas, Brown and Kroer,
  "A Unified Approach to Reinforcement Learning, Quantal Response Equilibria, and Two-Player Zero-Sum
  Games", ICLR 2023), in one of two forms. ``mmd_form='behavioral'`` (the paper's RL form): at every
  infoset the closed form below with ``G = q``, the exact Q-values of the alpha-regularised game
  conditioned on reaching ``I`` (the regulariser of the action being updated left out: the proximal step
  carries it). ``mmd_form='sequence'`` (the paper's EFG solver, dilated entropy): each player's
  realization plan takes the proximal step
  ``argmax_x eta <g, x> - alpha eta B(x; rho) - B(x; x_t)`` (``g`` = counterfactual sequence values,
  ``B`` = dilated KL). It decomposes per infoset, bottom-up, into the paper's closed form
  ``pi_{t+1}(a|I) ∝ [pi_t(a|I) rho(a|I)^(alpha eta) exp(eta G(I, a))]^(1 / (1 + alpha eta))``, where
  ``G`` adds to ``g`` the optimal values (log-sum-exp) of the infosets below ``(I, a)``. With a fixed
  magnet MMD converges to the QRE (behavioral form: the agent QRE) of temperature ``alpha``; a *moving* magnet
  (``rho <- rho^(1 - r) pi^r`` every ``magnet_interval`` steps, ``r = magnet_rate``; ``r = 1`` restarts it
  at the current policy, a proximal-point method) aims it at a Nash equilibrium. Two options of the
  sequence form: ``mmd_optimism`` steps on the predicted values ``g_t + c (g_t - g_{t-1})`` (optimistic
  mirror descent; Lee, Kroer and Luo, "Last-iterate convergence in extensive-form games", NeurIPS 2021),
  and ``mmd_weights='chance'`` weights each infoset's entropy term by its reach under chance and a
  uniform opponent (the closed form's temperature becomes ``weight(I) (1 + alpha eta)``), so one step
  size suits shallow and deep infosets alike. Together (preset ``leduc-omd``) they take the last iterate
  below 1e-3 on Leduc for good after about 15,300 iterations.

The reward transformation is exact on the tree because a per-decision reward, taken in expectation over
everything that follows, equals the same reward added to every terminal below: a terminal's
transformed payoff is ``u_p(z) - eta L_p(z) + eta L_o(z)`` with ``L_q(z)`` the sum of
``log(pi_q / pi_reg_q)`` along player ``q``'s sequence to ``z`` (``path_log_ratio``). Two-player only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields

import numpy as np

from agent_zoo.cfr.best_response import ExploitabilityResult, backward, exploitability_of_parts, reach, sequence_values, terminal_weights
from agent_zoo.cfr.tree import GameTree, PlayerTree
from agent_zoo.regret import normalize
from poker_envs import catalog

ALGOS = ("rnad", "mmd")


@dataclass(frozen=True)
class TabularConfig:
    """Settings of both tabular solvers (each reads only its own fields)."""

    algo: str = "mmd"  # 'rnad' (tabular R-NaD with NeuRD) or 'mmd' (magnetic mirror descent)
    # R-NaD
    rnad_eta: float = 0.5  # reward-transformation strength eta of eq. (6) (tuned on Leduc; the network's is 0.2)
    rnad_step: float = 0.05  # NeuRD step size on the logits (values in chips, conditioned on reaching I)
    reg_interval: int = 500  # M: iterations between two regularisation-policy updates (Algorithm 1)
    reg_tolerance: float = 0.0  # update pi_reg early once max |pi_t+1 - pi_t| < this (0: only every M)
    # MMD
    mmd_step: float = 0.02  # step size eta of the proximal step (chips^-1; tuned on Leduc)
    mmd_alpha: float = 1.0  # regularisation temperature alpha toward the magnet
    mmd_form: str = "behavioral"  # 'behavioral' (per-infoset Q-values) or 'sequence' (dilated entropy, counterfactual values)
    magnet_rate: float = 0.002  # r in rho <- rho^(1-r) pi^r (the moving magnet); 0 keeps the uniform magnet
    magnet_interval: int = 1  # iterations between two magnet moves (1: after every step)
    mmd_weights: str = "unit"  # sequence form: dilated-entropy weight per infoset, 'unit' or 'chance' (its reach by chance and a uniform opponent)
    mmd_optimism: float = 0.0  # sequence form: step on g_t + c (g_t - g_t-1) (1: optimistic / predictive MMD; 0: plain)

    def __post_init__(self) -> None:
        if self.algo not in ALGOS:
            raise ValueError(f"algo must be one of {ALGOS}, got {self.algo!r}")
        if self.mmd_weights not in ("unit", "chance"):
            raise ValueError(f"mmd_weights must be 'unit' or 'chance', got {self.mmd_weights!r}")
        if self.mmd_form not in ("behavioral", "sequence"):
            raise ValueError(f"mmd_form must be 'behavioral' or 'sequence', got {self.mmd_form!r}")
        for name in ("rnad_eta", "rnad_step", "mmd_step", "mmd_alpha", "magnet_rate", "reg_tolerance", "mmd_optimism"):
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value}")
        for name in ("rnad_step", "mmd_step"):
            if getattr(self, name) == 0:
                raise ValueError(f"{name} must be > 0, got 0")
        if self.magnet_rate > 1:
            raise ValueError(f"magnet_rate must be in [0, 1], got {self.magnet_rate}")
        for name in ("reg_interval", "magnet_interval"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


# Named settings (``--preset NAME``; ``--set`` still overrides single fields).
PRESETS: dict[str, dict[str, object]] = {
    # Optimistic sequence-form MMD with chance-weighted dilated entropy, a small alpha and a slowly moving
    # magnet: the last iterate stays below 1e-3 on Leduc from 15,340 iterations on and reaches 3e-11 at
    # 120,000 (about a minute of one core; docs/results/rnad.md, "Tabular baselines").
    "leduc-omd": {"algo": "mmd", "mmd_form": "sequence", "mmd_weights": "chance", "mmd_optimism": 1.0,
                  "mmd_step": 0.1, "mmd_alpha": 0.01, "magnet_rate": 0.003, "magnet_interval": 1},
}  # fmt: skip


def config_defaults() -> dict[str, object]:
    """Field name -> default value of ``TabularConfig`` (typed ``--set FIELD=VALUE`` parsing)."""
    return {f.name: getattr(TabularConfig(), f.name) for f in fields(TabularConfig)}


# Pure functions over the tree arrays --------------------------------------------------------------
def log_softmax_rows(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax over the legal actions, 0 in illegal slots. Solvers keep log-policies, never
    logs of probabilities: a probability that underflows to 0 would make its log -inf."""
    z = np.where(legal, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    out = z - top - np.log(np.exp(z - top).sum(axis=1, keepdims=True))
    return np.where(legal, out, 0.0)


def probabilities(log_policy: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The policy of a log-policy from ``log_softmax_rows`` (0 on illegal actions)."""
    return np.where(legal, np.exp(log_policy), 0.0)


def path_log_ratio(pt: PlayerTree, log_ratio: np.ndarray) -> np.ndarray:
    """Top-down sums of a per-(infoset, action) quantity along each of the player's sequences (index 0 = empty)."""
    num_info, num_actions = pt.legal.shape
    out = np.zeros(1 + num_info * num_actions)
    flat = out[1:].reshape(num_info, num_actions)
    for level in pt.levels:
        flat[level] = out[pt.parent_seq[level]][:, None] + log_ratio[level]
    return out


def counterfactual_reach(tree: GameTree, plans: list[np.ndarray], policy: np.ndarray, player: int) -> np.ndarray:
    """Chance times the others' reach of each of ``player``'s infosets, summed over its histories, (I_p,)."""
    pt = tree.players[player]
    seq = np.bincount(pt.terminal_seq, terminal_weights(tree, plans, player, tree.terminal_chance), minlength=pt.num_sequences)
    return backward(pt, seq, policy)[1]


def transformed_sequence_values(
    tree: GameTree, plans: list[np.ndarray], path_ratios: list[np.ndarray], player: int, own: float, other: float
) -> np.ndarray:
    """Counterfactual sequence values of ``player`` for the payoff ``u - own L_player + other L_opponent`` at
    every terminal (R-NaD's eq. (6): ``own = other = eta``; MMD's regularised game: ``own = alpha, other = 0``)."""
    pt = tree.players[player]
    payoff = tree.terminal_cu[:, player] / np.where(tree.terminal_chance > 0, tree.terminal_chance, 1.0)
    for q, (qt, ratios) in enumerate(zip(tree.players, path_ratios)):
        coef = -own if q == player else other
        if coef:
            payoff = payoff + coef * ratios[qt.terminal_seq]
    w = terminal_weights(tree, plans, player, tree.terminal_chance) * payoff
    return np.bincount(pt.terminal_seq, w, minlength=pt.num_sequences)


def conditional_values(
    tree: GameTree, plans: list[np.ndarray], path_ratios: list[np.ndarray], player: int, policy: np.ndarray,
    own: float, other: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact action values q (I_p, A) and infoset values v (I_p,) of the transformed game (see
    ``transformed_sequence_values``), conditioned on reaching each infoset: counterfactual / counterfactual reach.

    Both include, besides the rewards from ``I`` on, the same per-infoset constant: the expected transformed
    rewards already collected on the way to ``I`` (terminal payoffs carry whole paths). Advantages
    ``q - v`` and soft-max updates, all the solvers use, do not see it."""
    pt = tree.players[player]
    q, v, _ = backward(pt, transformed_sequence_values(tree, plans, path_ratios, player, own, other), policy)
    cf_reach = counterfactual_reach(tree, plans, policy, player)
    # Infosets the others reach with probability under 1e-300 (underflow) get values 0: no update there.
    seen = cf_reach > 1e-300
    safe = np.where(seen, cf_reach, 1.0)
    return np.where(seen[:, None], q / safe[:, None], 0.0), np.where(seen, v / safe, 0.0)


def mmd_step(
    pt: PlayerTree, seq_values: np.ndarray, log_pi: np.ndarray, log_magnet: np.ndarray, step: float, alpha: float,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """One dilated-entropy MMD proximal step for one player: the new (I_p, A) log-policy (closed form, bottom-up).
    ``weights`` (I_p,) weight each infoset's entropy term (weighted dilated entropy; None: all 1)."""
    num_info, num_actions = pt.legal.shape
    beta = np.ones(num_info) if weights is None else weights
    flat = step * seq_values.astype(np.float64)
    g = flat[1:].reshape(num_info, num_actions)
    prior = (alpha * step * log_magnet + log_pi) / (1.0 + alpha * step)
    new = np.zeros((num_info, num_actions))
    for level in reversed(pt.levels):
        temp = (beta[level] * (1.0 + alpha * step))[:, None]
        z = np.where(pt.legal[level], g[level] / temp + prior[level], -np.inf)
        top = z.max(axis=1, keepdims=True)
        e = np.exp(z - top)
        total = e.sum(axis=1, keepdims=True)
        new[level] = np.where(pt.legal[level], z - top - np.log(total), 0.0)
        value = temp[:, 0] * (top[:, 0] + np.log(total[:, 0]))
        flat += np.bincount(pt.parent_seq[level], value, minlength=flat.size)
    return new


def geometric_mix(log_a: np.ndarray, log_b: np.ndarray, rate: float, legal: np.ndarray) -> np.ndarray:
    """Log of ``a^(1-rate) b^rate`` renormalised per row over the legal actions."""
    return log_softmax_rows((1.0 - rate) * log_a + rate * log_b, legal)


# The solver ----------------------------------------------------------------------------------------
class TabularSolver:
    """Tabular R-NaD or MMD on a two-player ``tree``; policies are per-player (I_p, A) arrays, joined on request."""

    def __init__(self, tree: GameTree, config: TabularConfig = TabularConfig()) -> None:
        if tree.num_players != 2:
            raise ValueError(f"tabular R-NaD / MMD need a two-player game; {tree.game_name} has {tree.num_players}")
        self.tree = tree
        self.config = config
        self.iteration = 0
        self.reg_updates = 0  # R-NaD: regularisation-policy updates so far
        self._since_reg = 0
        self._logp = [np.log(pt.uniform, where=pt.legal, out=np.zeros(pt.legal.shape)) for pt in tree.players]
        self._policy = [pt.uniform.copy() for pt in tree.players]  # probabilities of the log-policies _logp
        self._logits = [np.zeros(pt.legal.shape) for pt in tree.players]  # R-NaD's NeuRD logits
        self._log_reg = [lp.copy() for lp in self._logp]  # log of R-NaD's pi_reg, or of MMD's magnet rho
        self._avg = [np.zeros(pt.legal.shape) for pt in tree.players]  # sum of realization plans (reference)
        self._prev_values: list[np.ndarray] | None = None  # sequence-form MMD's last values (optimism)
        self._weights: list[np.ndarray | None] = [None, None]  # sequence-form MMD's dilated-entropy weights
        if config.mmd_weights == "chance":
            uniform_plans = [reach(pt, pt.uniform) for pt in tree.players]
            self._weights = [counterfactual_reach(tree, uniform_plans, pt.uniform, p) for p, pt in enumerate(tree.players)]

    def iterate(self, num_iterations: int = 1) -> None:
        """Run ``num_iterations`` simultaneous updates of both players."""
        if num_iterations < 0:
            raise ValueError(f"num_iterations must be >= 0, got {num_iterations}")
        for _ in range(num_iterations):
            self.iteration += 1
            plans = [reach(pt, pol) for pt, pol in zip(self.tree.players, self._policy)]
            for pt, x, acc in zip(self.tree.players, plans, self._avg):
                acc += x[1:].reshape(pt.legal.shape)
            if self.config.algo == "mmd":
                self._mmd(plans)
            else:
                self._rnad(plans)

    def _mmd(self, plans: list[np.ndarray]) -> None:
        cfg = self.config
        if cfg.mmd_form == "behavioral":
            new = self._mmd_behavioral(plans)
        else:
            values = [sequence_values(self.tree, plans, p) for p in range(2)]
            grads = values
            if cfg.mmd_optimism and self._prev_values is not None:
                grads = [g + cfg.mmd_optimism * (g - prev) for g, prev in zip(values, self._prev_values)]
            self._prev_values = values
            new = [
                mmd_step(pt, grads[p], self._logp[p], self._log_reg[p], cfg.mmd_step, cfg.mmd_alpha, self._weights[p])
                for p, pt in enumerate(self.tree.players)
            ]
        self._set_policy(new)
        if cfg.magnet_rate > 0 and self.iteration % cfg.magnet_interval == 0:
            self._log_reg = [geometric_mix(m, lp, cfg.magnet_rate, pt.legal) for m, lp, pt in zip(self._log_reg, new, self.tree.players)]

    def _set_policy(self, log_policies: list[np.ndarray]) -> None:
        self._logp = log_policies
        self._policy = [probabilities(lp, pt.legal) for lp, pt in zip(log_policies, self.tree.players)]

    def _mmd_behavioral(self, plans: list[np.ndarray]) -> list[np.ndarray]:
        """MMD's closed form at every infoset with the exact Q-values of the alpha-regularised game (the
        regulariser of the action being updated left out: the proximal step itself carries it)."""
        cfg, tree = self.config, self.tree
        step, alpha = cfg.mmd_step, cfg.mmd_alpha
        new = []
        for p, pt in enumerate(tree.players):
            log_pi, log_rho = self._logp[p], self._log_reg[p]
            ratios = [path_log_ratio(pt, log_pi - log_rho) if q == p else np.zeros(1) for q in range(2)]
            q_incl, _ = conditional_values(tree, plans, ratios, p, self._policy[p], alpha, 0.0)
            q = q_incl + alpha * (log_pi - log_rho)
            new.append(log_softmax_rows((log_pi + alpha * step * log_rho + step * q) / (1.0 + alpha * step), pt.legal))
        return new

    def _rnad(self, plans: list[np.ndarray]) -> None:
        cfg, tree = self.config, self.tree
        ratios = [
            path_log_ratio(pt, lp - reg) for pt, lp, reg in zip(tree.players, self._logp, self._log_reg)
        ]
        change, new = 0.0, []
        for p, pt in enumerate(tree.players):
            q, v = conditional_values(tree, plans, ratios, p, self._policy[p], cfg.rnad_eta, cfg.rnad_eta)
            self._logits[p] += cfg.rnad_step * np.where(pt.legal, q - v[:, None], 0.0)
            new.append(log_softmax_rows(self._logits[p], pt.legal))
            change = max(change, float(np.abs(probabilities(new[p], pt.legal) - self._policy[p]).max()))
        self._set_policy(new)
        self._since_reg += 1
        if self._since_reg >= cfg.reg_interval or change < cfg.reg_tolerance:
            self._log_reg = [lp.copy() for lp in self._logp]
            self._since_reg = 0
            self.reg_updates += 1

    # Policies -----------------------------------------------------------------------------
    def current_policy(self) -> np.ndarray:
        """The last iterate (what these solvers return), (I, A) in the tree's infoset order."""
        return self.tree.join(self._policy)

    def average_policy(self) -> np.ndarray:
        """The uniform average of all iterates so far (for reference only), (I, A)."""
        return self.tree.join(self._average_parts())

    def _average_parts(self) -> list[np.ndarray]:
        return [normalize(a, pt.uniform) for a, pt in zip(self._avg, self.tree.players)]

    def exploitability(self) -> ExploitabilityResult:
        """Exact exploitability of the last iterate."""
        return exploitability_of_parts(self.tree, self._policy)

    def average_exploitability(self) -> ExploitabilityResult:
        """Exact exploitability of the average iterate (reference)."""
        return exploitability_of_parts(self.tree, self._average_parts())


def solve(
    game: str, config: TabularConfig, iterations: int, log_points: int = 0
) -> tuple[TabularSolver, list[dict[str, float]], float]:
    """Run ``iterations`` on ``game`` ('kuhn' or 'leduc'); returns the solver, a curve of about ``log_points``
    log-spaced evaluations (iteration, exploitability of last and average iterate) and the solving seconds
    (iterations only, without the curve's evaluations)."""
    if not isinstance(iterations, int) or iterations < 0:
        raise ValueError(f"iterations must be an integer >= 0, got {iterations!r}")
    tree = compile_game(game)
    solver = TabularSolver(tree, config)
    marks = sorted(set(np.unique(np.geomspace(1, max(iterations, 1), log_points).astype(int)).tolist())) if log_points else []
    marks = [m for m in marks if m <= iterations]
    curve: list[dict[str, float]] = []
    seconds = 0.0
    for target in marks + [iterations]:
        start = time.perf_counter()
        solver.iterate(target - solver.iteration)
        seconds += time.perf_counter() - start
        if target in marks and (not curve or curve[-1]["iteration"] != target):
            curve.append({"iteration": target, "exploitability": solver.exploitability().exploitability,
                          "average_exploitability": solver.average_exploitability().exploitability})  # fmt: skip
    return solver, curve, seconds


GAMES = tuple(catalog.keys(solver="rnad"))  # catalog keys of the games tabular R-NaD / MMD solve


def compile_game(game: str) -> GameTree:
    """The compiled tree of a game of ``GAMES`` (its rules from the catalog)."""
    if game not in GAMES:
        raise ValueError(f"game must be one of {GAMES}, got {game!r}")
    return GameTree.build(catalog.game(game, solver="rnad").rules())
