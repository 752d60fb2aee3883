"""Agents act from what they observe: pickled, fed without an env, batched (``act_batch``) and unchanged.

Every spec that can be built here (files made in the test) is pickled with a pickler that refuses
environment and game-state objects, and the copy must act exactly as the original; ``act_batch``
must equal ``act`` row by row, with one generator per row (batch-split invariant) or one generator
for all rows. The CNN value agent and the heuristic now read the public betting state instead of the
env's state: their decisions must be the ones the previous (state-reading) code made, recorded below.
"""

from __future__ import annotations

import importlib
import io
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from agent_zoo.agent import Agent, stack
from agent_zoo.cnn.agent import CNNAgent
from agent_zoo.cnn.heuristic import HeuristicAgent
from agent_zoo.cnn.network import PokerCNN
from agent_zoo.cnn.selfplay import Player, cnn_scores, make_game
from agent_zoo.cnn.storage import deal_cards
from agent_zoo.observe import public_of_state
from agent_zoo.registry import make_agent
from agent_zoo.rnad.agent import RNaDAgent
from poker_envs import catalog, nolimit_holdem_v0
from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.encoders.public import encode_public
from poker_envs.games.base import TERMINAL, GameState
from pettingzoo import AECEnv
from tests.conftest import play_random_hand

torch.set_num_threads(1)

# REGRESSION PINS, not an independent reference: actions of the CNN agent and of the heuristic recorded from the
# code itself before they read the public state (the code that read env.unwrapped.state, commit 70f28bb, with the
# loops of _cnn_decisions / _heuristic_decisions). They catch a change of behaviour; that the decisions are right
# is checked independently by tests/test_cnn.py (test_agent_plays_legal_argmax_and_dedup_is_exact: the agent's
# action is the legal argmax of the network's scores of assembled tensors) and tests/test_cnn.py's heuristic shares.
CNN_RECORDED = {'sb1_full': [52, 1, 34, 1, 15, 13, 15, 0, 52, 1, 35, 0, 52, 57, 1, 25, 0, 52, 1, 2, 0, 52, 49, 1, 1, 1, 1, 2, 0,
              54, 43, 60, 0, 52, 1, 43, 1, 1, 1, 6, 0, 1, 52, 1, 4, 1, 4, 15, 0, 54, 0, 52, 1, 39, 0, 52, 43, 1,
              52, 0],
 'sb1_subset_fold': [101, 1, 101, 0, 101, 101, 1, 101, 0, 101, 0, 1, 101, 0, 101, 26, 1, 101, 0, 101, 0, 101, 0, 1,
                     1, 1, 2, 1, 1, 2, 101, 45, 89, 1, 1, 1, 1, 1, 5, 1, 101, 0, 101, 0],
 'sb5_full': [256, 1, 166, 1, 66, 61, 69, 1, 256, 0, 171, 1, 1, 1, 1, 1, 256, 0, 1, 256, 0, 1, 256, 0, 266, 0, 256,
              206, 341, 476, 1, 256, 0, 266, 0, 256, 0, 191, 1, 1, 1, 1, 14, 1, 256, 221, 220, 1, 196, 1, 66, 1,
              11, 31, 1, 256, 216, 1],
 'sb5_subset': [501, 1, 1, 501, 0, 0, 501, 1, 0, 501, 1, 1, 1, 501, 1, 0, 1, 0, 501, 1, 0, 501, 268, 1, 1, 1, 1, 1,
                1, 9, 1, 1, 1, 1, 501, 1, 1, 501, 1, 1, 501, 1, 1, 0, 0, 501, 501, 0, 1, 501, 0, 0]}
