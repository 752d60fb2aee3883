"""Properties of the hold'em encoders over random hands: bounds, batched = one by one, privacy."""

from __future__ import annotations

import numpy as np
import pytest

from poker_envs.encoders.catalog import HOLDEM_ENCODERS
from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.games.base import CHANCE, play_chance
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame

GAMES = [
    HoldemGame(HoldemConfig(num_players=2, bet_sizing="chips", starting_stacks=(60, 45))),
    HoldemGame(HoldemConfig(num_players=6, bet_sizing="abstract", ante=1, starting_stacks=(200, 30, 90, 200, 7, 150))),
    HoldemGame(HoldemConfig(num_players=3, small_blind=2, big_blind=5, bet_sizing=(0.33, 1.5))),
    HoldemGame(HoldemConfig(num_players=4, betting="limit")),
    PushFoldGame(PushFoldConfig(num_players=3, stacks_bb=(4.3, 12.0, 7.75), ante_bb=0.125)),
]


def random_decisions(game, hands: int, seed: int):
    """Yield (state, player to act) at every decision of random hands, and terminal states with -1."""
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        kw = {"button": hand % game.num_players} if isinstance(game, HoldemGame) else {}
        state = game.new_initial_state(**kw)
        play_chance(state, rng)
        while not state.is_terminal():
            yield state, state.current_player()
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
            if state.current_player() == CHANCE:
                play_chance(state, rng)
        yield state, -1


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name + str(g.num_players))
def test_observations_lie_in_the_declared_space(game):
    encoders = [cls(game) for cls in HOLDEM_ENCODERS.values()] + [PokerCNNEncoder(game, dtype=np.uint8)]
    seen = 0
    for state, _ in random_decisions(game, 40, seed=1):
        for enc in encoders:
            for seat in range(game.num_players):
                obs = enc.encode(state, seat)
                assert enc.observation_space.contains(obs), (enc.name, seat, state)
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name + str(g.num_players))
def test_batched_poker_cnn_equals_one_by_one(game):
    enc = PokerCNNEncoder(game)
    states, players, actions = [], [], []
    rng = np.random.default_rng(2)
    for state, player in random_decisions(game, 15, seed=2):
        if player < 0:
            continue
        legal = state.legal_actions()
        xs = enc.encode_actions(state, player, legal)
        base = enc.encode(state, player)
        assert xs.shape == (len(legal), 33, 17, 17)
        np.testing.assert_array_equal(xs[:, :31], np.broadcast_to(base[:31], (len(legal), 31, 17, 17)))
        assert not base[31:].any()
        pick = int(rng.integers(len(legal)))
        np.testing.assert_array_equal(xs[pick], enc.encode_with_action(state, player, legal[pick]))
        # One kind per id: the type plane says fold/check/call/bet/raise as action_to_chips does,
        # and encode_kinds (actions given in chips, for hand histories) gives the same tensors.
        if isinstance(game, HoldemGame):
            kinds, added = [], []
            for k, a in enumerate(legal):
                kind, to = state.action_to_chips(a)
                assert xs[k, 31].sum() == kind + 1
                kinds.append(kind)
                added.append(to - state.bets[player] if kind >= 3 else state.to_call(player) if kind == 2 else 0)
            np.testing.assert_array_equal(enc.encode_kinds(state, player, kinds, added), xs)
        states.append(state.clone())
        players.append(player)
        actions.append(legal[pick])
    batch = enc.encode_batch(states, players)
    np.testing.assert_array_equal(batch, np.stack([enc.encode(s, p) for s, p in zip(states, players)]))
    batch = enc.encode_batch(states, players, actions)
    one = np.stack([enc.encode_with_action(s, p, a) for s, p, a in zip(states, players, actions)])
    np.testing.assert_array_equal(batch, one)


def test_encoders_read_only_what_the_player_sees():
    """Replaying the same actions with other opponents' hole cards leaves a player's view unchanged."""
    game = HoldemGame(HoldemConfig(num_players=3, bet_sizing="abstract"))
    board = [8, 17, 26, 35, 44]
    mine = [0, 51]
    rng = np.random.default_rng(3)
    for trial in range(20):
        others = [int(c) for c in rng.permutation([c for c in range(52) if c not in mine + board])[:4]]
        alt = [int(c) for c in rng.permutation([c for c in range(52) if c not in mine + board + others])[:4]]
        a = game.new_initial_state(button=trial % 3, hole=[mine, others[:2], others[2:]], board=board)
        b = game.new_initial_state(button=trial % 3, hole=[mine, alt[:2], alt[2:]], board=board)
        play_chance(a, rng)
        play_chance(b, rng)
        while not a.is_terminal():
            for cls in HOLDEM_ENCODERS.values():
                enc = cls(game)
                np.testing.assert_array_equal(enc.encode(a, 0), enc.encode(b, 0))
            legal = a.legal_actions()
            act = int(legal[rng.integers(len(legal))])
            a.apply(act)
            b.apply(act)
            play_chance(a, rng)
            play_chance(b, rng)
