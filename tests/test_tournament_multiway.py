"""Multi-way duplicate tournaments: known truths at 6-max, line-up balance, engines and workers agree."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agent_zoo import lineups
from agent_zoo.agent import FoldAgent, RandomAgent
from agent_zoo.tournament import TournamentConfig, main, run_tournament


def named(agent, name):
    agent.name = name
    return agent


def test_identical_agents_score_exactly_zero_at_six_max():
    # Every rotation replays the deal with the same seat Generators, so each copy collects every seat's
    # result once: the sum over seats of a zero-sum hand, exactly 0, even though the copies play at random.
    copies = [named(RandomAgent(), f"r{i}") for i in range(6)]
    result = run_tournament(TournamentConfig(game="nolimit", agents=copies, hands=120, seed=1, players=6, progress=False))
    assert np.all(result.agent_mean == 0.0) and np.all(result.agent_ci95 == 0.0)
    off = ~np.eye(6, dtype=bool)
    assert np.all(result.mean[off] == 0.0)


def test_folder_loses_at_most_the_blinds_at_six_max():
    # At a 6-max table a seat posts 0.5 + 1 bb in 2 of the 6 rotations and never more: -0.25 bb per hand
    # at worst (more only when the big blind gets a walk).
    agents = ["random", "heuristic", "fold"]
    result = run_tournament(TournamentConfig(game="nolimit", agents=agents, hands=120, seed=2, players=6, progress=False))
    fold = agents.index("fold")
    assert result.agent_mean[fold] >= -0.25
    assert result.style["fold"]["vpip"] == 0.0 and result.style["fold"]["pfr"] == 0.0
    # Every table sums to zero, so the seat-weighted means cancel (each agent holds two of the six slots).
    assert abs(result.agent_mean.sum()) < 1e-9


@pytest.mark.slow
def test_same_numbers_for_workers_engines_and_env_config():
    kw = dict(hands=60, seed=3, progress=False, block_deals=3)
    agents = ["random", "fold", named(RandomAgent(), "r2")]
    one = run_tournament(TournamentConfig(game="nolimit", agents=agents, players=6, **kw))
    two = run_tournament(TournamentConfig(game="nolimit", agents=agents, players=6, workers=2, tables=4, **kw))
    configured = run_tournament(TournamentConfig(game="nolimit", agents=agents, env_config={"num_players": 6}, **kw))
    batched = run_tournament(TournamentConfig(game="nolimit", agents=agents, players=6, engine="vector", tables=7, **kw))
    for other in (two, configured, batched):
        assert np.array_equal(one.mean, other.mean) and np.array_equal(one.agent_mean, other.agent_mean)
        assert one.style == other.style
    sng = dict(hands=12, seed=3, progress=False, block_deals=1, players=6, sit_and_go=True)
    alone, split = run_tournament(TournamentConfig(game="nolimit", agents=agents, **sng)), run_tournament(TournamentConfig(game="nolimit", agents=agents, workers=2, tables=3, **sng))
    assert np.array_equal(alone.agent_mean, split.agent_mean) and np.array_equal(alone.places, split.places)


def test_more_agents_than_seats_is_the_round_robin_heads_up():
    agents = ["random", "fold", named(RandomAgent(), "r2"), named(FoldAgent(), "f2")]
    result = run_tournament(TournamentConfig(game="kuhn", agents=agents, hands=40, seed=4, progress=False))
    assert list(result.agent_deals) == [60, 60, 60, 60]  # three matches of 20 deals each
    # Each pair of agents is one match of hands/2 deals; heads-up the pairwise matrix is antisymmetric (zero-sum).
    assert np.array_equal(result.mean, -result.mean.T)


def test_lineup_schedules_are_balanced():
    rng = np.random.default_rng(0)
    # Fewer agents than seats: over m deals every agent holds exactly n slots.
    _, few = lineups.schedule(4, 6, 8, 500, rng)
    assert np.array_equal(np.bincount(few.ravel(), minlength=4), [12, 12, 12, 12])
    # More: every set of n agents once; too many sets: each agent in the same number of sampled sets.
    assert len(lineups.matches(5, 3, 500, rng)) == 10
    sampled = lineups.matches(12, 6, 30, rng)
    assert len(sampled) == 36 and all(len(set(s)) == 6 for s in sampled)
    assert np.array_equal(np.bincount(np.ravel(sampled), minlength=12), [18] * 12)
    # Rotations put every slot at every seat once.
    seatings = [lineups.rotation(np.array([7, 8, 9]), r) for r in range(3)]
    assert all(sorted(col) == [7, 8, 9] for col in zip(*seatings, strict=True))
    assert len(set(itertools.chain(seatings))) == 3


def test_cli_players_outputs_and_clear_errors(capsys, tmp_path):
    import json

    result = main(["--game", "limit", "--players", "3", "--agents", "random", "fold", "--hands", "12", "--no-progress",
                   "--out", str(tmp_path)])
    assert result.players == 3 and "limit, 3 seats" in capsys.readouterr().out
    data = json.loads((tmp_path / "tournament_limit.json").read_text())
    assert data["players"] == 3 and data["ranking"][0]["per_100"] == 100 * data["ranking"][0]["mean"]
    assert data["mean"][0][1] == result.mean[0, 1] and data["places"] is None
    assert (tmp_path / "tournament_limit.png").read_bytes()[:4] == b"\x89PNG"
    assert len((tmp_path / "tournament_limit.csv").read_text().splitlines()) == 3
    with pytest.raises(ValueError, match="players must be exactly 2 for leduc, got 3"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", "fold"], hands=6, players=3, progress=False))
    with pytest.raises(ValueError, match="disagrees with env_config num_players=4"):
        run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=6, players=3, env_config={"num_players": 4}, progress=False))
    with pytest.raises(ValueError, match="multiple of the 6 seats"):
        run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=8, players=6, progress=False))


@pytest.mark.slow
def test_ray_backend_matches_local_run_at_a_multiway_table():
    import ray
    kw = dict(hands=30, seed=5, progress=False, block_deals=4, players=3)
    local = run_tournament(TournamentConfig(game="limit", agents=["random", "fold"], **kw))
    try:
        remote = run_tournament(TournamentConfig(game="limit", agents=["random", "fold"], workers=2, backend="ray", **kw))
    finally:
        ray.shutdown()
    assert np.array_equal(local.agent_mean, remote.agent_mean) and local.style == remote.style


def test_sit_and_go_identical_agents_share_the_prizes_exactly():
    # Same decks, same seat Generators in every rotation: each copy collects every seat's prize once, so each
    # averages exactly the prize pool (65/35 at 6 seats) over the seats.
    copies = [named(RandomAgent(), f"r{i}") for i in range(6)]
    result = run_tournament(TournamentConfig(game="nolimit", agents=copies, hands=12, seed=6, players=6, sit_and_go=True, progress=False))
    assert result.unit == "prize" and np.allclose(result.agent_mean, 1 / 6, atol=1e-12)
    assert np.all(result.agent_ci95 < 1e-12)
    # Every copy finishes in every seat's place once per deal: the same place counts (ties share the best place).
    assert np.all(result.places == result.places[0]) and np.all(result.places.sum(axis=1) == 12)


def test_cash_sessions_known_truths():
    copies = [named(RandomAgent(), f"r{i}") for i in range(3)]
    same = run_tournament(TournamentConfig(game="limit", agents=copies, hands=6, seed=7, players=3, hands_per_episode=5, progress=False))
    assert np.all(same.agent_mean == 0.0) and same.places.sum() == 0
    # The folder at a 3-seat cash table with rebuys posts 0.5 + 1 bb in two of every three hands: -0.5 bb per hand
    # at worst; style counts one hand per hand played.
    result = run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=6, seed=7, players=3, hands_per_episode=4, rebuy=True,
                            progress=False))
    assert result.agent_mean[1] >= -0.5
    assert result.style_counts["fold"].hands == 6 * 4 * 3 // 2  # the folder holds half of the seats over two deals


def test_session_errors():
    with pytest.raises(ValueError, match="leduc has no sessions"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", "fold"], hands=2, hands_per_episode=3, progress=False))
    with pytest.raises(ValueError, match="push_fold sessions need engine 'aec'"):
        run_tournament(TournamentConfig(game="push_fold", agents=["random", "fold"], hands=2, hands_per_episode=3, engine="vector", progress=False))
    with pytest.raises(ValueError, match="sit_and_go cannot be combined with rebuy"):
        run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=2, sit_and_go=True, rebuy=True, progress=False))


def test_short_deck_deals_come_from_its_36_cards():
    from agent_zoo.tournament import BlockTask, block_hands, build_env, deal_layout

    layout = deal_layout(build_env("shortdeck", players=6))
    assert layout.cards.size == 36 and layout.size == 17
    task = BlockTask(0, "shortdeck", {"num_players": 6}, ("random", "fold"), 0, np.zeros((3, 6), dtype=np.int64),
                     np.random.SeedSequence(0), False)
    hands, decks = block_hands(task, layout)
    assert len(hands) == 18 and set(np.unique(decks)) <= set(layout.cards.tolist())
    copies = [named(RandomAgent(), f"r{i}") for i in range(6)]
    result = run_tournament(TournamentConfig(game="shortdeck", agents=copies, hands=60, seed=8, players=6, progress=False))
    assert np.all(result.agent_mean == 0.0)


def _cards_by_seat(game: str, players: int, seed: int) -> list[tuple[list[list[int]], list[int]]]:
    """Every rotation of one duplicate deal played to showdown (everyone checks or calls) from the tournament's
    own reset options, each rotation reset with a different seed so only the fixed deal can make the cards
    agree: the hole cards of every seat and the board, per rotation."""
    from agent_zoo.tournament import BlockTask, block_hands, build_env, deal_layout

    env = build_env(game, players=players)
    task = BlockTask(0, game, {"num_players": players}, ("a", "b"), 0, np.zeros((1, players), dtype=np.int64),
                     np.random.SeedSequence(seed), False)
    hands, _ = block_hands(task, deal_layout(env))
    assert len(hands) == players  # one deal, once per rotation
    seen = []
    for rotation, spec in enumerate(hands):
        env.reset(seed=1000 * seed + rotation, options=dict(spec.options))
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else 1)  # 1: check or call
        state = env.unwrapped.state
        seen.append(([list(h) for h in state.hole], list(state.board)))
    return seen


@pytest.mark.parametrize("players", [2, 6])
def test_every_rotation_of_an_omaha_deal_sees_the_same_cards(players):
    # Omaha deals 4 hole cards a seat + 5 board: 13 cards heads-up, 29 at 6-max. A deal that fixed fewer (the
    # hold'em count, 2 a seat) would leave cards to each reset's own shuffle, and the rotations would differ.
    for seed in range(3):
        seen = _cards_by_seat("omaha", players, seed)
        holes, board = seen[0]
        assert len(board) == 5 and all(len(h) == 4 for h in holes) and len(holes) == players
        assert len({c for h in holes for c in h} | set(board)) == 4 * players + 5
        for rotation_holes, rotation_board in seen[1:]:
            assert rotation_holes == holes and rotation_board == board


@pytest.mark.parametrize("game, size", [("omaha", 13), ("nolimit", 9), ("shortdeck", 9), ("push_fold", 9),
                                        ("leduc", 3), ("kuhn", 2), ("threshold", 2)])
def test_deal_size_is_the_rules_deal(game, size):
    from agent_zoo.tournament import build_env, deal_layout

    assert deal_layout(build_env(game)).size == size
    six = {"omaha": 29, "nolimit": 17, "shortdeck": 17, "push_fold": 17, "threshold": 6}
    if game in six:
        assert deal_layout(build_env(game, players=6)).size == six[game]
