"""The document's baselines as calibrated (heuristic raise sizes, random readings) and the ``paper`` preset."""

from __future__ import annotations

import ast
import re
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest
import torch

from agent_zoo.agent import RandomAgent
from agent_zoo.cnn.config import PAPER_DEPARTURES, PRESETS, CNNConfig
from agent_zoo.cnn.heuristic import HeuristicAgent, KindRandomAgent, heuristic_action, random_kinds_action
from agent_zoo.cnn.selfplay import make_game
from agent_zoo.cnn.storage import HandStore, deal_cards
from agent_zoo.cnn.train import Trainer, pairings
from agent_zoo.observe import public_of_state
from agent_zoo.registry import make_agent
from poker_envs import nolimit_holdem_v0
from tests.test_cnn import assert_resumes_bit_for_bit

torch.set_num_threads(1)
DOC = Path(__file__).resolve().parents[1] / "docs" / "results" / "cnn.md"


def _within(share: float, p: float, n: int) -> bool:
    """``share`` of ``n`` draws is within 4 binomial standard deviations of ``p``."""
    return abs(share - p) < 4 * np.sqrt(p * (1 - p) / n)


def _first_decision():
    """The small blind's first decision at 50 BB (button acts first heads-up): fold, call, raise 4..100 legal."""
    state = make_game().new_initial_state(button=0, deck=list(range(9)))
    deal_cards(state)
    return state


# ---- the random player's readings -----------------------------------------------------------------
def test_random_kinds_shares_where_all_three_kinds_are_legal() -> None:
    state = _first_decision()
    legal = np.asarray(state.legal_actions())
    assert legal[0] == 0 and legal[1] == 1 and legal[2] == 5 and legal[-1] == 101  # raise to 4..100 chips
    rng = np.random.default_rng(11)
    n = 30_000
    acts = np.array([random_kinds_action(legal, rng) for _ in range(n)])
    for share in (np.mean(acts == 0), np.mean(acts == 1), np.mean(acts >= 2)):
        assert _within(share, 1 / 3, n)
    # the raise amount is uniform over the 97 raise-to amounts 4..100: mean 52, sd 28 of a discrete uniform
    to = acts[acts >= 2] - 1
    assert to.min() == 4 and to.max() == 100
    assert abs(to.mean() - 52.0) < 4 * np.sqrt((97**2 - 1) / 12 / to.size)
    # the documented probabilities
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips")
    env.reset(options={"deck": list(range(9)), "button": 0})
    p = KindRandomAgent().action_probabilities(env.observe(env.agent_selection))
    assert p[0] == pytest.approx(1 / 3) and p[1] == pytest.approx(1 / 3) and p[5] == pytest.approx(1 / 3 / 97)
    assert p.sum() == pytest.approx(1.0)


def test_random_kinds_halves_where_folding_is_not_allowed() -> None:
    state = _first_decision()
    state.apply(1)  # the small blind calls: the big blind may check or raise, not fold
    legal = np.asarray(state.legal_actions())
    assert 0 not in legal
    rng = np.random.default_rng(5)
    n = 20_000
    acts = np.array([random_kinds_action(legal, rng) for _ in range(n)])
    assert _within(np.mean(acts == 1), 0.5, n) and _within(np.mean(acts >= 2), 0.5, n)


def test_random_ids_is_uniform_over_ids_and_registry_specs() -> None:
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips")
    env.reset(options={"deck": list(range(9)), "button": 0})
    obs = env.observe(env.agent_selection)
    paper = make_agent("random:paper", env)
    assert isinstance(paper, RandomAgent) and isinstance(make_agent("random", env), RandomAgent)
    assert isinstance(make_agent("random:kinds", env), KindRandomAgent)
    with pytest.raises(ValueError, match="kinds"):
        make_agent("random:other", env)
    rng = np.random.default_rng(2)
    n = 20_000
    acts = np.array([paper.act(obs, rng) for _ in range(n)])
    # 99 legal ids (fold, call, 97 raise amounts): a raise 97/99 of the time
    assert _within(np.mean(acts >= 2), 97 / 99, n) and _within(np.mean(acts == 0), 1 / 99, n)


# ---- the heuristic's raise sizes ----------------------------------------------------------------
@pytest.mark.parametrize("sizing", ["min", "uniform", "pot"])
def test_heuristic_sizings_keep_the_shares(sizing: str) -> None:
    state = _first_decision()
    public = public_of_state(state)
    rng = np.random.default_rng(7)
    n = 20_000
    acts = np.array([heuristic_action(public, rng, sizing) for _ in range(n)])
    assert _within(np.mean(acts == 0), 0.10, n) and _within(np.mean(acts == 1), 0.45, n)
    assert _within(np.mean(acts >= 2), 0.45, n)
    to = acts[acts >= 2] - 1
    if sizing == "min":
        assert set(to.tolist()) == {4}  # the minimum raise: to 2 big blinds
    elif sizing == "uniform":
        assert to.min() == 4 and to.max() == 100 and len(set(to.tolist())) == 97
        assert abs(to.mean() - 52.0) < 4 * np.sqrt((97**2 - 1) / 12 / to.size)


