"""CNN value players: network, heuristic, compact storage, training with resume, the agent."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

import agent_zoo.cnn.train as train_mod
from agent_zoo.cnn.agent import CNNAgent
from agent_zoo.cnn.config import PRESETS, CNNConfig
from agent_zoo.cnn.equity import allin_chips
from agent_zoo.cnn.heuristic import RAISE_FRACTIONS, HeuristicAgent, heuristic_action, pot_raise_to
from agent_zoo.cnn.network import PokerCNN, score, score_candidates
from agent_zoo.agent import stack
from agent_zoo.cnn.candidates import distinct_candidates, expand_scores, fold_value
from agent_zoo.cnn.selfplay import PlayConfig, Player, cnn_scores, draw_deals, make_game, play_hands
from agent_zoo.cnn.storage import HandRecorder, HandStore, deal_cards, encode_samples
from agent_zoo.cnn.train import Trainer, load_generation, pairings, permute_suits
from agent_zoo.observe import public_of_state, public_state
from poker_envs import nolimit_holdem_v0
from poker_envs.encoders.poker_cnn import PokerCNNEncoder, add_candidates, candidate_planes
from poker_envs.games.base import TERMINAL

torch.set_num_threads(1)


def _net(seed: int = 0) -> PokerCNN:
    torch.manual_seed(seed)
    return PokerCNN().eval()


# ---- network ------------------------------------------------------------------------------------
def test_network_layers_shapes_and_output_range() -> None:
    net = _net()
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    assert [(c.in_channels, c.out_channels, c.kernel_size) for c in convs] == [
        (33, 32, (5, 5)), (32, 32, (5, 5)), (32, 64, (5, 5)), (64, 64, (5, 5))]
    fcs = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    assert [(f.in_features, f.out_features) for f in fcs] == [(1024, 1024), (1024, 1)]
    assert [m.p for m in net.modules() if isinstance(m, torch.nn.Dropout)] == [0.5]
    x = torch.rand(7, 33, 17, 17) * 50  # far outside the 0/1 inputs: the output must still be in [-1, 1]
    y = net(x)
    assert y.shape == (7,)
    assert torch.all(y.abs() <= 1)
    with pytest.raises(ValueError, match="shape"):
        net(torch.zeros(2, 31, 17, 17))


def test_adadelta_fits_a_constant() -> None:
    cfg = CNNConfig()
    net = _net()
    opt = train_mod.make_optimizer(net, cfg)
    assert opt.defaults["lr"] == 1.0 and opt.defaults["rho"] == 0.95 and opt.defaults["eps"] == 1e-8
    x = (torch.rand(8, 33, 17, 17) > 0.8).float()
    y = torch.full((8,), 0.3)
    net.train()
    first = None
    for _ in range(12):
        opt.zero_grad()
        loss = torch.mean((net(x) - y) ** 2)
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    assert loss.item() < 0.5 * first


# ---- heuristic ----------------------------------------------------------------------------------
def test_heuristic_shares_where_all_three_are_legal() -> None:
    game = make_game()
    state = game.new_initial_state(button=0, deck=list(range(9)))
    deal_cards(state)  # the small blind (button) acts first: fold, call and raises are legal
    rng = np.random.default_rng(7)
    n = 20_000
    actions = np.array([heuristic_action(public_of_state(state), rng) for _ in range(n)])
    fold, call, raises = np.mean(actions == 0), np.mean(actions == 1), np.mean(actions >= 2)
    # 4 standard deviations of a binomial share
    assert abs(fold - 0.10) < 4 * np.sqrt(0.1 * 0.9 / n)
    assert abs(call - 0.45) < 4 * np.sqrt(0.45 * 0.55 / n)
    assert abs(raises - 0.45) < 4 * np.sqrt(0.45 * 0.55 / n)
    # raise sizes: the pot fractions only, about equally often
    expected = {pot_raise_to(public_of_state(state), f) + 1 for f in RAISE_FRACTIONS}
    assert set(actions[actions >= 2].tolist()) == expected
    # the cards do not matter: another deal, same generator seed, same choices
    other = game.new_initial_state(button=0, deck=list(range(40, 49)))
    deal_cards(other)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    assert [heuristic_action(public_of_state(state), rng_a) for _ in range(200)] == [
        heuristic_action(public_of_state(other), rng_b) for _ in range(200)]


def test_heuristic_never_folds_when_checking_is_free() -> None:
    game = make_game()
    state = game.new_initial_state(button=0, deck=list(range(9)))
    deal_cards(state)
    state.apply(1)  # small blind calls: the big blind may check
    rng = np.random.default_rng(1)
    actions = np.array([heuristic_action(public_of_state(state), rng) for _ in range(4_000)])
    assert not np.any(actions == 0)
    assert abs(np.mean(actions == 1) - 0.55) < 4 * np.sqrt(0.55 * 0.45 / 4_000)


def test_heuristic_agent_through_the_env() -> None:
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    agent = HeuristicAgent(chips_sizing=True)
    rng = np.random.default_rng(0)
    for h in range(20):
        env.reset(seed=h)
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            a = agent.act(obs, rng)
            assert obs["action_mask"][a] == 1
            env.step(a)


# ---- storage ------------------------------------------------------------------------------------
def test_stored_hands_reencode_to_the_live_tensors() -> None:
    game = make_game()
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    rng = np.random.default_rng(5)
    decks, buttons = draw_deals(30, rng)
    rec, live, returns = HandRecorder(), [], []
    for deck, button in zip(decks, buttons):
        s = game.new_initial_state(button=int(button), deck=deck.tolist())
        deal_cards(s)
        acts = []
        while s.current_player() != TERMINAL:
            seat = s.current_player()
            a = heuristic_action(public_of_state(s), rng) if rng.random() < 0.5 else int(rng.choice(s.legal_actions()))
            live.append(enc.encode_actions(s, seat, [a])[0])
            kind, to = s.action_to_chips(a)
            acts.append((seat, kind, to))
            s.apply(a)
            deal_cards(s)
        returns.append(s.chip_returns())
        rec.add_hand(deck, int(button), (0, 0), acts, s.chip_returns(), 100)
    store = rec.store()
    assert store.num_actions == len(live) and store.num_hands == 30
    order = np.random.default_rng(0).permutation(store.num_actions)  # any order, hands interleaved
    np.testing.assert_array_equal(encode_samples(store, game, enc, order), np.stack(live)[order])
    # targets: the actor's chips won in the hand / 100, zero-sum per hand
    expected = np.concatenate([[returns[h][s] / 100 for s in store.seat[store.start[h]:store.start[h + 1]]]
                               for h in range(30)])
    np.testing.assert_allclose(store.target, expected, rtol=1e-6)
    assert np.all(np.abs(store.target) <= 1)


def test_store_save_load_concat_head(tmp_path) -> None:
    game = make_game()
    rng = np.random.default_rng(2)
    decks, buttons = draw_deals(12, rng)
    h = Player("heuristic", "heuristic")
    store = play_hands(game, (h, h), decks, buttons, rng, PlayConfig(record=(0, 0))).recorder.store()
    store.save(tmp_path / "a.npz")
    back = HandStore.load(tmp_path / "a.npz")
    for f in ("deck", "button", "start", "seat", "kind", "raise_to", "target"):
        np.testing.assert_array_equal(getattr(back, f), getattr(store, f))
    both = HandStore.concat([store.head(5), HandStore.load(tmp_path / "a.npz")])
    assert both.num_hands == 17
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    k = int(store.start[5])
    np.testing.assert_array_equal(encode_samples(both, game, enc, np.arange(k, k + 4)),
                                  encode_samples(store, game, enc, np.arange(4)))


def test_suit_permutation_moves_only_card_planes() -> None:
    game = make_game()
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    s = game.new_initial_state(button=0, deck=[0, 5, 10, 15, 20, 25, 30, 35, 40])
    deal_cards(s)
    x = enc.encode_actions(s, 0, [1, 5])
    y = permute_suits(x, np.random.default_rng(0))
    np.testing.assert_array_equal(y[:, 6:], x[:, 6:])
    assert np.array_equal(y[:, :6].sum(axis=(2, 3)), x[:, :6].sum(axis=(2, 3)))  # same number of cards
    np.testing.assert_array_equal(y[:, :6].sum(axis=3), x[:, :6].sum(axis=3))  # ranks kept


# ---- training -----------------------------------------------------------------------------------
def test_pairings_cover_every_pair_once() -> None:
    assert pairings(1) == [(0, 0), (0, 1), (1, 1)]
    assert len(pairings(3)) == 10 and len(set(pairings(3))) == 10


def assert_resumes_bit_for_bit(cfg: CNNConfig, tmp_path, monkeypatch) -> None:
    """Train ``cfg`` (two generations) in ``tmp_path / "full"``; train it again in ``tmp_path / "cut"``,
    interrupted inside generation 2's training after a partial checkpoint, then run again: the same weights."""
    Trainer(cfg, tmp_path / "full", show_progress=False).run()
    full = [load_generation(tmp_path / "full" / f"gen_{g}.pt")[0] for g in (1, 2)]
    assert all(p.isfinite().all() for net in full for p in net.parameters())
    monkeypatch.setattr(train_mod, "CHECKPOINT_BATCHES", 2)
    calls = {"n": 0}
    real = train_mod.encode_samples

    def flaky(*args, **kwargs):
        if (tmp_path / "cut" / "gen_1.pt").exists():
            calls["n"] += 1
            if calls["n"] == 4:
                raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train_mod, "encode_samples", flaky)
    with pytest.raises(KeyboardInterrupt):
        Trainer(cfg, tmp_path / "cut", show_progress=False).run()
    assert (tmp_path / "cut" / "gen_2.partial.pt").exists() and not (tmp_path / "cut" / "gen_2.pt").exists()
    monkeypatch.setattr(train_mod, "encode_samples", real)
    Trainer(cfg, tmp_path / "cut", show_progress=False).run()
    for g, net in zip((1, 2), full):
        resumed = load_generation(tmp_path / "cut" / f"gen_{g}.pt")[0]
        for a, b in zip(net.parameters(), resumed.parameters()):
            torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_tiny_preset_trains_and_resumes_bit_for_bit(tmp_path, monkeypatch) -> None:
    cfg = replace(PRESETS["tiny"], batch_size=8)
    assert_resumes_bit_for_bit(cfg, tmp_path, monkeypatch)
    with pytest.raises(ValueError, match="another config"):
        Trainer(replace(cfg, seed=1), tmp_path / "cut", show_progress=False)

    # the registry names: cnn:PATH and heuristic
    from agent_zoo.registry import make_agent

    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    agent = make_agent(f"cnn:{tmp_path / 'cut' / 'gen_2.pt'}", env)
    assert isinstance(agent, CNNAgent)
    assert isinstance(make_agent("heuristic", env), HeuristicAgent)
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["action_mask"][agent.act(env.observe(env.agent_selection), np.random.default_rng(0))]


