"""PHH reading, writing and replay: hand-worked hands, errors, the engine's own pots and pokerkit as a peer.

pokerkit is the reference implementation of PHH (same authors as the format): hands it plays and
writes must replay here to the same chips, and hands we write must replay in pokerkit to ours.
"""

from __future__ import annotations

import numpy as np
import pytest

from poker_envs import phh
from poker_envs.core.cards import cards_to_str
from poker_envs.games.holdem import CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame
from poker_envs.phh_replay import settle


def nt(actions: list[str], stacks: list, blinds: list | None = None, antes: list | None = None, **extra) -> phh.Hand:
    n = len(stacks)
    blinds = blinds or [1, 2] + [0] * (n - 2)
    return phh.Hand(variant="NT", antes=tuple(antes or [0] * n), blinds_or_straddles=tuple(blinds),
                    min_bet=blinds[1], starting_stacks=tuple(stacks), actions=tuple(actions), source="test.phh", **extra)


DEAL3 = ["d dh p1 2c3d", "d dh p2 7c2d", "d dh p3 AsAh"]


# Hand-worked replays -------------------------------------------------------------------------------------
def test_fold_around_big_blind_wins_small_blind() -> None:
    r = phh.replay(nt(DEAL3 + ["p3 f", "p1 f"], [100, 100, 100]))
    assert r.results == (-1, 1, 0) and r.finishing_stacks == (99, 101, 100) and r.exact


def test_heads_up_p1_is_big_blind_and_p2_acts_first() -> None:
    deal = ["d dh p1 AsAd", "d dh p2 KsKd"]
    r = phh.replay(nt(deal + ["p2 cbr 6", "p1 f"], [100, 100]))
    assert r.results == (-2, 2)
    assert r.state.button == 1 and r.state.contributed == [2, 6]
    with pytest.raises(phh.PHHError, match=r"test.phh: action 2 'p1 cc': it is p2's turn"):
        phh.replay(nt(deal + ["p1 cc"], [100, 100]))


def test_fractional_amounts_are_scaled_and_scaled_back() -> None:
    hand = nt(DEAL3 + ["p3 cbr 1.25", "p1 f", "p2 cc", "d db 2h7d9h", "p2 cc", "p3 cbr 2.5", "p2 f"],
              [10, 10.5, 7.75], blinds=[0.25, 0.5, 0])
    r = phh.replay(hand)
    assert r.scale == 100
    assert r.results == (-0.25, -1.25, 1.5)
    assert r.finishing_stacks == (9.75, 9.25, 9.25)


BB_ANTE = DEAL3 + ["p3 cbr 5", "p1 f", "p2 cc", "d db Kd9s4c", "d db 3h", "d db Jc"]


def test_big_blind_ante_is_a_dead_pot_without_trimming() -> None:
    # Contributions without antes: p1 1, p2 5, p3 5 (all-in); the 10-chip ante is dead money for p2/p3.
    r = phh.replay(nt(BB_ANTE, [100, 100, 5], antes=[0, 10, 0]))
    assert r.results == (-1, -15, 16)


def test_uniform_antes_are_in_the_engine_state_others_are_not() -> None:
    uniform = phh.replay(nt(DEAL3 + ["p3 f", "p1 f"], [100, 100, 100], antes=[3, 3, 3]))
    assert uniform.results == (-4, 7, -3) and uniform.state.pot() == 9 + 3  # what encoders see
    big_blind = phh.replay(nt(DEAL3 + ["p3 f", "p1 f"], [100, 100, 100], antes=[0, 3, 0]))
    # the ante stays out of the stacks and the seats' contributions, and counts in the pot as dead chips
    assert big_blind.results == (-1, 1, 0) and sum(big_blind.state.contributed) == 3 and big_blind.state.pot() == 3 + 3


def test_ante_trimming_layers_the_antes_with_the_bets() -> None:
    # p2's 10-chip ante lies above everything p3 could match: 10 chips of it come back to p2.
    r = phh.replay(nt(BB_ANTE, [100, 100, 5], antes=[0, 10, 0], ante_trimming_status=True))
    assert r.results == (-1, -5, 6)


