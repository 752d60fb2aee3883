"""Build the heads-up all-in equity table of the 169 hand classes (package data ``preflop_equity.npz``).

Exact enumeration, no sampling: every one of the C(52,5) = 2,598,960 boards is counted, for every
pair of hole-card combinations that share no card with each other or with the board. Boards are
grouped into their 134,459 classes under the 24 permutations of suits: a class-level sum is the same
for every board of one suit class, so each canonical board is evaluated once and weighted by the size
of its class. Per board, the 1,081 hands that avoid it are evaluated with the project's batched
evaluator and ranked; cumulative counts per class give, for every pair of classes, the number of
(wins * 2 + ties) summed over combination pairs, and pairs that share a card are subtracted again.

    python -m agent_zoo.push_fold.make_equity [--out DIR] [--work-dir DIR] [--chunk 2000]

The table goes to ``out/preflop_equity.npz`` unless ``--out`` says otherwise (the package's own copy is
rebuilt with ``--out agent_zoo/data`` from the repository root). The run is split into chunks saved in ``--work-dir`` so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from agent_zoo.push_fold.hands import NUM_CLASSES, class_names, combos

BOARDS_PER_PAIR = 1_712_304  # C(48, 5): boards that avoid both hands of a pair
PACKAGE_TABLE = Path(__file__).resolve().parent.parent / "data" / "preflop_equity.npz"  # the copy the package loads
DEFAULT_OUT = Path("out") / PACKAGE_TABLE.name  # where a run writes unless --out says otherwise
Evaluator = Callable[[np.ndarray], np.ndarray]


def _suit_permutations() -> np.ndarray:
    return np.array(list(itertools.permutations(range(4))), dtype=np.int64)


@functools.lru_cache(maxsize=1)
def canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-isomorphism class of 5-card boards, and the class sizes (sum C(52,5))."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), 5))
    all_boards = np.fromiter(flat, dtype=np.int64, count=5 * 2_598_960).reshape(-1, 5)
    cards = np.arange(52)
    key = np.full(len(all_boards), np.iinfo(np.int64).max, dtype=np.int64)
    for perm in _suit_permutations():
        bit = np.int64(1) << ((cards & ~3) | perm[cards & 3])  # each card's bit after relabelling suits
        np.minimum(key, bit[all_boards].sum(axis=1), out=key)  # distinct bits: the sum is the OR
    keys, sizes = np.unique(key, return_counts=True)
    bits = (keys[:, None] >> np.arange(52)) & 1
    boards = np.nonzero(bits)[1].reshape(-1, 5).astype(np.int64)
    sizes = sizes.astype(np.int64)
    boards.setflags(write=False)
    sizes.setflags(write=False)
    return boards, sizes


def class_pair_counts() -> np.ndarray:
    """``counts[a, b]``: ordered pairs of combinations of classes a and b that share no card."""
    cards, cls = combos()
    onehot = np.zeros((52, len(cards)), dtype=np.int64)
    onehot[cards[:, 0], np.arange(len(cards))] = 1
    onehot[cards[:, 1], np.arange(len(cards))] = 1
    disjoint = (onehot.T @ onehot) == 0
    member = np.eye(NUM_CLASSES, dtype=np.int64)[cls]
    return member.T @ disjoint.astype(np.int64) @ member


def _card_holders() -> np.ndarray:
    """``holders[x]``: the 51 combinations (indices in ``combos()`` order) that contain card x."""
    cards, _ = combos()
    holders = np.zeros((52, 51), dtype=np.int64)
    fill = np.zeros(52, dtype=np.int64)
    for h, (a, b) in enumerate(cards):
        for x in (a, b):
            holders[x, fill[x]] = h
            fill[x] += 1
    return holders


class BoardAccumulator:
    """Adds, per pair of classes, (2 * wins + ties) and ties over batches of boards into int64 matrices.

    For one board, rank the valid hands into tie groups and let ``G[b, g]`` count class-b hands in
    group g. ``2 * cumsum_exclusive(G) + G`` holds, per class b and group g, 2 * (class-b hands weaker)
    + (class-b hands equal); ``G`` alone the equal ones. Summing those at ``g = group(h)`` over the hands
    h of class a gives the totals over all ordered hand pairs, including pairs that share a card.
    Those are removed with the card groups: a pair sharing exactly one card lies in exactly one card's
    group of 51 holders, and a hand paired with itself lies in two (and once in the full sum). Inside
    the group of card x a holder {x, y} is labelled by y's rank and whether it is suited with x (26
    labels), so the correction is a small matrix product per card, mapped to classes by x's rank.
    """

    def __init__(self, evaluate_batch: Evaluator) -> None:
        self.evaluate_batch = evaluate_batch
        self.cards, self.cls = combos()
        self.holders = _card_holders()  # (52, 51)
        x = np.arange(52)[:, None]
        first, second = self.cards[self.holders, 0], self.cards[self.holders, 1]
        partner = np.where(first == x, second, first)
        label = (partner >> 2) * 2 + ((partner & 3) == (x & 3))
        self.label_onehot = np.eye(26, dtype=np.float32)[label]  # (52, 51, 26)
        label_class = np.zeros((13, 26), dtype=np.int64)  # class of label l for a card of rank r
        for card in range(52):
            label_class[card >> 2, label[card]] = self.cls[self.holders[card]]
        self.label_pair_index = (label_class[:, :, None] * NUM_CLASSES + label_class[:, None, :]).ravel()
        self.win2 = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
        self.ties = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)

    def add(self, boards: np.ndarray, weights: np.ndarray) -> None:
        """Count every board in ``boards`` (K, 5) ``weights[k]`` times."""
        k_boards = len(boards)
        ncls, ncombo = NUM_CLASSES, len(self.cards)
        kk = np.arange(k_boards)[:, None]
        hit = np.zeros((k_boards, 52), dtype=bool)
        hit[kk, boards] = True
        valid = ~(hit[:, self.cards[:, 0]] | hit[:, self.cards[:, 1]])  # (K, 1326), 1081 per row
        rows, hands = np.nonzero(valid)
        m = len(hands) // k_boards
        if m * k_boards != len(hands):
            raise ValueError("boards must be 5 distinct cards")
        seven = np.concatenate([self.cards[hands], boards[rows]], axis=1)
        vals = np.asarray(self.evaluate_batch(seven)).astype(np.int64).reshape(k_boards, m)
        hands = hands.reshape(k_boards, m)
        cls = self.cls[hands]  # nondecreasing along each row (combos are sorted by class)
        # Tie groups numbered from the weakest hand.
        order = np.argsort(vals, axis=1, kind="stable")
        sorted_vals = np.take_along_axis(vals, order, axis=1)
        new_group = np.zeros((k_boards, m), dtype=np.int64)
        new_group[:, 1:] = sorted_vals[:, 1:] != sorted_vals[:, :-1]
        group = np.empty_like(new_group)
        np.put_along_axis(group, order, np.cumsum(new_group, axis=1), axis=1)
        ng = int(group.max()) + 1
        keys, key_counts = np.unique(((kk * ncls + cls) * ng + group).ravel(), return_counts=True)
        counts = np.zeros(k_boards * ncls * ng, dtype=np.float32)
        counts[keys] = key_counts
        counts = counts.reshape(k_boards, ncls, ng)
        table = np.concatenate([2.0 * np.cumsum(counts, axis=2) - counts, counts], axis=1)  # (K, 2*169, ng)
        table_t = np.ascontiguousarray(table.transpose(0, 2, 1))  # (K, ng, 2*169): one row per tie group
        # Hands of one class often tie (suit variants): sum rows once per (board, class, group) with its count.
        key_board, key_class, key_group = keys // (ncls * ng), (keys // ng) % ncls, keys % ng
        rows_e = table_t[key_board, key_group] * key_counts[:, None].astype(np.float32)
        seg = key_board * ncls + key_class  # sorted, since keys are
        ends = np.flatnonzero(np.r_[seg[1:] != seg[:-1], True])
        running = np.zeros((len(seg) + 1, 2 * ncls))
        np.cumsum(rows_e, axis=0, dtype=np.float64, out=running[1:])  # exact: integers below 2**53
        full = np.zeros((k_boards * ncls, 2 * ncls))
        full[seg[ends]] = np.diff(running[np.r_[0, ends + 1]], axis=0)
        full = np.rint(full).astype(np.int64).reshape(k_boards, ncls, 2, ncls).transpose(0, 2, 1, 3)  # [k, ch, a, b]
        self_count = np.bincount((kk * ncls + cls).ravel(), minlength=k_boards * ncls).reshape(k_boards, ncls)
        # Pairs inside each card's group of holders (self pairs twice), summed over labels.
        rank_of = np.full((k_boards, ncombo), -1.0, dtype=np.float32)
        rank_of[kk, hands] = group
        held = rank_of[:, self.holders]  # (K, 52, 51): tie-group rank, -1 where the hand hits the board
        onehot = self.label_onehot[None] * (held >= 0)[..., None]  # (K, 52, 51, 26)
        diff = held[..., :, None] - held[..., None, :]
        scores = np.stack([np.sign(diff) + 1.0, (diff == 0).astype(np.float32)], axis=1)  # (K, 2, 52, 51, 51)
        by_label = np.matmul(onehot.transpose(0, 1, 3, 2)[:, None], np.matmul(scores, onehot[:, None]))
        by_rank = by_label.reshape(k_boards * 2, 13, 4, 26, 26).sum(axis=2)
        offsets = (np.arange(k_boards * 2) * ncls * ncls)[:, None]
        grouped = np.bincount(
            (offsets + self.label_pair_index[None, :]).ravel(),
            weights=by_rank.reshape(k_boards * 2, -1).ravel(),
            minlength=k_boards * 2 * ncls * ncls,
        )
        grouped = np.rint(grouped).astype(np.int64).reshape(k_boards, 2, ncls, ncls)
        exact = full - grouped
        exact[:, :, np.arange(ncls), np.arange(ncls)] += self_count[:, None, :]
        summed = np.tensordot(weights.astype(np.int64), exact, axes=1)
        self.win2 += summed[0]
        self.ties += summed[1]


def brute_force_board(board: np.ndarray, evaluate_batch: Evaluator) -> tuple[np.ndarray, np.ndarray]:
    """Reference for tests: (2 * wins + ties, ties) per class pair on one board, pair by pair."""
    cards, cls = combos()
    valid = ~np.isin(cards, board).any(axis=1)
    idx = np.flatnonzero(valid)
    values = np.asarray(
        evaluate_batch(np.concatenate([cards[idx], np.broadcast_to(board, (len(idx), 5))], axis=1))
    ).astype(np.int64)
    c = cards[idx]
    disjoint = np.ones((len(idx), len(idx)), dtype=bool)
    for i in range(2):
        for j in range(2):
            disjoint &= c[:, None, i] != c[None, :, j]
    tie = (values[:, None] == values[None, :]) * disjoint
    win2 = 2 * (values[:, None] > values[None, :]) * disjoint + tie
    member = np.eye(NUM_CLASSES)[cls[idx]]  # float matmul (BLAS): exact for these small integers
    as_int = lambda x: np.rint(x).astype(np.int64)  # noqa: E731
    return as_int(member.T @ win2.astype(np.float64) @ member), as_int(member.T @ tie.astype(np.float64) @ member)


def build_table(
    out: Path, work_dir: Path, chunk: int, batch: int, evaluate_batch: Evaluator, shard: tuple[int, int] = (0, 1)
) -> None:
    """Run (or resume) the enumeration chunk by chunk and write the package data file.

    ``shard = (i, k)`` makes this process take only the chunks c with c % k == i (run k processes
    side by side); whichever process finds every chunk present writes the output."""
    from tqdm import tqdm  # lazily: only the table builder shows progress

    work_dir.mkdir(parents=True, exist_ok=True)
    boards, weights = canonical_boards()
    if int(weights.sum()) != 2_598_960:
        raise RuntimeError("suit classes of boards do not cover C(52,5)")
    n_chunks = -(-len(boards) // chunk)
    acc = BoardAccumulator(evaluate_batch)
    started = time.perf_counter()
    for c in tqdm(range(shard[0], n_chunks, shard[1]), desc=f"equity chunks (shard {shard[0]}/{shard[1]})", unit="chunk"):
        path = work_dir / f"chunk_{c:05d}_of_{n_chunks:05d}_{chunk}.npy"
        if path.exists():
            continue
        acc.win2[:] = 0
        acc.ties[:] = 0
        lo, hi = c * chunk, min((c + 1) * chunk, len(boards))
        for b in range(lo, hi, batch):
            acc.add(boards[b : min(b + batch, hi)], weights[b : min(b + batch, hi)])
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, np.stack([acc.win2, acc.ties]))
        tmp.replace(path)
    missing = [c for c in range(n_chunks) if not (work_dir / f"chunk_{c:05d}_of_{n_chunks:05d}_{chunk}.npy").exists()]
    if missing:
        print(f"{len(missing)} chunks still missing (other shards); not writing {out} yet")
        return
    both = sum(np.load(work_dir / f"chunk_{c:05d}_of_{n_chunks:05d}_{chunk}.npy") for c in range(n_chunks))
    win2, ties = both[0], both[1]
    counts = class_pair_counts()
    expected = 2 * counts * BOARDS_PER_PAIR
    if not np.array_equal(win2 + win2.T, expected) or not np.array_equal(ties, ties.T):
        raise RuntimeError("equity counts fail the checks wins(a,b) + wins(b,a) = all showdowns, ties symmetric")
    equity = np.divide(win2, expected, out=np.full(win2.shape, np.nan), where=expected > 0)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        class_names=np.array(class_names()),
        win2=win2,
        ties=ties,
        pair_counts=counts,
        equity=equity,
        boards_per_pair=np.int64(BOARDS_PER_PAIR),
        method=np.array(
            "exact enumeration: all 2,598,960 boards (134,459 suit classes weighted by size) for every "
            "pair of combinations sharing no card; win2 = 2*wins + ties summed over combination pairs "
            "and boards, ties likewise; equity = win2 / (2 * pair_counts * C(48,5))"
        ),
    )
    print(f"wrote {out} in {time.perf_counter() - started:.0f} s of this run")


def build_parser() -> argparse.ArgumentParser:
    from agent_zoo import cli

    parser = cli.parser("push_fold.make_equity", __doc__)
    cli.add_out(parser, str(DEFAULT_OUT.parent), f"the table, {DEFAULT_OUT.name} (agent_zoo/data: the package's own copy)")
    parser.add_argument("--work-dir", type=Path, default=Path("build/equity_chunks"), help="resumable chunks")
    parser.add_argument("--chunk", type=cli.positive_int, default=2000, help="canonical boards per saved chunk")
    parser.add_argument("--batch", type=cli.positive_int, default=16, help="boards evaluated together")
    parser.add_argument("--shard", default="0/1", help="I/K: this process takes chunks c with c %% K == I")
    return parser


def main(argv: list[str] | None = None) -> None:
    from agent_zoo import cli

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        shard = tuple(int(x) for x in args.shard.split("/"))
        if len(shard) != 2 or not 0 <= shard[0] < shard[1]:
            raise ValueError
    except ValueError:
        parser.error(f"--shard must be I/K with 0 <= I < K, got {args.shard!r}")
    from poker_envs.core.evaluator import evaluate_batch

    # Hands and boards are disjoint by construction, so the evaluator's input checks can be skipped.
    build_table(cli.out_dir(args.out) / DEFAULT_OUT.name, args.work_dir, args.chunk, args.batch, functools.partial(evaluate_batch, check=False), shard)


if __name__ == "__main__":
    main()
