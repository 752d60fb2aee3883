"""Batched Kuhn and Leduc (poker_envs.vector) against the AEC environments, hand by hand, plus properties."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from poker_envs import kuhn_poker_v0, leduc_holdem_v0, vector
from poker_envs.games.kuhn import KuhnGame
from poker_envs.games.leduc import LeducGame
from poker_envs.vector.sampling import random_legal_actions

GAMES = {  # vector name -> (AEC module, rules game, cards per deal)
    "kuhn_poker": (kuhn_poker_v0, KuhnGame(), 2),
    "leduc_holdem": (leduc_holdem_v0, LeducGame(), 3),
}


def first_decks(rng: np.random.Generator, num_envs: int, num_cards: int, k: int) -> np.ndarray:
    return rng.random((num_envs, num_cards)).argsort(axis=1)[:, :k]


def play_differential(game: str, num_envs: int, hands: int, seed: int, obs_encoder: str = "default") -> int:
    """Play ``hands`` hands on ``num_envs`` tables of the batched engine and, table by table, in the AEC env
    dealt the same cards; every decision's seat, mask and observation and every hand's rewards must agree.
    Every other step advances a random subset of tables (``active``). Returns the decisions compared."""
    module, rules, k = GAMES[game]
    rng = np.random.default_rng(seed)
    venv = vector.make(game, num_envs, seed=seed, obs_encoder=obs_encoder)
    decks = first_decks(rng, num_envs, venv.num_cards, k)
    out = venv.reset(options={"decks": decks})
    np.testing.assert_array_equal(venv.cards, decks)
    aecs = [module.raw_env(obs_encoder=obs_encoder) for _ in range(num_envs)]
    for t, env in enumerate(aecs):
        env.reset(options={"deal": venv.cards[t].tolist()})
    lengths = np.zeros(num_envs, dtype=np.int64)
    finished = decisions = step = 0
    while finished < hands:
        for t, env in enumerate(aecs):
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            assert out.current_player[t] == seat, (t, step)
            seen = env.observe(agent)
            np.testing.assert_array_equal(out.action_mask[t], seen["action_mask"], err_msg=f"mask of table {t}")
            np.testing.assert_array_equal(out.observation[t], seen["observation"], err_msg=f"observation of table {t}")
        actions = random_legal_actions(out.action_mask, rng)
        active = rng.random(num_envs) < 0.6 if step % 2 else np.ones(num_envs, dtype=bool)
        before = venv.cards.copy()
        out = venv.step(actions, active=active) if step % 2 else venv.step(actions)
        step += 1
        for t in np.flatnonzero(active):
            env = aecs[t]
            env.step(int(actions[t]))
            lengths[t] += 1
            decisions += 1
            assert lengths[t] <= rules.max_game_length
            ended = all(env.terminations.values())
            assert out.terminated[t] == ended, (t, step)
            expected = [env.rewards[a] if ended else 0.0 for a in env.possible_agents]
            np.testing.assert_array_equal(out.rewards[t], expected, err_msg=f"rewards of table {t}")
            if ended:
                assert out.rewards[t].sum() == 0.0  # zero-sum
                finished += 1
                lengths[t] = 0
                env.reset(options={"deal": venv.cards[t].tolist()})
        idle = ~active
        assert not out.terminated[idle].any() and not out.rewards[idle].any()
        np.testing.assert_array_equal(venv.cards[idle], before[idle])
    return decisions


@pytest.mark.parametrize("game, hands", [("kuhn_poker", 4000), ("leduc_holdem", 4000)])
def test_matches_aec_env(game: str, hands: int) -> None:
    assert play_differential(game, num_envs=97, hands=hands, seed=7) > 2 * hands


def test_leduc_rank_chips_matches_aec_env() -> None:
    assert play_differential("leduc_holdem", num_envs=31, hands=500, seed=3, obs_encoder="rank_chips") > 1000


def test_leduc_hand_worked_by_hand() -> None:
    """Seat 0 Kb, seat 1 Qa, public Ka: raise, call; check, raise, raise, call: seat 0 pairs the king and wins its
    stake: ante 1 + raise 2 + raise 4 + re-raise 4 = 11."""
    venv = vector.make("leduc_holdem", 1)
    out = venv.reset(options={"decks": [[5, 2, 4]]})
    for a, legal in [(2, [1, 2]), (1, [0, 1, 2]), (1, [1, 2]), (2, [1, 2]), (2, [0, 1, 2]), (1, [0, 1])]:
        assert np.flatnonzero(out.action_mask[0]).tolist() == legal
        out = venv.step(np.array([a]))
    assert out.terminated[0] and out.rewards[0].tolist() == [11.0, -11.0]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_arrays(game: str) -> None:
    runs = []
    for _ in range(2):
        venv = vector.make(game, 50, seed=11)
        rng = np.random.default_rng(5)
        outs = [venv.reset()]
        for _ in range(30):
            outs.append(venv.step(random_legal_actions(outs[-1].action_mask, rng)))
        runs.append(outs)
    for a, b in zip(*runs):
        for field in ("observation", "action_mask", "current_player", "rewards", "terminated"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert sum(o.terminated.sum() for o in runs[0]) > 50  # hands did end and were re-dealt
    other = vector.make(game, 50, seed=12).reset()
    assert not np.array_equal(other.observation, runs[0][0].observation)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_reset_seed_restarts_the_stream(game: str) -> None:
    venv = vector.make(game, 20)
    a = venv.reset(seed=3)
    cards = venv.cards.copy()
    venv.step(random_legal_actions(a.action_mask, np.random.default_rng(0)))
    b = venv.reset(seed=3)
    np.testing.assert_array_equal(venv.cards, cards)
    np.testing.assert_array_equal(a.observation, b.observation)


def test_illegal_action_names_table_seat_action_and_legal_ids() -> None:
    venv = vector.make("leduc_holdem", 4, seed=0)
    venv.reset()
    with pytest.raises(ValueError, match=r"actions\[2\] = 0 is illegal for seat 0 at table 2; legal ids: \[1, 2\]"):
        venv.step(np.array([1, 1, 0, 1]))
    with pytest.raises(ValueError, match=r"actions\[3\] = 7 .* legal ids: \[1, 2\]"):
        venv.step(np.array([1, 1, 1, 7]))
    # An illegal action at a table that is not advanced is not read.
    out = venv.step(np.array([1, 0, 1, 1]), active=np.array([True, False, True, True]))
    assert out.current_player.tolist() == [1, 0, 1, 1]


@pytest.mark.parametrize(
    "actions, error, match",
    [
        (np.array([1, 1, 1]), ValueError, r"actions must have shape \(4,\)"),
        (np.ones((4, 1), dtype=np.int64), ValueError, r"actions must have shape"),
        (np.array([1.0, 1.0, 1.0, 1.0]), TypeError, r"actions must be an integer array"),
        (np.ones(4, dtype=bool), TypeError, r"actions must be an integer array"),
    ],
)
def test_wrong_actions_are_refused(actions: np.ndarray, error: type, match: str) -> None:
    venv = vector.make("kuhn_poker", 4, seed=0)
    venv.reset()
    with pytest.raises(error, match=match):
        venv.step(actions)


def test_bad_arguments_are_refused() -> None:
    venv = vector.make("kuhn_poker", 3, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"buttons.*no button"):
        venv.reset(options={"buttons": np.zeros(3, dtype=np.int64)})
    with pytest.raises(ValueError, match=r"unknown.*'decks'"):
        venv.reset(options={"deck": [[0, 1]] * 3})
    with pytest.raises(ValueError, match=r"decks'\]\[1\] = \[2, 2\]"):
        venv.reset(options={"decks": np.array([[0, 1], [2, 2], [1, 0]])})
    with pytest.raises(ValueError, match=r"decks'\] must have shape \(3, 2\)"):
        venv.reset(options={"decks": np.zeros((3, 3), dtype=np.int64)})
    with pytest.raises(TypeError, match=r"decks'\] must be an integer array"):
        venv.reset(options={"decks": np.zeros((3, 2))})
    venv.reset()
    with pytest.raises(ValueError, match=r"active must have shape \(3,\)"):
        venv.step(np.zeros(3, dtype=np.int64), active=np.ones(2, dtype=bool))
    with pytest.raises(TypeError, match=r"active must be a bool array"):
        venv.step(np.zeros(3, dtype=np.int64), active=np.ones(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"obs_encoder 'rank_chips' has no batched form for kuhn_poker"):
        vector.make("kuhn_poker", 2, obs_encoder="rank_chips")
    with pytest.raises(ValueError, match=r"num_envs must be a positive int"):
        vector.make("leduc_holdem", 0)
    with pytest.raises(ValueError, match=r"choose one of .*kuhn_poker.*leduc_holdem"):
        vector.make("leduc_poker", 2)


@pytest.mark.parametrize(
    "game, config",
    [("kuhn_poker", {}), ("leduc_holdem", {}), ("nolimit_holdem", {"num_players": 3}), ("limit_holdem", {"num_players": 2}),
     ("nolimit_holdem", {"num_players": 2, "bet_sizing": "chips", "starting_stack": 20}),
     ("limit_holdem", {"num_players": 6, "obs_encoder": "flat107"}),
     ("nolimit_holdem", {"num_players": 4, "starting_stack": [3, 40, 2, 60], "obs_encoder": "flat56"}),
     ("nolimit_holdem", {"num_players": 3, "obs_encoder": "poker_cnn"}), ("shortdeck_holdem", {"num_players": 2}),
     ("push_fold", {"num_players": 5, "stacks_bb": [2.0, 10.0, 5.0, 20.0, 8.0], "ante_bb": 0.1, "rake": 0.05})],
)
def test_active_steps_only_the_active_tables(game: str, config: dict) -> None:
    """``step(actions, active)``: idle tables keep their outputs; active ones move as in a full step of a copy
    of the engine (compared where no hand ended: new deals draw from the stream in another order)."""
    rng = np.random.default_rng(0)
    venv = vector.make(game, 64, seed=1, **config)
    out = venv.reset()
    compared = 0
    for _ in range(60):
        actions = random_legal_actions(out.action_mask, rng)
        active = rng.random(64) < 0.5
        full = copy.deepcopy(venv).step(actions)
        before, out = out, venv.step(actions, active=active)
        idle = ~active
        for field in ("observation", "action_mask", "current_player"):
            np.testing.assert_array_equal(getattr(out, field)[idle], getattr(before, field)[idle])
        assert not out.terminated[idle].any() and not out.rewards[idle].any()
        np.testing.assert_array_equal(out.rewards[active], full.rewards[active])
        np.testing.assert_array_equal(out.terminated[active], full.terminated[active])
        going = active & ~full.terminated
        for field in ("observation", "action_mask", "current_player"):
            np.testing.assert_array_equal(getattr(out, field)[going], getattr(full, field)[going])
        compared += int(going.sum())
    assert compared > 500


def test_distinct_cards_rows_are_distinct_and_uniform() -> None:
    """The partial Fisher-Yates dealing (push/fold multi-way deals): no card twice in a row, every card
    equally likely at every position (chi-square over 52 cells per position, far from its 1e-6 tail)."""
    from poker_envs.vector.sampling import distinct_cards

    cards = distinct_cards(np.random.default_rng(5), 52_000, 9)
    assert cards.shape == (52_000, 9) and cards.min() >= 0 and cards.max() <= 51
    srt = np.sort(cards, axis=1)
    assert (srt[:, 1:] != srt[:, :-1]).all()
    for pos in range(9):
        counts = np.bincount(cards[:, pos], minlength=52)
        chi2 = ((counts - 1000.0) ** 2 / 1000.0).sum()
        assert chi2 < 115, (pos, chi2)  # 51 degrees of freedom: P(chi2 > 115) ~ 1e-6
    np.testing.assert_array_equal(cards, distinct_cards(np.random.default_rng(5), 52_000, 9))
