"""Local best response against the re-solving agent: observations carry the hand so far, and the agent's public
solves answer every holding LBR asks about from one solve per public state."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from agent_zoo.lbr import LocalBestResponse
from agent_zoo.lbr.__main__ import main
from agent_zoo.lbr.vector import make_lbr
from agent_zoo.registry import needed_env_options
from agent_zoo.solver.agent import ResolveAgent
from agent_zoo.solver.agent_config import ResolveConfig, parse_resolve_arg
from agent_zoo.solver.ranges import COMBO_INDEX
from poker_envs import nolimit_holdem_v0
from poker_envs.core.cards import cards_from_str
from poker_envs.encoders.history import encode_history, with_hole_cards

PUBLIC = ResolveConfig(seconds=None, max_iterations=3, max_holdings=120, flop_samples=1, measure=False, public=True)


def _env(**config: Any) -> Any:
    return nolimit_holdem_v0.raw_env(**{"bet_sizing": "chips", "history": True, "starting_stack": 100, **config})


def _flop_decision(env: Any, hole: tuple[str, str]) -> dict[str, Any]:
    """Both players call to the flop; the observation of the first decision there (the big blind, seat 1)."""
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str(h) for h in hole],
                               "board": cards_from_str("Kh 9d 4c 2s 7h")})
    while True:
        obs = env.observe(env.agent_selection)
        if obs["public"][5] == 1:
            return obs
        env.step(1)


def _row(lbr: LocalBestResponse, cards: str) -> int:
    """The row of LBR's card family of a holding given as text."""
    a, b = sorted(cards_from_str(cards))
    return int(np.flatnonzero((lbr.family.holdings == [a, b]).all(axis=1))[0])


def test_public_solve_answers_every_holding_as_the_agent_plays_it() -> None:
    """LBR asks for every holding at a flop decision: one solve serves them all (no solve per holding), each
    row is a distribution over legal actions, and the row of the agent's real cards is the strategy it plays.
    Where the agent conditions on its own cards (the default) the same question costs one solve per holding."""
    env = _env()
    obs = _flop_decision(env, ("Ah Th", "Qs Qd"))
    seat = 1
    agent = ResolveAgent.for_env(env, PUBLIC)
    played = agent.action_probabilities(obs)
    solves = agent.finish_block()["solves"]
    lbr = LocalBestResponse(env, agent)
    state = env.state
    rows = np.arange(0, len(lbr.family.holdings), 7)  # 190 holdings, some sharing a card with the board
    rows = rows[[not set(h) & set(state.board) for h in lbr.family.holdings[rows]]]
    rows = np.union1d(rows, [_row(lbr, "Qs Qd")])
    probs = lbr.range_probabilities(state, seat, rows)
    assert agent.finish_block().get("solves", 0) == 0  # all answered by the solve the agent acted from
    mask = np.asarray(obs["action_mask"]) > 0
    assert np.allclose(probs.sum(axis=1), 1.0) and not probs[:, ~mask].any()
    assert probs[np.searchsorted(rows, _row(lbr, "Qs Qd"))] == pytest.approx(played)
    root = agent.solved(obs).root.probs  # (A, 1326): the rows differ by holding as the solve's strategy does
    assert len({tuple(np.round(root[:, int(COMBO_INDEX[a, b])], 6)) for a, b in lbr.family.holdings[rows]}) > 1
    assert solves >= 1

    own = ResolveAgent.for_env(env, ResolveConfig(seconds=None, max_iterations=3, max_holdings=120, measure=False))
    LocalBestResponse(env, own).range_probabilities(state, seat, rows[:4])
    assert own.finish_block()["solves"] >= 4  # one solve (at least) per holding asked


def test_history_per_holding_equals_the_encoders_for_each_holding() -> None:
    """The history vectors LBR sends for a range (one encoded, the cards written in per row) equal what
    ``encode_history`` makes of the state with each holding dealt, at a flop state with actions and blinds."""
    env = _env()
    _flop_decision(env, ("Ah Th", "Qs Qd"))
    env.step(3)  # seat 1 bets 2 chips: an action row on the flop
    lbr = LocalBestResponse(env, ResolveAgent.for_env(env, PUBLIC))
    state, layout = env.state, env.history_layout
    holdings = lbr.family.holdings[[not set(h) & set(state.board) for h in lbr.family.holdings]][::37]
    batch = with_hole_cards(encode_history(state, 1, layout), holdings, layout)
    direct = [encode_history(lbr.family.with_hole(state, 1, h), 1, layout) for h in holdings]
    assert len(holdings) > 20 and np.array_equal(batch, np.stack(direct))
    with pytest.raises(ValueError, match=r"holes must be \(N, 2\)"):
        with_hole_cards(batch[0], holdings[:, :1], layout)


def test_lbr_plays_hands_against_the_public_agent_reproducibly() -> None:
    """Whole hands: the same seed gives the same per-hand winnings with a fresh agent; the batched engine, which
    encodes no history, refuses the env and says which engine to use."""
    results = []
    for _ in range(2):
        env = _env()
        agent = ResolveAgent.for_env(env, PUBLIC)
        results.append(LocalBestResponse(env, agent).evaluate(6, seed=3))
    assert results[0] == results[1] and results[0].hands == 6
    with pytest.raises(ValueError, match="engine 'vector'.*history.*use engine 'aec'"):
        make_lbr(_env(), ResolveAgent.for_env(_env(), PUBLIC), engine="vector")


def test_cli_builds_the_env_the_agent_needs(capsys: pytest.CaptureFixture[str]) -> None:
    """``--agent resolve:...`` gets history=True and chip sizing without being told; a contrary --env-config is an
    error naming the option."""
    main(["--game", "nolimit", "--agent", "resolve:public=1,iterations=2", "--hands", "2", "--seed", "1",
          "--env-config", "starting_stack=100", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 2 and out["agent"] == "resolve:public=1,iterations=2"
    with pytest.raises(SystemExit):
        main(["--game", "nolimit", "--agent", "resolve:iterations=2", "--hands", "2", "--env-config", "history=false"])
    assert "agent 'resolve:iterations=2' needs the environment option history=True, but env_config has history=False" \
        in capsys.readouterr().err


def test_needed_env_options_merge_the_agents_and_name_a_clash() -> None:
    """One rule for every tool that builds an env for agents (tournament, lbr, viewer, Slumbot seat): the options
    the agents need, from specs or built agents, and a clash with the config or between agents named."""
    built = ResolveAgent.for_env(_env(), PUBLIC, name="mine")  # a built agent: its own env_options
    assert needed_env_options(["random", "resolve:iterations=2"], {}) == {"history": True, "bet_sizing": "chips"}
    assert needed_env_options([built], {"history": True}) == {"history": True, "bet_sizing": "chips"}
    with pytest.raises(ValueError, match="agent 'mine' needs the environment option bet_sizing='chips', but env_config "
                                         "has bet_sizing='abstract'"):
        needed_env_options(["random", built], {"bet_sizing": "abstract"})
    abstract = ResolveAgent.for_env(nolimit_holdem_v0.raw_env(history=True), PUBLIC, name="pot")  # needs history only
    assert needed_env_options([abstract], {"bet_sizing": "abstract"}) == {"history": True}


def test_public_spec_key() -> None:
    assert parse_resolve_arg("public=1,iterations=5").public and not parse_resolve_arg("iterations=5").public
    with pytest.raises(ValueError, match="public=0|1"):
        parse_resolve_arg("public=yes")
    with pytest.raises(ValueError, match="public must be True or False"):
        ResolveConfig(public=1)  # type: ignore[arg-type]
