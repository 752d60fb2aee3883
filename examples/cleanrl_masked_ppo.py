"""Masked PPO in one file, CleanRL style, on ``gymnasium.make_vec("poker_envs/LeducHoldem-v0", num_envs=...)``.

    python examples/cleanrl_masked_ppo.py                           # 200k steps on 16 tables, seed 1
    python examples/cleanrl_masked_ppo.py --total-timesteps 20000 --seed 2

The learner holds one seat per table (it rotates each hand) against the env's random opponent. ``make_vec``
with no other argument resets a finished hand in the same step: the step that ends a hand returns its reward,
``terminated=True`` and the next hand's first observation and mask, so every mask has a legal action and the
logits are masked with -inf (no NaN). Rewards are chips per hand; the script prints the mean reward per
finished hand of the first and the last iteration.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical
from tqdm import tqdm

import poker_envs  # noqa: F401  (registers the poker_envs/... ids)
from agent_zoo import cli


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("examples/cleanrl_masked_ppo.py", __doc__.split("\n\n")[0])
    parser.add_argument("--env-id", default="poker_envs/LeducHoldem-v0", help="a poker_envs Gymnasium id")
    parser.add_argument("--total-timesteps", type=cli.positive_int, default=200_000,
                        help="steps over all tables; rounded up to whole rollouts of --num-envs x --num-steps, and the "
                             "output says so")
    cli.add_seed(parser, default=1)
    parser.add_argument("--num-envs", type=cli.positive_int, default=16, help="tables stepped together")
    parser.add_argument("--num-steps", type=cli.positive_int, default=128, help="steps per table per rollout")
    parser.add_argument("--learning-rate", type=cli.positive_float, default=2.5e-4, help="Adam's step size")
    parser.add_argument("--gamma", type=float, default=1.0, help="discount (hands are short: none within one)")
    parser.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    parser.add_argument("--num-minibatches", type=cli.positive_int, default=4, help="minibatches per rollout")
    parser.add_argument("--update-epochs", type=cli.positive_int, default=4, help="passes over each rollout")
    parser.add_argument("--clip-coef", type=float, default=0.2, help="PPO's clipping of the probability ratio")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="weight of the entropy bonus")
    parser.add_argument("--vf-coef", type=float, default=0.5, help="weight of the value loss")
    parser.add_argument("--max-grad-norm", type=float, default=0.5, help="gradient norm clipping")
    cli.add_threads(parser)
    cli.add_progress(parser)
    return parser.parse_args(argv)


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """Separate actor and critic MLPs; the actor's logits of illegal actions are set to -inf."""

    def __init__(self, obs_dim: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, num_actions), std=0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = self.actor(x).masked_fill(~mask, float("-inf"))
        probs = Categorical(logits=logits)
        if action is None:
            action = torch.multinomial(probs.probs, 1, generator=generator).squeeze(-1)  # seeded sampling
        entropy = -(probs.probs * probs.logits.masked_fill(~mask, 0.0)).sum(-1)  # 0 * -inf would be NaN
        return action, probs.log_prob(action), entropy, self.critic(x)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    # Whole rollouts, at least the steps asked (as the zoo's other PPO trainers round), said when it is more.
    num_iterations = -(-args.total_timesteps // batch_size)
    if num_iterations * batch_size != args.total_timesteps:
        print(f"{args.total_timesteps:,} steps asked: rounded up to {num_iterations} whole rollouts of {args.num_envs} "
              f"tables x {args.num_steps} steps = {num_iterations * batch_size:,} steps", flush=True)

    # Seeding: Python, numpy and torch, the env, and one torch generator for the actions sampled.
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    torch.set_num_threads(args.threads)  # a 64x64 MLP gains nothing from threads; on a shared machine they contend

    envs = gymnasium.make_vec(args.env_id, num_envs=args.num_envs)  # same-step autoreset: never an empty mask
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    num_actions = int(envs.single_action_space.n)
    agent = Agent(obs_dim, num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # Rollout storage
    obs = torch.zeros((args.num_steps, args.num_envs, obs_dim))
    masks = torch.zeros((args.num_steps, args.num_envs, num_actions), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    next_obs_np, infos = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs_np, dtype=torch.float32).reshape(args.num_envs, -1)
    next_mask = torch.as_tensor(infos["action_mask"] > 0)  # the mask comes in the info, int8 -> bool
    next_done = torch.zeros(args.num_envs)
    hand_rewards: list[list[float]] = []  # rewards of the hands finished in each iteration
    illegal = 0
    losses: dict[str, float] = {}
    start = time.perf_counter()
    bar = tqdm(total=num_iterations * batch_size, unit="step", disable=args.no_progress)

    for iteration in range(num_iterations):
        finished: list[float] = []
        for step in range(args.num_steps):
            obs[step], masks[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask, generator=generator)
            illegal += int((~next_mask[torch.arange(args.num_envs), action]).sum())
            actions[step], logprobs[step], values[step] = action, logprob, value.flatten()

            next_obs_np, reward, terminations, truncations, infos = envs.step(action.numpy())
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            ended = np.logical_or(terminations, truncations)
            finished.extend(np.asarray(reward)[ended].tolist())
            next_obs = torch.as_tensor(next_obs_np, dtype=torch.float32).reshape(args.num_envs, -1)
            next_mask = torch.as_tensor(infos["action_mask"] > 0)  # already the next hand's mask where one ended
            next_done = torch.as_tensor(ended, dtype=torch.float32)
            bar.update(args.num_envs)
        hand_rewards.append(finished)

        # Generalized advantage estimation, cut at the end of every hand.
        with torch.no_grad():
            next_value = agent.get_value(next_obs).flatten()
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                nextnonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        # PPO update over shuffled minibatches of the flattened rollout.
        b_obs, b_masks = obs.reshape(batch_size, obs_dim), masks.reshape(batch_size, num_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        for _ in range(args.update_epochs):
            order = torch.randperm(batch_size, generator=generator)
            for lo in range(0, batch_size, minibatch_size):
                mb = order[lo:lo + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_masks[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.flatten() - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        losses = {"policy": pg_loss.item(), "value": v_loss.item(), "entropy": entropy.mean().item()}
        bar.set_postfix(reward=f"{np.mean(finished) if finished else float('nan'):+.2f}")

    bar.close()
    envs.close()
    seconds = time.perf_counter() - start
    first, last = (float(np.mean(h)) if h else float("nan") for h in (hand_rewards[0], hand_rewards[-1]))
    steps = num_iterations * batch_size
    asked = f" ({args.total_timesteps:,} asked)" if steps != args.total_timesteps else ""
    print(f"{steps:,} steps{asked} in {seconds:.1f} s; chips per hand against random: first iteration {first:+.3f}, "
          f"last {last:+.3f}; illegal actions: {illegal}")
    return {"steps": steps, "steps_requested": args.total_timesteps, "illegal": illegal, "losses": losses,
            "first": first, "last": last, "hands": [len(h) for h in hand_rewards], "agent": agent}


if __name__ == "__main__":
    main()
