"""AIVAT (agent_zoo.aivat): unbiased on every game it corrects, equal to the plain result with its terms off."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from agent_zoo.aivat import Decision, EquityValue, TreeValue, aivat_terms, corrected_returns, value_function
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.kuhn import KuhnGame
from poker_envs.games.leduc import LeducGame


def fixed_policy(state, num_actions: int) -> np.ndarray:
    """A mixed policy that depends on the acting seat's information (a stand-in for a solver's strategy)."""
    legal = state.legal_actions()
    key = state.information_state_string(state.current_player())
    w = np.array([1 + zlib.crc32(f"{key}/{a}".encode()) % 7 for a in legal], dtype=np.float64)
    probs = np.zeros(num_actions)
    probs[legal] = w / w.sum()
    return probs


def uniform(state, num_actions: int) -> np.ndarray:
    probs = np.zeros(num_actions)
    probs[state.legal_actions()] = 1 / len(state.legal_actions())
    return probs


def expectations(game, policies, known, value) -> tuple[np.ndarray, np.ndarray]:
    """E[plain] and E[corrected] by walking every chance outcome and action with its probability."""
    plain = np.zeros(game.num_players)
    corrected = np.zeros(game.num_players)

    def walk(state, p, decisions):
        nonlocal plain, corrected
        player = state.current_player()
        if player == TERMINAL:
            plain += p * state.returns()
            corrected += p * corrected_returns(value, decisions, state)
            return
        if player == CHANCE:
            for c, q in state.chance_outcomes():
                walk(state.child(c), p * q, decisions)
            return
        probs = policies[player](state, game.num_distinct_actions)
        for a in state.legal_actions():
            if probs[a] > 0:
                d = Decision(state.clone(), a, probs if known[player] else None)
                walk(state.child(a), p * probs[a], [*decisions, d])

    walk(game.new_initial_state(), 1.0, [])
    return plain, corrected


@pytest.mark.parametrize("game", [KuhnGame(), LeducGame()], ids=["kuhn", "leduc"])
@pytest.mark.parametrize("known", [(True, True), (True, False), (False, False)])
def test_unbiased_exactly_on_small_games(game, known):
    value = value_function(game)
    assert isinstance(value, TreeValue)
    plain, corrected = expectations(game, [uniform, fixed_policy], known, value)
    np.testing.assert_allclose(corrected, plain, rtol=0, atol=1e-9)
    assert abs(plain[0]) > 1e-3  # the fixed policy is not the uniform one: a non-trivial game value


def test_terms_change_single_hands_on_leduc():
    """The correction is not zero hand by hand (else the test above proves nothing)."""
    game = LeducGame()
    _, terms, _, _ = play_rules_hand(game, value_function(game), np.random.default_rng(3))
    assert np.abs(terms).max() > 1e-6


def play_rules_hand(game, value, rng, known=(True, True)):
    """One hand on the rules with uniform random play: (plain result, AIVAT terms)."""
    state = game.new_initial_state()
    decisions = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        probs = uniform(state, game.num_distinct_actions)
        a = int(rng.choice(len(probs), p=probs))
        decisions.append(Decision(state.clone(), a, probs if known[state.current_player()] else None))
        state.apply(a)
    return state.returns(), aivat_terms(value, decisions, state), decisions, state


def test_unbiased_statistically_on_headsup_nolimit():
    """Over 700 random hands the mean correction is within 4 standard errors of 0, and it lowers the spread."""
    from agent_zoo.tournament import build_env

    game = build_env("nolimit").unwrapped.game
    value = EquityValue(game, exact_boards=0, sampled_boards=300)  # every board sampled: cheap, still unbiased
    rng = np.random.default_rng(11)
    plain, terms = [], []
    for _ in range(700):
        value.reseed(np.random.default_rng(rng.integers(1 << 62)))
        r, t, _, _ = play_rules_hand(game, value, rng)
        plain.append(r[0])
        terms.append(t[0])
    plain, terms = np.array(plain), np.array(terms)
    se = terms.std(ddof=1) / np.sqrt(terms.size)
    assert abs(terms.mean()) < 4 * se, (terms.mean(), se)
    assert (plain - terms).std() < 0.8 * plain.std()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 6])
def test_unbiased_statistically_over_seeds_and_table_sizes(players: int) -> None:
    """No-limit at 2, 3 and 6 seats, three seeds each, the default value function's exact enumeration from the
    turn on: each seat's mean correction within 4 standard errors of 0 per seed and pooled over the seeds."""
    from agent_zoo.tournament import build_env

    game = build_env("nolimit", players=players).unwrapped.game
    value = EquityValue(game, exact_boards=50, sampled_boards=200)  # turn and river enumerated, else sampled
    hands = {2: 500, 3: 300, 6: 150}[players]
    pooled = []
    for seed in (31, 32, 33):
        rng = np.random.default_rng([seed, players])
        terms = []
        for _ in range(hands):
            value.reseed(np.random.default_rng(rng.integers(1 << 62)))
            terms.append(play_rules_hand(game, value, rng, known=(True,) * players)[1])
        terms = np.array(terms)  # (hands, players)
        se = terms.std(axis=0, ddof=1) / np.sqrt(hands)
        assert (np.abs(terms.mean(axis=0)) < 4 * se).all(), (seed, terms.mean(axis=0), se)
        assert (se > 0).all()  # the terms are not all zero: the check has something to test
        pooled.append(terms)
    everything = np.concatenate(pooled)
    se = everything.std(axis=0, ddof=1) / np.sqrt(len(everything))
    assert (np.abs(everything.mean(axis=0)) < 4 * se).all(), (everything.mean(axis=0), se)


