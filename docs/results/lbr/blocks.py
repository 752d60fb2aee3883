"""The longer no-limit LBR runs of docs/results/lbr.md: fixed cases, hands in seeded blocks of 50.

    python docs/results/lbr/blocks.py run --out RUNS/blocks.jsonl [--until 04:05] [--cases NAME ...]
    python docs/results/lbr/blocks.py summary --out RUNS/blocks*.jsonl --json docs/results/lbr/blocks.json

The protocol is fixed here, before any result: every case plays blocks of ``BLOCK`` hands (CNN
generations: ``CNN_BLOCK``; LBR's seat alternating), block ``k`` of a case drawn from
``numpy.random.default_rng([SEED, k])``, up to the case's ``blocks``. ``run`` goes round by round (the lowest missing block of every case, then the next, ...), so
that when the time runs out (``--until``, UTC) the cases have about the same number of hands; a case whose
agent file does not exist yet (a CNN generation still training) joins in a later round. Each
finished block is appended to the JSONL file at once (LBR's winnings of every hand, in big blinds), so a
re-run resumes; ``summary`` pools a case's blocks: mean, 95% CI of the mean (normal, per-hand standard
deviation) in mbb per hand, and hands per second.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

BLOCK = 50  # hands per block (CNN cases: CNN_BLOCK, their range queries cost seconds each)
CNN_BLOCK = 10
SEED = 20261124  # deal / draw seed of every case (block k: default_rng([SEED, k]))
CNN_RUNS = Path("runs/cnn")  # the `small` preset runs small_s0..2 (python -m agent_zoo.cnn train --preset small --seed S) and `paper`
PPO_RUNS = Path("runs/lbrcnn")  # ppo_s0..2.zip (docs/results/lbr/train_ppo.py --timesteps 20000 --seed S)
NL100 = {"bet_sizing": "abstract"}  # 100 big blinds (200 chips), the env's default table
NL50_CNN = {"bet_sizing": "chips", "obs_encoder": "poker_cnn", "starting_stack": 100}  # the CNN's table: 50 BB


@dataclass(frozen=True)
class Case:
    """One LBR measurement: an agent on a table, at most ``blocks`` blocks of hands."""

    name: str
    agent: str  # registry spec, or "cnn-subset:PATH" / "cnn-full:PATH" (a CNN generation and its candidate set)
    env: dict[str, Any] = field(default_factory=dict)
    blocks: int = 24
    hands: int = BLOCK  # hands per block
    # Phase 2's cap (``run --phase 2``): added at 02:45 UTC, after the first blocks (whose results had been
    # printed) ran 10-50 times faster than the budget assumed; phase 1's results are reported beside it.
    blocks2: int = 0

    def path(self) -> Path | None:
        spec = self.agent.split(":", 1)
        return Path(spec[1]) if spec[0] in ("cnn-subset", "cnn-full", "sb3") else None


CASES = [
    Case("nl100 random", "random", NL100, blocks=24, blocks2=200),
    Case("nl100 heuristic", "heuristic", NL100, blocks=24, blocks2=200),
    *(Case(f"nl100 MaskablePPO seed {s}", f"sb3:{PPO_RUNS / f'ppo_s{s}.zip'}", NL100, blocks=8, blocks2=40) for s in range(3)),
    Case("nl50 random", "random", NL50_CNN, blocks=8, blocks2=40),
    Case("nl50 heuristic", "heuristic", NL50_CNN, blocks=8, blocks2=40),
    *(Case(f"nl50 cnn small seed {s} gen {g}", f"cnn-subset:{CNN_RUNS / f'small_s{s}' / f'gen_{g}.pt'}", NL50_CNN, blocks=20,
           hands=CNN_BLOCK, blocks2=100) for g in (1, 2, 3) for s in range(3)),
    # Added at 03:05 UTC, after the subset results of seed 0 had been seen: the same generation with the
    # full candidate set (every legal chip amount; the registry's ``cnn:PATH`` default).
    # At 03:22 UTC, when the cases above had reached their caps with time left, raised to 100 blocks
    # (blocks2) and joined by every other generation with the full candidate set, 100 blocks each.
    *(Case(f"nl50 cnn small seed {s} gen {g}, full candidates", f"cnn-full:{CNN_RUNS / f'small_s{s}' / f'gen_{g}.pt'}",
           NL50_CNN, blocks=20 if (s, g) == (0, 2) else 0, hands=CNN_BLOCK, blocks2=100)
      for g in (1, 2, 3) for s in range(3)),
    # Added on 2026-11-24 at 05:12 UTC, before any LBR hand against them: the `paper` recipe's
    # generations (python -m agent_zoo.cnn train --preset paper), with the recipe's own candidate set (every
    # legal chip amount); 500 hands first (blocks), then up to 1,000 (blocks2) as time allows.
    *(Case(f"nl50 cnn paper gen {g}, full candidates", f"cnn-full:{CNN_RUNS / 'paper' / f'gen_{g}.pt'}",
           NL50_CNN, blocks=50, hands=CNN_BLOCK, blocks2=100) for g in (1, 2, 3)),
    # Added on 2026-11-28, before any LBR hand against it: the re-solving agent with public solves (one solve
    # answers every holding LBR asks about), the settings of its zoo matches (docs/solver.md); 500 hands first
    # (blocks), then up to 1,000 (blocks2) as time allows. It needs the hand so far in its observations.
    # Both cases ran with the pre-flop chart, the agent's default until 2026-11-29: preflop=chart spells it now.
    Case("nl50 resolve, public solves", "resolve:public=1,preflop=chart,iterations=10,river=100,holdings=120",
         {**NL50_CNN, "history": True}, blocks=50, hands=CNN_BLOCK, blocks2=100),
    # Added on 2026-11-28 after the case above had played 920 hands (+339 +- 837 mbb/hand at 850), before any
    # hand of its own: the same agent with four times the iterations per solve and ranges thinned to 200
    # holdings, to see whether a closer solve gives LBR less; 500 hands first, up to 1,000.
    Case("nl50 resolve, public solves, 40 iterations", "resolve:public=1,preflop=chart,iterations=40,river=400,holdings=200",
         {**NL50_CNN, "history": True}, blocks=50, hands=CNN_BLOCK, blocks2=100),
    # Added on 2026-11-29, before any hand against it: the first case's agent with the solved pre-flop
    # (agent_zoo.solver.preflop_game, CFR+ on the abstract pre-flop game) in place of the equity chart, since LBR
    # had won its +505 in the big blind, against the chart; 500 hands first, up to 1,000.
    Case("nl50 resolve, public solves, solved pre-flop", "resolve:public=1,preflop=solved,iterations=10,river=100,holdings=120",
         {**NL50_CNN, "history": True}, blocks=50, hands=CNN_BLOCK, blocks2=100),
]


def _agent(case: Case, env: Any) -> Any:
    kind, _, path = case.agent.partition(":")
    if kind in ("cnn-subset", "cnn-full"):
        from agent_zoo.cnn.agent import load_cnn_agent

        return load_cnn_agent(path, env, candidates=kind.removeprefix("cnn-"))
    from agent_zoo.registry import make_agent

    return make_agent(case.agent, env)


def _done(*outs: Path) -> dict[str, dict[int, dict[str, Any]]]:
    done: dict[str, dict[int, dict[str, Any]]] = {}
    for out in outs:
        if out.exists():
            for line in out.read_text().splitlines():
                rec = json.loads(line)
                done.setdefault(rec["case"], {})[rec["block"]] = rec
    return done


def run(out: Path, until: datetime | None, names: list[str] | None, phase: int = 1, seen: tuple[Path, ...] = ()) -> None:
    """Play the missing blocks round by round into ``out``; blocks in ``out`` or ``seen`` count as done."""
    import torch

    from agent_zoo.lbr import LocalBestResponse
    from poker_envs import nolimit_holdem_v0

    torch.set_num_threads(1)
    cases = [c for c in CASES if names is None or c.name in names]
    if phase == 2:
        cases = [replace(c, blocks=max(c.blocks, c.blocks2)) for c in cases]
    lbrs: dict[str, LocalBestResponse] = {}  # one per case, built when its agent exists (its pre-flop memo lasts)
    while True:
        done = _done(out, *seen)
        todo = [c for c in cases if len(done.get(c.name, {})) < c.blocks]
        ready = [c for c in todo if c.path() is None or c.path().exists()]  # type: ignore[union-attr]
        if not todo:
            return
        if not ready:
            time.sleep(30)  # every case left waits for its agent file (a generation still training)
        for case in ready:  # one round: the lowest missing block of every case that can play
            if until is not None and datetime.now(timezone.utc) >= until:
                print("time is up", file=sys.stderr)
                return
            k = min(set(range(case.blocks)) - set(_done(out, *seen).get(case.name, {})))
            if case.name not in lbrs:
                env = nolimit_holdem_v0.env(**case.env)
                lbrs[case.name] = LocalBestResponse(env, _agent(case, env))
            lbr = lbrs[case.name]
            rng = np.random.default_rng([SEED, k])
            start = time.perf_counter()
            wins = [lbr.play_hand(i % 2, rng) for i in range(case.hands)]
            rec = {"case": case.name, "block": k, "agent": case.agent, "env": case.env, "seed": [SEED, k],
                   "wins_bb": wins, "seconds": time.perf_counter() - start, "finished": datetime.now(timezone.utc).isoformat()}
            with out.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            print(f"{case.name} block {k}: {1000 * np.mean(wins):+.0f} mbb/hand, {rec['seconds']:.0f} s", file=sys.stderr)


def summary(outs: list[Path]) -> list[dict[str, Any]]:
    rows = []
    done = _done(*outs)
    for case in CASES:
        blocks = done.get(case.name, {})
        if not blocks:
            rows.append({"case": case.name, "agent": case.agent, "env": case.env, "hands": 0})
            continue
        row: dict[str, Any] = {"case": case.name, "agent": case.agent, "env": case.env}
        for phase, cap in (("phase1", case.blocks), ("all", max(case.blocks, case.blocks2))):
            ks = [k for k in sorted(blocks) if k < cap]
            if not ks:
                continue
            wins = np.concatenate([blocks[k]["wins_bb"] for k in ks])
            seconds = sum(blocks[k]["seconds"] for k in ks)
            row[phase] = {"blocks": len(ks), "hands": int(wins.size), "mbb_per_hand": 1000 * float(wins.mean()),
                          "mbb_ci95": 1000 * 1.96 * float(wins.std(ddof=1)) / math.sqrt(wins.size),
                          "per_seat_mbb": [1000 * float(wins[0::2].mean()), 1000 * float(wins[1::2].mean())],
                          "hands_per_second": wins.size / seconds}
        row["hands"] = row["all"]["hands"]
        rows.append(row)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("command", choices=("run", "summary"))
    p.add_argument("--out", required=True, nargs="+", help="JSONL files of finished blocks (run: appended to "
                   "the first, all count as done, so a re-run resumes; summary: pools them all)")
    p.add_argument("--until", default=None, help="run: stop starting blocks at this UTC time, HH:MM (today)")
    p.add_argument("--cases", nargs="*", default=None, help="run: only these case names")
    p.add_argument("--phase", type=int, choices=(1, 2), default=1, help="run: 1 caps each case at blocks, 2 at blocks2")
    p.add_argument("--json", default=None, help="summary: also write the table here")
    p.add_argument("--markdown", action="store_true", help="summary: also print it as a markdown table")
    args = p.parse_args()
    if args.command == "run":
        out = Path(args.out[0])
        until = None
        if args.until:
            h, m = (int(x) for x in args.until.split(":"))
            until = datetime.now(timezone.utc).replace(hour=h, minute=m, second=0, microsecond=0)
        run(out, until, args.cases, args.phase, tuple(Path(o) for o in args.out[1:]))
        return
    rows = summary([Path(o) for o in args.out])
    for r in rows:
        line = f"{r['case']:<34}"
        for phase in ("phase1", "all"):
            if phase in r:
                q = r[phase]
                line += f" | {phase}: {q['hands']:>5} hands {q['mbb_per_hand']:+7.0f} +- {q['mbb_ci95']:5.0f} ({q['hands_per_second']:.2f}/s)"
        print(line if r["hands"] else f"{r['case']:<34} | no hands")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if args.markdown:
        print("\n| case | phase 1: hands | mbb/hand | all: hands | mbb/hand | LBR on the button / big blind (all) | hands/s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            if not r["hands"]:
                print(f"| {r['case']} | 0 | | 0 | | | |")
                continue
            a, b = r.get("phase1"), r["all"]
            first = f"{a['hands']} | {a['mbb_per_hand']:+,.0f} ± {a['mbb_ci95']:,.0f}" if a else "0 | "
            print(f"| {r['case']} | {first} | {b['hands']} | **{b['mbb_per_hand']:+,.0f} ± {b['mbb_ci95']:,.0f}** | "
                  f"{b['per_seat_mbb'][0]:+,.0f} / {b['per_seat_mbb'][1]:+,.0f} | {b['hands_per_second']:.2f} |")


if __name__ == "__main__":
    main()
