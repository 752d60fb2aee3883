"""Round robin of random, heuristic and CNN generations with duplicate deals (the document's Table 3).

Every pair plays ``hands / 2`` deals twice, seats swapped, with the same cards and button, so the
card luck cancels in the pair's difference. A cell is the row player's mean big blinds per hand with
a 95% interval over deals (normal approximation, deals independent). All pairs see the same deals.

Why not ``agent_zoo.tournament``: it plays one hand at a time through ``Agent.act``, so a CNN
player's forward passes cannot be batched across hands; here hands run side by side and each
round's candidate tensors share one forward pass per network (several times faster on a CPU).
The rules, deals and scoring are the same engine and the same duplicate scheme.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.cnn.config import CNNConfig
from agent_zoo.cnn.gating import mean_ci
from agent_zoo.cnn.network import load_generation
from agent_zoo.cnn.selfplay import Player, draw_deals, duplicate_match, make_game

KIND_LABELS = ("fold", "check", "call", "bet", "raise")
SIZE_BINS = (0.0, 0.5, 1.0, 2.0, 4.0, np.inf)  # chips a bet/raise adds / pot before it
SIZE_LABELS = ("<1/2 pot", "1/2-1 pot", "1-2 pots", "2-4 pots", ">=4 pots")


@dataclass
class RoundRobin:
    """``mean[i, j]``: player i's big blinds per hand against player j (``ci95`` the half-width)."""

    names: list[str]
    mean: np.ndarray
    ci95: np.ndarray
    hands: int  # hands per pair
    seconds: np.ndarray  # time each pair took
    kinds: dict[str, list[int]] = field(default_factory=dict)  # fold/check/call/bet/raise counts
    sizes: dict[str, list[int]] = field(default_factory=dict)  # bet-size bin counts
    allin_ev: int | None = None  # boards of the all-in adjustment (None: realized chips)

    def table(self) -> str:
        w = 11
        adjusted = ", all-in adjusted" if self.allin_ev else ""
        lines = [f"mean big blinds per hand of the row player (±95% CI), {self.hands} hands per pair "
                 f"({self.hands // 2} duplicate deals{adjusted})", " " * w + "".join(f"{n:>16}" for n in self.names)]
        for i, a in enumerate(self.names):
            cells = ["-" if i == j else f"{self.mean[i, j]:+.2f}±{self.ci95[i, j]:.2f}" for j in range(len(self.names))]
            lines.append(f"{a:<{w}}" + "".join(f"{c:>16}" for c in cells))
        return "\n".join(lines)

    def markdown(self) -> str:
        head = "| row vs column | " + " | ".join(self.names) + " |"
        rows = [head, "|" + "---|" * (len(self.names) + 1)]
        for i, a in enumerate(self.names):
            cells = []
            for j in range(len(self.names)):
                if i == j:
                    cells.append("-")
                else:
                    sig = abs(self.mean[i, j]) > self.ci95[i, j]
                    text = f"{self.mean[i, j]:+.2f} ± {self.ci95[i, j]:.2f}"
                    cells.append(f"**{text}**" if sig else text)
            rows.append(f"| {a} | " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def hands_needed(self) -> np.ndarray:
        """Hands per pair at which the 95% half-width would shrink to |mean| (the sign becomes
        significant), from this run's per-deal spread: ``hands * (ci95 / mean) ** 2``."""
        with np.errstate(divide="ignore", invalid="ignore"):
            need = self.hands * (self.ci95 / np.abs(self.mean)) ** 2
        need[~np.isfinite(need)] = np.inf
        return need

    def needed_markdown(self) -> str:
        need = self.hands_needed()
        rows = ["| row vs column | " + " | ".join(self.names) + " |", "|" + "---|" * (len(self.names) + 1)]
        for i, a in enumerate(self.names):
            cells = ["-" if i == j else ("never (tie)" if not np.isfinite(need[i, j]) else f"{int(np.ceil(need[i, j])):,}")
                     for j in range(len(self.names))]
            rows.append(f"| {a} | " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        return {"names": self.names, "mean": self.mean.tolist(), "ci95": self.ci95.tolist(), "hands": self.hands,
                "seconds": self.seconds.tolist(), "kinds": self.kinds, "sizes": self.sizes,
                "allin_ev": self.allin_ev}


def round_robin(players: list[Player], hands: int, seed: int, cfg: CNNConfig, show: bool = True,
                allin_ev: int | None = None, cache: str | Path | None = None,
                cache_key: dict[str, Any] | None = None) -> RoundRobin | None:
    """Every pair of ``players`` on the same ``hands / 2`` deals, each played with both seatings.

    ``allin_ev``: score a showdown decided before the river by its expectation over the cards to come
    (this many random boards for a pre-flop all-in; an unbiased, lower-variance estimate of the same
    mean, since no decision depends on those cards).
    ``cache``: a folder keeping each finished pair (``pair_K.json``), so an interrupted round robin
    resumes where it stopped, and several processes can share one round robin: a pair being played is
    claimed (``pair_K.claim`` holding the process id; a dead process's claim is taken over). Every pair
    draws from its own seed stream, so the result does not depend on who played which pair. Returns None
    while pairs claimed by other live processes are unfinished. ``cache_key``: more settings the cached
    pairs must share (a folder holding another round robin's pairs is refused)."""
    from tqdm import tqdm

    game = make_game(cfg.small_blind, cfg.big_blind, cfg.stack, cfg.fold_when_check)
    deals = hands // 2
    decks, buttons = draw_deals(deals, np.random.default_rng(np.random.SeedSequence([seed, 0])))
    n = len(players)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    store = None if cache is None else PairCache(cache, {"names": [p.name for p in players], "hands": hands,
                                                         "seed": seed, "allin_ev": allin_ev, **(cache_key or {})})
    todo = [k for k in range(len(pairs)) if store is None or not store.done(k)]
    bar = tqdm(total=len(todo) * hands, desc="round robin", unit="hand", disable=not show, dynamic_ncols=True)
    records: dict[int, dict[str, Any]] = {}
    for k in todo:
        if store is not None and not store.claim(k):
            continue  # another live process plays it
        i, j = pairs[k]
        bar.set_postfix_str(f"{players[i].name} v {players[j].name}")
        records[k] = play_pair(game, players[i], players[j], decks, buttons, seed, k, cfg.big_blind, bar.update,
                               allin_ev)
        if store is not None:
            store.save(k, records[k])
    bar.close()
    if store is not None:
        records = store.load_all(len(pairs))
        if records is None:
            return None
    mean, ci, secs = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))
    kinds = {p.name: np.zeros(5, dtype=np.int64) for p in players}
    sizes = {p.name: np.zeros(len(SIZE_LABELS), dtype=np.int64) for p in players}
    for k, (i, j) in enumerate(pairs):
        r = records[k]
        mean[i, j], mean[j, i], ci[i, j], ci[j, i] = r["mean"], -r["mean"], r["ci95"], r["ci95"]
        secs[i, j] = secs[j, i] = r["seconds"]
        for name in r["kinds"]:
            kinds[name] += np.asarray(r["kinds"][name], dtype=np.int64)
            sizes[name] += np.asarray(r["sizes"][name], dtype=np.int64)
    return RoundRobin([p.name for p in players], mean, ci, hands, secs,
                      {k: v.tolist() for k, v in kinds.items()}, {k: v.tolist() for k, v in sizes.items()}, allin_ev)