def test_terms_off_give_the_plain_result_and_unknown_policies_get_chance_terms_only():
    from agent_zoo.tournament import build_env

    game = build_env("nolimit").unwrapped.game
    value = EquityValue(game, exact_boards=0, sampled_boards=200)
    r, t, decisions, final = play_rules_hand(game, value, np.random.default_rng(5))
    np.testing.assert_array_equal(corrected_returns(value, decisions, final, chance=False, actions=False), final.returns())
    unknown = [Decision(d.state, d.action, None) for d in decisions]
    np.testing.assert_allclose(aivat_terms(value, unknown, final), aivat_terms(value, decisions, final, actions=False))
    assert aivat_terms(value, unknown, final, chance=False).tolist() == [0.0, 0.0]


def test_tournament_names_the_agents_without_a_policy():
    from agent_zoo.tournament import TournamentConfig, aivat_note, run_tournament

    result = run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold"], hands=200, seed=2, progress=False, variance_reduction="aivat"))
    assert result.aivat is not None and result.aivat["chance_only"] == ["fold"]
    assert aivat_note(["fold"]).startswith("aivat: no policy (action_probabilities is None) for fold")
    block = result.to_dict()["aivat"]
    assert block["chance_only"] == ["fold"] and len(block["ranking"]) == 2
    # the corrected means sit within their intervals of the plain ones
    a, p = result.aivat["agent_mean"], result.agent_mean
    assert np.all(np.abs(a - p) < result.agent_ci95 + result.aivat["agent_ci95"])


def test_bad_variance_reduction_and_unsupported_setups_are_refused():
    from agent_zoo.tournament import TournamentConfig, run_tournament

    with pytest.raises(ValueError, match="variance_reduction must be one of"):
        run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold"], hands=2, progress=False, variance_reduction="aivaat"))
    with pytest.raises(ValueError, match="one-hand episodes, not sessions"):
        run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=2, progress=False, hands_per_episode=3, variance_reduction="aivat"))


@pytest.mark.parametrize(("game", "agents", "players", "env_config"), [
    ("kuhn", ["random", "fold"], 2, {}),
    ("nolimit", ["random", "random:kinds"], 2, {}),
    # stacks the blinds put all in: hands the forced bets decide, which the batched engine plays as pass turns
    ("nolimit", ["heuristic", "random"], 3, {"starting_stack": [2, 1, 2]}),
])
def test_batched_engine_gives_the_aec_engines_correction(game, agents, players, env_config):
    """The batched engine's hands replayed on the rules give the AEC engine's corrected values, bit for bit."""
    from agent_zoo.tournament import TournamentConfig, run_tournament

    aec, vec = (run_tournament(TournamentConfig(game=game, agents=agents, hands=20 * players, seed=3, progress=False, engine=e, players=players,
                               env_config=dict(env_config), variance_reduction="aivat"))
                for e in ("aec", "vector"))
    np.testing.assert_allclose(vec.aivat["agent_mean"], aec.aivat["agent_mean"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(vec.agent_mean, aec.agent_mean, rtol=0, atol=1e-12)
    assert not np.allclose(aec.aivat["agent_mean"], aec.agent_mean)  # the correction did something


def test_resumed_tournament_keeps_the_corrected_values(tmp_path):
    """Blocks read back from the checkpoint carry their AIVAT values: a resumed run equals an uninterrupted one."""
    from agent_zoo.tournament import TournamentConfig, run_tournament

    path = tmp_path / "t.checkpoint.jsonl"
    kw = {"hands": 60, "seed": 4, "progress": False, "block_deals": 10, "variance_reduction": "aivat"}
    whole = run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold"], checkpoint=path, **kw))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # the header and the first block: the rest "lost"
    resumed = run_tournament(TournamentConfig(game="kuhn", agents=["random", "fold"], checkpoint=path, resume=True, **kw))
    np.testing.assert_array_equal(resumed.aivat["agent_mean"], whole.aivat["agent_mean"])
    np.testing.assert_array_equal(resumed.aivat["ci95"], whole.aivat["ci95"])