def test_heuristic_min_raise_after_a_raise_and_paper_alias() -> None:
    state = _first_decision()
    state.apply(1 + 10)  # the small blind raises to 10 chips: the big blind's minimum re-raise is to 18
    rng = np.random.default_rng(0)
    acts = {heuristic_action(public_of_state(state), rng, "min") for _ in range(400)}
    assert acts == {0, 1, 19}
    assert HeuristicAgent(True, "paper").sizing == "uniform"
    with pytest.raises(ValueError, match="sizing"):
        HeuristicAgent(True, "big")


@pytest.mark.parametrize("sizing", ["min", "uniform", "pot"])
def test_heuristic_act_batch_equals_act_row_by_row(sizing: str) -> None:
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips")
    agent = make_agent(f"heuristic:{sizing}", env)
    assert agent.sizing == sizing
    rng = np.random.default_rng(3)
    observations = []
    for h in range(12):  # observations along played hands
        env.reset(seed=h)
        while not all(env.terminations.values()) and len(observations) < 6 * (h + 1):
            obs = env.observe(env.agent_selection)
            observations.append(obs)
            env.step(agent.act(obs, rng))
    stacked = {k: np.stack([o[k] for o in observations]) for k in ("action_mask", "public", "observation")}
    seeds = range(len(observations))
    single = [agent.act(o, np.random.default_rng(s)) for o, s in zip(observations, seeds)]
    batch = agent.act_batch(stacked, [np.random.default_rng(s) for s in seeds])
    assert batch.tolist() == single
    assert all(o["action_mask"][a] == 1 for o, a in zip(observations, single))


# ---- the paper preset -----------------------------------------------------------------------------
def _documented_paper_column() -> dict[str, object]:
    """field -> value of the `paper` column of the doc's field-by-field table."""
    text = DOC.read_text()
    start = text.index("## The `paper` preset")
    rows = re.findall(r"^\| `(\w+)` \| `([^`]*)` \| `([^`]*)` \| `([^`]*)` \|", text[start:], flags=re.M)
    return {name: ast.literal_eval(paper) for name, _default, _small, paper in rows}