def play_pair(game: Any, a: Player, b: Player, decks: np.ndarray, buttons: np.ndarray, seed: int, k: int,
              big_blind: int, progress: Any = None, allin_ev: int | None = None) -> dict[str, Any]:
    """Pair number ``k`` of a round robin: ``a``'s mean big blinds per hand and 95% half-width, the time,
    and both players' action-kind and bet-size counts."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(np.random.SeedSequence([seed, 1, k]))
    chips, logs = duplicate_match(game, a, b, decks, buttons, rng, progress=progress, allin_ev=allin_ev)
    m, h = mean_ci(chips, big_blind)
    kinds = {p.name: np.zeros(5, dtype=np.int64) for p in (a, b)}
    sizes = {p.name: np.zeros(len(SIZE_LABELS), dtype=np.int64) for p in (a, b)}
    for log in logs:
        for name, counts in log.kinds.items():
            kinds[name] += counts
        for name, ratios in log.bet_sizes.items():
            sizes[name] += np.histogram(ratios, bins=SIZE_BINS)[0]
    return {"pair": k, "mean": m, "ci95": h, "seconds": time.perf_counter() - t0,
            "kinds": {n: v.tolist() for n, v in kinds.items()}, "sizes": {n: v.tolist() for n, v in sizes.items()}}


class PairCache:
    """Finished pairs of one round robin on disk, and claims on the pairs being played (see ``round_robin``)."""

    def __init__(self, folder: str | Path, meta: dict[str, Any]) -> None:
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / "meta.json"
        if path.exists():
            old = json.loads(path.read_text())
            if old != meta:
                raise ValueError(f"{self.dir} holds pairs of another round robin (saved {old}, asked {meta}); "
                                 "use another --out or delete it")
        else:
            path.write_text(json.dumps(meta))

    def done(self, k: int) -> bool:
        return (self.dir / f"pair_{k}.json").exists()

    def claim(self, k: int) -> bool:
        """Claim pair ``k`` for this process; False if it is finished or a live process holds it."""
        path = self.dir / f"pair_{k}.claim"
        for _ in range(2):
            if self.done(k):
                return False
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                try:
                    pid = int(path.read_text() or "0")
                except (FileNotFoundError, ValueError):
                    pid = 0
                if pid and pid != os.getpid() and _alive(pid):
                    return False
                path.unlink(missing_ok=True)  # a dead process's (or our own earlier) claim
                continue
            with os.fdopen(fd, "w") as f:
                f.write(str(os.getpid()))
            return not self.done(k)
        return False

    def save(self, k: int, record: dict[str, Any]) -> None:
        tmp = self.dir / f"pair_{k}.json.tmp{os.getpid()}"
        tmp.write_text(json.dumps(record))
        tmp.replace(self.dir / f"pair_{k}.json")
        (self.dir / f"pair_{k}.claim").unlink(missing_ok=True)

    def load_all(self, count: int) -> dict[int, dict[str, Any]] | None:
        """Every pair's record, or None while some pair is unfinished."""
        if not all(self.done(k) for k in range(count)):
            return None
        return {k: json.loads((self.dir / f"pair_{k}.json").read_text()) for k in range(count)}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def generation_paths(run_dir: str | Path) -> list[Path]:
    """``gen_K.pt`` files of a run, by K."""
    paths = [p for p in Path(run_dir).glob("gen_*.pt") if re.fullmatch(r"gen_\d+\.pt", p.name)]
    if not paths:
        raise ValueError(f"{run_dir} has no finished generation (gen_K.pt); train first")
    return sorted(paths, key=lambda p: int(p.stem.split("_")[1]))