def test_split_first_convolution_scores_like_assembled_tensors() -> None:
    """score_candidates (state planes and candidate planes never assembled) == score of the assembled
    tensors, for arbitrary pairings (repeats, any order) and both input dtypes; training mode survives."""
    rng = np.random.default_rng(0)
    net = _net(4)
    for dtype in (np.uint8, np.float32):
        states = (rng.random((5, 33, 17, 17)) < 0.3).astype(dtype)
        cands = (rng.random((4, 2, 17, 17)) < 0.3).astype(dtype)
        rows, cidx = rng.integers(0, 5, 700), rng.integers(0, 4, 700)  # more than one chunk of 512
        x = states[rows].copy()
        x[:, 31:] = cands[cidx]
        np.testing.assert_allclose(score_candidates(net, states, cands, rows, cidx), score(net, x), atol=1e-5)
    net.train()
    assert score_candidates(net, states, cands, rows[:3], cidx[:3]).shape == (3,) and net.training
    with pytest.raises(ValueError, match="rows must index"):
        score_candidates(net, states, cands, np.array([5]), np.array([0]))
    with pytest.raises(ValueError, match="candidates"):
        score_candidates(net, states, states, rows, cidx)


def test_candidate_planes_are_planes_31_32_of_add_candidates() -> None:
    obs = np.zeros((33, 17, 17), dtype=np.uint8)
    kinds, amounts = np.array([0, 2, 4, 4]), np.array([0.0, 3.0, 51.0, 80.0])
    np.testing.assert_array_equal(candidate_planes(kinds, amounts, np.uint8), add_candidates(obs, kinds, amounts)[:, 31:])
    assert candidate_planes([4], [80.0], np.uint8)[0, 1].sum() == 52  # the fill code saturates at 52 cells


