"""External-sampling MCCFR: converges on Kuhn with a fixed seed, reproducible, resumable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agent_zoo.cfr import GameTree, exploitability
from agent_zoo.cfr.mccfr import ExternalSamplingMCCFR
from poker_envs.games.kuhn import KuhnGame


@pytest.fixture(scope="module")
def kuhn() -> GameTree:
    return GameTree.build(KuhnGame())


def test_mccfr_kuhn_reaches_low_exploitability(kuhn: GameTree) -> None:
    solver = ExternalSamplingMCCFR(KuhnGame(), np.random.default_rng(0))
    solver.iterate(5000)
    res = exploitability(kuhn, solver.average_policy_array(kuhn))
    assert res.exploitability < 0.01  # uniform play: 0.458; seed 0 gives 0.0042
    assert res.policy_values[0] == pytest.approx(-1 / 18, abs=0.01)


def test_mccfr_same_seed_same_policy_and_resume(kuhn: GameTree, tmp_path: Path) -> None:
    def run(n: int) -> ExternalSamplingMCCFR:
        s = ExternalSamplingMCCFR(KuhnGame(), np.random.default_rng(7))
        s.iterate(n)
        return s

    straight = run(300)
    np.testing.assert_array_equal(run(300).average_policy_array(kuhn), straight.average_policy_array(kuhn))
    half = run(120)
    half.save(str(tmp_path / "ck.npz"))
    resumed = ExternalSamplingMCCFR(KuhnGame(), np.random.default_rng(12345))
    resumed.load(str(tmp_path / "ck.npz"))
    resumed.iterate(180)
    np.testing.assert_array_equal(resumed.average_policy_array(kuhn), straight.average_policy_array(kuhn))


def test_mccfr_refuses_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="rng"):
        ExternalSamplingMCCFR(KuhnGame(), 0)  # type: ignore[arg-type]
    from poker_envs.games.leduc import LeducGame

    s = ExternalSamplingMCCFR(LeducGame(), np.random.default_rng(0))
    s.iterate(2)
    s.save(str(tmp_path / "leduc.npz"))
    with pytest.raises(ValueError, match="leduc_poker"):
        ExternalSamplingMCCFR(KuhnGame(), np.random.default_rng(0)).load(str(tmp_path / "leduc.npz"))
