"""The class-level push/fold game for two and three players: CFR+ on exact class-pair and class-triple tables.

Solving on one fixed sample of deals overfits it (the push-or-fold blog post's "3 players and more" idea):
the strategy is tuned to which hands happened to meet. Here the sampled deals are replaced by
class-level tables, so CFR+ solves the game over the 169 hand classes of every seat directly:

* ``joint[c_0, ..., c_{n-1}]``: the exact probability that the seats are dealt these classes, card
  removal included (heads-up: ``class_pair_counts``; three players: ordered disjoint combination triples,
  counted per class of the first hand with one representative combination, since relabelling suits maps a
  class onto itself; see ``triple_class_counts``);
* two live players (everybody else folded): the exact heads-up showdown probabilities of their two
  classes (``preflop_equity.npz``). The folded hands' cards are not removed from the board here, the
  one approximation of the two-way showdowns;
* three live players: P(classes) times each seat's expected result, estimated from ``table_deals``
  sampled deals as the cell's summed results over the number of deals (unbiased cell by cell; no prior,
  no division by a small cell count). A three-way all-in at equal stacks is symmetric in the seats, so
  every deal is counted in all six seat orders. The deals are reduced to outcome counts per class triple
  (``three_way_counts``: dealt, wins alone, ties with one, ties with both), which hold for every stack,
  ante and rake and can be cached on disk.

Terminal results come from the rules' ``settle`` (pots, rake), betting sequences from ``PushFoldState``
(``multiway_game.betting_profiles``). Counterfactual values are tensor contractions of ``joint`` (or a three-way table)
with the other seats' action probabilities, so NashConv on the tables is exact; how good the strategy is
in the real game is measured on fresh deals (``out_of_sample.out_of_sample_nash_conv``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from agent_zoo.push_fold.equity import EquityTable, load_equity
from agent_zoo.push_fold.hands import NUM_CLASSES, class_combo_counts, combos
from agent_zoo.push_fold.multiway_game import Evaluator, Profile, sample_deals
from poker_envs.games.push_fold import PushFoldConfig, settle

C = NUM_CLASSES


def triple_class_counts() -> np.ndarray:
    """``counts[a, b, c]``: ordered triples of pairwise disjoint combinations of classes a, b, c.

    For a representative combination x of class a, with S[b] the combinations of class b avoiding x and
    H[card, b] those that also hold ``card``, the pairs (y, z) avoiding x and each other number
    S S^T - H^T H + diag(S) (pairs sharing a card are counted once per shared card; y = z shares two).
    Every combination of class a gives the same counts (a suit relabelling maps one onto another)."""
    cards, cls = combos()
    member = np.eye(C)[cls]  # (1326, 169)
    holds = np.zeros((52, len(cards)))
    holds[cards[:, 0], np.arange(len(cards))] = 1.0
    holds[cards[:, 1], np.arange(len(cards))] = 1.0
    first = np.searchsorted(cls, np.arange(C))  # combos() is sorted by class
    out = np.empty((C, C, C))
    for a in range(C):
        x = cards[first[a]]
        ok = (holds[x[0]] == 0) & (holds[x[1]] == 0)
        s = member[ok].sum(axis=0)
        h = holds[:, ok] @ member[ok]
        out[a] = class_combo_counts()[a] * (np.outer(s, s) - h.T @ h + np.diag(s))
    return out


def joint_class_probabilities(num_players: int) -> np.ndarray:
    """Exact joint distribution of the seats' classes (2 or 3 seats), card removal included."""
    if num_players == 2:
        counts = np.array(load_equity().pair_counts)
    elif num_players == 3:
        counts = triple_class_counts()
    else:
        raise ValueError(f"num_players must be 2 or 3 for class-level tables, got {num_players}")
    return counts / counts.sum()


OUTCOMES = ("dealt", "wins alone", "ties with one", "three-way tie")  # rows of three_way_counts