def test_selfplay_scores_equal_the_assembled_tensors() -> None:
    game = make_game()
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    net = _net(2)
    s = game.new_initial_state(button=1, deck=list(range(9)))
    deal_cards(s)
    s.apply(7)  # a raise to 6 chips: the big blind faces fold, call and 47 raise amounts
    for cand in ("full", "subset"):
        actions, values = cnn_scores(s, Player("c", "cnn", net, cand), enc)
        public = public_of_state(s)
        kinds, added, first = distinct_candidates(public, actions)
        ref = expand_scores(actions, score(net, enc.encode_kinds(s, s.current_player(), kinds, added)), first)
        np.testing.assert_allclose(values, ref, atol=1e-5)


# ---- the agent ----------------------------------------------------------------------------------
def test_agent_plays_legal_argmax_and_dedup_is_exact() -> None:
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    net = _net(3)
    agent = CNNAgent(net, env)
    enc = PokerCNNEncoder(env.game, dtype=np.float32)
    rng = np.random.default_rng(0)
    decisions = 0
    for h in range(4):
        env.reset(seed=h)
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            state = env.state
            seat = state.current_player()
            if seat == 0:
                actions, values = agent.scores(obs)
                legal = np.flatnonzero(obs["action_mask"]).tolist()
                assert actions == legal  # the full candidate set
                direct = score(net, enc.encode_actions(state, seat, legal))  # every action, no dedup
                np.testing.assert_allclose(values, direct, atol=1e-5)
                a = agent.act(obs, rng)
                assert obs["action_mask"][a] == 1 and a == legal[int(np.argmax(values))]
                decisions += 1
            else:
                a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
    assert decisions >= 4


