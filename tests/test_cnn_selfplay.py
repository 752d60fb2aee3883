"""CNN self-play through the table runner: the hands it stores are the hands played, every decision of every
seat is stored, results are zero-sum and independent of the tables, and deterministic players play as a plain
one-hand-at-a-time loop on the rules engine does."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agent_zoo.cnn.heuristic import HeuristicAgent
from agent_zoo.cnn.network import PokerCNN
from agent_zoo.cnn.selfplay import (ExploringAgent, PlayConfig, Player, cnn_scores, draw_deals, make_game, play_hands,
                                    seat_agent, table_env)
from agent_zoo.cnn.storage import HandStore, deal_cards, new_hand
from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.games.base import TERMINAL
from poker_envs.games.holdem import FOLD, HoldemConfig, HoldemGame

torch.set_num_threads(1)


def _net(seed: int) -> PokerCNN:
    torch.manual_seed(seed)
    return PokerCNN().eval()


def replay_chips(game: HoldemGame, store: HandStore, h: int) -> tuple[list[int], list[int]]:
    """Hand ``h`` replayed on the rules from its deck, button and stored actions: (chips per seat, the amount
    each stored action's seat had to call). Raises if a stored action is not the seat to act's or is illegal."""
    s = new_hand(game, store.deck[h], int(store.button[h]))
    owed = []
    for a in range(int(store.start[h]), int(store.start[h + 1])):
        seat = int(store.seat[a])
        assert s.current_player() == seat
        owed.append(s.to_call(seat))
        s.apply_raw(int(store.kind[a]), int(store.raise_to[a]))
        deal_cards(s)
    assert s.current_player() == TERMINAL  # no decision left out
    return s.chip_returns(), owed


@pytest.mark.parametrize("fold_when_check", [False, True])
def test_stored_hands_replay_to_the_results_and_hold_every_decision(fold_when_check: bool) -> None:
    game = make_game(fold_when_check=fold_when_check)
    n = 120
    decks, buttons = draw_deals(n, np.random.default_rng(3))
    players = (Player("heu", "heuristic", sizing="uniform"), Player("rnd", "random", random_reading="kinds"))
    log = play_hands(game, players, decks, buttons, np.random.default_rng(4), PlayConfig(tables=16, record=(7, 9), stats=True))
    store = log.recorder.store()
    assert store.num_hands == n
    np.testing.assert_array_equal(store.deck, decks)  # hand order, whatever order the tables finished in
    np.testing.assert_array_equal(store.button, buttons)
    assert (store.seat_players == (7, 9)).all()
    np.testing.assert_array_equal(log.chips.sum(axis=1), 0)  # no rake: zero-sum
    free_folds = 0
    for h in range(n):
        chips, owed = replay_chips(game, store, h)
        assert chips == log.chips[h].tolist()
        acts = slice(int(store.start[h]), int(store.start[h + 1]))
        assert len(set(store.seat[acts].tolist())) == 2 or store.kind[store.start[h]] == FOLD  # both seats act
        np.testing.assert_allclose(store.target[acts], log.chips[h][store.seat[acts]] / 100, rtol=1e-6)
        free_folds += sum(k == FOLD and o == 0 for k, o in zip(store.kind[acts].tolist(), owed))
    # the statistics count the same decisions the store holds, per player
    for seat, name in enumerate(("heu", "rnd")):
        assert log.kinds[name].sum() == int((store.seat == seat).sum())
    # folding where checking is free happens exactly when the table's rules allow it
    assert (free_folds > 0) == fold_when_check


def test_hands_do_not_depend_on_the_number_of_tables() -> None:
    game = make_game()
    decks, buttons = draw_deals(40, np.random.default_rng(5))
    players = (Player("c", "cnn", _net(1), "subset", explore=0.3), Player("r", "random"))
    one = play_hands(game, players, decks, buttons, np.random.default_rng(6), PlayConfig(tables=1, record=(0, 1)))
    many = play_hands(game, players, decks, buttons, np.random.default_rng(6), PlayConfig(tables=13, record=(0, 1)))
    np.testing.assert_array_equal(one.chips, many.chips)
    a, b = one.recorder.store(), many.recorder.store()
    for f in ("start", "seat", "kind", "raise_to", "target"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    # the seat streams come from the rng: another one plays the same deals otherwise
    other = play_hands(game, players, decks, buttons, np.random.default_rng(7), PlayConfig(tables=13))
    assert not np.array_equal(other.chips, one.chips)


def reference_chips(game: HoldemGame, players: tuple[Player, Player], decks: np.ndarray, buttons: np.ndarray) -> np.ndarray:
    """Greedy CNN players, one hand at a time on the rules engine (``cnn_scores`` on each state): no runner."""
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    out = np.zeros((len(decks), 2), dtype=np.int64)
    for h in range(len(decks)):
        s = new_hand(game, decks[h], int(buttons[h]))
        while s.current_player() != TERMINAL:
            actions, values = cnn_scores(s, players[s.current_player()], enc)
            s.apply(actions[int(np.argmax(values))])
            deal_cards(s)
        out[h] = s.chip_returns()
    return out


@pytest.mark.parametrize("candidates", ["full", "subset"])
def test_deterministic_players_play_as_a_plain_loop_on_the_rules(candidates: str) -> None:
    game = make_game()
    decks, buttons = draw_deals(24, np.random.default_rng(8))
    players = (Player("a", "cnn", _net(2), candidates), Player("b", "cnn", _net(3), candidates, exact_fold=True))
    log = play_hands(game, players, decks, buttons, np.random.default_rng(0), PlayConfig(tables=5))
    np.testing.assert_array_equal(log.chips, reference_chips(game, players, decks, buttons))


def test_exploring_agent_hands_its_share_to_the_other_agent() -> None:
    game = make_game()
    env = table_env(game)
    env.reset(options={"button": 0})
    obs = {k: np.repeat(v[None], 200, axis=0) for k, v in env.observe(env.agent_selection).items()}
    cnn = seat_agent(Player("c", "cnn", _net(4), "subset"), env)
    heuristic = HeuristicAgent(chips_sizing=True, sizing="pot")
    greedy = cnn.act_batch(obs, [np.random.default_rng(0)] * 200)
    assert (ExploringAgent(cnn, heuristic, 0.0).act_batch(obs, [np.random.default_rng(i) for i in range(200)]) == greedy).all()
    # explore=1: every decision is the heuristic's, drawn after the one uniform the share takes
    gens = [np.random.default_rng(i) for i in range(200)]
    expected = []
    for i in range(200):
        g = np.random.default_rng(i)
        g.random()
        expected.append(heuristic.act({k: v[i] for k, v in obs.items()}, g))
    np.testing.assert_array_equal(ExploringAgent(cnn, heuristic, 1.0).act_batch(obs, gens), expected)
    # batched rows equal act row by row
    mixed = ExploringAgent(cnn, heuristic, 0.5)
    rows = mixed.act_batch(obs, [np.random.default_rng(i) for i in range(200)])
    single = [mixed.act({k: v[i] for k, v in obs.items()}, np.random.default_rng(i)) for i in range(200)]
    np.testing.assert_array_equal(rows, single)
    assert 0 < (rows != greedy).sum() < 200


def test_bad_play_settings_are_named() -> None:
    with pytest.raises(ValueError, match="tables"):
        PlayConfig(tables=0)
    with pytest.raises(ValueError, match="equity_samples.*record"):
        PlayConfig(equity_samples=8)
    with pytest.raises(ValueError, match="blind_opponents.*equity_samples"):
        PlayConfig(record=(0, 0), blind_opponents=True)
    with pytest.raises(ValueError, match="allin_ev"):
        PlayConfig(allin_ev=0)
    with pytest.raises(ValueError, match="explore"):
        Player("c", "cnn", _net(0), explore=1.5)
    limit = HoldemGame(HoldemConfig(num_players=2, betting="limit", starting_stacks=(100, 100)))
    with pytest.raises(ValueError, match="heads-up no-limit"):
        table_env(limit)
    decks, buttons = draw_deals(3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="decks and buttons"):
        play_hands(make_game(), (Player("r", "random"),) * 2, decks, buttons[:2], np.random.default_rng(0))
