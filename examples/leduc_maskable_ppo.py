"""MaskablePPO (sb3-contrib) on Leduc hold'em: first against the random agent, then against a CFR+ agent.

    python examples/leduc_maskable_ppo.py                      # 50k steps per phase, minutes on CPU
    python examples/leduc_maskable_ppo.py --timesteps 100000   # longer

The learner plays both seats in turn (``seat="rotate"``), so one network is a complete Leduc strategy;
it is measured three ways before training, after each phase:
* chips per hand against random and against CFR+ (duplicate deals, 95% CI, via the zoo tournament),
* exact exploitability (OpenSpiel's NashConv / 2, chips per game) of the network's policy, computed by
  ``agent_zoo.cfr`` over all 936 information sets. The CFR+ agent itself is at about 1e-4.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agent_zoo import cli


def evaluate(model: Any, opponents: list[str], tree: Any, observations: np.ndarray, hands: int, seed: int) -> dict[str, Any]:
    """Chips per hand against each opponent (duplicate deals) and exact exploitability of the network."""
    from agent_zoo.cfr.agent import TabularPolicyAgent
    from agent_zoo.cfr.best_response import exploitability
    from agent_zoo.tournament import TournamentConfig, run_tournament
    from wrappers.sb3 import policy_table

    # Leduc is small: the network's whole strategy is a 936-row table, played by table look-up (fast, exact).
    table = policy_table(model, observations, tree.legal_mask)
    learner = TabularPolicyAgent(observations, table, tree.infoset_keys, name="ppo")
    out: dict[str, Any] = {}
    for opp in opponents:
        res = run_tournament(TournamentConfig(game="leduc", agents=[learner, opp], hands=hands, seed=seed, progress=False, style=False))
        out[opp] = (float(res.mean[0, 1]), float(res.ci95[0, 1]))
    out["exploitability"] = exploitability(tree, table).exploitability
    return out


def show(label: str, ev: dict[str, Any], names: dict[str, str]) -> None:
    vs = "  ".join(f"vs {names[k]}: {m:+.3f} ± {c:.3f}" for k, (m, c) in ((k, v) for k, v in ev.items() if k != "exploitability"))
    print(f"{label:<22} {vs}  exploitability {ev['exploitability']:.4f}")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/leduc_maskable_ppo.py", __doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=50_000, help="PPO steps in each of the two phases")
    parser.add_argument("--eval-hands", type=int, default=4000, help="hands per evaluation match")
    parser.add_argument("--cfr-iterations", type=int, default=1000, help="CFR+ iterations of the phase-2 opponent")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/leduc_ppo", "the CFR+ policy and the trained model")
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    from agent_zoo.cfr.__main__ import game_and_encoder
    from agent_zoo.cfr.policy_io import infoset_observations
    from agent_zoo.cfr.tree import GameTree
    from agent_zoo.showcase import solve_cfr_policy
    from wrappers import SingleAgentEnv

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)  # a 64x64 MLP gains nothing from threads; on a shared machine they only contend
    out = cli.out_dir(args.out)
    start = time.perf_counter()

    # The CFR+ opponent, solved here in about a second and saved as a policy file.
    cfr_path, cfr_expl = solve_cfr_policy("leduc", out, args.cfr_iterations)
    cfr_spec = f"cfr:{cfr_path}"
    print(f"CFR+ opponent: {args.cfr_iterations} iterations, exploitability {cfr_expl:.2e}")
    game, encoder = game_and_encoder("leduc")
    tree = GameTree.build(game)  # the network's strategy is read as a table over this tree's information sets
    observations = infoset_observations(tree, encoder)
    names = {"random": "random", cfr_spec: "CFR+"}

    env = SingleAgentEnv("leduc_holdem_v0", opponents="random", seat="rotate", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, learning_rate=3e-4, ent_coef=0.01, seed=args.seed, device="cpu")
    results = {"before": evaluate(model, list(names), tree, observations, args.eval_hands, args.seed)}
    show("before training", results["before"], names)

    model.learn(args.timesteps, callback=cli.sb3_progress(args.timesteps, not args.no_progress))
    results["after_vs_random"] = evaluate(model, list(names), tree, observations, args.eval_hands, args.seed)
    show("after phase 1 (random)", results["after_vs_random"], names)

    env.set_opponents(cfr_spec)  # phase 2: the same learner now faces the CFR+ agent
    model.learn(args.timesteps, reset_num_timesteps=False, callback=cli.sb3_progress(args.timesteps, not args.no_progress))
    results["after_vs_cfr"] = evaluate(model, list(names), tree, observations, args.eval_hands, args.seed)
    show("after phase 2 (CFR+)", results["after_vs_cfr"], names)

    model.save(out / "maskable_ppo_leduc.zip")
    print(f"model saved to {out / 'maskable_ppo_leduc.zip'}; {time.perf_counter() - start:.0f} s in all")
    print("(chips per hand of the PPO learner, 95% CI over duplicate deals; exploitability = NashConv/2, chips per game)")
    return results


if __name__ == "__main__":
    main()
