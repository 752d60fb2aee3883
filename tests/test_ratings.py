"""Ratings of agent populations (agent_zoo.ratings): hand-made results, then tournaments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agent_zoo.ratings import Leaderboard, match_ranks, rate
from agent_zoo.tournament import TournamentConfig, main, run_tournament

NAN = np.nan


def test_match_ranks_competition_ranking_with_ties_and_absent_agents() -> None:
    seated, ranks = match_ranks(np.array([0.5, NAN, -1.0, 0.5, 2.0]))
    assert seated.tolist() == [0, 2, 3, 4]
    assert ranks.tolist() == [2, 4, 2, 1]  # 2.0 first, the two 0.5 share second, -1.0 fourth


def test_an_agent_that_always_wins_ends_first_and_one_that_always_loses_last() -> None:
    rng = np.random.default_rng(0)
    values = rng.normal(size=(200, 4))
    values[:, 2] = 10.0  # agent c wins every deal
    values[:, 0] = -10.0  # agent a loses every deal
    board = rate(["a", "b", "c", "d"], values)
    assert board.agents[0] == "c" and board.agents[-1] == "a"
    assert board.matches.tolist() == [200] * 4
    assert np.all(np.diff(board.conservative) <= 0)


def test_equal_results_give_equal_ratings() -> None:
    board = rate(["a", "b", "c"], np.zeros((50, 3)))  # every deal a three-way tie
    assert np.allclose(board.mu, board.mu[0]) and np.allclose(board.sigma, board.sigma[0])
    assert board.agents == ("a", "b", "c")  # ties keep the listed order


def test_a_cycle_leaves_the_three_agents_level() -> None:
    """a beats b, b beats c, c beats a, equally often (heads-up matches): nobody ends clearly above."""
    rows = []
    for _ in range(100):
        rows += [[1.0, -1.0, NAN], [NAN, 1.0, -1.0], [-1.0, NAN, 1.0]]
    board = rate(["a", "b", "c"], np.array(rows))
    assert board.mu.max() - board.mu.min() < board.sigma.min()


def test_agents_absent_from_a_deal_are_not_rated_by_it() -> None:
    values = np.array([[1.0, 0.0, NAN], [NAN, 1.0, 0.0], [1.0, NAN, NAN]])  # the last deal seats one agent only
    board = rate(["a", "b", "c"], values)
    assert dict(zip(board.agents, board.matches.tolist(), strict=True)) == {"a": 1, "b": 2, "c": 1}


@pytest.mark.parametrize("names,values,match", [
    (["a"], np.zeros((3, 1)), "at least 2 agents"),
    (["a", "b"], np.zeros((3, 3)), "shape"),
])
def test_bad_input_is_one_clear_error(names: list[str], values: np.ndarray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rate(names, values)


def test_tournament_ratings_are_reproducible() -> None:
    """Four agents at 3-max no-limit: the same seed gives the same leaderboard bit for bit, on 1 and 2 workers."""
    agents = ["heuristic", "random", "fold", "random:kinds"]
    kwargs = dict(hands=90, seed=3, players=3, progress=False, style=False, ratings=True)
    one = run_tournament(TournamentConfig(game="nolimit", agents=agents, **kwargs))
    two = run_tournament(TournamentConfig(game="nolimit", agents=agents, workers=2, **kwargs))
    assert isinstance(one.ratings, Leaderboard)
    assert one.ratings.agents == two.ratings.agents
    assert one.ratings.mu.tobytes() == two.ratings.mu.tobytes() and one.ratings.sigma.tobytes() == two.ratings.sigma.tobytes()
    assert sorted(one.ratings.agents) == sorted(agents)
    assert one.to_dict()["ratings"]["leaderboard"][0]["rank"] == 1


def test_cli_writes_the_leaderboard(tmp_path, capsys) -> None:  # noqa: ANN001
    main(["--game", "kuhn", "--agents", "random", "random:kinds", "fold", "--hands", "40", "--ratings", "--no-progress",
          "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "ratings (OpenSkill PlackettLuce" in out
    data = json.loads((tmp_path / "tournament_kuhn.json").read_text())
    board = data["ratings"]["leaderboard"]
    assert [r["rank"] for r in board] == [1, 2, 3] and {r["agent"] for r in board} == {"random", "random:kinds", "fold"}
    csv_rows = (tmp_path / "tournament_kuhn_ratings.csv").read_text().splitlines()
    assert csv_rows[0] == "rank,agent,mu,sigma,conservative,matches" and len(csv_rows) == 4
    assert (tmp_path / "tournament_kuhn_ratings.png").stat().st_size > 1000


def test_rotating_the_seats_of_the_same_deals_gives_the_same_ratings() -> None:
    """Each deal's line-up rolled by one and two seats plays the same hands in another rotation order: the
    per-deal values, and so the ratings, do not change."""
    from agent_zoo.tournament import BlockTask, play_block, session_config

    agents = ("heuristic", "random", "fold", "random:kinds")
    config = session_config("nolimit", 3, {"num_players": 3}, 1, False, False)
    lineups = np.array([[0, 1, 2], [3, 0, 1], [2, 3, 0], [1, 2, 3], [0, 2, 3], [1, 3, 0]])
    seq = np.random.SeedSequence(11)
    boards = []
    for shift in (0, 1, 2):
        task = BlockTask(0, "nolimit", config, agents, 0, np.roll(lineups, shift, axis=1), seq, False)
        values = play_block(task).values
        boards.append(rate(list(agents), values))
        if shift == 0:
            first = values
        else:
            np.testing.assert_allclose(values, first, rtol=0, atol=1e-12)
    assert np.isfinite(first).sum() == lineups.size  # every seated agent has a value
    for board in boards[1:]:
        assert board.agents == boards[0].agents
        np.testing.assert_allclose(board.mu, boards[0].mu, rtol=0, atol=1e-12)
        np.testing.assert_allclose(board.sigma, boards[0].sigma, rtol=0, atol=1e-12)


def test_the_rating_order_agrees_with_the_mean_results_of_a_separated_population() -> None:
    """Five agents whose per-deal results have means 0, 0.5, ..., 2 (noise sd 1), three seated per deal: the
    leaderboard lists them by their mean result."""
    rng = np.random.default_rng(5)
    names = ["e", "d", "c", "b", "a"]  # a is best
    values = np.full((900, 5), NAN)
    for row in values:
        seated = rng.choice(5, size=3, replace=False)
        row[seated] = 0.5 * seated + rng.normal(size=3)
    board = rate(names, values)
    by_mean = [names[i] for i in np.argsort(-np.nanmean(values, axis=0))]
    assert list(board.agents) == by_mean == ["a", "b", "c", "d", "e"]