SHOWDOWN_HU = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 6", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cc",
               "d db Kh", "p1 cc", "p2 cc", "d db 3h", "p1 cc", "p2 cc", "p1 sm AsAd"]


def test_a_muck_gives_up_the_pot_even_with_the_best_hand() -> None:
    assert phh.replay(nt(SHOWDOWN_HU + ["p2 sm KsKd"], [100, 100])).results == (-6, 6)  # trip kings
    mucked = phh.replay(nt(SHOWDOWN_HU + ["p2 sm"], [100, 100]))
    assert mucked.results == (6, -6) and mucked.mucked == (False, True)


def test_the_last_player_left_may_muck_and_still_wins() -> None:
    r = phh.replay(nt(DEAL3 + ["p3 cbr 6", "p1 f", "p2 f", "p3 sm"], [100, 100, 100]))
    assert r.results == (-1, -2, 3) and r.mucked == (False, False, False)


def test_show_before_the_run_out_and_missing_run_out() -> None:
    deal = ["d dh p1 AsAd", "d dh p2 KsKd"]
    allin = deal + ["p2 cbr 100", "p1 cc", "p2 sm KsKd", "p1 sm AsAd", "d db 2c7d9h", "d db Kh", "d db 3c"]
    assert phh.replay(nt(allin, [100, 100])).results == (-100, 100)
    short = phh.replay(nt(allin[:-3], [100, 100]), seed=3)  # the run-out is drawn: a possible result only
    assert not short.exact and abs(short.results[0]) == 100 and len(short.state.board) == 5


def test_unknown_hole_cards_are_drawn_from_unseen_cards_with_the_seed() -> None:
    hand = nt(["d dh p1 ????", "d dh p2 ????", "d dh p3 AsAh", "p3 cbr 6", "p1 cc", "p2 f", "d db KdKsKh",
               "p1 cc", "p3 cc", "d db 3h", "p1 cc", "p3 cc", "d db Jc", "p1 cc", "p3 cc"], [100, 100, 100])
    a, b = phh.replay(hand, seed=1), phh.replay(hand, seed=1)
    assert a.results == b.results and not a.exact and a.cards_known == (False, False, True)
    seen = {c for h in a.state.hole for c in h} | set(a.state.board)
    assert len(seen) == 6 + 5  # no card dealt twice
    results = {phh.replay(hand, seed=s).results[2] for s in range(30)}
    assert results <= {8, -6, 1} and len(results) > 1  # win 6 + 2, lose 6, or split; the unknown hand sometimes wins
    folded = phh.replay(nt(["d dh p1 ????", "d dh p2 ????", "d dh p3 AsAh", "p3 f", "p1 f"], [100, 100, 100]))
    assert folded.exact and folded.results == (-1, 1, 0)


def test_shown_cards_fill_in_unknown_hole_cards() -> None:
    hand = nt(["d dh p1 ????", "d dh p2 KsKd", "p2 cbr 100", "p1 cc", "d db 2c7d9h", "d db Kh", "d db 3c",
               "p1 sm AsAd", "p2 sm KsKd"], [100, 100])
    r = phh.replay(hand)
    assert r.exact and r.results == (-100, 100) and r.cards_known == (True, True)
    assert cards_to_str(r.state.hole[0]) == "AsAd"


def test_fixed_limit_hand() -> None:
    hand = phh.Hand(variant="FT", antes=(0, 0), blinds_or_straddles=(1, 2), small_bet=2, big_bet=4,
                    starting_stacks=(50, 50), actions=("d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 4", "p1 cbr 6",
                                                      "p2 cc", "d db 2c7d9h", "p1 cbr 2", "p2 f"), source="ft")
    assert phh.replay(hand).results == (6, -6)
    with pytest.raises(phh.PHHError, match="not allowed by the rules"):
        phh.replay(phh.Hand(**{**hand.__dict__, "actions": hand.actions[:2] + ("p2 cbr 5",)}))


