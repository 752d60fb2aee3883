"""Training generations of CNN value players (``python -m agent_zoo.cnn train``).

1. Heuristic-vs-heuristic hands (stored compactly, ``storage``) train generation 1.
2. Generation k + 1 trains on the hands of every pairing among {heuristic, generations 1..k}, a
   player against itself included, ``hands_per_pairing`` hands each (the heuristic pairing reuses the
   first heuristic hands). A pairing's hands are played once and reused by later generations.
3. Each sample is (state with the action taken, chips won in the hand / buy-in); mean squared error,
   Adadelta. Samples are re-encoded on the fly by replaying their hands.
4. With ``gate_hands`` (``gating``), a trained generation k >= 2 is only a candidate until it beats the
   heuristic and generations 1..k-1 in duplicate matches; a refused candidate trains on fresh hands of
   every pairing and is tested again, up to ``gate_attempts`` times.

Everything lands in the output directory: ``config.json``, ``data/*.npz`` (chunks of hands),
``gen_K.pt`` (finished generations), ``gen_K.partial.pt`` (the generation in training, saved every
``CHECKPOINT_BATCHES`` batches and at each epoch end), ``log.csv`` (loss per epoch: generation, epoch,
samples, loss, time, attempt), with gating ``gen_K.tryA.pt`` (candidates) and ``gate.jsonl`` (their
gates). Running the
same command again resumes where it stopped; finished chunks and generations are never redone.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agent_zoo.cnn.config import CNNConfig
from agent_zoo.cnn.gating import gate_record, run_gate
from agent_zoo.cnn.network import PokerCNN, load_generation, to_tensor
from agent_zoo.cnn.selfplay import PlayConfig, Player, draw_deals, make_game, play_hands
from agent_zoo.cnn.storage import HandStore, encode_samples
from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.games.holdem import HoldemGame

CHECKPOINT_BATCHES = 200  # batches between two saves of the generation in training
HEURISTIC = 0  # player id of the heuristic in stored hands; generation k has id k
CARD_PLANES = 6  # planes 0-5 hold cards (one cell per card): the ones a suit permutation moves
SUIT_COLS = np.arange(6, 10)  # the four suit columns of the 13x4 grid inside the 17x17 plane


# ---- pure helpers -------------------------------------------------------------------------------
def pairings(k: int, heuristic_pair: bool = True) -> list[tuple[int, int]]:
    """Every pairing (i <= j) of players {0 = heuristic, 1..k}: the data of generation k + 1
    (without heuristic-vs-heuristic when ``heuristic_pair`` is False)."""
    return [(i, j) for i in range(k + 1) for j in range(i, k + 1) if heuristic_pair or (i, j) != (HEURISTIC, HEURISTIC)]


def permute_suits(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random suit permutation per sample, applied to the card planes (other planes fill-code numbers)."""
    perms = np.argsort(rng.random((len(x), 4)), axis=1)
    cols = SUIT_COLS[perms]  # (B, 4)
    b = np.arange(len(x))[:, None, None, None]
    p = np.arange(CARD_PLANES)[None, :, None, None]
    r = np.arange(x.shape[2])[None, None, :, None]
    x = x.copy()
    x[:, :CARD_PLANES, :, 6:10] = x[b, p, r, cols[:, None, None, :]]
    return x


def seed_rng(cfg: CNNConfig, *key: int) -> np.random.Generator:
    """An independent generator for one piece of the run (a data chunk, a generation's epoch)."""
    return np.random.default_rng(np.random.SeedSequence([cfg.seed, *key]))


def make_optimizer(net: PokerCNN, cfg: CNNConfig) -> torch.optim.Optimizer:
    return torch.optim.Adadelta(net.parameters(), lr=cfg.lr, rho=cfg.rho, eps=cfg.eps)


def batches(n: int, batch_size: int, perm: np.ndarray, start: int) -> Iterator[tuple[int, np.ndarray]]:
    for b in range(start, math.ceil(n / batch_size)):
        yield b, perm[b * batch_size : (b + 1) * batch_size]