def test_agent_batch_equals_rows_scored_one_by_one() -> None:
    """score_batch over mixed rows (several tables, each seen with several holdings) equals the old path
    per row: every distinct candidate tensor assembled and scored (exact_fold on and off)."""
    env = nolimit_holdem_v0.raw_env(starting_stack=100, bet_sizing="chips", obs_encoder="poker_cnn")
    enc = PokerCNNEncoder(env.game, dtype=np.uint8)
    net = _net(5)
    rng = np.random.default_rng(1)
    observations = []
    for h in range(3):
        env.reset(seed=h)
        for _ in range(h + 1):
            if all(env.terminations.values()):
                break
            state = env.state
            seat = state.current_player()
            obs = env.observe(env.agent_selection)
            for hole in ([0, 1], [12, 51], list(state.hole[seat])):  # the same table with other holdings
                other = state.clone()
                other.hole[seat] = hole
                observations.append({**obs, "observation": enc.encode(other, seat)})
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for exact_fold in (False, True):
        agent = CNNAgent(net, env, exact_fold=exact_fold)
        batch = agent.score_batch(stack(observations))
        for obs, (actions, values) in zip(observations, batch):
            public = public_state(obs)
            assert actions == np.flatnonzero(obs["action_mask"]).tolist()
            kinds, added, first = distinct_candidates(public, actions)
            ref = expand_scores(actions, score(net, add_candidates(obs["observation"], kinds, added / public.small_blind)), first)
            if exact_fold:
                fold_value(public, actions, ref)
            np.testing.assert_allclose(values, ref, atol=1e-5)
        assert agent.act_batch(stack(observations), rng).tolist() == [a[int(np.argmax(v))] for a, v in batch]


def test_agent_refuses_other_bet_sizings() -> None:
    with pytest.raises(ValueError, match="bet_sizing='chips'"):
        CNNAgent(_net(), nolimit_holdem_v0.raw_env(obs_encoder="poker_cnn"))