def check_run_dir(run_dir: str | Path) -> Path:
    """``run_dir`` as a Path when it is a run folder that ``train`` wrote (its config.json and at least one
    finished generation); else a ValueError saying what is missing."""
    run_dir = Path(run_dir)
    wrote = "give the folder that `python -m agent_zoo.cnn train --out DIR` wrote"
    if not run_dir.is_dir():
        raise ValueError(f"{run_dir} is not a folder; {wrote}")
    if not (run_dir / "config.json").is_file():
        raise ValueError(f"{run_dir} has no config.json, so it is not a CNN run folder; {wrote}")
    generation_paths(run_dir)  # at least one finished generation
    return run_dir


def evaluate_dir(run_dir: str | Path, hands: int, candidates: str = "full", seed: int = 12345,
                 out: str | Path | None = None, show: bool = True, allin_ev: int | None = None,
                 heuristic_sizing: str | None = None, random_player: str | None = None) -> RoundRobin | None:
    """Round robin of random, heuristic and every generation of ``run_dir``; writes JSON and PNGs.

    Finished pairs are kept in ``out/pairs`` until the whole round robin is written, so running the
    same command again resumes, and several processes running it share the pairs (None for a process
    that ends while others still play). ``heuristic_sizing`` / ``random_player``: judge the run against
    other baseline readings than its own (``heuristic.SIZINGS`` / ``RANDOM_READINGS``; None: the run's)."""
    run_dir = check_run_dir(run_dir)
    cfg = CNNConfig.from_dict(json.loads((run_dir / "config.json").read_text()))
    overrides = {k: v for k, v in (("heuristic_sizing", heuristic_sizing), ("random_player", random_player)) if v is not None}
    cfg = replace(cfg, **overrides)  # CNNConfig checks the values
    players = [Player("random", "random", random_reading=cfg.random_player),
               Player("heuristic", "heuristic", sizing=cfg.heuristic_sizing)]
    for path in generation_paths(run_dir):
        net, ckpt = load_generation(path)
        players.append(Player(f"cnn{ckpt['generation']}", "cnn", net, candidates, cfg.raise_fractions,
                              exact_fold=cfg.exact_fold))
    out = Path(out) if out is not None else run_dir / "eval"
    out.mkdir(parents=True, exist_ok=True)
    key = {"run": str(run_dir.resolve()), "candidates": candidates, **overrides}
    result = round_robin(players, hands, seed, cfg, show, allin_ev, cache=out / "pairs", cache_key=key)
    if result is None:
        return None
    baselines = {"heuristic_sizing": cfg.heuristic_sizing, "random_player": cfg.random_player}
    (out / "results.json").write_text(json.dumps({**result.to_dict(), "candidates": candidates, "seed": seed, **baselines}, indent=1))
    (out / "table.md").write_text(result.markdown() + "\n\nHands per pair for a significant sign:\n\n" + result.needed_markdown() + "\n")
    plot_shares(result, out)
    return result


def plot_shares(result: RoundRobin, out: Path) -> list[Path]:
    """The document's Figures 2 (action-type shares) and 3 (bet-size shares) per player, as PNGs."""
    from matplotlib.figure import Figure

    paths = []
    for key, labels, title, fname in (
        ("kinds", KIND_LABELS, "Action types per player (share of decisions)", "action_shares.png"),
        ("sizes", SIZE_LABELS, "Bet and raise sizes per player (chips added / pot before)", "bet_size_shares.png"),
    ):
        data = getattr(result, key)
        names = list(data)
        shares = np.array([np.array(data[n], float) / max(1, sum(data[n])) for n in names])
        fig = Figure(figsize=(7, 3.6))
        ax = fig.subplots()
        left = np.zeros(len(names))
        for c, label in enumerate(labels):
            ax.barh(names, shares[:, c], left=left, label=label)
            left += shares[:, c]
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("share")
        ax.set_title(title)
        ax.legend(ncol=len(labels), fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18))
        fig.tight_layout()
        path = out / fname
        from agent_zoo.figures import save_figure
        save_figure(fig, path, dpi=110)
        paths.append(path)
    return paths
