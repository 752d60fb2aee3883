"""Batched and multi-way local best response (agent_zoo.lbr.vector, agent_zoo.lbr.core).

Known truths: the batched engine plays LBR's hands with the same per-hand winnings as the rules-state LBR
(a differential test; it also checks that the multi-way code at two seats is the heads-up rule, since the
batched form implements the heads-up rule alone); hand-worked showdown shares and fold chains at three seats.
"""

from __future__ import annotations

import numpy as np
import pytest

from agent_zoo.agent import Agent, Observation, RandomAgent, batch_masks
from agent_zoo.lbr import LocalBestResponse
from agent_zoo.lbr.__main__ import main
from agent_zoo.lbr.core import hand_rng
from agent_zoo.lbr.ranges import TwoCardFamily
from agent_zoo.lbr.vector import VectorLBR
from agent_zoo.registry import make_agent
from poker_envs import nolimit_holdem_v0
from poker_envs.core.cards import cards_from_str as cards
from poker_envs.core.evaluator import evaluate
from poker_envs.games.base import play_chance
from poker_envs.vector import holdem_lookahead as look
from poker_envs.vector.holdem import VectorHoldem


def _same_hands(env: object, spec: str, hands: int, seed: int) -> None:
    agent = make_agent(spec, env)
    aec = LocalBestResponse(env, agent)
    rules_state = np.array([aec.play_hand(i % 2, hand_rng(seed, i)) for i in range(hands)])
    batched = VectorLBR(env, agent, block=32).evaluate(hands, seed)
    per_hand = VectorLBR(env, agent, block=hands).play_block(np.arange(hands), seed)
    np.testing.assert_array_equal(per_hand, rules_state)
    assert batched.mean == pytest.approx(rules_state.mean(), abs=1e-12)
    assert np.count_nonzero(rules_state) > hands // 2  # hands really played (not all folded pre-flop)


@pytest.mark.parametrize("bet_sizing", ["abstract", "chips"])
def test_batched_lbr_plays_the_same_hands(bet_sizing: str) -> None:
    _same_hands(nolimit_holdem_v0.env(bet_sizing=bet_sizing, starting_stack=100), "heuristic", 40, 5)