def test_subset_candidates_are_legal_and_small() -> None:
    game = make_game()
    s = game.new_initial_state(button=1, deck=list(range(9)))
    deal_cards(s)
    p = Player("c", "cnn", _net(), "subset")
    actions, values = cnn_scores(s, p, PokerCNNEncoder(game, dtype=np.uint8))
    legal = s.legal_actions()
    assert set(actions) <= set(legal) and {0, 1, legal[-1]} <= set(actions) and len(actions) <= 7
    assert len(values) == len(actions)


# ---- all-in equity targets ------------------------------------------------------------------------
def test_runout_equity_enumerates_like_the_scalar_evaluator() -> None:
    from itertools import combinations

    from agent_zoo.cnn.equity import runout_equity
    from poker_envs.core.evaluator import evaluate

    rng = np.random.default_rng(0)
    for _ in range(3):
        cards = rng.permutation(52)[:7].tolist()
        h0, h1 = cards[:2], cards[2:4]
        for board in (cards[4:7], cards[4:6] + [c for c in range(52) if c not in cards][:1]):
            left = [c for c in range(52) if c not in h0 + h1 + board]
            wins = ties = n = 0
            for rest in combinations(left, 5 - len(board)):
                a, b = evaluate(h0 + board + list(rest)), evaluate(h1 + board + list(rest))
                wins += a > b
                ties += a == b
                n += 1
            assert runout_equity(h0, h1, board, rng) == pytest.approx((wins + ties / 2) / n, abs=1e-12)
    aces, kings = [51, 50], [47, 46]  # As Ah v Ks Kh: about 0.82 for the aces
    assert 0.78 < runout_equity(aces, kings, [], rng, samples=2_000) < 0.86


def test_equity_targets_keep_folds_and_river_showdowns() -> None:
    game = make_game()
    rng = np.random.default_rng(4)
    decks, buttons = draw_deals(150, rng)
    h = Player("heuristic", "heuristic")
    a = play_hands(game, (h, h), decks, buttons, np.random.default_rng(9), PlayConfig(record=(0, 0))).recorder.store()
    b = play_hands(game, (h, h), decks, buttons, np.random.default_rng(9),
                   PlayConfig(record=(0, 0), equity_samples=64)).recorder.store()
    np.testing.assert_array_equal(a.kind, b.kind)  # the same play
    changed = np.flatnonzero(np.abs(a.target - b.target) > 1e-9)
    assert 0 < len(changed) < len(a.target)
    hands = a.hand_of()
    for hnd in np.unique(hands[changed]):  # only hands that ended at showdown with cards to come
        last = a.start[hnd + 1] - 1
        assert a.kind[last] != 0
    assert np.all(np.abs(b.target) <= 1)


def test_exact_fold_scores_the_chips_already_in() -> None:
    game = make_game()
    s = game.new_initial_state(button=0, deck=list(range(9)))
    deal_cards(s)
    s.apply(7)  # small blind raises to 6 chips: the big blind (2 chips in) may fold
    enc = PokerCNNEncoder(game, dtype=np.uint8)
    net = _net(1)
    plain = cnn_scores(s, Player("c", "cnn", net), enc)
    exact = cnn_scores(s, Player("c", "cnn", net, exact_fold=True), enc)
    assert plain[0] == exact[0] and plain[0][0] == 0
    assert exact[1][0] == pytest.approx(-2 / 100)
    np.testing.assert_array_equal(plain[1][1:], exact[1][1:])


def test_blind_equity_matches_known_preflop_values_and_spares_cnn_opponents() -> None:
    from agent_zoo.cnn.equity import blind_equity

    rng = np.random.default_rng(0)
    # published all-in equities against a random hand: AA 85.2%, 72o 34.6% (4,000 samples: +-0.025)
    assert blind_equity([51, 50], [], rng, 4_000) == pytest.approx(0.852, abs=0.025)
    assert blind_equity([20, 3], [], rng, 4_000) == pytest.approx(0.346, abs=0.025)
    game = make_game()
    decks, buttons = draw_deals(60, np.random.default_rng(3))
    h, c = Player("heuristic", "heuristic"), Player("c", "cnn", _net(2), "subset")
    base = play_hands(game, (h, c), decks, buttons, np.random.default_rng(1),
                      PlayConfig(record=(0, 1), equity_samples=32)).recorder.store()
    blind = play_hands(game, (h, c), decks, buttons, np.random.default_rng(1),
                       PlayConfig(record=(0, 1), equity_samples=32, blind_opponents=True)).recorder.store()
    np.testing.assert_array_equal(base.kind, blind.kind)
    heuristic_rows = base.seat == 0  # the heuristic's opponent is a CNN: its targets are untouched
    np.testing.assert_array_equal(base.target[heuristic_rows], blind.target[heuristic_rows])
    assert np.any(base.target[~heuristic_rows] != blind.target[~heuristic_rows])