HEURISTIC_RECORDED = {'nl_chips': [1, 1, 1, 9, 19, 39, 79, 0, 1, 6, 0, 1, 1, 5, 1, 1, 25, 85, 1, 11, 1, 9, 1, 1, 25, 93, 1, 11, 26, 1,
              26, 1, 51, 1, 5, 1, 1, 1, 7, 22, 97, 1, 11, 51, 0, 1, 6, 1, 1, 1, 16, 1, 21, 1, 9, 1, 9, 1, 25, 1, 1,
              1, 0, 1, 1, 4, 1, 16, 1, 1, 1, 7, 19, 46, 0, 0, 9, 0, 11, 51, 101, 1],
 'nl_chips_sb5_6max': [1, 1, 1, 121, 261, 401, 1, 0, 1, 1, 1, 0, 1, 1, 34, 1, 1, 318, 401, 1, 1, 1, 1, 36, 1, 276,
                       1, 401, 1, 1, 1, 1, 1, 36, 1, 96, 401, 1, 1, 1, 1, 1, 30, 176, 1, 401, 1, 0, 1, 1, 1, 1, 1,
                       1, 121, 1, 316, 1, 401, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 31, 1, 226, 1, 1, 0, 166, 1, 1, 1,
                       0, 0, 46, 0, 256, 401, 1, 1, 1, 1, 45, 168, 1, 1, 401, 1, 1, 1, 1, 1, 61, 0, 1, 1, 1, 1, 1,
                       151, 341, 1, 1, 1, 1, 1, 64, 140, 401, 1, 1, 1, 1, 1, 30, 85, 1, 0, 401, 1, 1, 1, 1, 1, 1,
                       1, 1, 71, 251, 401, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 61, 1, 1, 211, 1, 0, 391, 1, 1, 1, 1,
                       30, 176, 1, 401, 1, 1, 1, 1, 1]}

CHIPS = {"bet_sizing": "chips", "starting_stack": 100}
CNN_ENV = {**CHIPS, "obs_encoder": "poker_cnn"}


def make_env(game: str, **config: Any) -> Any:
    entry = catalog.game(game)
    return importlib.import_module(entry.module_path).raw_env(**{**dict(entry.heads_up), **config})


