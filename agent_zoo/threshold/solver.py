"""Exact symmetric equilibrium of the threshold game (the CFR blog post).

n players draw distinct cards from 0..num_cards-1 and declare bet or fold at once. If nobody bets,
everyone gets 0. Otherwise every folder loses 1, every bettor stakes ``alpha``, and the highest bettor
takes the pot: a lone bettor wins n-1, the winner among m bettors wins alpha*(m-1) + (n-m), the other
bettors lose alpha.

Everything here is exact: a strategy is a vector ``beta[c]`` (probability of betting with card c), and
the expected payoffs of bet and of fold for each card against n-1 opponents who play ``beta`` are
computed by a dynamic programme over the cards (subset polynomials), with exact card removal (an
opponent never holds your card). From those come the best response, NashConv and exploitability, and
the symmetric threshold equilibrium. The document's sampled regret matching is kept for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from math import comb

import numpy as np

from agent_zoo.regret import regret_matching

FOLD, BET = 0, 1


@dataclass(frozen=True)
class ThresholdSolverConfig:
    """Parameters of one threshold game."""

    num_players: int = 2  # n, the players at the table (the document uses 2..10)
    alpha: float = 2.0  # the odds: what a bettor stakes (a folder loses 1 when someone bets)
    num_cards: int = 101  # cards are 0..num_cards-1, all distinct (the document: 0..100)

    def __post_init__(self) -> None:
        if int(self.num_players) != self.num_players or self.num_players < 2:
            raise ValueError(f"num_players must be an integer >= 2, got {self.num_players!r}")
        if not self.alpha > 1:
            raise ValueError(f"alpha (the odds) must be > 1, got {self.alpha!r}")
        if int(self.num_cards) != self.num_cards or self.num_cards < self.num_players:
            raise ValueError(
                f"num_cards must be an integer >= num_players ({self.num_players}), got {self.num_cards!r}"
            )


def threshold_strategy(threshold: float, num_cards: int) -> np.ndarray:
    """Bet probabilities of "bet with card c >= threshold"; a fractional threshold t+f mixes card t (bets 1-f)."""
    if not 0 <= threshold <= num_cards:
        raise ValueError(f"threshold must lie in [0, {num_cards}], got {threshold!r}")
    return np.clip(np.arange(num_cards) + 1.0 - threshold, 0.0, 1.0)


def _check_strategy(beta: np.ndarray, cfg: ThresholdSolverConfig) -> np.ndarray:
    beta = np.asarray(beta, dtype=np.float64)
    if beta.shape != (cfg.num_cards,):
        raise ValueError(f"strategy must have shape ({cfg.num_cards},), got {beta.shape}")
    if np.any(beta < 0) or np.any(beta > 1) or not np.all(np.isfinite(beta)):
        raise ValueError("strategy entries (bet probabilities) must lie in [0, 1]")
    return beta


def action_values(beta: np.ndarray, cfg: ThresholdSolverConfig) -> tuple[np.ndarray, np.ndarray]:
    """Expected payoff of bet and of fold for every card, against n-1 opponents playing ``beta``.

    ``below[h][j, x]`` sums, over the j-subsets S of the cards below h, the probability that exactly x
    of S bet; ``none_above[h][j]`` sums over j-subsets of the cards above h the probability that none
    of them bets. Opponents' hands are a uniform (n-1)-subset of the other cards, so dividing by
    C(num_cards-1, n-1) turns these sums into probabilities.
    """
    beta = _check_strategy(beta, cfg)
    n, cards = cfg.num_players, cfg.num_cards
    r = n - 1
    below = np.zeros((cards, r + 1, r + 1))
    poly = np.zeros((r + 1, r + 1))
    poly[0, 0] = 1.0
    for c in range(cards):
        below[c] = poly
        nxt = poly.copy()
        nxt[1:, :] += (1.0 - beta[c]) * poly[:-1, :]
        nxt[1:, 1:] += beta[c] * poly[:-1, :-1]
        poly = nxt
    none_above = np.zeros((cards, r + 1))
    vec = np.zeros(r + 1)
    vec[0] = 1.0
    for c in range(cards - 1, -1, -1):
        none_above[c] = vec
        nxt = vec.copy()
        nxt[1:] += (1.0 - beta[c]) * vec[:-1]
        vec = nxt
    total = float(comb(cards - 1, r))
    # Pair a j-subset below with an (r-j)-subset above: flip the "above" index so one einsum does it.
    above_flipped = none_above[:, ::-1]  # [h, j] = none_above[h, r - j]
    all_below = np.einsum("hjx,hj->hx", below, above_flipped) / total  # [h, x]: x bettors, all below h
    p_nobody = all_below[:, 0]
    p_win_against = all_below[:, 1:]  # x = 1..r bettors, all below me
    p_clear_above = all_below.sum(axis=1)  # no bettor above me
    x = np.arange(1, r + 1)
    win_amount = cfg.alpha * x + (n - 1 - x)
    bet = p_nobody * (n - 1) + p_win_against @ win_amount - cfg.alpha * (1.0 - p_clear_above)
    fold = -(1.0 - p_nobody)
    return bet, fold


def best_response_gain(beta: np.ndarray, cfg: ThresholdSolverConfig) -> float:
    """What one player gains per game by switching to a best response while the others keep ``beta``."""
    bet, fold = action_values(beta, cfg)
    beta = np.asarray(beta, dtype=np.float64)
    current = beta * bet + (1.0 - beta) * fold
    return float(np.mean(np.maximum(bet, fold) - current))


def nash_conv(beta: np.ndarray, cfg: ThresholdSolverConfig) -> float:
    """NashConv of the symmetric profile: the sum over the n players of their best-response gains."""
    return cfg.num_players * best_response_gain(beta, cfg)


def exploitability(beta: np.ndarray, cfg: ThresholdSolverConfig) -> float:
    """OpenSpiel-style exploitability: NashConv / number of players (= one player's gain here)."""
    return best_response_gain(beta, cfg)


@dataclass(frozen=True)
class ThresholdResult:
    """A symmetric equilibrium and the evidence that it is one."""

    config: ThresholdSolverConfig
    threshold: float  # bet with card c >= threshold (a fractional part f mixes card floor(threshold): bets 1-f)
    strategy: np.ndarray = field(repr=False)  # bet probability per card
    bet_value: np.ndarray = field(repr=False)  # expected payoff of betting, per card, against the strategy
    fold_value: np.ndarray = field(repr=False)  # expected payoff of folding, per card
    nash_conv: float  # sum of the players' best-response gains (0 at an exact equilibrium)
    exploitability: float  # NashConv / num_players (OpenSpiel's definition)


class ThresholdSolver:
    """Finds the symmetric threshold equilibrium exactly.

    With exact card removal a card's own bet probability does not change its own payoffs (nobody else
    can hold it), so the equilibrium is the threshold t at which the best response to "bet iff c >= t"
    is "bet iff c >= t" again. Bet-minus-fold gains rise with the card, so we scan the integer
    thresholds; if no integer one is self-consistent we fall back to the mixed threshold found by
    bisection on the fractional threshold (never needed for the document's settings, see tests).
    """

    def __init__(self, config: ThresholdSolverConfig) -> None:
        self.config = config

    def _gains(self, threshold: float) -> np.ndarray:
        bet, fold = action_values(threshold_strategy(threshold, self.config.num_cards), self.config)
        return bet - fold

    def _self_consistent(self, t: int) -> bool:
        gain = self._gains(t)
        return bool(np.all(gain[t:] >= -1e-12) and np.all(gain[:t] <= 1e-12))

    def _best_response_threshold(self, t: int) -> int:
        """Lowest card from which betting gains against "bet iff c >= t" (gains rise with the card)."""
        positive = np.flatnonzero(self._gains(t) > 1e-12)
        return int(positive[0]) if positive.size else self.config.num_cards

    def solve(self) -> ThresholdResult:
        """Best-response iteration on integer thresholds from the two-player value, then the lowest
        self-consistent threshold next to it (where a card is exactly indifferent, as for n = 2,
        alpha = 2, both t and t + 1 are equilibria; we report the lower). Full scan as a fallback."""
        cfg = self.config
        cards = cfg.num_cards
        found: float | None = None
        t = int(round((cards - 1) * (cfg.alpha - 1) / cfg.alpha))
        for _ in range(30):
            if self._self_consistent(t):
                while t > 0 and self._self_consistent(t - 1):
                    t -= 1
                found = float(t)
                break
            t = self._best_response_threshold(t)
        if found is None:
            for t in range(cards + 1):
                if self._self_consistent(t):
                    found = float(t)
                    break
        if found is None:
            found = self._bisect_mixed()
        beta = threshold_strategy(found, cards)
        bet, fold = action_values(beta, cfg)
        gain = float(np.mean(np.maximum(bet, fold) - (beta * bet + (1 - beta) * fold)))
        return ThresholdResult(cfg, found, beta, bet, fold, cfg.num_players * gain, gain)

    def _bisect_mixed(self) -> float:
        """Fractional threshold s where the marginal card is indifferent (sign change of its gain)."""
        lo, hi = 0.0, float(self.config.num_cards)
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            card = min(int(mid), self.config.num_cards - 1)
            if self._gains(mid)[card] > 0:
                hi = mid
            else:
                lo = mid
        return 0.5 * (lo + hi)


def solve_threshold(num_players: int, alpha: float, num_cards: int = 101) -> ThresholdResult:
    """Convenience wrapper: the exact symmetric equilibrium of one (n, alpha)."""
    return ThresholdSolver(ThresholdSolverConfig(num_players, alpha, num_cards)).solve()


# The document's sampled regret matching, for comparison ---------------------------------------------
@dataclass(frozen=True)
class SampledResult:
    """What the document's sampled regret matching ends with."""

    strategy: np.ndarray = field(repr=False)  # final regret-matching bet probability per card
    threshold: float  # num_cards - sum(strategy): exactly t for the pure strategy "bet iff card >= t"
    exploitability: float  # exact OpenSpiel-style exploitability of the final strategy
    deals: int  # deals sampled


def regret_matching_strategy(regrets: np.ndarray) -> np.ndarray:
    """Bet probability from cumulative (fold, bet) regrets; 1/2 where neither is positive (the document)."""
    return regret_matching(regrets)[:, BET]


def _per_deal_regrets(n: int, alpha: float, deals: int, rng: np.random.Generator, progress: bool) -> np.ndarray:
    """``sampled_regret_matching`` with ``batch=1``: the same draws from ``rng`` (101 uniforms for the deal, n for
    the moves) and the same float operations as the array path, one deal at a time."""
    from poker_envs.games.threshold import NUM_CARDS

    a = float(alpha)
    fold_r = [0.0] * NUM_CARDS
    bet_r = [0.0] * NUM_CARDS
    steps: Any = range(deals)
    if progress:
        from tqdm import tqdm

        steps = tqdm(steps, desc=f"sampled RM n={n} alpha={alpha}, per deal", unit="deal")
    for _ in steps:
        cards = rng.random(NUM_CARDS).argsort()[:n].tolist()
        moves = rng.random(n).tolist()
        bets = []
        for c, u in zip(cards, moves):
            f, b = fold_r[c], bet_r[c]
            pf, pb = (f if f > 0.0 else 0.0), (b if b > 0.0 else 0.0)
            total = pf + pb
            bets.append(u < (pb / total if total > 0.0 else 0.5))
        # Seat k's payoff with its move forced, from the others' bets (threshold_payoffs_row's arithmetic):
        # folding loses 1 if anyone else bets; betting stakes alpha and takes the pot above every other bettor.
        high = sorted((c for c, b in zip(cards, bets) if b), reverse=True)[:2] + [-1, -1]
        m_all = sum(bets)
        for c, b in zip(cards, bets):
            m_other = m_all - b
            top_other = (high[1] if c == high[0] else high[0]) if b else high[0]
            if_fold = -1.0 if m_other else 0.0
            m = m_other + 1
            if_bet = -a + (a * m + (n - m)) if c > top_other else -a
            actual = if_bet if b else if_fold
            fold_r[c] += if_fold - actual
            bet_r[c] += if_bet - actual
    regrets = np.zeros((NUM_CARDS, 2))
    regrets[:, FOLD], regrets[:, BET] = fold_r, bet_r
    return regrets


def sampled_regret_matching(
    num_players: int, alpha: float, deals: int, rng: np.random.Generator, batch: int = 1, progress: bool = False
) -> SampledResult:
    """The document's algorithm: deal, act from the regret-matching strategy shared by all seats, and add
    each seat's (bet payoff - actual payoff, fold payoff - actual payoff) to its card's regrets.

    Payoffs come from the rules module (``threshold_payoffs``). With ``batch`` = 1 this is the document's
    procedure deal by deal (in plain Python floats, the same numbers bit for bit as the array path and about ten
    times faster); a larger batch plays ``batch`` deals with the same strategy before updating.
    """
    from poker_envs.games.threshold import NUM_CARDS, threshold_payoffs

    if deals < 1 or batch < 1:
        raise ValueError(f"deals and batch must be positive, got deals={deals}, batch={batch}")
    cfg = ThresholdSolverConfig(num_players, alpha, NUM_CARDS)
    if batch == 1:
        regrets = _per_deal_regrets(num_players, alpha, deals, rng, progress)
        strategy = regret_matching_strategy(regrets)
        return SampledResult(strategy, float(NUM_CARDS - strategy.sum()), exploitability(strategy, cfg), deals)
    n = num_players
    regrets = np.zeros((NUM_CARDS, 2))
    eye = np.eye(n, dtype=bool)
    steps = range(0, deals, batch)
    if progress:
        from tqdm import tqdm

        steps = tqdm(steps, desc=f"sampled RM n={n} alpha={alpha}", unit="batch")
    for start in steps:
        b = min(batch, deals - start)
        cards = np.argsort(rng.random((b, NUM_CARDS)), axis=1)[:, :n]  # distinct cards per deal
        bets = rng.random((b, n)) < regret_matching_strategy(regrets)[cards]
        actual = threshold_payoffs(cards, bets, alpha)
        # Seat k's payoff with its own move forced: all n variants of every deal at once.
        variants = np.broadcast_to(bets[:, None, :], (b, n, n))
        all_cards = np.broadcast_to(cards[:, None, :], (b, n, n))
        if_fold = threshold_payoffs(all_cards, variants & ~eye, alpha)[:, eye]
        if_bet = threshold_payoffs(all_cards, variants | eye, alpha)[:, eye]
        np.add.at(regrets[:, FOLD], cards.ravel(), (if_fold - actual).ravel())
        np.add.at(regrets[:, BET], cards.ravel(), (if_bet - actual).ravel())
    strategy = regret_matching_strategy(regrets)
    return SampledResult(strategy, float(NUM_CARDS - strategy.sum()), exploitability(strategy, cfg), deals)