def three_way_counts(deals: int, seed: int, evaluate_batch: Evaluator, chunk: int = 1_000_000,
                     cache_dir: str | Path | None = None, progress: bool = False) -> np.ndarray:  # fmt: skip
    """``counts[k, a, b, c]`` over ``deals`` sampled three-handed deals, each counted in all six seat orders:
    how often seat 0 holds class a and seats 1, 2 classes b, c (k = 0), and of those how often seat 0 wins
    alone (1), ties with one other (2), ties with both (3) (rows: ``OUTCOMES``).

    These do not depend on stacks, antes or rake, so one table serves every setting; with ``cache_dir`` it
    is stored there (keyed by deals and seed) and read back on the next call. Deals come from ``seed`` in
    chunks of independent streams, so a table is the same whatever the chunk size and cache."""
    path = None if cache_dir is None else Path(cache_dir) / f"three_way_{deals}_seed{seed}.npz"
    if path is not None and path.exists():
        with np.load(path) as data:
            return data["counts"].astype(np.float64)
    counts = np.zeros((C**3, 4))
    sizes = [min(chunk, deals - k) for k in range(0, deals, chunk)]
    steps = range(len(sizes))
    if progress:
        from tqdm import tqdm

        steps = tqdm(steps, desc=f"three-way table ({deals:,} deals)", unit="chunk")
    for k in steps:
        sample = sample_deals(3, sizes[k], np.random.default_rng([seed, k]), evaluate_batch)
        top = sample.strengths.max(axis=1, keepdims=True)
        best = sample.strengths == top
        code = np.where(best, best.sum(axis=1, keepdims=True), 0)  # 0 loses, 1 wins alone, 2 or 3 hands tie
        for first in range(3):  # the rotations here, the other three orders by the transpose below
            k3 = np.roll(sample.classes, -first, axis=1)
            flat = ((k3[:, 0] * C + k3[:, 1]) * C + k3[:, 2]) * 4 + code[:, first]
            counts += np.bincount(flat, minlength=4 * C**3).reshape(C**3, 4)
    counts = counts.T.reshape(4, C, C, C)
    counts[0] += counts[1:].sum(axis=0)  # row 0 held the losses: make it every deal of the cell
    counts += counts.transpose(0, 1, 3, 2)  # seats 1 and 2 swapped: the other three seat orders
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, counts=counts.astype(np.uint32))
    return counts


def three_way_tables(config: PushFoldConfig, contributions: tuple[float, ...], counts: np.ndarray) -> np.ndarray:
    """``out[s, a, b, c]``: the probability of classes (a, b, c) times seat s's expected result when all
    three go all-in, estimated without bias from ``three_way_counts``: each outcome's count times seat 0's
    result in it (from the rules' ``settle``), summed and divided by the number of seat orders counted.
    An all-in at equal stacks is symmetric in the seats, so the other seats' tables are transposes."""
    if len(set(contributions)) != 1:
        raise ValueError("the three-way table assumes equal contributions (equal stacks all in)")
    live = [True, True, True]
    pay = {m: settle(config, contributions, live, [(m >> s) & 1 for s in range(3)]) for m in range(1, 8)}
    for m in range(1, 8):  # seat 0's result depends only on how many others it beats or ties (seat symmetry)
        for perm in itertools.permutations(range(3)):
            pm = sum(((m >> perm[s]) & 1) << s for s in range(3))
            if not np.allclose(pay[pm], [pay[m][perm[s]] for s in range(3)]):
                raise ValueError("settle is not symmetric in the seats at equal contributions")
    lose, win, tie2, tie3 = pay[2][0], pay[1][0], pay[3][0], pay[7][0]
    seat0 = (lose * counts[0] + (win - lose) * counts[1] + (tie2 - lose) * counts[2] + (tie3 - lose) * counts[3])
    seat0 /= counts[0].sum()
    return np.stack([seat0, seat0.transpose(1, 0, 2), seat0.transpose(1, 2, 0)])