def test_cli_train_and_evaluate(tmp_path, capsys) -> None:
    from agent_zoo.cnn.__main__ import main

    run = tmp_path / "run"
    assert main(["train", "--preset", "tiny", "--out", str(run), "--generations", "1"]) == 0
    assert (run / "gen_1.pt").exists() and not (run / "gen_2.pt").exists()
    assert main(["evaluate", "--dir", str(run), "--hands", "4", "--candidates", "subset"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "cnn1" in out and "4 hands per pair" in out
    for name in ("results.json", "table.md", "action_shares.png", "bet_size_shares.png"):
        assert (run / "eval" / name).exists()
    with pytest.raises(SystemExit):
        main(["evaluate", "--dir", str(run), "--hands", "3"])
    # other baseline readings than the run's own: recorded in results.json, and they change the players
    import json

    own = json.loads((run / "eval" / "results.json").read_text())
    assert (own["heuristic_sizing"], own["random_player"]) == (PRESETS["tiny"].heuristic_sizing, PRESETS["tiny"].random_player)
    other = {"heuristic_sizing": "min", "random_player": "kinds"}
    assert (PRESETS["tiny"].heuristic_sizing, PRESETS["tiny"].random_player) != tuple(other.values())
    assert main(["evaluate", "--dir", str(run), "--hands", "4", "--candidates", "subset", "--heuristic-sizing", "min",
                 "--random-player", "kinds", "--out", str(run / "cal")]) == 0
    cal = json.loads((run / "cal" / "results.json").read_text())
    assert (cal["heuristic_sizing"], cal["random_player"]) == ("min", "kinds")
    assert cal["kinds"]["random"] != own["kinds"]["random"]
    with pytest.raises(SystemExit):
        main(["evaluate", "--dir", str(run), "--hands", "4", "--random-player", "uniform"])


def test_cli_train_seed_reaches_the_run(tmp_path) -> None:
    """``train --seed S`` replaces the preset's seed: it is saved in config.json, changes the hands and
    weights, and a run folder of another seed is refused by name rather than silently continued."""
    import json

    from agent_zoo.cnn.__main__ import main

    runs = {}
    for seed in (None, 1):
        run = tmp_path / f"s{seed}"
        extra = [] if seed is None else ["--seed", str(seed)]
        assert main(["train", "--preset", "tiny", "--out", str(run), "--generations", "1", "--no-progress", *extra]) == 0
        runs[seed] = run
    assert json.loads((runs[None] / "config.json").read_text())["seed"] == PRESETS["tiny"].seed == 0
    assert json.loads((runs[1] / "config.json").read_text())["seed"] == 1
    w0, w1 = (load_generation(runs[s] / "gen_1.pt")[0].state_dict() for s in (None, 1))
    assert any(not torch.equal(w0[k], w1[k]) for k in w0)
    with pytest.raises(ValueError, match="seed"):
        main(["train", "--preset", "tiny", "--out", str(runs[1]), "--seed", "2", "--no-progress"])


# ---- gating ---------------------------------------------------------------------------------------
def test_gate_passes_only_a_significant_win() -> None:
    from agent_zoo.cnn.gating import GateMatch, gate_passed, run_gate

    game = make_game()
    decks, buttons = draw_deals(150, np.random.default_rng(3))
    heuristic, rand = Player("heuristic", "heuristic"), Player("random", "random")
    # the heuristic beats random by about 11 BB/hand (docs/results/cnn.md): it must pass, random must not
    win = run_gate(game, heuristic, [rand], decks, buttons, [np.random.default_rng(4)])
    lose = run_gate(game, rand, [heuristic], decks, buttons, [np.random.default_rng(4)])
    assert win[0].hands == 300 and win[0].mean_bb - win[0].ci95 > 0 and gate_passed(win)
    assert not gate_passed(lose) and lose[0].mean_bb < 0
    assert not GateMatch("x", 0.0, 0.0, 10).passed  # an exact tie is no win
    assert not gate_passed([GateMatch("a", 1.0, 0.5, 10), GateMatch("b", 0.4, 0.5, 10)])  # must beat all
    assert not gate_passed([])
    with pytest.raises(ValueError, match="one rng per opponent"):
        run_gate(game, heuristic, [rand], decks, buttons, [])
    with pytest.raises(ValueError, match="gate_hands"):
        replace(PRESETS["tiny"], gate_hands=3)


def test_gating_retrains_a_refused_candidate_and_resumes(tmp_path, monkeypatch) -> None:
    from agent_zoo.cnn.gating import GateMatch

    base = replace(PRESETS["tiny"], batch_size=8)
    Trainer(base, tmp_path / "plain", show_progress=False).run()
    cfg = replace(base, gate_hands=4, gate_attempts=3)
    calls: list[tuple[str, int]] = []

    def scripted_gate(game, candidate, opponents, decks, buttons, rngs, progress=None):  # refuse 0, accept 1
        calls.append((candidate.name, len(decks)))
        won = len(calls) == 2
        assert [o.name for o in opponents] == ["heuristic", "cnn1"] and all(o.explore == 0 for o in opponents[1:])
        return [GateMatch(o.name, 1.0 if won else -1.0, 0.5, 2 * len(decks)) for o in opponents]

    monkeypatch.setattr(train_mod, "run_gate", scripted_gate)
    t = Trainer(cfg, tmp_path / "gated", show_progress=False)
    t.run()
    run = tmp_path / "gated"
    assert calls == [("cnn2", 2), ("cnn2", 2)]
    assert (run / "gen_2.try0.pt").exists() and (run / "gen_2.try1.pt").exists()
    assert not (run / "gen_2.try2.pt").exists()
    ckpt = torch.load(run / "gen_2.pt", weights_only=False)
    assert ckpt["attempts"] == 2 and [r["passed"] for r in ckpt["gate"]] == [False, True]
    assert len((run / "gate.jsonl").read_text().splitlines()) == 2
    accepted, try0 = load_generation(run / "gen_2.pt")[0], load_generation(run / "gen_2.try0.pt")[0]
    plain = load_generation(tmp_path / "plain" / "gen_2.pt")[0]
    try1 = load_generation(run / "gen_2.try1.pt")[0]
    for a, b, c in zip(accepted.parameters(), try1.parameters(), try0.parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
        assert not torch.equal(a, c)  # attempt 1 trained further
    for a, b in zip(try0.parameters(), plain.parameters()):  # attempt 0 is exactly the ungated generation
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    # attempt 1 trained on fresh hands of every pairing
    d0, d1 = t.generation_data(2, 0), t.generation_data(2, 1)
    assert d0.num_hands == d1.num_hands == 3 * cfg.hands_per_pairing
    assert not np.array_equal(d0.deck, d1.deck)

    # interrupted inside attempt 1's training: the resumed run re-plays no gate and ends bit-identical
    calls.clear()
    monkeypatch.setattr(train_mod, "CHECKPOINT_BATCHES", 1)
    real = train_mod.encode_samples

    batches_in_try1 = {"n": 0}

    def flaky(*args, **kwargs):
        if (tmp_path / "cut" / "gen_2.try0.pt").exists() and len(calls) == 1:
            batches_in_try1["n"] += 1
            if batches_in_try1["n"] == 3:
                raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train_mod, "encode_samples", flaky)
    with pytest.raises(KeyboardInterrupt):
        Trainer(cfg, tmp_path / "cut", show_progress=False).run()
    assert (tmp_path / "cut" / "gen_2.try1.partial.pt").exists() and not (tmp_path / "cut" / "gen_2.pt").exists()
    monkeypatch.setattr(train_mod, "encode_samples", real)
    Trainer(cfg, tmp_path / "cut", show_progress=False).run()
    assert len(calls) == 2  # attempt 0's gate was read back from gate.jsonl, attempt 1's played once
    for a, b in zip(accepted.parameters(), load_generation(tmp_path / "cut" / "gen_2.pt")[0].parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_allin_ev_changes_only_showdowns_decided_before_the_river() -> None:
    game = make_game()
    decks, buttons = draw_deals(60, np.random.default_rng(5))
    rand = (Player("random", "random"), Player("random2", "random"))
    log = play_hands(game, rand, decks, buttons, np.random.default_rng(6), PlayConfig(allin_ev=64))
    plain = play_hands(game, rand, decks, buttons, np.random.default_rng(6))
    np.testing.assert_array_equal(log.chips, plain.chips)  # the play is unchanged
    np.testing.assert_allclose(log.ev_chips.sum(axis=1), 0.0, atol=1e-9)
    changed = np.any(log.ev_chips != log.chips, axis=1)
    assert 0 < changed.sum() < len(decks)  # random players go all-in before the river in some hands only
    # an adjusted result is the stake times (2 x equity - 1): never more than the realized win or loss
    won = changed & (log.chips[:, 0] != 0)
    assert np.all(np.abs(log.ev_chips[won, 0]) <= np.abs(log.chips[won, 0]) + 1e-9)


def test_allin_chips_by_hand() -> None:
    # 40 chips each at risk: 75% equity wins 0.75 * 40 - 0.25 * 40 = 20; a coin flip is worth nothing.
    assert allin_chips(0.75, 40) == (20.0, -20.0)
    assert allin_chips(0.5, 97) == (0.0, -0.0)
    assert allin_chips(1.0, 3) == (3.0, -3.0)


# ---- resumable, shareable round robin ------------------------------------------------------------------
def _rr_players() -> list[Player]:
    return [Player("random", "random"), Player("heuristic", "heuristic"), Player("c", "cnn", _net(3), "subset")]


def test_round_robin_cache_resumes_and_equals_the_uncached_result(tmp_path, monkeypatch) -> None:
    import agent_zoo.cnn.evaluate as ev

    cfg = PRESETS["tiny"]
    plain = ev.round_robin(_rr_players(), 8, 5, cfg, show=False)
    cache = tmp_path / "pairs"
    first = ev.round_robin(_rr_players(), 8, 5, cfg, show=False, cache=cache)
    (cache / "pair_1.json").unlink()  # as if interrupted while playing pair 1
    played = []
    real = ev.play_pair
    monkeypatch.setattr(ev, "play_pair", lambda *a, **k: played.append(a[6]) or real(*a, **k))
    again = ev.round_robin(_rr_players(), 8, 5, cfg, show=False, cache=cache)
    assert played == [1]  # only the missing pair is played again
    for r in (first, again):
        np.testing.assert_array_equal(r.mean, plain.mean)
        np.testing.assert_array_equal(r.ci95, plain.ci95)
        assert r.kinds == plain.kinds and r.sizes == plain.sizes
    with pytest.raises(ValueError, match="another round robin"):
        ev.round_robin(_rr_players(), 8, 6, cfg, show=False, cache=cache)  # another deal seed


def test_round_robin_leaves_pairs_claimed_by_a_live_process_and_takes_over_a_dead_one(tmp_path) -> None:
    import os
    import subprocess
    import sys

    import agent_zoo.cnn.evaluate as ev

    cfg = PRESETS["tiny"]
    cache = tmp_path / "pairs"
    ev.PairCache(cache, {"names": ["random", "heuristic", "c"], "hands": 8, "seed": 5, "allin_ev": None})
    (cache / "pair_0.claim").write_text(str(os.getppid()))  # a live process (pytest's parent) holds pair 0
    assert ev.round_robin(_rr_players(), 8, 5, cfg, show=False, cache=cache) is None
    assert not (cache / "pair_0.json").exists() and all((cache / f"pair_{k}.json").exists() for k in (1, 2))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (cache / "pair_0.claim").write_text(dead.stdout.strip())  # its process has ended: the claim is stale
    done = ev.round_robin(_rr_players(), 8, 5, cfg, show=False, cache=cache)
    plain = ev.round_robin(_rr_players(), 8, 5, cfg, show=False)
    np.testing.assert_array_equal(done.mean, plain.mean)
    assert not (cache / "pair_0.claim").exists()