# Errors name the hand, the action and why ----------------------------------------------------------------
@pytest.mark.parametrize(
    "actions, message",
    [
        (DEAL3 + ["p3 cbr 3"], r"action 3 'p3 cbr 3': not allowed by the rules: raise_to 3 is outside the legal range 4..100"),
        (DEAL3 + ["p3 f", "p1 f", "p2 cc"], r"action 5 'p2 cc': the hand is over"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "p1 cc"], r"action 6 'p1 cc': the board must be dealt first"),
        (DEAL3 + ["d db 2h3h4h"], r"action 3 'd db 2h3h4h': no board card is due: p3 is to act"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db AsKdQd"], r"action 6 'd db AsKdQd': card As was already dealt \(action 2\)"),
        (DEAL3 + ["p3 cc"], r"the actions stop before the hand is over \(an action of p1 is due next\)"),
        (DEAL3 + ["p3 xx"], r"action 3 'p3 xx': not a PHH action"),
        (DEAL3 + ["p4 f"], r"action 3 'p4 f': 'p4' is not a player p1..p3"),
        (DEAL3 + ["p3 f", "p1 sm 2c3d"], r"action 4 'p1 sm 2c3d': showing or mucking comes at showdown"),
        (["d dh p1 2c"] + DEAL3[1:] + ["p3 cbr 6", "d dh p1 3d"], r"action 4 'd dh p1 3d': hold'em deals hole cards before"),
        (DEAL3 + ["p3 cbr 6", "d dh p1 4h5h"], r"action 4 'd dh p1 4h5h': p1 gets more than 2 hole cards"),
    ],
)
def test_illegal_actions_are_reported_with_the_hand_and_the_action(actions: list[str], message: str) -> None:
    with pytest.raises(phh.PHHError, match=r"test.phh: .*" + message):
        phh.replay(nt(actions, [100, 100, 100]))


def test_unsupported_tables_are_refused_clearly() -> None:
    base = nt(DEAL3 + ["p3 f", "p1 f"], [100, 100, 100])
    with pytest.raises(phh.PHHError, match="variant 'N2L1D' cannot be replayed"):
        phh.replay(phh.Hand(**{**base.__dict__, "variant": "N2L1D"}))
    with pytest.raises(phh.PHHError, match="straddles"):
        phh.replay(phh.Hand(**{**base.__dict__, "blinds_or_straddles": (1, 2, 4)}))
    with pytest.raises(phh.PHHError, match="'min_bet' 3 differs from the big blind"):
        phh.replay(phh.Hand(**{**base.__dict__, "min_bet": 3}))


# Reading and writing ---------------------------------------------------------------------------------------
TEXT = """# a comment
variant = "NT"
ante_trimming_status = true
antes = [0.5, 0.5]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200.25, 100]
actions = ["d dh p1 AsAd # comment", "d dh p2 ????", "p2 cbr 6", "p1 f"]
players = ["Zoë \\"Z\\"", "Bo"]
hand = 7
_custom = {a = 1, b = [true, false]}
finishing_stacks = [197.75, 102.5]
"""


def test_load_keeps_every_field_and_dumps_round_trips(tmp_path) -> None:
    (tmp_path / "a.phh").write_text(TEXT, encoding="utf-8")
    (hand,) = phh.load(tmp_path / "a.phh")
    assert hand.starting_stacks == (200.25, 100) and hand.antes == (0.5, 0.5)
    assert hand.players == ('Zoë "Z"', "Bo") and hand.fields == {"hand": 7, "_custom": {"a": 1, "b": [True, False]}}
    assert phh.loads(phh.dumps(hand))[0] == hand
    r = phh.replay(hand)
    assert r.results == (-2.5, 2.5) and r.mismatch(0) == []
    phh.dump([hand, hand, hand], tmp_path / "b.phhs")
    again = phh.load(tmp_path / "b.phhs")
    assert again == [hand] * 3 and again[2].source.endswith("b.phhs[3]")
    assert phh.append(hand, tmp_path / "b.phhs") == 4 and len(phh.load(tmp_path / "b.phhs")) == 4


