"""Tournament: duplicate deals, exact known results, seeds independent of workers, outputs, clear errors."""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import sys

import numpy as np
import pytest

from agent_zoo import tournament
from agent_zoo.agent import Agent
from agent_zoo.registry import REGISTRY, make_agent, parse_spec
from agent_zoo.stats import BET, CALL, CHECK, FOLD, HandTracker, classify
from agent_zoo.tournament import TournamentConfig, run_tournament


@pytest.fixture(scope="module")
def kuhn_policy(tmp_path_factory) -> str:
    """A Kuhn CFR+ policy file solved here (milliseconds), as the CFR CLI would save it."""
    from agent_zoo.cfr.__main__ import game_and_encoder
    from agent_zoo.cfr.policy_io import save_policy
    from agent_zoo.cfr.solvers import make_solver
    from agent_zoo.cfr.tree import GameTree

    game, encoder = game_and_encoder("kuhn")
    tree = GameTree.build(game)
    solver = make_solver(tree, "cfr+")
    solver.iterate(200)
    path = tmp_path_factory.mktemp("policies") / "kuhn.npz"
    save_policy(path, tree, solver.average_policy(), encoder)
    return str(path)


class Scripted(Agent):
    """Deterministic: raises with a king in Leduc (card 4 or 5), else calls."""

    def __init__(self, name: str, action: int | None = None) -> None:
        self.name = name
        self.action = action

    def act(self, observation, rng) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if self.action is not None:
            return self.action if self.action in legal else int(legal[-1])
        obs = observation["observation"]
        strong = obs[6] > 0 or obs[7] > 0  # Leduc infostate vector: seat one-hot (2), then own card one-hot (6)
        return 2 if strong and 2 in legal else 1


def test_identical_deterministic_agents_cancel_exactly_on_duplicate_deals():
    # With the same cards replayed seats swapped, two copies of one deterministic policy win x then -x.
    result = run_tournament(TournamentConfig(game="leduc", agents=[Scripted("a"), Scripted("b")], hands=400, seed=3, progress=False))
    assert result.mean[0, 1] == 0.0 and result.ci95[0, 1] == 0.0


def test_known_kuhn_result_always_bet_vs_always_pass():
    # The passer folds to every bet, in both seats: exactly +1 chip per hand for the bettor.
    result = run_tournament(TournamentConfig(game="kuhn", agents=[Scripted("bet", 1), Scripted("pass", 0)], hands=200, seed=0, progress=False))
    assert result.mean[0, 1] == 1.0 and result.mean[1, 0] == -1.0 and result.ci95[0, 1] == 0.0
    assert result.style["bet"] == {"vpip": 100.0, "pfr": 100.0, "af": None, "fold_to_bet": None}
    assert result.style["pass"]["fold_to_bet"] == 100.0 and result.style["pass"]["vpip"] == 0.0


def test_results_do_not_depend_on_workers():
    kw = dict(hands=600, seed=7, progress=False, block_deals=50)
    one = run_tournament(TournamentConfig(game="leduc", agents=["random", Scripted("k")], workers=1, **kw))
    two = run_tournament(TournamentConfig(game="leduc", agents=["random", Scripted("k")], workers=2, **kw))
    assert np.array_equal(one.mean, two.mean) and np.array_equal(one.ci95, two.ci95)
    assert one.style == two.style
    other_seed = run_tournament(TournamentConfig(game="leduc", agents=["random", Scripted("k")], hands=600, seed=8, progress=False, block_deals=50))
    assert not np.array_equal(one.mean, other_seed.mean)


def test_ray_backend_matches_local_run():
    import ray
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # Ray workers cannot import test modules
    kw = dict(hands=200, seed=2, progress=False, block_deals=50)
    local = run_tournament(TournamentConfig(game="kuhn", agents=["random", Scripted("bet", 1)], **kw))
    try:
        remote = run_tournament(TournamentConfig(game="kuhn", agents=["random", Scripted("bet", 1)], workers=2, backend="ray", **kw))
    finally:
        ray.shutdown()
    assert np.array_equal(local.mean, remote.mean) and local.style == remote.style


def test_ray_backend_without_ray_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RuntimeError, match=r"pip install 'poker-envs\[ray\]'"):
        run_tournament(TournamentConfig(game="kuhn", agents=["random", Scripted("x", 0)], hands=2, backend="ray", progress=False))


