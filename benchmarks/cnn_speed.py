"""CNN value player speed on CPU: decisions per second at 50 big blinds, range queries, training samples per second.

Decisions: a CNN player (random weights: speed does not depend on them) against the heuristic,
hands side by side (one batched scoring per round for all hands) and one hand at a time through the
env's Agent API, with the full candidate set (every legal chip amount; identical tensors scored once)
and the subset (fold, check/call, min raise, 1/2, 1, 2 pots, all-in). Range query: the agent asked
about all 1,225 holdings LBR's range holds at one pre-flop table (local best response does this at
every decision). Each is timed with the current scorer (``network.score_candidates``: first
convolution split into state and candidate planes, channels_last) and with the previous one as the
baseline, in the same run (``--scorer``): every (state, candidate) tensor assembled and scored in one
plain forward pass. Training: minibatches of stored heuristic hands re-encoded on the fly, MSE +
Adadelta, with and without the encoding time.

    python benchmarks/cnn_speed.py [--hands 200] [--threads 1] [--scorer both]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import torch

from agent_zoo.cnn.agent import CNNAgent
from agent_zoo.cnn.config import CNNConfig
from agent_zoo.cnn.heuristic import HeuristicAgent
import agent_zoo.cnn.agent as agent_mod
import agent_zoo.cnn.selfplay as selfplay_mod
from agent_zoo.cnn.network import PokerCNN, score, score_candidates, to_tensor
from agent_zoo.cnn.selfplay import PlayConfig, Player, draw_deals, make_game, play_hands
from agent_zoo.cnn.storage import encode_samples
from agent_zoo.cnn.train import make_optimizer
from poker_envs import nolimit_holdem_v0
from poker_envs.encoders.poker_cnn import ACTION_TYPE, PokerCNNEncoder
from poker_envs.games.base import CHANCE, play_chance


def assembled(net: PokerCNN, states: np.ndarray, candidates: np.ndarray, rows: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """The previous scorer (baseline): every (state, candidate) tensor built, one plain forward pass."""
    x = np.asarray(states)[rows]
    x[:, ACTION_TYPE:] = candidates[cands]
    return score(net, x)


@contextmanager
def scorer(name: str) -> Iterator[None]:
    """Score with ``score_candidates`` ("split") or the baseline ``assembled`` inside the block."""
    fn = {"split": score_candidates, "assembled": assembled}[name]
    saved = agent_mod.score_candidates, selfplay_mod.score_candidates
    agent_mod.score_candidates = selfplay_mod.score_candidates = fn
    try:
        yield
    finally:
        agent_mod.score_candidates, selfplay_mod.score_candidates = saved


def range_query(net: PokerCNN, candidates: str) -> tuple[float, int]:
    """Seconds of one LBR range query (every holding LBR's cards leave) at the first pre-flop decision."""
    from agent_zoo.lbr import LBRConfig, LocalBestResponse

    env = nolimit_holdem_v0.env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    lbr = LocalBestResponse(env, CNNAgent(net, env, candidates), LBRConfig(preflop_memo=0))
    state = lbr.new_hand()
    rng = np.random.default_rng(0)
    while state.current_player() == CHANCE:
        play_chance(state, rng)
    seat = state.current_player()
    rows = np.flatnonzero(lbr.family.possible(list(state.hole[1 - seat])))
    t = time.perf_counter()
    lbr.range_probabilities(state, seat, rows)
    return time.perf_counter() - t, len(rows)


def lockstep(net: PokerCNN, candidates: str, hands: int) -> tuple[float, int]:
    game = make_game()
    rng = np.random.default_rng(0)
    decks, buttons = draw_deals(hands, rng)
    cnn, heu = Player("cnn", "cnn", net, candidates), Player("heuristic", "heuristic")
    t = time.perf_counter()
    log = play_hands(game, (cnn, heu), decks, buttons, rng, PlayConfig(tables=64, stats=True))
    return time.perf_counter() - t, int(log.kinds["cnn"].sum())


def one_at_a_time(net: PokerCNN, candidates: str, hands: int) -> tuple[float, int]:
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    cnn, heu = CNNAgent(net, env, candidates), HeuristicAgent(chips_sizing=True)
    rng = np.random.default_rng(0)
    decisions, t = 0, time.perf_counter()
    for h in range(hands):
        env.reset(seed=h)
        while not all(env.terminations.values()):
            agent = cnn if env.agent_selection == "player_0" else heu
            decisions += agent is cnn
            env.step(agent.act(env.observe(env.agent_selection), rng))
    return time.perf_counter() - t, decisions


def training(batches: int, batch_size: int = 128) -> tuple[float, float]:
    game = make_game()
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    rng = np.random.default_rng(1)
    decks, buttons = draw_deals(2_000, rng)
    heu = Player("heuristic", "heuristic")
    store = play_hands(game, (heu, heu), decks, buttons, rng, PlayConfig(record=(0, 0))).recorder.store()
    cfg = CNNConfig()
    torch.manual_seed(0)
    net = PokerCNN().train()
    opt = make_optimizer(net, cfg)
    targets = torch.from_numpy(store.target)
    enc_time, t = 0.0, time.perf_counter()
    for _ in range(batches):
        idx = rng.integers(0, store.num_actions, batch_size)
        t0 = time.perf_counter()
        x = encode_samples(store, game, enc, idx)
        enc_time += time.perf_counter() - t0
        opt.zero_grad()
        loss = torch.mean((net(to_tensor(x)) - targets[idx]) ** 2)
        loss.backward()
        opt.step()
    total = time.perf_counter() - t
    n = batches * batch_size
    return n / total, n / (total - enc_time)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per decision measurement")
    parser.add_argument("--batches", type=int, default=30, help="training minibatches of 128")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--scorer", choices=("both", "split", "assembled"), default="both",
                        help="split: the current scorer; assembled: the previous one (baseline); both: each in turn")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    net = PokerCNN().eval()
    scorers = ("assembled", "split") if args.scorer == "both" else (args.scorer,)
    print(f"CNN player vs heuristic, heads-up, 50 big blinds (100 chips, blinds 1/2), {args.threads} torch thread(s)")
    print(f"{'mode':<34}{'candidates':<12}{'scorer':<11}{'decisions':>10}{'seconds':>9}{'decisions/s':>13}")
    for name, fn, hands in (("hands side by side (64)", lockstep, args.hands),
                            ("one hand at a time (Agent API)", one_at_a_time, max(1, args.hands // 4))):
        for cand in ("full", "subset"):
            for how in scorers:
                with scorer(how):
                    secs, n = fn(net, cand, hands)
                print(f"{name:<34}{cand:<12}{how:<11}{n:>10}{secs:>9.1f}{n / secs:>13.1f}")
    for cand in ("full", "subset"):
        for how in scorers:
            with scorer(how):
                secs, n = range_query(net, cand)
            print(f"{'LBR range query (holdings)':<34}{cand:<12}{how:<11}{n:>10}{secs:>9.1f}{n / secs:>13.1f}")
    with_enc, net_only = training(args.batches)
    print(f"training (batch 128, MSE, Adadelta): {with_enc:.0f} samples/s with on-the-fly encoding, "
          f"{net_only:.0f} samples/s network only")


if __name__ == "__main__":
    main()
