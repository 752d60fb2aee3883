"""Table runner: results independent of batching, engines agree, known truths of a 6-max table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agent_zoo.agent import Agent, FoldAgent, RandomAgent
from agent_zoo.runner import HandOutcome, HandSpec, Turn, Watcher, act_rows, play_aec, play_vector
from agent_zoo.tournament import build_env
from poker_envs import vector


def six_max_hands(count: int, seed: int, fold_seat: int | None = None) -> tuple[list[HandSpec], np.ndarray]:
    """``count`` 6-max hands with fixed decks and button 0; agent 1 (the folder) at ``fold_seat``."""
    rng = np.random.default_rng(seed)
    hands, decks = [], []
    for k, seq in enumerate(np.random.SeedSequence(seed).spawn(count)):
        deck = rng.permutation(52)[:17]
        seats = [0] * 6
        if fold_seat is not None:
            seats[(fold_seat + k) % 6] = 1
        hands.append(HandSpec(tuple(seats), seq, {"deck": deck.tolist(), "button": 0}))
        decks.append(deck)
    return hands, np.asarray(decks)


def test_outcomes_do_not_depend_on_the_number_of_tables():
    hands, _ = six_max_hands(40, seed=1)
    make = lambda: build_env("nolimit", players=6)  # noqa: E731
    one = play_aec(make, [RandomAgent()], hands, tables=1, style=True)
    many = play_aec(make, [RandomAgent()], hands, tables=9, style=True)
    assert all(np.array_equal(a.rewards, b.rewards) for a, b in zip(one, many, strict=True))
    assert [a.style for a in one] == [b.style for b in many]
    assert any(a.rewards.any() for a in one)


class Recorder(Watcher):
    """Keeps every turn (seat, action, mask, who the rules say acts) per hand and every episode end."""

    def __init__(self) -> None:
        self.turns: dict[int, list[tuple[int, int, np.ndarray, int]]] = {}
        self.ends: list[tuple[int, bool, HandOutcome]] = []

    def turn(self, turn: Turn) -> None:
        self.turns.setdefault(turn.hand, []).append(
            (turn.seat, turn.action, turn.observation["action_mask"].copy(), turn.state.current_player()))

    def episode_end(self, hand: int, state: Any, outcome: HandOutcome) -> None:
        self.ends.append((hand, state.is_terminal(), outcome))


def test_watcher_sees_every_turn_in_order_and_every_end_and_changes_nothing():
    hands, _ = six_max_hands(30, seed=7, fold_seat=3)
    make = lambda: build_env("nolimit", players=6)  # noqa: E731
    agents = [RandomAgent(), FoldAgent()]
    watch = Recorder()
    seen = play_aec(make, agents, hands, tables=4, watch=watch)
    plain = play_aec(make, agents, hands, tables=4)
    assert all(np.array_equal(a.rewards, b.rewards) for a, b in zip(seen, plain, strict=True))
    assert sorted(h for h, _, _ in watch.ends) == list(range(len(hands)))  # each episode ends once
    assert all(terminal and outcome is seen[h] for h, terminal, outcome in watch.ends)
    # the turns of each hand, replayed alone on a fresh table, are its whole hand: same seats, masks, rewards
    for h, spec in enumerate(hands):
        env = make()
        env.reset(options=dict(spec.options))
        totals = np.zeros(6)
        turns = iter(watch.turns[h])
        for name in env.agent_iter():
            _, reward, done, cut, _ = env.last()
            totals[env.possible_agents.index(name)] += reward
            if done or cut:
                env.step(None)
                continue
            seat, action, mask, rules_seat = next(turns)
            assert (seat, rules_seat) == (env.possible_agents.index(name),) * 2
            np.testing.assert_array_equal(mask, env.observe(name)["action_mask"])
            env.step(action)
        assert next(turns, None) is None
        np.testing.assert_allclose(totals, seen[h].rewards)


def test_folder_never_loses_more_than_its_blind_and_tables_sum_to_zero():
    # Button on seat 0: seat 1 posts the small blind (0.5 bb), seat 2 the big blind (1 bb), the others nothing.
    hands, _ = six_max_hands(120, seed=2, fold_seat=0)
    outcomes = play_aec(lambda: build_env("nolimit", players=6), [RandomAgent(), FoldAgent()], hands, tables=16)
    blind = {1: 0.5, 2: 1.0}
    for spec, out in zip(hands, outcomes, strict=True):
        seat = spec.seats.index(1)
        assert out.rewards.sum() == 0.0
        assert out.rewards[seat] >= -blind.get(seat, 0.0)
        if seat not in blind:
            assert out.rewards[seat] == 0.0
    assert min(o.rewards[s.seats.index(1)] for s, o in zip(hands, outcomes, strict=True)) == -1.0


def test_aec_and_batched_engine_play_the_same_hands_alike():
    # Same decks, buttons and seat Generators, agents acting row by row: every reward and style count agrees.
    hands, decks = six_max_hands(30, seed=3, fold_seat=2)
    agents = [RandomAgent(), FoldAgent()]
    aec = play_aec(lambda: build_env("nolimit", players=6), agents, hands, tables=5, style=True)
    engine = vector.make("nolimit_holdem", num_envs=8, num_players=6)
    vec = play_vector(engine, agents, hands, decks, np.zeros(len(hands), dtype=np.int64), style=True)
    for a, b in zip(aec, vec, strict=True):
        assert np.allclose(a.rewards, b.rewards, atol=1e-12)
        assert a.style == b.style


def test_leduc_on_the_batched_engine_matches_the_aec_env():
    rng = np.random.default_rng(4)
    seqs = np.random.SeedSequence(4).spawn(50)
    deals = np.array([rng.permutation(6)[:3] for _ in seqs])
    hands = [HandSpec((k % 2, 1 - k % 2), s, {"deal": d.tolist()}) for k, (s, d) in enumerate(zip(seqs, deals, strict=True))]
    agents = [RandomAgent(), RandomAgent()]
    aec = play_aec(lambda: build_env("leduc"), agents, hands, tables=3)
    vec = play_vector(vector.make("leduc_holdem", num_envs=7), agents, hands, deals)
    assert all(np.allclose(a.rewards, b.rewards) for a, b in zip(aec, vec, strict=True))


class CountingBatch(RandomAgent):
    """Acts through act_batch (the row's own Generator each) and counts the calls and rows."""

    def __init__(self) -> None:
        self.calls, self.rows = 0, 0

    def act_batch(self, observations, rngs):
        self.calls += 1
        self.rows += len(rngs)
        return np.array([self.act({k: v[i] for k, v in observations.items()}, r) for i, r in enumerate(rngs)])


def test_act_batch_gets_many_rows_per_call_and_gives_the_same_hands():
    hands, _ = six_max_hands(30, seed=5)
    batched = CountingBatch()
    make = lambda: build_env("nolimit", players=6)  # noqa: E731
    with_batch = play_aec(make, [batched], hands, tables=30)
    plain = play_aec(make, [RandomAgent()], hands, tables=30)
    assert all(np.array_equal(a.rewards, b.rewards) for a, b in zip(with_batch, plain, strict=True))
    assert batched.rows > 5 * batched.calls  # 30 tables wait on the one agent at once


def test_act_rows_refuses_a_batch_of_the_wrong_shape():
    class Broken(RandomAgent):
        def act_batch(self, observations, rngs):
            return np.zeros(len(rngs) + 1, dtype=np.int64)

    obs = {"observation": np.zeros((2, 3)), "action_mask": np.ones((2, 2), dtype=np.int8)}
    with pytest.raises(ValueError, match=r"act_batch returned shape \(3,\) for 2 rows"):
        act_rows(Broken(), obs, [np.random.default_rng(0)] * 2)


def test_clustering_logs_do_not_depend_on_the_number_of_tables():
    from agent_zoo.clustering.play import play_hands
    from agent_zoo.clustering.rule_based import make_rule_agent

    pool = [make_rule_agent(c) for c in "ABCDEFGH"]
    one = play_hands(pool, 40, lambda rng: rng.permutation(8)[:6], "flat107", 3, tables=1)
    many = play_hands(pool, 40, lambda rng: rng.permutation(8)[:6], "flat107", 3, tables=7)
    for a, b in zip(one, many, strict=True):
        assert a.chips == b.chips and a.hands == b.hands and np.array_equal(a.counts, b.counts)
        assert all(np.array_equal(x, y) for x, y in zip(a.log(), b.log(), strict=True))
    assert sum(r.chips for r in one) == 0 and sum(r.hands for r in one) == 240


def test_batched_engine_names_agents_that_need_the_public_state():
    class ReadsPublic(Agent):
        def act(self, observation, rng):
            return int(observation["public"][0])

    hands, decks = six_max_hands(2, seed=6)
    engine = vector.make("nolimit_holdem", num_envs=2, num_players=6)
    with pytest.raises(ValueError, match="reads the public betting state.*AEC engine"):
        play_vector(engine, [ReadsPublic()], hands, decks, np.zeros(2, dtype=np.int64))


def test_seat_streams_rewind_to_the_seeded_streams(monkeypatch):
    from agent_zoo import runner

    hands, _ = six_max_hands(3, seed=7)
    streams = runner.SeatStreams(2, 6)
    for spec in hands + hands[::-1]:  # reused slots, repeated specs
        fresh = [g.integers(1 << 30, size=5).tolist() for g in runner.seat_rngs(spec)]
        assert [g.integers(1 << 30, size=5).tolist() for g in streams.take(1, spec)] == fresh
    # The runner gives the same hands with them as with freshly seeded Generators.
    make = lambda: build_env("nolimit", players=6)  # noqa: E731
    hands, _ = six_max_hands(20, seed=8)
    pooled = play_aec(make, [RandomAgent()], hands, tables=4)
    monkeypatch.setattr(runner.SeatStreams, "take", lambda self, slot, spec: runner.seat_rngs(spec))
    fresh = play_aec(make, [RandomAgent()], hands, tables=4)
    assert all(np.array_equal(a.rewards, b.rewards) for a, b in zip(pooled, fresh, strict=True))