def _net(seed: int) -> PokerCNN:
    torch.manual_seed(seed)
    return PokerCNN().eval()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Small agent files: a CFR+ Leduc policy, an R-NaD net, a CNN generation, a tiny MaskablePPO, a bots module."""
    from sb3_contrib import MaskablePPO

    from agent_zoo.showcase import solve_cfr_policy
    from wrappers import SingleAgentEnv

    d = tmp_path_factory.mktemp("agents")
    cfr, _ = solve_cfr_policy("leduc", d, 20)
    leduc = make_env("leduc")
    dim = int(np.prod(leduc.observation_space("player_0")["observation"].shape))
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(dim, 8)), np.zeros(8)), (rng.normal(size=(8, 4)), np.zeros(4))]
    rnad = RNaDAgent(layers, num_actions=3, activate_final=False, info={"game": "leduc_poker"}).save(d / "rnad.npz")
    torch.save({"state_dict": _net(3).state_dict(), "generation": 1}, d / "gen_1.pt")
    torch.manual_seed(0)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("leduc_holdem_v0", opponents="random", seat="rotate"),
                        n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(192)
    model.save(d / "ppo.zip")
    (d / "agents_test_bots.py").write_text(
        "import numpy as np\n"
        "from agent_zoo.agent import RandomAgent\n"
        "def always_call(observation, rng):\n"
        "    return 1 if observation['action_mask'][1] else int(np.flatnonzero(observation['action_mask'])[0])\n"
        "def for_env(env):\n"
        "    return RandomAgent()\n"
    )
    sys.path.insert(0, str(d))
    yield {"cfr": cfr, "rnad": rnad, "cnn": d / "gen_1.pt", "sb3": d / "ppo.zip"}
    sys.path.remove(str(d))


# (game, env config, spec); {name} is replaced by the file made in ``files``
CASES = [
    ("kuhn", {}, "random"),
    ("nolimit", {"num_players": 3}, "random"),
    ("nolimit", {**CHIPS, "num_players": 3}, "random:kinds"),
    ("leduc", {}, "cfr:{cfr}"),
    ("leduc", {}, "rnad:{rnad}"),
    ("leduc", {}, "sb3:{sb3}"),
    ("leduc", {}, "module:agents_test_bots:always_call"),
    ("leduc", {}, "module:agents_test_bots:for_env"),
    ("kuhn", {}, "module:agent_zoo.agent:RandomAgent"),
    ("nolimit", {**CHIPS, "num_players": 3}, "heuristic"),
    ("limit", {"num_players": 3}, "heuristic"),
    ("nolimit", CNN_ENV, "cnn:{cnn}"),
    ("push_fold", {}, "push_fold"),
    ("threshold", {}, "threshold"),
    ("limit", {"obs_encoder": "flat107"}, "rule:B"),
    ("limit", {"obs_encoder": "flat56"}, "prospect"),
    ("nolimit", {**CHIPS, "history": True}, "resolve:iterations=3"),  # fixed iterations: no clock, reproducible
]
IDS = [f"{g}-{s.split(':')[0]}{'-' + s.rsplit(':', 1)[1] if s.startswith(('module', 'random:')) else ''}" for g, _, s in CASES]


def build(case: tuple[str, dict[str, Any], str], files: dict[str, Path]) -> tuple[Any, Agent]:
    game, config, spec = case
    env = make_env(game, **config)
    return env, make_agent(spec.format(**files), env)


def decisions(env: Any, hands: int, seed: int) -> list[dict[str, np.ndarray]]:
    """The observations of every decision in ``hands`` random hands."""
    out: list[dict[str, np.ndarray]] = []
    rng = np.random.default_rng(seed)
    for h in range(hands):
        env.reset(seed=seed + h)
        play_random_hand(env, rng, on_step=lambda agent, obs, action: out.append(obs) if action is not None else None)
    return out


class NoEnvPickler(pickle.Pickler):
    """Refuses to pickle environments and game states: an agent must not hold them."""

    def persistent_id(self, obj: Any) -> None:
        if isinstance(obj, AECEnv | GameState):
            raise AssertionError(f"the agent holds a {type(obj).__name__}")
        return None


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pickled_agent_acts_identically_and_holds_no_env(case, files) -> None:
    env, agent = build(case, files)
    buf = io.BytesIO()
    NoEnvPickler(buf).dump(agent)
    clone = pickle.loads(buf.getvalue())
    observations = decisions(env, 6, 10)
    assert len(observations) >= 6
    first = [agent.act(o, np.random.default_rng(i)) for i, o in enumerate(observations)]
    second = [clone.act(o, np.random.default_rng(i)) for i, o in enumerate(observations)]
    assert first == second
    assert all(o["action_mask"][a] == 1 for o, a in zip(observations, first))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_act_batch_equals_act_row_by_row(case, files) -> None:
    env, agent = build(case, files)
    observations = decisions(env, 8, 20)
    m = len(observations)
    batch = stack(observations)
    seeds = range(100, 100 + m)
    one_by_one = [agent.act(o, np.random.default_rng(s)) for o, s in zip(observations, seeds)]
    batched = agent.act_batch(batch, [np.random.default_rng(s) for s in seeds])
    assert batched.dtype == np.int64 and batched.tolist() == one_by_one
    # One generator per row: the split into batches changes nothing.
    k = m // 3
    parts = [agent.act_batch({key: v[lo:hi] for key, v in batch.items()}, [np.random.default_rng(s) for s in seeds[lo:hi]])
             for lo, hi in ((0, k), (k, m))]
    assert np.concatenate(parts).tolist() == one_by_one
    # One generator for all rows: the rows draw in order, as a loop of act calls.
    loop_rng, batch_rng = np.random.default_rng(5), np.random.default_rng(5)
    assert agent.act_batch(batch, batch_rng).tolist() == [agent.act(o, loop_rng) for o in observations]
    assert batch_rng.random() == loop_rng.random()  # and leaves the generator where the loop does


def test_act_batch_refuses_rows_without_a_legal_action_and_wrong_rngs() -> None:
    env = make_env("leduc")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    idle = {k: v.copy() for k, v in obs.items()}
    idle["action_mask"][:] = 0
    agent = make_agent("random", env)
    with pytest.raises(ValueError, match=r"rows \[1\] have no legal action"):
        agent.act_batch(stack([obs, idle]), np.random.default_rng(0))
    with pytest.raises(TypeError, match="sequence of 2 Generators"):
        agent.act_batch(stack([obs, obs]), [np.random.default_rng(0)])


# ---- decisions unchanged ------------------------------------------------------------------------
CNN_SETUPS = {
    "sb1_full": ({"starting_stack": 100}, "full", False),
    "sb1_subset_fold": ({"starting_stack": 100}, "subset", True),
    "sb5_full": ({"small_blind": 5, "big_blind": 10, "starting_stack": 500}, "full", True),
    "sb5_subset": ({"small_blind": 5, "big_blind": 10, "starting_stack": 500, "num_players": 3}, "subset", False),
}


@pytest.mark.slow
@pytest.mark.parametrize("label", list(CNN_SETUPS))
def test_cnn_agent_decisions_are_the_recorded_ones(label: str) -> None:
    config, candidates, exact_fold = CNN_SETUPS[label]
    env = nolimit_holdem_v0.raw_env(bet_sizing="chips", obs_encoder="poker_cnn", **config)
    agent = CNNAgent(_net(7), env, candidates=candidates, exact_fold=exact_fold)
    rng = np.random.default_rng(11)
    recorded = iter(CNN_RECORDED[label])
    same = decisions = 0
    for h in range(12):
        env.reset(seed=100 + h)
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            want = next(recorded)
            actions, values = agent.scores(obs)
            # The recorded action is the best scored one; where float rounding differs between CPUs (a
            # near-tie of two candidates' scores) either of the tied actions is the agent's argmax.
            best = float(np.max(values))
            assert float(values[actions.index(want)]) >= best - 1e-5 * max(1.0, abs(best)), (decisions, want)
            same += agent.act(obs, np.random.default_rng(0)) == want
            decisions += 1
            env.step(want if rng.random() < 0.5 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert decisions == len(CNN_RECORDED[label]) and same >= decisions - 2


@pytest.mark.parametrize("label, config", [
    ("nl_chips", {"starting_stack": 100}),
    ("nl_chips_sb5_6max", {"small_blind": 5, "big_blind": 10, "starting_stack": 400, "num_players": 6}),
])
def test_heuristic_decisions_are_the_recorded_ones(label: str, config: dict[str, Any]) -> None:
    env = nolimit_holdem_v0.raw_env(bet_sizing="chips", **config)
    agent = make_agent("heuristic", env)
    rng = np.random.default_rng(5)
    actions = []
    for h in range(15):
        env.reset(seed=h)
        while not all(env.terminations.values()):
            a = agent.act(env.observe(env.agent_selection), rng)
            actions.append(a)
            env.step(a)
    assert actions == HEURISTIC_RECORDED[label]


# ---- fed without an environment -----------------------------------------------------------------
@pytest.mark.slow
def test_agents_act_from_observations_built_from_states_without_an_env() -> None:
    """Observations made from bare game states (as a hand-history replay would) drive the CNN agent to the
    argmax of the self-play scorer, which encodes the state itself (another code path)."""
    game = make_game()
    config_env = nolimit_holdem_v0.raw_env(**CNN_ENV)  # read for its configuration only, never reset
    net = _net(2)
    agent = CNNAgent(net, config_env)
    heuristic = HeuristicAgent(chips_sizing=True)
    encoder, scorer = PokerCNNEncoder(game), PokerCNNEncoder(game, dtype=np.uint8)
    rng = np.random.default_rng(3)
    decided = 0
    for deal in range(6):
        state = game.new_initial_state(button=deal % 2, deck=[int(c) for c in rng.permutation(52)[:9]])
        deal_cards(state)
        while state.current_player() != TERMINAL:
            seat = state.current_player()
            obs = {"observation": encoder.encode(state, seat), "action_mask": state.legal_actions_mask(game.num_distinct_actions),
                   "public": encode_public(state, seat)}
            actions, values = cnn_scores(state, Player("c", "cnn", net), scorer)
            assert agent.act(obs, rng) == actions[int(np.argmax(values))]
            decided += 1
            state.apply(heuristic.act(obs, rng))
            deal_cards(state)
    assert decided >= 12
    assert config_env.state is None  # the env was never used


@pytest.mark.slow
def test_cnn_agent_fed_from_hand_histories_acts_as_in_the_live_env() -> None:
    """Hands recorded as PHH, replayed by ``poker_envs.phh_replay`` (another seat numbering, no env): the CNN
    agent's choice at every decision, from observations built out of the replayed states, is its choice on
    the live env's observation at the same decision."""
    from poker_envs.games.holdem import HoldemGame
    from poker_envs.phh_replay import replay
    from wrappers.hand_history import HandHistoryRecorder

    env = HandHistoryRecorder(nolimit_holdem_v0.raw_env(**CNN_ENV))
    agent = CNNAgent(_net(5), env.unwrapped, candidates="subset", exact_fold=True)
    heuristic = make_agent("heuristic", env)
    num_actions = env.action_space("player_0").n
    rng = np.random.default_rng(8)
    live: list[list[int]] = []
    for h in range(8):
        env.reset(seed=h)
        live.append([])
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            live[-1].append(agent.act(obs, rng))
            env.step(heuristic.act(obs, rng))
    assert len(env.hands) == 8

    def from_history(state, seat: int) -> dict[str, np.ndarray]:
        public = encode_public(state, seat)
        pub = public_of_state(state, seat)
        mask = np.zeros(num_actions, dtype=np.int8)
        mask[1] = 1  # check or call
        mask[0] = pub.to_call > 0
        if pub.can_raise:
            mask[int(pub.min_raise_to) + 1 : int(pub.max_raise_to) + 2] = 1  # chips sizing: raise to r is id r + 1
        planes = PokerCNNEncoder(HoldemGame(state.config)).encode(state, seat)
        return {"observation": planes, "action_mask": mask, "public": public}

    for hand, expected in zip(env.hands, live):
        replayed: list[int] = []
        replay(hand, on_action=lambda step, seat, state, kind, to: replayed.append(agent.act(from_history(state, seat), rng)))
        assert replayed == expected


def test_sample_from_draws_what_numpy_choice_draws() -> None:
    """The draw equals ``Generator.choice``'s for the same generator (zeros, one action, 102 actions, float32
    and float64), and leaves the generator in the same state; bad vectors are refused."""
    from agent_zoo.agent import sample_from

    shapes = np.random.default_rng(0)
    for case in range(3000):
        probs = shapes.random(int(shapes.integers(1, 103))) * (shapes.random() < 0.9)
        probs[shapes.random(probs.size) < 0.4] = 0.0
        if probs.sum() == 0:
            probs[-1] = 0.3
        if case % 3 == 0:  # a network's float32 output
            probs = probs.astype(np.float32)
        ours, theirs = np.random.default_rng(case), np.random.default_rng(case)
        assert sample_from(probs, ours) == int(theirs.choice(probs.size, p=probs / probs.sum()))
        assert ours.random() == theirs.random()
    for bad in ([0.5, -0.1, 0.6], [0.0, 0.0], [np.nan, 1.0], [np.inf, 1.0]):
        with pytest.raises(ValueError, match="non-negative with a positive, finite sum"):
            sample_from(np.array(bad), np.random.default_rng(0))