@pytest.mark.parametrize(
    "text, message",
    [
        ('variant = "NT"\nantes = [0, 0]\nstarting_stacks = [1, 1]\nactions = []\nblinds_or_straddles = [1, 2]',
         "required field 'min_bet' is missing"),
        ('variant = "XX"', "field 'variant' must be one of"),
        (TEXT.replace("antes = [0.5, 0.5]", "antes = [0.5]"), "field 'antes' must be an array of 2 numbers"),
        (TEXT.replace("starting_stacks = [200.25, 100]", "starting_stacks = [0, 100]"), r"field 'starting_stacks\[0\]' must be a number > 0"),
        (TEXT.replace("min_bet = 2", "min_bet = 'two'"), "field 'min_bet' must be a number"),
        (TEXT.replace('players = ["Zoë \\"Z\\"", "Bo"]', "players = [1, 2]"), "field 'players' must be an array of 2 strings"),
        ("variant = ", "not valid TOML"),
    ],
)
def test_load_errors_name_the_file_and_the_field(tmp_path, text: str, message: str) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(phh.PHHError, match=f"bad.phh: .*{message}"):
        phh.load(path)


def test_parse_cards() -> None:
    assert phh.parse_cards("As2c??") == [51, 0, None]
    assert phh.format_cards([51, 0, None]) == "As2c??"
    for bad in ("A", "1c", "Ax", "?c"):
        with pytest.raises(ValueError):
            phh.parse_cards(bad)


# The pots settled here agree with the engine's own where both apply ----------------------------------------
def test_settle_matches_the_engine_on_random_hands() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(2, 7))
        ante = int(rng.integers(0, 3))
        stacks = tuple(int(s) for s in rng.integers(3, 60, size=n))
        game = HoldemGame(HoldemConfig(num_players=n, ante=ante, starting_stacks=stacks, bet_sizing="chips"))
        state = game.new_initial_state(button=int(rng.integers(n)))
        while not state.is_terminal():
            state.apply(state.sample_chance(rng) if state.is_chance() else int(rng.choice(state.legal_actions())))
        posted = [min(ante, s) for s in stacks]
        bets = [c - a for c, a in zip(state.contributed, posted)]
        won = settle(bets, posted, list(state.folded), state.strengths, state.button, trimming=True, odd_chips="per_pot")
        assert won == state.winnings


# pokerkit as a peer ------------------------------------------------------------------------------------------
import pokerkit


def pokerkit_hand(rng: np.random.Generator, n: int, antes: list[int], trimming: bool) -> tuple[str, list[int]]:
    """A random no-limit hand played in pokerkit (actions picked by our engine, which must agree on
    legality), exported by pokerkit as PHH text; returns the text and pokerkit's chip results."""
    sb, bb = 1, 2
    stacks = [int(s) for s in rng.integers(4, 80, size=n)]
    own_ante = antes[::-1] if n == 2 else antes
    behind = [s - min(a, s) for s, a in zip(stacks, own_ante)]
    if min(behind) <= 0:
        stacks = [s + a for s, a in zip(stacks, own_ante)]
        behind = [s - a for s, a in zip(stacks, own_ante)]
    ours = HoldemGame(HoldemConfig(num_players=n, small_blind=sb, big_blind=bb, starting_stacks=tuple(behind)))
    state = ours.new_initial_state(button=n - 1)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    A = pokerkit.Automation
    game = pokerkit.NoLimitTexasHoldem(
        (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING),
        trimming, antes, (sb, bb), bb,
    )
    pk = game(stacks, n)
    for k in range(n):
        pk.deal_hole(cards_to_str(state.hole[k]))
    while pk.status:
        if pk.actor_index is not None:
            if state.current_player() != pk.actor_index:  # pokerkit's check that decides nothing
                pk.check_or_call()
                continue
            seat = pk.actor_index
            choices = [CALL] + ([FOLD] if state.max_bet() > state.bets[seat] else []) + (
                [RAISE] if state.legal_raise_range() else [])
            kind = int(rng.choice(choices))
            if kind == FOLD:
                pk.fold()
                state.apply_raw(FOLD)
            elif kind == CALL:
                pk.check_or_call()
                state.apply_raw(CALL if state.max_bet() > state.bets[seat] else CHECK)
            else:
                low, high = state.legal_raise_range()
                to = int(rng.choice([low, high, int(rng.integers(low, high + 1))]))
                pk.complete_bet_or_raise_to(to)
                state.apply_raw(RAISE if state.max_bet() else 3, to)
        elif pk.can_burn_card():
            pk.burn_card("??")
        elif pk.can_deal_board():
            count = 3 if not pk.board_cards else 1
            cards = []
            for _ in range(count):
                cards.append(state.sample_chance(rng))
                state.apply(cards[-1])
            pk.deal_board(cards_to_str(cards))
        else:  # pragma: no cover
            raise AssertionError(f"pokerkit waits for {pk.operations[-3:]}")
    text = pokerkit.HandHistory.from_game_state(game, pk).dumps()
    return text, [pk.stacks[k] - stacks[k] for k in range(n)]


