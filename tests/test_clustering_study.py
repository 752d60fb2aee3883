"""The several-seed clustering study: adjusted Rand index, sessions in the play logs, control players."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import torch

from agent_zoo.clustering.play import play_hands
from agent_zoo.clustering.prospect import ProspectAgent, prospect_grid
from agent_zoo.clustering.rule_based import CONTROLS, FrequencyAgent
from agent_zoo.clustering.study import StudyScale, adjusted_rand_index, run_seed, thesis_numbering
from agent_zoo.clustering.study_report import spread


def test_adjusted_rand_index_hand_worked() -> None:
    # [0,0,0,1,1,1] vs [0,0,1,1,2,2]: contingency [[2,1,0],[0,1,2]]; sum C(n_ij,2) = 2, rows 3+3 = 6,
    # columns 1+1+1 = 3, C(6,2) = 15: expected 6*3/15 = 1.2, max (6+3)/2 = 4.5, ARI = 0.8/3.3 = 8/33.
    assert adjusted_rand_index(np.array([0, 0, 0, 1, 1, 1]), np.array([0, 0, 1, 1, 2, 2])) == pytest.approx(8 / 33)
    # [0,0,1,1] vs [0,0,1,2]: sum 1, rows 2, columns 1, C(4,2) = 6: (1 - 1/3) / (1.5 - 1/3) = 4/7.
    assert adjusted_rand_index(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 2])) == pytest.approx(4 / 7)


def test_adjusted_rand_index_properties() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(4, size=30)
    b = rng.integers(3, size=30)
    assert adjusted_rand_index(a, (a + 2) % 4) == pytest.approx(1.0)  # renaming clusters changes nothing
    assert adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_index(b, a))
    assert adjusted_rand_index(a, b) < 0.3
    assert adjusted_rand_index(np.zeros(5), np.zeros(5)) == 1.0
    with pytest.raises(ValueError, match="labelings"):
        adjusted_rand_index(np.zeros(3), np.zeros(4))


def test_spread_uses_the_sample_deviation() -> None:
    assert spread([1.0, 2.0, 3.0]) == "2.000 ± 1.000 (1.000 .. 3.000)"


def test_sessions_carry_own_chips_in_flat56() -> None:
    pool = [ProspectAgent(0.5, 1.0), ProspectAgent(1.0, 0.5)]
    one = play_hands(pool, 40, lambda rng: [0, 1], "flat56", 0)
    many = play_hands(pool, 40, lambda rng: [0, 1], "flat56", 0, hands_per_episode=20)
    # one-hand episodes: own chips minus the hand's start can only be what was put in (<= 0)
    assert max(max(o[0] for o in r.obs) for r in one) <= 0
    # sessions: chips won in earlier hands of the session count, so some states are above the start
    assert max(max(o[0] for o in r.obs) for r in many) > 0
    assert [r.hands for r in many] == [40, 40]
    assert many[0].chips == -many[1].chips
    with pytest.raises(ValueError, match="hands_per_episode"):
        play_hands(pool, 30, lambda rng: [0, 1], "flat56", 0, hands_per_episode=20)


def test_frequency_agent_draws_its_probabilities_and_checks_instead_of_a_free_fold() -> None:
    agent = FrequencyAgent("P", (0.5, 0.2, 0.3))
    rng = np.random.default_rng(0)
    facing = {"observation": np.zeros(107, dtype=np.float32), "action_mask": np.array([1, 1, 1], dtype=np.int8)}
    counts = np.bincount([agent.act(facing, rng) for _ in range(4000)], minlength=3) / 4000
    assert counts == pytest.approx([0.5, 0.2, 0.3], abs=0.03)
    free = {"observation": facing["observation"], "action_mask": np.array([0, 1, 1], dtype=np.int8)}
    assert {agent.act(free, rng) for _ in range(200)} == {1, 2}
    assert all(sum(p) == pytest.approx(1) for p in CONTROLS.values())
    with pytest.raises(ValueError, match="probabilities"):
        FrequencyAgent("bad", (0.5, 0.6, 0.1))


def test_thesis_numbering_of_prospect_clusters() -> None:
    grid = np.array(prospect_grid())
    labels = np.where(grid[:, 0] <= 0.6, 0, np.where(grid[:, 0] - grid[:, 1] >= 0.3, 1, 2))
    assert thesis_numbering(labels) == {0: 3, 1: 2, 2: 1}


@pytest.mark.slow
def test_run_seed_reports_held_out_and_in_sample_accuracy() -> None:
    torch.set_num_threads(1)
    run = run_seed("agents-thesis", StudyScale(hands=300, max_rounds=2, epochs=1, final_epochs=0), 0)
    assert run["names"] == ["A", "B", "C", *CONTROLS]
    assert len(run["labels"]) == len(run["held_out"]) == len(run["in_sample"]) == 9
    a = run["names"].index("A")
    assert run["held_out"][a] > 0.8  # A raises whenever it can: any learner of its cluster should see that
    assert 0 <= run["pooled"]["held_out"] <= 1


@pytest.mark.slow
def test_study_writes_its_own_section_and_folder(tmp_path) -> None:
    # `study --full` must keep the reduced study's JSON and section untouched: its runs go to their own
    # folder and section, the page quotes the command that made them, and a bad experiment name is refused.
    from agent_zoo.clustering import report
    from agent_zoo.clustering.study import run_study

    torch.set_num_threads(1)
    old = (report.RESULTS, report.CACHE, report.PROGRESS)
    report.configure(tmp_path, tmp_path / "cache", progress=False)
    try:
        scale = StudyScale(hands=200, max_rounds=1, epochs=1, final_epochs=0)
        with pytest.raises(ValueError, match="agents-full"):
            run_study([0], tmp_path / "x", scale, ("agents",), "study_full")
        runs = run_study([0, 1], tmp_path / "clustering" / "study_full", scale, ("agents-thesis",), "study_full", "Full", " --full")
        assert [r["seed"] for r in runs["agents-thesis"]] == [0, 1]
        assert sorted(p.name for p in (tmp_path / "clustering" / "study_full").iterdir()) == [
            "agents-thesis_seed0.json", "agents-thesis_seed1.json"]
        section = (tmp_path / "clustering" / "study_full.md").read_text()
        assert section.startswith("## Full\n")
        # the page names the command as run, --out included, and where its per-seed JSON went, both relative to
        # the repository (never an absolute path of the machine that ran it)
        out = Path(os.path.relpath(tmp_path, report.REPOSITORY)).as_posix()
        assert report.shown(tmp_path) == out and not out.startswith("/")
        assert f"study --full --seeds 0 1 --out {out}`" in section and f"`{out}/clustering/study_full/`" in section
        assert not (tmp_path / "clustering" / "study.md").exists()
        assert "## Full" in (tmp_path / "clustering.md").read_text()
    finally:
        report.configure(*old[:2], progress=old[2])


def test_study_cli_refuses_options_of_other_experiments() -> None:
    from agent_zoo.clustering.__main__ import main

    with pytest.raises(SystemExit):
        main(["agents", "--full"])
    with pytest.raises(SystemExit):
        main(["study", "--quick"])
    with pytest.raises(SystemExit):
        main(["study", "--experiments", "agents-ful", "--out", "/nonexistent"])