def test_batched_lbr_same_hands_when_the_agent_is_asked_in_small_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Questions split over many agent calls (one question per call, or a few): the same hands. Each call's
    answers are used before the next call, and pre-flop answers memoised by one call serve the next."""
    import agent_zoo.lbr.vector as vector

    env = nolimit_holdem_v0.env(bet_sizing="chips", starting_stack=100)
    agent = make_agent("heuristic", env)
    aec = LocalBestResponse(env, agent)
    rules_state = np.array([aec.play_hand(i % 2, hand_rng(3, i)) for i in range(24)])
    for rows in (1, 3000):
        monkeypatch.setattr(vector, "MAX_ROWS", rows)
        np.testing.assert_array_equal(VectorLBR(env, agent).play_block(np.arange(24), 3), rules_state)


def test_rollout_boards_are_draws_without_the_seen_cards() -> None:
    """Rollout completions: distinct cards, none seen, every unseen card about equally often (5 of 50 a board)."""
    family = TwoCardFamily(rollouts=64)
    pre = family.completions(np.array([[0, 1]] * 100), [[]] * 100, [np.random.default_rng([8, k]) for k in range(100)])
    flop = family.completions(np.array([[50, 51]] * 100), [[10, 20, 30]] * 100, [np.random.default_rng([9, k]) for k in range(100)])
    pre, flop = pre.reshape(-1, 5), flop.reshape(-1, 5)
    assert all(len(set(b)) == 5 for b in np.concatenate([pre, flop]).tolist())
    assert not np.isin(pre, [0, 1]).any() and not np.isin(flop[:, 3:], [10, 20, 30, 50, 51]).any()
    assert (flop[:, :3] == [10, 20, 30]).all()
    counts = np.bincount(pre.ravel(), minlength=52)[2:]  # 6400 boards x 5 cards over 50 cards: 640 each
    assert counts.min() > 640 - 5 * 24 and counts.max() < 640 + 5 * 24  # 24 ~ one standard deviation


@pytest.mark.slow
def test_batched_lbr_same_hands_a_few_hundred() -> None:
    _same_hands(nolimit_holdem_v0.env(starting_stack=100), "heuristic", 300, 11)
    _same_hands(nolimit_holdem_v0.env(starting_stack=40), "random", 100, 12)


@pytest.mark.parametrize("encoder", ["default", "flat56", "flat107", "poker_cnn"])
def test_encode_holdings_equals_cards_put_in_and_encoded(encoder: str) -> None:
    env = nolimit_holdem_v0.env(obs_encoder=encoder, bet_sizing="chips")
    engine = VectorHoldem(1, env.unwrapped.game.config, obs_encoder=encoder)
    t = look.start(engine, np.array([0, 1, 0]), np.stack([np.random.default_rng(s).permutation(52)[:9] for s in range(3)]))
    look.play(engine, t, np.array([1, 7, 1]), look.observe(engine, t)[1])  # pre-flop, after a raise, on the flop
    holdings = TwoCardFamily().holdings[[5, 200, 901, 1300, 77]]
    counts = np.array([2, 1, 2])
    fast = look.encode_holdings(engine, t, np.array([0, 1, 2]), counts, holdings)
    copies = t.take(np.repeat(np.arange(3), counts))
    look.set_hole(engine, copies, copies.player.astype(np.int64), holdings)
    np.testing.assert_array_equal(fast, look.encode(engine, copies))
    given = look.encode(engine, t.take(np.array([2, 0])))  # the caller's own encoding of the tables asked
    kept = given.copy()
    reused = look.encode_holdings(engine, t, np.array([2, 0]), counts[[2, 0]], holdings[[3, 4, 0, 1]], observations=given)
    np.testing.assert_array_equal(reused, fast[[3, 4, 0, 1]])
    np.testing.assert_array_equal(given, kept)  # read, not changed


def test_showdown_share_with_one_range_is_win_probability() -> None:
    family = TwoCardFamily(rollouts=16)
    rng = np.random.default_rng(3)
    for board in ([], cards("2c7d9h"), cards("2c7d9hTs"), cards("2c7d9hTs3c")):
        hole = cards("AsKd")
        weights = family.possible(hole + board) * rng.random(len(family.holdings))
        a = family.win_probability(hole, board, weights, np.random.default_rng(9))
        b = family.showdown_share(hole, board, [weights], np.random.default_rng(9))  # the same rollout boards
        assert b == pytest.approx(a, rel=1e-12)


def _equity_by_hand(family: TwoCardFamily, hole: list[int], boards: np.ndarray, weights: np.ndarray) -> float:
    """``win_probability``'s definition worked with the scalar evaluator: per holding, wins + ties / 2 over the
    boards it meets no card of, weighted by its weight over its count of such boards."""
    num = den = 0.0
    for h in np.flatnonzero(weights > 0):
        holding = family.holdings[h].tolist()
        scores = [float(evaluate(hole + b) > evaluate(holding + b)) + 0.5 * (evaluate(hole + b) == evaluate(holding + b))
                  for b in boards.tolist() if not set(b) & set(holding)]
        if scores:
            num += weights[h] * sum(scores) / len(scores)
            den += weights[h]
    return num / den


def test_win_probabilities_batched_equal_one_at_a_time_and_the_definition() -> None:
    family = TwoCardFamily(rollouts=12)
    rng = np.random.default_rng(17)
    holes, boards, weights = [], [], []
    for k in range(13):  # pre-flop, flop, turn (enumerated) and river spots, mixed in one call
        deck = rng.permutation(52).tolist()
        holes.append(deck[:2])
        boards.append(deck[2 : 2 + (0, 3, 4, 5)[k % 4]])
        keep = rng.random(len(family.holdings)) < (0.05 if k % 3 else 1.0)  # sparse and full ranges
        weights.append(family.possible(holes[-1] + boards[-1]) * keep * rng.random(len(family.holdings)))
    gens = [np.random.default_rng([5, k]) for k in range(13)]
    batched = family.win_probabilities(np.array(holes), boards, np.array(weights), gens)
    for k in range(13):
        single = family.win_probability(holes[k], boards[k], weights[k], np.random.default_rng([5, k]))
        assert batched[k] == single  # the same numbers, bit for bit
        drawn = family.boards(holes[k], boards[k], np.random.default_rng([5, k]))
        assert batched[k] == pytest.approx(_equity_by_hand(family, holes[k], drawn, weights[k]), rel=1e-12)
    assert all(g.random() == np.random.default_rng([5, k]).random() for k, g in enumerate(gens) if k % 4 >= 2)


def test_showdown_share_hand_worked() -> None:
    family = TwoCardFamily()
    row = {tuple(h): i for i, h in enumerate(family.holdings.tolist())}

    def rng_of(*holdings: str) -> np.ndarray:
        w = np.zeros(len(family.holdings))
        for h in holdings:
            w[row[tuple(sorted(cards(h)))]] = 1.0
        return w

    aces, river, rng = cards("AsAh"), cards("2c7d9hTs3c"), np.random.default_rng(0)
    assert family.showdown_share(aces, river, [rng_of("KsKh"), rng_of("QdQc")], rng) == 1.0
    assert family.showdown_share(aces, river, [rng_of("AdAc"), rng_of("QdQc")], rng) == pytest.approx(0.5)  # one tie
    assert family.showdown_share(aces, river, [rng_of("AdAc"), rng_of("AdAc")], rng) == pytest.approx(1 / 3)  # two ties
    assert family.showdown_share(aces, river, [rng_of("AdAc", "QsQc"), rng_of("KdKc")], rng) == pytest.approx(0.75)
    assert family.showdown_share(aces, river, [rng_of("KdKc"), rng_of("8cJd")], rng) == 0.0  # 7-to-J straight
    # turn: 46 rivers left, 42 meet neither opponent's cards; a king (Kd, Kc) or a queen (Qs, Qh) gives one a set
    assert family.showdown_share(aces, river[:4], [rng_of("KsKh"), rng_of("QdQc")], rng) == pytest.approx(38 / 42)


class HalfFold(Agent):
    """Folds with probability 1/2 wherever folding is legal, else checks/calls."""

    name = "half-fold"

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        mask = batch_masks(observations)
        probs = np.zeros(mask.shape)
        probs[:, 0] = np.where(mask[:, 0], 0.5, 0.0)
        probs[:, 1] = 1.0 - probs[:, 0]
        return probs

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        return self.action_probabilities_batch({k: np.asarray(v)[None] for k, v in observation.items()})[0]


def test_fold_chain_at_three_seats() -> None:
    """Two opponents folding half the time: both fold to a raise with 1/4; their calls add up."""
    lbr = LocalBestResponse(nolimit_holdem_v0.env(num_players=3), HalfFold())
    state = lbr.new_hand(np.random.default_rng(0))
    play_chance(state, np.random.default_rng(0))
    assert state.current_player() == 0  # three-handed the button acts first pre-flop; blinds 1 (seat 1) and 2 (seat 2)
    weights = np.tile(lbr.family.possible(state.hole[0]).astype(float), (3, 1))
    raise_id = max(lbr.candidate_actions(state))  # all-in: 200 chips
    child = state.child(raise_id)
    fp, calls = lbr.all_fold(child, [1, 2], weights)
    assert fp == pytest.approx(0.25) and calls == (200 - 1) + (200 - 2)
    heads_up = LocalBestResponse(nolimit_holdem_v0.env(), HalfFold())
    hu = heads_up.new_hand(np.random.default_rng(0))
    play_chance(hu, np.random.default_rng(0))
    assert heads_up.all_fold(hu.child(max(heads_up.candidate_actions(hu))), [1], np.ones((2, 1326)))[0] == pytest.approx(0.5)


def test_multiway_lbr_plays_six_seats() -> None:
    env = nolimit_holdem_v0.env(num_players=6, starting_stack=40)
    result = LocalBestResponse(env, RandomAgent()).evaluate(6, seed=1)
    assert result.hands == 6 and len(result.per_seat) == 6 and np.isfinite(result.mean)
    assert -20 <= result.mean <= 100  # 40 chips = 20 big blinds a stack: LBR loses one stack at most, wins five


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "8"], "players: LBR on 'nolimit_holdem' plays 2 to 6 players"),
    (["--players", "3", "--engine", "vector"], "engine 'vector': batched LBR plays heads-up only"),
    (["--game", "leduc", "--engine", "vector", "--agent", "random"], "engine 'vector': batched LBR plays heads-up hold'em only"),
    (["--game", "leduc", "--players", "3"], "--players 3: multi-way LBR plays nolimit"),
    (["--agent", "fold"], "agent 'fold' cannot give action probabilities"),
    (["--game", "kuhn"], "argument --game: invalid choice: 'kuhn'"),
])
def test_cli_refuses_by_name(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--agent", "heuristic", "--hands", "8", "--no-progress", *argv]
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "\n".join(err)


def test_cli_vector_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    main(["--agent", "heuristic", "--engine", "vector", "--hands", "6", "--seed", "2", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    main(["--agent", "heuristic", "--engine", "aec", "--hands", "6", "--seed", "2", "--json", "--no-progress"])
    assert json.loads(capsys.readouterr().out)["lbr"] == out["lbr"] and out["engine"] == "vector"


def test_make_lbr_engines() -> None:
    from agent_zoo.lbr import make_lbr

    env = nolimit_holdem_v0.env(starting_stack=40)
    agent = make_agent("heuristic", env)
    a = make_lbr(env, agent, engine="aec").evaluate(4, seed=3)
    b = make_lbr(env, agent, engine="vector").evaluate(4, seed=3)
    assert a == b
    with pytest.raises(ValueError, match="engine must be one of"):
        make_lbr(env, agent, engine="gpu")