@pytest.mark.parametrize("antes_kind", ["none", "uniform", "big_blind"])
def test_hands_written_by_pokerkit_replay_to_pokerkit_results(antes_kind: str) -> None:
    rng = np.random.default_rng({"none": 1, "uniform": 2, "big_blind": 3}[antes_kind])
    for i in range(60):
        n = int(rng.integers(2, 7))
        antes = {"none": [0] * n, "uniform": [1] * n, "big_blind": [0, 3] + [0] * (n - 2)}[antes_kind]
        trimming = antes_kind == "uniform"
        text, expected = pokerkit_hand(rng, n, antes, trimming)
        (hand,) = phh.loads(text, source=f"pokerkit hand {i}")
        assert list(phh.replay(hand).results) == expected, text


def test_pokerkit_replays_hands_we_write_to_our_results() -> None:
    shown = BB_ANTE + ["p3 sm AsAh", "p2 sm 7c2d"]  # pokerkit mucks hands a file does not show
    hands = [
        nt(shown, [100, 100, 5], antes=[0, 10, 0]),
        nt(shown, [100, 100, 5], antes=[0, 10, 0], ante_trimming_status=True),
        nt(SHOWDOWN_HU + ["p2 sm KsKd"], [100, 100]),
        nt(SHOWDOWN_HU + ["p2 sm"], [100, 100]),  # the muck forfeits in pokerkit too
        nt(DEAL3 + ["p3 f", "p1 f"], [100, 100, 100], antes=[3, 3, 3], ante_trimming_status=True),
        nt(DEAL3 + ["p3 cbr 1.25", "p1 f", "p2 cc", "d db 2h7d9h", "p2 cc", "p3 cbr 2.5", "p2 f"],
           [10, 10.5, 7.75], blinds=[0.25, 0.5, 0]),
    ]
    for hand in hands:
        ours = phh.replay(hand)
        theirs = pokerkit.HandHistory.loads(phh.dumps(hand))
        *_, final = iter(theirs)
        assert [float(s) for s in final.stacks] == [float(s) for s in ours.finishing_stacks], phh.dumps(hand)


def test_a_check_pokerkit_asks_for_and_the_engine_skips_is_accepted() -> None:
    # The small blind calls all-in for the big blind: the big blind has nothing left to decide. pokerkit
    # still asks him to check ('p2 cc'); the rules engine skips him, and the replay takes the check as a no-op.
    A = pokerkit.Automation
    game = pokerkit.NoLimitTexasHoldem((A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING,
                                        A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING,
                                        A.CHIPS_PULLING), False, 0, (1, 2), 2)
    pk = game([2, 100, 100], 3)
    for cards in ("2c3d", "7c2d", "AsAh"):
        pk.deal_hole(cards)
    pk.fold()
    pk.check_or_call()
    assert pk.actor_index == 1 and pk.checking_or_calling_amount == 0
    pk.check_or_call()
    for cards in ("Kd9s4c", "3h", "Jc"):
        if pk.can_burn_card():
            pk.burn_card("??")
        pk.deal_board(cards)
    text = pokerkit.HandHistory.from_game_state(game, pk).dumps()
    assert "'p2 cc'" in text and not pk.status
    (hand,) = phh.loads(text)
    r = phh.replay(hand)
    assert list(r.finishing_stacks) == list(pk.stacks) == [4, 98, 100]
    assert [len(s) for s in r.state.history] == [2, 0, 0, 0]  # p3 f, p1 cc: the engine asked nobody else