class ClassLevelGame:
    """Counterfactual values and NashConv of the class-level game (2 or 3 seats)."""

    def __init__(self, config: PushFoldConfig, profiles: list[Profile], table_deals: int, seed: int, evaluate_batch: Evaluator,
                 table: EquityTable | None = None, cache_dir: str | Path | None = None, progress: bool = False,
                 three_way: np.ndarray | None = None) -> None:  # fmt: skip
        """``three_way``: outcome counts (``three_way_counts``, e.g. several seeds' summed) used instead of
        building them from ``table_deals`` and ``seed``."""
        n = config.num_players
        self.n, self.profiles = n, profiles
        table = table if table is not None else load_equity()
        self.joint = joint_class_probabilities(n)
        self.joint_2d = self.joint.reshape(-1, C)
        self.terms: list[list[tuple[str, object]]] = []
        self.three_way_flat: list[np.ndarray] = []
        for prof in profiles:
            live = np.flatnonzero(prof.live)
            per_seat: list[tuple[str, object]] = []
            if len(live) == 1:
                pay = settle(config, prof.contributions, list(prof.live), None)
                per_seat = [("const", float(pay[s])) for s in range(n)]
            elif len(live) == 2:
                i, j = live
                outs = [settle(config, prof.contributions, list(prof.live), [int(s == w) + int(s in (i, j) and w < 0)
                                                                             for s in range(n)]) for w in (i, j, -1)]  # fmt: skip
                lose = 1.0 - table.win - table.tie
                for s in range(n):
                    if s in (i, j):
                        h = table.win * outs[0][s] + lose * outs[1][s] + table.tie * outs[2][s]  # rows: class of i
                        per_seat.append(("pair", (int(i), int(j), h)))
                    else:
                        per_seat.append(("const", float(outs[0][s])))
            else:
                if n != 3:
                    raise ValueError("class-level tables support at most three live players")
                counts = three_way if three_way is not None else \
                    three_way_counts(table_deals, seed, evaluate_batch, cache_dir=cache_dir, progress=progress)
                three = three_way_tables(config, prof.contributions, counts)
                # P(classes) * seat s's expected result, s's axis first and the others' in order, flattened for one product
                self.three_way_flat = [np.moveaxis(three[s], s, 0).reshape(C, -1).copy() for s in range(3)]
                per_seat = [("three", s) for s in range(n)]
            self.terms.append(per_seat)

    def values(self, strategy: list[np.ndarray]) -> list[np.ndarray]:
        """``v[s][prefix, action, class]``: seat s's counterfactual value (BB, weighted by the probability of
        its class and the others' reach), like ``MultiwayPushFoldSolver.values`` without sampling."""
        n = self.n
        values = [np.zeros((1 << s, 2, C)) for s in range(n)]
        # sum_z joint[x, y, z] g(z) for every push probability vector g at once (one pass over the joint;
        # the three-seat joint is symmetric, so any axis will do); folding is the all-ones sum minus pushing.
        keys = sorted({(t, prof.prefixes[t]) for prof in self.profiles for t in range(n) if prof.actions[t] >= 0})
        if n == 3:
            cols = np.stack([np.ones(C)] + [strategy[t][q] for t, q in keys], axis=1)
            sums = (self.joint_2d @ cols).reshape(C, C, -1)
            col = {key: k + 1 for k, key in enumerate(keys)}
        ones = np.ones(C)
        for prof, per_seat in zip(self.profiles, self.terms):
            factors: list[np.ndarray | None] = []
            for s, a in enumerate(prof.actions):
                p = None if a == -1 else strategy[s][prof.prefixes[s]]
                factors.append(None if p is None else (p if a == 1 else 1.0 - p))

            def rest(t: int) -> np.ndarray:
                """Joint summed over seat t's class weighted by t's probability of its action here."""
                if n == 2:
                    return self.joint
                if prof.actions[t] == -1:
                    return sums[:, :, 0]
                push = sums[:, :, col[(t, prof.prefixes[t])]]
                return push if prof.actions[t] == 1 else sums[:, :, 0] - push

            for s, a in enumerate(prof.actions):
                if a == -1:
                    continue
                kind, data = per_seat[s]
                others = [t for t in range(n) if t != s]
                g = {t: ones if factors[t] is None else factors[t] for t in others}
                if kind == "const":
                    out = data * (rest(others[-1]) @ g[others[0]])
                elif kind == "pair":
                    i, j, h = data
                    u = j if s == i else i
                    folded = [t for t in others if t != u]
                    m = rest(folded[0]) if folded else self.joint
                    out = (m * (h if s == i else h.T)) @ g[u]
                else:
                    out = self.three_way_flat[s] @ np.outer(g[others[0]], g[others[1]]).ravel()
                values[s][prof.prefixes[s], a] += out
        return values