def save_atomic(obj: Any, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    tmp.replace(path)


# ---- the run ------------------------------------------------------------------------------------
class Trainer:
    """One run in ``out``: data generation, generations, checkpoints, resume."""

    def __init__(self, cfg: CNNConfig, out: str | Path, show_progress: bool = True) -> None:
        self.cfg = cfg
        self.out = Path(out)
        self.data = self.out / "data"
        self.data.mkdir(parents=True, exist_ok=True)
        self.show = show_progress
        self.game: HoldemGame = make_game(cfg.small_blind, cfg.big_blind, cfg.stack, cfg.fold_when_check)
        self.encoder = PokerCNNEncoder(self.game, dtype=np.uint8)
        saved = self.out / "config.json"
        if saved.exists():
            old = CNNConfig.from_dict(json.loads(saved.read_text()))
            if old != cfg:
                diff = {k: (v, cfg.to_dict()[k]) for k, v in old.to_dict().items() if cfg.to_dict()[k] != v}
                raise ValueError(f"{out} holds a run with another config (saved, asked): {diff}; use a new --out")
        else:
            saved.write_text(json.dumps(cfg.to_dict(), indent=1))
        self.nets: dict[int, PokerCNN] = {}

    def _bar(self, total: int, desc: str, unit: str):  # noqa: ANN202
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit=unit, disable=not self.show, dynamic_ncols=True)

    # data ------------------------------------------------------------------------------------------
    def player(self, pid: int) -> Player:
        c = self.cfg
        if pid == HEURISTIC:
            return Player("heuristic", "heuristic", sizing=c.heuristic_sizing)
        if pid not in self.nets:
            self.nets[pid], _ = load_generation(self.out / f"gen_{pid}.pt")
        return Player(f"cnn{pid}", "cnn", self.nets[pid], c.selfplay_candidates, c.raise_fractions, c.explore,
                      c.exact_fold, sizing=c.heuristic_sizing)

    def pairing_data(self, i: int, j: int, hands: int) -> HandStore:
        """The first ``hands`` hands of player i (seat 0) against player j, generated in missing chunks.

        Chunks always hold ``chunk_hands`` hands, so asking for more hands later (gating) extends the
        same sequence of hands."""
        c = self.cfg
        chunks = math.ceil(hands / c.chunk_hands)
        stores = []
        missing = [k for k in range(chunks) if not (self.data / f"p{i}_{j}_c{k}.npz").exists()]
        a, b = ("heu" if p == HEURISTIC else f"g{p}" for p in (i, j))
        bar = self._bar(chunks * c.chunk_hands, f"hands {a} v {b}", "hand")
        bar.update((chunks - len(missing)) * c.chunk_hands)
        for k in range(chunks):
            path = self.data / f"p{i}_{j}_c{k}.npz"
            if not path.exists():
                n = c.chunk_hands
                rng = seed_rng(c, 0, i, j, k)
                decks, buttons = draw_deals(n, rng)
                play = PlayConfig(tables=c.parallel_hands, record=(i, j),
                                  equity_samples=c.equity_samples if c.allin_equity else None,
                                  blind_opponents=c.allin_equity and c.blind_equity)
                log = play_hands(self.game, (self.player(i), self.player(j)), decks, buttons, rng, play, bar.update)
                log.recorder.store().save(path)
            stores.append(HandStore.load(path))
        bar.close()
        return HandStore.concat(stores).head(hands)

    def generation_data(self, gen: int, attempt: int = 0) -> HandStore:
        """Generation ``gen``'s samples; a gated generation's ``attempt`` a takes hands a x n to
        (a + 1) x n - 1 of every pairing (n = ``hands_per_pairing``), fresh hands for each attempt."""
        c = self.cfg
        if gen == 1:
            return self.pairing_data(HEURISTIC, HEURISTIC, c.heuristic_hands)
        lo, hi = attempt * c.hands_per_pairing, (attempt + 1) * c.hands_per_pairing
        stores = []
        for i, j in pairings(gen - 1, c.heuristic_pairing):
            # the heuristic pairing reuses the first heuristic hands (those of generation 1)
            n = max(hi, c.heuristic_hands) if (i, j) == (HEURISTIC, HEURISTIC) else hi
            stores.append(self.pairing_data(i, j, n).hands(lo, hi))
        return HandStore.concat(stores)

    # training --------------------------------------------------------------------------------------
    def train_generation(self, gen: int, store: HandStore, attempt: int = 0, path: Path | None = None) -> PokerCNN:
        """Train generation ``gen`` on ``store`` and save it to ``path`` (default ``gen_K.pt``).

        ``attempt`` > 0 (gating): continue the previous attempt's candidate and optimizer."""
        c = self.cfg
        path = path or self.out / f"gen_{gen}.pt"
        partial = path.with_name(path.stem + ".partial.pt")
        extra = (attempt,) if attempt else ()  # attempt 0 draws exactly what an ungated run draws
        torch.manual_seed(c.seed * 1_000 + gen + 1_000_000 * attempt)
        net = PokerCNN()
        opt = make_optimizer(net, c)
        if attempt > 0:
            prev = torch.load(self.candidate_path(gen, attempt - 1), map_location="cpu", weights_only=False)
            net.load_state_dict(prev["state_dict"])
            opt.load_state_dict(prev["optimizer"])
        elif c.warm_start and gen > 1:
            net.load_state_dict(load_generation(self.out / f"gen_{gen - 1}.pt")[0].state_dict())
        epoch, batch, losses = 0, 0, []
        if partial.exists():
            ckpt = torch.load(partial, map_location="cpu", weights_only=False)
            net.load_state_dict(ckpt["state_dict"])
            opt.load_state_dict(ckpt["optimizer"])
            epoch, batch, losses = ckpt["epoch"], ckpt["batch"], ckpt["losses"]
            torch.set_rng_state(ckpt["torch_rng"])
        # sample ids trained on (folds have an exact value when exact_fold: not trained)
        pool = np.flatnonzero(store.kind != 0) if c.exact_fold else np.arange(store.num_actions)
        n = len(pool)
        per_epoch = math.ceil(n / c.batch_size)
        targets = torch.from_numpy(store.target.astype(np.float32))
        label = f"train g{gen}" + (f" try {attempt}" if attempt else "")
        bar = self._bar(c.epochs * per_epoch, f"{label} ({n} samples)", "batch")
        bar.update(epoch * per_epoch + batch)
        net.train()
        while epoch < c.epochs:
            perm = pool[seed_rng(c, 1, gen, epoch, *extra).permutation(n)]
            total, count = 0.0, 0
            if losses and losses[-1][0] == epoch:  # resumed inside this epoch: its running loss so far
                _, mean, count = losses.pop()
                total = mean * count
            for b, idx in batches(n, c.batch_size, perm, batch):
                x = encode_samples(store, self.game, self.encoder, idx)
                if c.suit_augment:
                    x = permute_suits(x, seed_rng(c, 2, gen, epoch, b, *extra))
                opt.zero_grad()
                loss = torch.mean((net(to_tensor(x)) - targets[idx]) ** 2)
                loss.backward()
                opt.step()
                total += loss.item() * len(idx)
                count += len(idx)
                bar.update(1)
                bar.set_postfix(epoch=epoch + 1, loss=f"{total / count:.4f}")
                if (b + 1) % CHECKPOINT_BATCHES == 0 and b + 1 < per_epoch:
                    self._save_partial(partial, net, opt, epoch, b + 1, losses + [(epoch, total / count, count)])
            losses.append((epoch, total / count, count))
            epoch, batch = epoch + 1, 0
            self._save_partial(partial, net, opt, epoch, 0, losses)
            with open(self.out / "log.csv", "a") as f:
                f.write(f"{gen},{epoch},{n},{total / count:.6f},{time.time():.0f},{attempt}\n")
        bar.close()
        return self._finish(gen, net, opt, losses, partial, n, path)

    def _save_partial(self, path: Path, net: PokerCNN, opt: Any, epoch: int, batch: int, losses: list) -> None:
        losses = [row for row in losses if row[0] < epoch or batch > 0]
        save_atomic({"state_dict": net.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch,
                     "batch": batch, "losses": losses, "torch_rng": torch.get_rng_state()}, path)

    def _finish(self, gen: int, net: PokerCNN, opt: Any, losses: list, partial: Path, samples: int,
                path: Path) -> PokerCNN:
        ckpt = {"state_dict": net.state_dict(), "config": self.cfg.to_dict(), "generation": gen,
                "samples": samples, "losses": [float(l) for _, l, _ in losses]}
        if path != self.out / f"gen_{gen}.pt":  # a gating candidate: the next attempt continues its optimizer
            ckpt["optimizer"] = opt.state_dict()
        save_atomic(ckpt, path)
        partial.unlink(missing_ok=True)
        net.eval()
        self.nets[gen] = net
        return net

    def run(self, generations: int | None = None) -> list[Path]:
        """Train generations 1..``generations`` (default: the config's), skipping finished ones."""
        last = generations or self.cfg.generations
        for gen in range(1, last + 1):
            path = self.out / f"gen_{gen}.pt"
            if path.exists():
                continue
            t0 = time.perf_counter()
            if gen > 1 and self.cfg.gate_hands:
                self.gated_generation(gen)
                continue
            store = self.generation_data(gen)
            self.train_generation(gen, store)
            if self.show:
                print(f"generation {gen}: {store.num_hands} hands, {store.num_actions} samples, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
        return [self.out / f"gen_{g}.pt" for g in range(1, last + 1)]

    # gating ----------------------------------------------------------------------------------------
    def candidate_path(self, gen: int, attempt: int) -> Path:
        return self.out / f"gen_{gen}.try{attempt}.pt"

    def gated_generation(self, gen: int) -> PokerCNN:
        """Train candidates until one passes the gate (``gating``) or ``gate_attempts`` are spent;
        every attempt's candidate and gate result stay in the run (``gen_K.tryA.pt``, ``gate.jsonl``)."""
        c = self.cfg
        records = []
        for attempt in range(c.gate_attempts):
            t0 = time.perf_counter()
            cand = self.candidate_path(gen, attempt)
            if not cand.exists():
                store = self.generation_data(gen, attempt)
                self.train_generation(gen, store, attempt, cand)
            record = self.gate(gen, attempt)
            records.append(record)
            if self.show:
                res = ", ".join(f"{m['opponent']} {m['mean_bb']:+.2f}±{m['ci95']:.2f}" for m in record["matches"])
                print(f"generation {gen} attempt {attempt}: {'accepted' if record['passed'] else 'refused'} ({res}; "
                      f"{time.perf_counter() - t0:.0f} s)", flush=True)
            if record["passed"]:
                break
        ckpt = torch.load(cand, map_location="cpu", weights_only=False)
        ckpt.pop("optimizer", None)
        ckpt.update(gate=records, attempts=len(records))
        save_atomic(ckpt, self.out / f"gen_{gen}.pt")
        self.nets[gen] = load_generation(self.out / f"gen_{gen}.pt")[0]
        return self.nets[gen]

    def gate(self, gen: int, attempt: int) -> dict[str, Any]:
        """The gate of candidate ``attempt`` of generation ``gen`` (played once, then read from gate.jsonl)."""
        log = self.out / "gate.jsonl"
        if log.exists():
            for line in log.read_text().splitlines():
                rec = json.loads(line)
                if (rec["generation"], rec["attempt"]) == (gen, attempt):
                    return rec
        c = self.cfg
        t0 = time.perf_counter()

        def greedy(name: str, net: PokerCNN) -> Player:  # no exploration: the player as it would be evaluated
            return Player(name, "cnn", net, c.selfplay_candidates, c.raise_fractions, 0.0, c.exact_fold)

        candidate = greedy(f"cnn{gen}", load_generation(self.candidate_path(gen, attempt))[0])
        opponents = [Player("heuristic", "heuristic", sizing=c.heuristic_sizing)]
        opponents += [greedy(f"cnn{g}", self.player(g).net) for g in range(1, gen)]
        decks, buttons = draw_deals(c.gate_hands // 2, seed_rng(c, 3, gen, attempt))
        rngs = [seed_rng(c, 4, gen, attempt, k) for k in range(len(opponents))]
        bar = self._bar(len(opponents) * 2 * len(decks), f"gate g{gen} try {attempt}", "hand")
        matches = run_gate(self.game, candidate, opponents, decks, buttons, rngs, progress=bar.update)
        bar.close()
        rec = gate_record(gen, attempt, matches, time.perf_counter() - t0)
        with open(log, "a") as f:
            f.write(json.dumps(rec) + "\n")
        return rec