def test_paper_preset_matches_the_documented_table() -> None:
    documented = _documented_paper_column()
    assert set(documented) == set(PAPER_DEPARTURES)
    paper, default, small = PRESETS["paper"], CNNConfig(), PRESETS["small"]
    for name, value in documented.items():
        assert getattr(paper, name) == value, name
        if name != "random_player":  # listed as a reading of the text; the defaults already agree
            assert getattr(default, name) != value or getattr(small, name) != value, name  # a real departure
    # nothing else differs from the defaults
    other = [f.name for f in fields(CNNConfig) if f.name not in documented]
    assert all(getattr(paper, f) == getattr(default, f) for f in other)
    assert paper.heuristic_hands == 200_000 and paper.generations == 3 and paper.stack == 100
    assert pairings(2, paper.heuristic_pairing) == [(0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]


@pytest.mark.slow
def test_paper_preset_tiny_budget_trains_and_resumes_bit_for_bit(tmp_path, monkeypatch) -> None:
    cfg = replace(PRESETS["paper"], heuristic_hands=16, hands_per_pairing=6, generations=2, batch_size=8,
                  parallel_hands=8, chunk_hands=8)
    # trained, and trained again interrupted inside generation 2 and run again: the same weights
    assert_resumes_bit_for_bit(cfg, tmp_path, monkeypatch)
    # generation 1: every action is a sample, folds included, with the realized chips / buy-in as target
    store = HandStore.concat([HandStore.load(p) for p in sorted((tmp_path / "full" / "data").glob("p0_0_c*.npz"))])
    assert np.any(store.kind == 0)
    assert np.allclose(store.target * 100, np.round(store.target * 100))
    log = [line.split(",") for line in (tmp_path / "full" / "log.csv").read_text().splitlines()]
    assert int(log[0][2]) == store.num_actions
    # generation 2's data: heuristic v cnn1 and cnn1 v cnn1, no heuristic v heuristic beyond generation 1's
    assert {p.name.split("_c")[0] for p in (tmp_path / "full" / "data").glob("*.npz")} == {"p0_0", "p0_1", "p1_1"}


def test_heuristic_folds_its_share_when_the_rules_allow_folding_for_free() -> None:
    state = make_game(fold_when_check=True).new_initial_state(button=0, deck=list(range(9)))
    deal_cards(state)
    state.apply(1)  # the small blind calls: the big blind may check, and here also fold
    assert 0 in state.legal_actions()
    rng = np.random.default_rng(4)
    n = 20_000
    acts = np.array([heuristic_action(public_of_state(state), rng, "min", True) for _ in range(n)])
    assert _within(np.mean(acts == 0), 0.10, n) and _within(np.mean(acts == 1), 0.45, n)
    # the default rules: the same draws, the fold share goes to the check
    rng = np.random.default_rng(4)
    default = np.array([heuristic_action(public_of_state(state), rng, "min") for _ in range(n)])
    assert np.array_equal(default == 1, (acts == 1) | (acts == 0)) and not np.any(default == 0)


# ---- several training seeds side by side (agent_zoo.cnn.spread) ----------------------------------------
def _rr(names: list[str], upper: dict[tuple[str, str], tuple[float, float]], seed: int) -> dict:
    """A round robin result dict with ``upper[(a, b)] = (a's mean v b, half-width)`` and its antisymmetric twin."""
    n = len(names)
    mean, ci = np.zeros((n, n)), np.zeros((n, n))
    for (a, b), (m, h) in upper.items():
        i, j = names.index(a), names.index(b)
        mean[i, j], mean[j, i], ci[i, j], ci[j, i] = m, -m, h, h
    return {"names": names, "mean": mean.tolist(), "ci95": ci.tolist(), "hands": 10, "candidates": "full", "seed": seed}


def test_spread_orients_pairs_and_computes_the_seed_statistics() -> None:
    from agent_zoo.cnn.spread import PAPER_TABLE3, spread

    names = ["random", "heuristic", "cnn1"]
    # random's mean against cnn1 is stored from random's side: the pair must read cnn1 v random = -that.
    results = [_rr(names, {("random", "cnn1"): (-m, 0.5), ("heuristic", "random"): (8.0, 1.0),
                           ("cnn1", "heuristic"): (m - 4.0, 0.3)}, 7) for m in (1.0, 2.0, 3.0)]
    sp = spread(results, ["a", "b", "c"])
    assert sp.pairs == [("heuristic", "random"), ("cnn1", "random"), ("cnn1", "heuristic")]
    np.testing.assert_allclose(sp.mean[:, 1], [1.0, 2.0, 3.0])
    np.testing.assert_allclose(sp.seed_mean, [8.0, 2.0, -2.0])
    np.testing.assert_allclose(sp.seed_sd, [0.0, 1.0, 1.0])
    # t(0.975, 2 df) = 4.302653 (printed tables); half-width = t * sd / sqrt(3)
    np.testing.assert_allclose(sp.seed_ci95[1], 4.302653 / np.sqrt(3), rtol=1e-6)
    # cnn1 v random: 1 - 0.5 > 0 in every seed; cnn1 v heuristic: -3, -2, -1 never above 0
    assert sp.significant_wins.tolist() == [3, 3, 0]
    table = sp.markdown()
    assert "| cnn1 v random | **+1.00 ± 0.50** | **+2.00 ± 0.50** | **+3.00 ± 0.50** | +2.00 | 1.00 |" in table
    assert f"{PAPER_TABLE3[('heuristic', 'random')]:+.2f}" == "+6.82" and "+6.82" in table


def test_spread_pools_stages_and_refuses_mismatches() -> None:
    from agent_zoo.cnn.spread import pool_stages, spread

    names = ["random", "heuristic"]
    a, b = _rr(names, {("heuristic", "random"): (1.0, 0.3)}, 1), _rr(names, {("heuristic", "random"): (3.0, 0.4)}, 2)
    pooled = pool_stages([a, b])
    assert pooled["mean"][1][0] == pytest.approx(2.0) and pooled["ci95"][1][0] == pytest.approx(0.25)
    assert pooled["hands"] == 20
    with pytest.raises(ValueError, match="different deal seeds"):
        pool_stages([a, a])
    with pytest.raises(ValueError, match="same players"):
        spread([a, _rr(["random", "cnn1"], {}, 3)], ["x", "y"])
    with pytest.raises(ValueError, match="one label per result"):
        spread([a, b], ["x"])


def test_spread_cli_reads_a_committed_round_robin(tmp_path) -> None:
    """The single-seed subset table on the results page: cnn3 v cnn2 was +0.86 ± 0.28 BB/hand."""
    import json

    from agent_zoo.cnn.__main__ import main

    committed = Path(__file__).resolve().parent.parent / "docs" / "results" / "cnn" / "small_results.json"
    data = json.loads(committed.read_text())
    for k, seed in enumerate((5, 6)):
        d = tmp_path / f"e{k}"
        d.mkdir()
        (d / "results.json").write_text(json.dumps({**data, "seed": seed}))
    out = tmp_path / "out"
    e0, e1 = tmp_path / "e0", tmp_path / "e1"
    assert main(["spread", "--evals", f"{e0},{e1}", f"{e1},{e0}", "--reference", str(committed), "--out", str(out)]) == 0
    table = (out / "spread.md").read_text()
    row = next(line for line in table.splitlines() if line.startswith("| cnn3 v cnn2 |"))
    assert row.count("+0.86 ± 0.20") == 2  # two identical stages pooled per seed: 0.28 * sqrt(2) / 2
    assert row.endswith("| +5.32 | +0.86 ± 0.28 |")  # Table 3's cell, then the reference column
    assert (out / "spread.png").stat().st_size > 0 and json.loads((out / "spread.json").read_text())["hands"] == 20_000
    with pytest.raises(SystemExit):
        main(["spread", "--evals", str(e0), "--labels", "a", "b", "--out", str(out)])