def test_leduc_style_counts_on_a_scripted_hand():
    from poker_envs.games.leduc import LeducGame

    state = LeducGame().new_initial_state(deal=(4, 0, 2))
    for _ in range(2):
        state.apply(state.sample_chance(np.random.default_rng(0)))
    tracker = HandTracker(2)
    script = [(0, 2, BET, False), (1, 1, CALL, True)]  # round 1: raise, call
    for seat, action, kind, facing in script:
        view = classify(state, action)
        assert (view.kind, view.first_round, view.facing_bet) == (kind, True, facing)
        tracker.record(seat, view)
        state.apply(action)
    state.apply(state.sample_chance(np.random.default_rng(0)))
    for seat, action, kind, facing in [(0, 1, CHECK, False), (1, 2, BET, False), (0, 0, FOLD, True)]:
        view = classify(state, action)
        assert (view.kind, view.first_round, view.facing_bet) == (kind, False, facing)
        tracker.record(seat, view)
        state.apply(action)
    p0, p1 = tracker.finish()
    assert (p0.vpip_hands, p0.pfr_hands, p0.bets, p0.calls, p0.folds_facing_bet, p0.decisions_facing_bet) == (1, 1, 1, 0, 1, 1)
    assert (p1.vpip_hands, p1.pfr_hands, p1.bets, p1.calls, p1.folds_facing_bet, p1.decisions_facing_bet) == (1, 0, 1, 1, 0, 1)


