"""How hard NeuRD's threshold binds in R-NaD checkpoints of Leduc or Kuhn (docs/results/population.md).

    python docs/results/population/threshold.py RUN_DIR/checkpoint_900.npz [MORE.npz ...]

For theta, its target and the regularisation policy of each checkpoint: the exact exploitability, and over the
information sets the smallest centred logit (log-probability minus its mean over the legal actions) and the
smallest legal probability. NeuRD (Hennes et al. 2020, as R-NaD uses it) stops pushing a centred logit below
-beta, so a policy held by the threshold shows a pile of information sets at -beta.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from agent_zoo.jax_common import exploitability as exact
from agent_zoo.jax_common.agent import JaxAgent
from agent_zoo.jax_common.checkpoint import read_header


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoints", nargs="+", type=Path, help="checkpoint_<update>.npz of jax_rnad runs")
    args = parser.parse_args()
    for path in args.checkpoints:
        config = read_header(path)["config"]
        if "neurd_beta" not in config or config["game"] not in exact.SOLVABLE:
            parser.error(f"{path}: not an R-NaD checkpoint of {' or '.join(exact.SOLVABLE)}")
        ev, beta = exact.evaluator(config["game"]), config["neurd_beta"]
        legal = ev.legal > 0
        print(f"{path} (beta {beta}, {int(legal.any(axis=1).sum())} information sets)")
        for which in ("params", "target", "reg"):
            probs = exact.policy_table(JaxAgent.load(path, parameters=which), ev)
            logp = np.where(legal, np.log(np.maximum(probs, 1e-30)), 0.0)
            centred = logp - logp.sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True)
            lowest = np.where(legal, centred, np.inf).min(axis=1)
            smallest = np.where(legal, probs, np.inf).min(axis=1)
            q05, q25, q50, q75 = np.quantile(lowest, [0.05, 0.25, 0.5, 0.75])
            print(f"  {which:<6} exploitability {ev(probs).exploitability:.4f}; smallest centred logit: quantiles 5/25/50/75% "
                  f"{q05:+.2f} {q25:+.2f} {q50:+.2f} {q75:+.2f}, below -beta at {np.mean(lowest < -beta):.1%} of the "
                  f"information sets; median smallest probability {np.median(smallest):.4f}")


if __name__ == "__main__":
    main()