def test_cli_writes_table_json_csv_png(tmp_path, capsys, kuhn_policy):
    out = tmp_path / "tournament_kuhn"
    cfr = f"cfr:{kuhn_policy}"
    result = tournament.main(
        ["--game", "kuhn", "--agents", "random", cfr, "--hands", "40", "--seed", "1", "--no-progress", "--out", str(tmp_path)]
    )
    printed = capsys.readouterr().out
    assert "kuhn: mean chips per hand" in printed and "VPIP%" in printed
    data = json.loads((tmp_path / "tournament_kuhn.json").read_text())
    assert data["agents"] == ["random", cfr] and data["hands_per_match"] == 40
    assert data["mean"][0][1] == result.mean[0, 1]
    rows = list(csv.reader(open(f"{out}.csv")))
    assert rows[0][0] == "agent" and len(rows) == 3 and float(rows[1][2]) == result.mean[0, 1]
    assert (tmp_path / "tournament_kuhn.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cfr_policy_beats_random_in_kuhn(kuhn_policy):
    result = run_tournament(TournamentConfig(game="kuhn", agents=["random", f"cfr:{kuhn_policy}"], hands=4000, seed=0, progress=False))
    assert result.mean[1, 0] - result.ci95[1, 0] > 0.05


def test_bad_inputs_fail_before_any_hand(monkeypatch, kuhn_policy):
    def no_play(*args, **kwargs):
        raise AssertionError("a hand was played")

    monkeypatch.setattr(tournament, "play_block", no_play)
    with pytest.raises(ValueError, match="unknown agent 'alphazero'.*known agents: .*random"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", "alphazero"], hands=10, progress=False))
    with pytest.raises(ValueError, match="no such file"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", "cfr:/nonexistent/leduc.npz"], hands=10, progress=False))
    with pytest.raises(ValueError, match="made for game 'kuhn_poker'.*leduc_poker"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", f"cfr:{kuhn_policy}"], hands=10, progress=False))
    with pytest.raises(ValueError, match="needs an argument"):
        run_tournament(TournamentConfig(game="leduc", agents=["random", "cfr"], hands=10, progress=False))
    with pytest.raises(ValueError, match="game 'chess' is unknown; known games: nolimit, limit"):
        run_tournament(TournamentConfig(game="chess", agents=["random", "random"], hands=10, progress=False))
    with pytest.raises(ValueError, match=r"hands must be a multiple of the 2 seats \(an even number"):
        run_tournament(TournamentConfig(game="kuhn", agents=["random", Scripted("x", 0)], hands=3, progress=False))
    with pytest.raises(ValueError, match="names must be distinct"):
        run_tournament(TournamentConfig(game="kuhn", agents=["random", "random"], hands=2, progress=False))
    with pytest.raises(SystemExit):
        tournament.main(["--game", "kuhn", "--agents", "random", "nobody", "--hands", "2"])


@pytest.mark.parametrize("field, value, message", [
    ("agents", ["random"], "agents: a tournament needs at least two agents, got 1"),
    ("agents", "random fold", "agents must be a list of registry specs or Agent objects"),
    ("agents", ["random", 3], "agents must be registry specs .str. or Agent objects, got 3"),
    ("hands", 0, "hands must be an integer >= 1, got 0"),
    ("hands", 2.0, "hands must be an integer >= 1, got 2.0"),
    ("seed", -1, "seed must be an integer >= 0, got -1"),
    ("workers", 0, "workers must be an integer >= 1, got 0"),
    ("tables", True, "tables must be an integer >= 1, got True"),
    ("block_deals", 0, "block_deals must be an integer >= 1"),
    ("max_lineups", 0, "max_lineups must be an integer >= 1"),
    ("hands_per_episode", 0, "hands_per_episode must be an integer >= 1"),
    ("backend", "dask", r"backend must be one of \['process', 'ray'\], got 'dask'"),
    ("engine", "gpu", r"engine must be one of \['aec', 'vector'\], got 'gpu'"),
    ("variance_reduction", "cv", "variance_reduction must be one of"),
    ("style", 1, "style must be True or False, got 1"),
    ("players", 3, "players must be exactly 2 for kuhn, got 3"),
    ("env_config", ["num_players=2"], "env_config must be a mapping"),
    ("resume", True, "resume: give the checkpoint file to resume from"),
])
def test_config_errors_name_the_field_and_what_it_allows(field, value, message):
    with pytest.raises(ValueError, match=message):
        TournamentConfig(**{"game": "kuhn", "agents": ["random", "fold"], "hands": 4, field: value})


def test_config_is_frozen_keyword_only_and_the_one_way_in():
    config = TournamentConfig(game="kuhn", agents=["random", "fold"], hands=4, env_config={"num_players": 2})
    assert config.agents == ("random", "fold") and config.seats == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.hands = 6  # type: ignore[misc]
    with pytest.raises(TypeError):
        TournamentConfig("kuhn", ["random", "fold"])  # type: ignore[misc]
    with pytest.raises(TypeError, match="run_tournament takes a TournamentConfig, got str"):
        run_tournament("kuhn")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sit_and_go cannot be combined with rebuy"):
        TournamentConfig(game="nolimit", agents=["random", "fold"], hands=2, sit_and_go=True, rebuy=True)
    # The config keeps its own copy of env_config: changing the caller's dict later changes nothing.
    options = {"starting_stack": 50}
    config = TournamentConfig(game="nolimit", agents=["random", "fold"], hands=2, env_config=options)
    options["starting_stack"] = 10
    assert config.env_config == {"starting_stack": 50}


def test_registry_specs():
    assert parse_spec("cfr:leduc.npz") == ("cfr", "leduc.npz")
    assert parse_spec("random") == ("random", None)
    with pytest.raises(ValueError, match="empty argument"):
        parse_spec("random:")
    with pytest.raises(ValueError, match="takes no argument"):
        parse_spec("fold:3")
    assert {"random", "heuristic", "cfr", "push_fold", "threshold", "rnad", "cnn"} <= set(REGISTRY)
    env = tournament.build_env("kuhn")
    assert make_agent("random", env).name == "random"
    with pytest.raises(ValueError, match="ids .* or kinds"):
        make_agent("random:3", env)  # random's readings: ids (the default) or kinds


def test_registry_refuses_agents_for_another_game(tmp_path):
    leduc = tournament.build_env("leduc")
    with pytest.raises(ValueError, match="plays threshold only, not leduc_poker"):
        make_agent("threshold", leduc)
    with pytest.raises(ValueError, match="must be a card threshold"):
        make_agent("threshold:high", tournament.build_env("threshold"))
    from agent_zoo.rnad.agent import RNaDAgent

    rng = np.random.default_rng(0)
    path = RNaDAgent([(rng.normal(size=(10, 4)), np.zeros(4))], num_actions=3, activate_final=False).save(tmp_path / "p.npz")
    with pytest.raises(ValueError, match="takes 10 features and 3 actions, but leduc_poker gives 38 features"):
        make_agent(f"rnad:{path}", leduc)


def test_fixed_threshold_agent_loses_to_the_equilibrium():
    # In a symmetric zero-sum game the equilibrium strategy cannot lose on average; "bet iff card >= 90" is far from it.
    result = run_tournament(TournamentConfig(game="threshold", agents=["threshold", "threshold:90"], hands=2000, seed=0, progress=False))
    assert result.mean[0, 1] - result.ci95[0, 1] > 0


def test_a_block_is_a_pure_function_of_its_task():
    lineups = np.zeros((30, 2), dtype=np.int64)
    lineups[:, 1] = 1
    task = tournament.BlockTask(0, "leduc", {}, ("random", "fold"), 0, lineups, np.random.SeedSequence(5), True)
    first, again = tournament.play_block(task), tournament.play_block(task)
    assert np.array_equal(first.values, again.values) and first.style == again.style


def test_showcase_smoke(tmp_path, capsys):
    from agent_zoo import showcase

    results = showcase.main(
        ["--hands", "40", "--games", "kuhn", "threshold", "--rnad-steps", "0", "--workers", "1", "--cfr-iterations", "50",
         "--no-progress", "--out", str(tmp_path)]
    )
    assert set(results) == {"kuhn", "threshold"}
    assert len(results["kuhn"].agents) == 3 and results["threshold"].agents == ["random", "threshold", "threshold:75"]
    printed = capsys.readouterr().out
    assert "PNG files:" in printed and str(tmp_path / "tournament_kuhn.png") in printed
    assert (tmp_path / "tournament_threshold.png").read_bytes()[:4] == b"\x89PNG"


def test_registry_rule_and_prospect_agents_need_their_encoders():
    import agent_zoo.clustering.rule_based
    with pytest.raises(ValueError, match="obs_encoder='flat107'"):
        make_agent("rule:A", tournament.build_env("limit"))
    flat107 = tournament.build_env("limit", {"obs_encoder": "flat107"})
    assert make_agent("rule:A", flat107).name == "rule:A"
    with pytest.raises(ValueError, match="does not exist"):
        make_agent("rule:Z", flat107)
    with pytest.raises(ValueError, match="obs_encoder='flat56'"):
        make_agent("prospect:0.8,0.6", flat107)
    with pytest.raises(ValueError, match="plays limit_holdem only, not leduc_poker"):
        make_agent("prospect", tournament.build_env("leduc"))


@pytest.mark.parametrize("game, agents", [("nolimit", ["random", "heuristic"]), ("limit", ["random", "heuristic"]), ("push_fold", ["random", "push_fold"])])
def test_holdem_family_matches_are_zero_sum(game, agents):
    # No rake: every chip one agent wins the other loses, hand by hand, so the two means cancel exactly.
    result = run_tournament(TournamentConfig(game=game, agents=agents, hands=40, seed=4, progress=False))
    assert result.mean[0, 1] == -result.mean[1, 0] and result.mean[0, 1] != 0
    assert result.style[agents[0]]["vpip"] is not None


@pytest.mark.parametrize("game", ["nolimit", "limit", "kuhn", "threshold"])
def test_duplicate_deals_replay_the_same_cards_in_every_game(game):
    # Two copies of "always check/call" (action 1) reach showdown on the same cards from both seats, so each
    # deal's two results cancel exactly; cards dealt anew for the second seating would not cancel.
    result = run_tournament(TournamentConfig(game=game, agents=[Scripted("a", 1), Scripted("b", 1)], hands=60, seed=9, progress=False, style=False))
    assert result.mean[0, 1] == 0.0 and result.ci95[0, 1] == 0.0


def _strict(text: str) -> dict:
    """``text`` parsed as strict JSON: NaN / Infinity are refused."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"not strict JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_one_deal_gives_no_interval_shown_as_n_a_and_null(tmp_path, capsys):
    """Two hands heads-up are one deal: its mean is known, its interval is not; the text says n/a, JSON says null."""
    result = tournament.main(["--game", "kuhn", "--agents", "random", "fold", "--hands", "2", "--no-progress",
                              "--variance-reduction", "aivat", "--out", str(tmp_path)])
    text = capsys.readouterr().out
    assert result.mean[0, 1] == 1.0 and not np.isfinite(result.ci95[0, 1])
    assert "+1.000±n/a" in text and "-1.000±n/a" in text and "fewer than two deals" in text
    assert "inf" not in text and "nan" not in text
    # the AIVAT ranking: corrected mean, its interval (n/a), the plain mean, its interval (n/a), the width ratio (n/a)
    assert re.search(r"^random +[+-]\d\.\d{3} +n/a +\+1\.000 +n/a +n/a$", text, re.M), text
    written = _strict((tmp_path / "tournament_kuhn.json").read_text())
    assert written["ci95"] == [[0.0, None], [None, 0.0]] and written["mean"] == [[0.0, 1.0], [-1.0, 0.0]]
    assert [r["ci95"] for r in written["ranking"]] == [None, None] and written["aivat"]["ci95"][0][1] is None
    rows = list(csv.reader(open(tmp_path / "tournament_kuhn.csv")))
    assert rows[1][:4] == ["random", "fold", "1.0", ""]  # an empty cell: no interval
    tournament.main(["--game", "kuhn", "--agents", "random", "fold", "--hands", "2", "--no-progress", "--json"])
    assert _strict(capsys.readouterr().out)["ranking"][0] == {"agent": "random", "mean": 1.0, "ci95": None, "per_100": 100.0}


def test_two_deals_give_intervals_and_no_note(capsys):
    tournament.main(["--game", "kuhn", "--agents", "random", "fold", "--hands", "4", "--no-progress"])
    text = capsys.readouterr().out
    assert "±n/a" not in text and "fewer than two deals" not in text and "±0.000" in text


def test_checkpoint_of_seats_left_empty_is_strict_json_and_resumes(tmp_path):
    """Three agents, two seats: each deal leaves an agent out (nan inside); the checkpoint writes null there."""
    path = tmp_path / "t.checkpoint.jsonl"
    whole = run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold", "random:kinds"], hands=12, seed=2, progress=False, block_deals=2,
                           checkpoint=path))
    lines = path.read_text().splitlines()
    blocks = [_strict(line) for line in lines[1:]]
    assert any(v is None for b in blocks for row in b["values"] for v in row)
    path.write_text("\n".join(lines[:2]) + "\n")  # as if interrupted after the first block
    resumed = run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold", "random:kinds"], hands=12, seed=2, progress=False, block_deals=2,
                             checkpoint=path, resume=True))
    assert np.array_equal(resumed.mean, whole.mean) and np.array_equal(resumed.ci95, whole.ci95, equal_nan=True)


def test_repeated_env_config_is_merged_and_recorded(capsys):
    tournament.main(["--game", "nolimit", "--agents", "random", "fold", "--hands", "4", "--no-progress", "--json",
                     "--env-config", "starting_stack=50", "--env-config", "bet_sizing=chips"])
    written = _strict(capsys.readouterr().out)
    assert written["env_config"] == {"num_players": 2, "starting_stack": 50, "bet_sizing": "chips"}
    result = run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=4, progress=False, env_config={"starting_stack": 50}))
    assert result.env_config == {"num_players": 2, "starting_stack": 50}
    with pytest.raises(SystemExit) as exit_:
        tournament.main(["--game", "nolimit", "--agents", "random", "fold", "--env-config", "starting_stack=50",
                         "--env-config", "starting_stack=60"])
    assert exit_.value.code == 2
    assert "--env-config: key 'starting_stack' is given twice" in capsys.readouterr().err


def test_unknown_env_config_key_lists_the_allowed_ones():
    with pytest.raises(ValueError, match=r"unknown key 'num_playerz' for kuhn; its environment takes: obs_encoder, "
                                         r"render_mode, num_players$"):
        tournament.build_env("kuhn", {"num_playerz": 3})
    with pytest.raises(ValueError, match=r"unknown keys 'a', 'b' for omaha; .* hands_per_episode, rebuy"):
        run_tournament(TournamentConfig(game="omaha", agents=["random", "fold"], hands=2, progress=False, env_config={"a": 1, "b": 2}))
    assert "eliminated" in tournament.env_config_keys("potlimit")  # its session keywords pass through **session


def test_out_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    with pytest.raises(SystemExit) as exit_:
        tournament.main(["--game", "kuhn", "--agents", "random", "fold", "--hands", "4", "--out", str(tmp_path / "taken")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (f"python -m agent_zoo.tournament: error: argument --out: "
                                            f"{str(tmp_path / 'taken')!r} is a file; give a folder (created when missing)")


def test_tables_headers_and_columns_line_up(tmp_path, kuhn_policy):
    """The places table has a column per place under its header; the AIVAT matrix names its columns; a long agent
    name is shortened at a word boundary, keeping its end."""
    long = tmp_path / "kuhn_cfr_plus_policy_after_two_hundred_iterations.npz"
    long.write_bytes(open(kuhn_policy, "rb").read())
    result = run_tournament(TournamentConfig(game="kuhn", agents=["random", f"cfr:{long}"], hands=40, progress=False, variance_reduction="aivat"))
    text = result.table()
    label = tournament.short_label(f"cfr:{long}", 32)
    assert label == "cfr:kuhn_cfr…iterations.npz" and label in text
    aivat = text.split("AIVAT (")[1].splitlines()
    assert aivat[1].split() == ["random", label]  # the column header above the corrected matrix
    sng = run_tournament(TournamentConfig(game="nolimit", agents=["random", "heuristic", "fold"], hands=6, players=3, sit_and_go=True, progress=False))
    lines = sng.table().split("sessions finished in each place")[1].splitlines()[1:5]
    header, rows = lines[0], lines[1:]
    assert header.split()[-3:] == ["1st", "2nd", "3rd"]
    for row in rows:  # every count ends where its place's header ends
        ends = [m.end() for m in re.finditer(r"\S+", row)][-3:]
        assert ends == [m.end() for m in re.finditer(r"\S+", header)][-3:], (header, row)


@pytest.mark.parametrize("spec, width, label", [
    ("cfr:/some/where/leduc_cfr+1000.npz", 28, "cfr:leduc_cfr+1000.npz"),
    ("cfr:/x/kuhn_cfr_plus_policy_after_ten_iterations.npz", 28, "cfr:kuhn_cfr…iterations.npz"),
    ("module:agent_zoo.fixed_agents:calling_station", 28, "module:agent_zoo…station"),
    ("abcdefghijklmnopqrstuvwxyz0123456789", 12, "abcdefghijk…"),  # no word boundary: cut
])
def test_short_labels_cut_at_word_boundaries(spec, width, label):
    assert tournament.short_label(spec, width) == label and len(label) <= width


def test_labels_that_would_read_the_same_stay_whole():
    from agent_zoo.tournament_report import table_labels

    agents = ["module:bots_version_a.policy_strong:make", "module:bots_version_b.policy_strong:make"]
    assert table_labels(agents, 20) == agents


def test_showcase_plays_every_catalog_game_and_solves_only_what_they_need(tmp_path, capsys):
    from agent_zoo import showcase
    from poker_envs import catalog

    fake = {f"{g}{w}": tmp_path / "p.npz" for g in catalog.keys(solver="cfr") for w in ("", "_weak")}
    for key in catalog.keys():
        assert [lineup.game for lineup in showcase.lineups(key, fake)][:1] == [key]
    results = showcase.main(["--hands", "4", "--games", "omaha", "kuhn", "--rnad-steps", "0", "--workers", "1",
                             "--cfr-iterations", "20", "--no-progress", "--out", str(tmp_path)])
    assert set(results) == {"kuhn", "omaha"} and results["omaha"].agents == ["random", "heuristic", "fold"]
    printed = capsys.readouterr().out
    assert "solved kuhn" in printed and "leduc" not in printed and not list(tmp_path.glob("leduc*"))
    assert "== kuhn (2 seats): random, cfr:kuhn_cfr+3.npz, cfr:kuhn_cfr+20.npz; 4 hands per match\n" in printed
    assert ("== omaha (2 seats): random, heuristic, fold; 4 hands per match (--hands 4 x 0.5, raised to 2 deals of 2 "
            "seats: one deal gives no interval)\n") in printed
    assert "±n/a" not in printed and str(tmp_path / "tournament_omaha.png") in printed
    for game in ("kuhn", "omaha"):
        assert _strict((tmp_path / f"tournament_{game}.json").read_text())["game"] == game


@pytest.mark.parametrize("hands, factor, seats, count, how", [
    (40, 1.0, 2, 40, ""),
    (2000, 0.5, 2, 1000, "--hands 2000 x 0.5"),
    (2000, 0.03, 6, 60, "--hands 2000 x 0.03"),
    (110, 0.3, 6, 30, "--hands 110 x 0.3, rounded down to a multiple of 6 seats"),
    (6, 0.3, 6, 12, "--hands 6 x 0.3, raised to 2 deals of 6 seats: one deal gives no interval"),
    (4, 0.5, 2, 4, "--hands 4 x 0.5, raised to 2 deals of 2 seats: one deal gives no interval"),
])
def test_showcase_says_how_each_match_count_follows_from_hands(hands, factor, seats, count, how):
    from agent_zoo.showcase import match_hands

    assert match_hands(hands, factor, seats) == (count, how)
