"""Short-deck (6+) hold'em: the ranking worked by hand, a 5-card census derived by counting, the evaluator
against pokerkit's short-deck lookup, the engine's 36-card deck, the environment, and random hands replayed
chip for chip in pokerkit's no-limit short-deck hold'em."""

from __future__ import annotations

import pickle
import warnings
from math import comb

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test

from poker_envs import shortdeck_holdem_v0
from poker_envs.core.cards import DECKS, card_to_str, cards_from_str
from poker_envs.core.combinations import colex_combinations
from poker_envs.core.evaluator import describe, evaluate, evaluate_batch, evaluate_cross, hand_category, scalar_evaluator
from poker_envs.core.ranking import (
    CATEGORY_NAMES, FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, SHORT_DECK, SHORT_DECK_TRIPS, STRAIGHT, STRAIGHT_FLUSH, TRIPS,
    TWO_PAIR, HandRanking,
)
from poker_envs.games.holdem import BET, CALL, RAISE, HoldemConfig, HoldemGame, HoldemState

SHORT_CARDS = np.arange(16, 52)


def sd(text: str, ranking: str = "short_deck") -> int:
    return scalar_evaluator(ranking)(cards_from_str(text))


def random_short_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    return SHORT_CARDS[np.argsort(rng.random((count, 36)), axis=1)[:, :size]]


# --- hand-worked ranking ------------------------------------------------------------------------------

def test_flush_beats_full_house_in_short_deck_only() -> None:
    flush, full_house = "Jh 9h 8h 7h 6h", "Kh Kd Kc 7s 7c"
    assert sd(flush) > sd(full_house)
    assert sd(flush, "short_deck_trips") > sd(full_house, "short_deck_trips")
    assert evaluate(cards_from_str(flush)) < evaluate(cards_from_str(full_house))  # standard: the other way
    assert describe(sd(flush)) == "flush, jack high"
    assert describe(sd(full_house)) == "full house, kings over sevens"


def test_ace_six_to_nine_is_the_lowest_straight() -> None:
    wheel = sd("As 6d 7c 8h 9s")
    assert hand_category(wheel) == STRAIGHT and describe(wheel) == "straight, nine high"
    assert wheel < sd("6d 7c 8h 9s Ts")  # the ace plays low
    assert wheel > sd("Ac Ad Ah Kc Qd")  # every straight beats three of a kind
    assert hand_category(evaluate(cards_from_str("As 6d 7c 8h 9s"))) == HIGH_CARD  # not a straight in standard
    # With seven cards the best straight is taken; A-6-7-8-9 suited is a straight flush.
    assert describe(sd("As 6d 7c 8h 9s Ts Kd")) == "straight, ten high"
    steel = sd("As 6s 7s 8s 9s Kc Kd")
    assert describe(steel) == "straight flush, nine high"
    assert sd("9c 9d 9h 9s Ac") < steel < sd("6s 7s 8s 9s Ts")


def test_trips_over_straight_flag() -> None:
    trips, straight = "6s 6d 6c Kh Qd", "Ts 9d 8c 7h 6s"
    assert sd(trips) < sd(straight)  # pokerkit's short deck: a straight still beats three of a kind
    assert sd(trips, "short_deck_trips") > sd(straight, "short_deck_trips")
    seven = "6s 6d 6c 7h 8d 9c Tc"  # both a straight and three of a kind: each ranking takes its better one
    assert describe(sd(seven)) == "straight, ten high"
    assert describe(sd(seven, "short_deck_trips")) == "three of a kind, sixes"


def test_cards_below_six_are_refused() -> None:
    with pytest.raises(ValueError, match=r"cards: \[0\] are not card ids in 16..51"):
        sd("2c 6d 7c 8h 9s")
    with pytest.raises(ValueError, match="16..51"):
        evaluate_batch(np.array([[3, 20, 24, 28, 32]]), ranking="short_deck")
    with pytest.raises(ValueError, match="ranking must be one of"):
        evaluate_batch(np.array([[16, 20, 24, 28, 32]]), ranking="shortdeck")


def test_ranking_is_checked_data() -> None:
    with pytest.raises(ValueError, match="contiguous ranks ending with the ace"):
        HandRanking("x", (4, 5, 6, 7), SHORT_DECK.order, "short_deck")
    with pytest.raises(ValueError, match="nine categories"):
        HandRanking("x", SHORT_DECK.ranks, (0, 1, 2), "short_deck")
    assert SHORT_DECK.low_straight == (12, 4, 5, 6, 7) and SHORT_DECK.cards == DECKS["short_deck"]


# --- census: every 5-card short-deck hand, against counts derived by hand ---------------------------------

def expected_census() -> dict[int, tuple[int, int]]:
    """Category -> (number of 5-card hands, number of distinct hand classes) of the 36-card deck, by counting.

    9 ranks, 4 suits; 6 straights of ranks (A-6-7-8-9 and the five runs 6-T .. T-A).
    """
    r, straights = 9, 6
    no_straight = comb(r, 5) - straights  # sets of five ranks that are not a straight
    return {
        STRAIGHT_FLUSH: (straights * 4, straights),
        QUADS: (r * (r - 1) * 4, r * (r - 1)),
        FULL_HOUSE: (r * 4 * (r - 1) * 6, r * (r - 1)),
        FLUSH: (4 * no_straight, no_straight),
        STRAIGHT: (straights * (4**5 - 4), straights),
        TRIPS: (r * 4 * comb(r - 1, 2) * 4**2, r * comb(r - 1, 2)),
        TWO_PAIR: (comb(r, 2) * 6 * 6 * (r - 2) * 4, comb(r, 2) * (r - 2)),
        PAIR: (r * 6 * comb(r - 1, 3) * 4**3, r * comb(r - 1, 3)),
        HIGH_CARD: (no_straight * (4**5 - 4), no_straight),
    }


@pytest.mark.parametrize("ranking", [SHORT_DECK, SHORT_DECK_TRIPS], ids=lambda r: r.name)
def test_five_card_census(ranking: HandRanking) -> None:
    hands = colex_combinations(36, 5).astype(np.int64) + 16
    values = evaluate_batch(hands, ranking=ranking).astype(np.int64)
    categories = (values >> 20) & 15
    expected = expected_census()
    assert sum(h for h, _ in expected.values()) == comb(36, 5) == len(hands)
    for category, (count, classes) in expected.items():
        mine = values[categories == category]
        assert (len(mine), len(np.unique(mine))) == (count, classes), category
    # Every hand of a category beats every hand of the categories below it in the ranking's order.
    bounds = [(values[categories == c].min(), values[categories == c].max()) for c in ranking.order]
    assert all(high < low for (_, high), (low, _) in zip(bounds, bounds[1:]))


def test_every_hand_class_orders_as_pokerkit_lookup() -> None:
    """One hand of each of the 1,404 classes: our values sort them exactly as pokerkit's lookup indices."""
    import pokerkit
    hands = colex_combinations(36, 5).astype(np.int64) + 16
    values = evaluate_batch(hands, ranking="short_deck")
    unique, first = np.unique(values, return_index=True)
    lookup = pokerkit.ShortDeckHoldemLookup()
    indices = np.array([lookup.get_entry("".join(map(card_to_str, hands[i]))).index for i in first])
    assert len(unique) == 1404
    assert np.array_equal(np.argsort(indices, kind="stable"), np.arange(len(unique)))  # same order, no ties


def test_seven_card_hands_order_as_pokerkit() -> None:
    import pokerkit
    hands = random_short_hands(np.random.default_rng(11), 1500, 7)
    ours = evaluate_batch(hands, ranking="short_deck")
    theirs = np.array([
        pokerkit.ShortDeckHoldemHand.from_game("".join(map(card_to_str, h[:2])), "".join(map(card_to_str, h[2:])))
        .entry.index
        for h in hands
    ])
    assert np.array_equal(np.unique(ours, return_inverse=True)[1], np.unique(theirs, return_inverse=True)[1])


# --- batched == scalar ----------------------------------------------------------------------------------

@pytest.mark.parametrize("ranking", ["short_deck", "short_deck_trips"])
@pytest.mark.parametrize("size", [5, 6, 7])
def test_batched_equals_scalar(ranking: str, size: int) -> None:
    hands = random_short_hands(np.random.default_rng(size), 4000, size)
    scalar = scalar_evaluator(ranking)
    assert evaluate_batch(hands, ranking=ranking).tolist() == [scalar(h) for h in hands.tolist()]


def test_cross_equals_scalar() -> None:
    rng = np.random.default_rng(3)
    holes, boards = random_short_hands(rng, 40, 2), random_short_hands(rng, 30, 5)
    cross = evaluate_cross(holes, boards, ranking="short_deck")
    scalar = scalar_evaluator("short_deck")
    for i, hole in enumerate(holes.tolist()):
        for j, board in enumerate(boards.tolist()):
            expect = -1 if set(hole) & set(board) else scalar(hole + board)
            assert cross[i, j] == expect


# --- the engine deals from the configured deck ------------------------------------------------------------

def test_config_deck_and_ranking() -> None:
    cfg = HoldemConfig(num_players=10, ranking="short_deck")
    assert cfg.deck == "short_deck"
    game = HoldemGame(cfg)
    assert game.deck == tuple(range(16, 52)) and game.name == "short_deck_nolimit_holdem"
    assert pickle.loads(pickle.dumps(game)).evaluate_hand is game.evaluate_hand  # games go to worker processes
    assert HoldemGame(HoldemConfig()).name == "nolimit_holdem" and len(HoldemGame(HoldemConfig()).deck) == 52
    with pytest.raises(ValueError, match="ranks the ranking 'short_deck' does not play"):
        HoldemConfig(ranking="short_deck", deck="standard")
    with pytest.raises(ValueError, match="10 players with 2 hole cards and a board of 5 need 25"):
        HoldemConfig(num_players=10, ranking="short_deck", deck=tuple(range(16, 36)))
    with pytest.raises(ValueError, match="deck must be one of"):
        HoldemConfig(deck="short")
    with pytest.raises(TypeError, match=r"deck\[0\] must be a card id"):
        HoldemConfig(ranking="short_deck", deck=(16.0,) + tuple(range(17, 52)))
    as_strings = HoldemConfig(ranking="short_deck", deck=tuple(card_to_str(c) for c in range(51, 15, -1)))
    assert as_strings.deck == DECKS["short_deck"] and HoldemGame(as_strings).name == "short_deck_nolimit_holdem"


def test_chance_outcomes_and_sampling_use_the_short_deck() -> None:
    game = HoldemGame(HoldemConfig(num_players=6, ranking="short_deck"))
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(16, 52))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    rng = np.random.default_rng(5)
    seen: set[int] = set()
    for _ in range(60):
        state = game.new_initial_state()
        while state.is_chance():
            state.apply(state.sample_chance(rng))
        seen.update(c for h in state.hole for c in h)
        assert len(state.chance_outcomes()) == 0 and min(min(h) for h in state.hole) >= 16
    assert seen == set(range(16, 52))
    with pytest.raises(ValueError, match="not an unseen card id of the deck"):
        game.new_initial_state().apply(0)  # the deuce of clubs is not in the deck
    with pytest.raises(ValueError, match=r"deck holds 2c, not in this game's deck \(short_deck\)"):
        game.new_initial_state(deck=cards_from_str("2c") + list(range(16, 40)))
    hole = [["As", "Kd"], ["5c", "Qd"], ["Jh", "Th"], ["9s", "9c"], ["8d", "7d"], ["6h", "6s"]]
    with pytest.raises(ValueError, match=r"hole\[1\] holds 5c, not in this game's deck"):
        game.new_initial_state(hole=hole)
    hole[1][0] = "Qc"
    with pytest.raises(ValueError, match=r"board holds 2h, not in this game's deck"):
        game.new_initial_state(hole=hole, board=["Ah", "2h", "Kh"])
    assert game.new_initial_state(hole=hole, board="AhKhQh").board == []  # dealt as chance outcomes


def test_showdown_uses_the_short_deck_ranking() -> None:
    """Seat 0's flush beats seat 1's full house (they would lose in standard hold'em)."""
    env = shortdeck_holdem_v0.raw_env(num_players=2, reward_unit="chips", render_mode="ansi")
    hole = [cards_from_str("Ah Jh"), cards_from_str("Kd Kc")]
    env.reset(options={"button": 0, "hole": hole, "board": cards_from_str("9h 8h Kh 7s 7c")})
    env.step(5)  # the button goes all-in
    env.step(1)  # and is called
    assert env.rewards == {"player_0": 200.0, "player_1": -200.0}
    text = env.render()
    assert "flush, ace high" in text and "full house, kings over sevens" in text


# --- the environment ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoder", ["default", "poker_cnn", "flat107", "flat56"])
def test_env_api_with_every_encoder(encoder: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test resets with options={"options": 1}, which we warn about
        api_test(shortdeck_holdem_v0.env(num_players=3, obs_encoder=encoder), num_cycles=60)


def test_observations_never_show_cards_below_six() -> None:
    env = shortdeck_holdem_v0.env(num_players=4, trips_beat_straight=True, render_mode="ansi")
    rng = np.random.default_rng(2)
    for hand in range(20):
        env.reset(seed=hand)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            cards = obs["observation"][:104]  # own hole cards, then the board, one-hot by card id
            assert cards[16:52].sum() == 2 and not cards[:16].any() and not cards[52:68].any(), agent
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert "short deck trips (36 cards)" in env.render()
    with pytest.raises(ValueError, match="trips_beat_straight must be True or False"):
        shortdeck_holdem_v0.raw_env(trips_beat_straight=1)


def test_registered() -> None:
    aec = pettingzoo.make("aec", "poker_envs/shortdeck_holdem-v0", num_players=3)
    assert aec.unwrapped.game.name == "short_deck_nolimit_holdem"
    env = gymnasium.make("poker_envs/ShortDeckHoldem-v0", opponent="random")
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)


# --- differential: random hands replayed in pokerkit's no-limit short-deck hold'em --------------------------

def replay_short_deck_hands(num_hands: int, seed: int) -> dict[str, int]:
    """Play ``num_hands`` random no-limit short-deck hands (2-6 players, unequal stacks) and replay each in
    pokerkit's NoLimitShortDeckHoldem; every seat must win the same chips. Returns what the sample met."""
    from test_holdem_pokerkit import play_hand, random_raw_action, random_stacks, replay_in_pokerkit, rulebook_only

    def pick(state: HoldemState, rng: np.random.Generator) -> tuple[int, int]:
        """The standard test's random action, but no raise by a player reopened only by short all-ins:
        pokerkit refuses some of those (see no_raise_reason), so such a hand could not be replayed."""
        kind, to = random_raw_action(state, rng)
        if kind in (BET, RAISE) and state._acted[state.current_player()]:
            return CALL, 0
        return kind, to

    rng = np.random.default_rng(seed)
    seen = {"hands": num_hands, "compared": 0, "side_pots": 0, "showdowns": 0, "split": 0, "decisions": 0, "pokerkit_only_check": 0}
    for hand in range(num_hands):
        n = int(rng.integers(2, 7))
        bb = int(rng.choice([2, 2, 4]))
        cfg = HoldemConfig(
            num_players=n, small_blind=bb // 2, big_blind=bb, ante=int(rng.choice([0, 0, 1])),
            starting_stacks=random_stacks(rng, n, bb), ranking="short_deck", odd_chips="pooled",  # pokerkit's split
        )
        state, actions = play_hand(HoldemGame(cfg), int(rng.integers(n)), rng, pick)
        ours = state.chip_returns()
        rule = rulebook_only(state)
        if rule:  # a rule pokerkit does not have (a short big blind): not comparable
            seen[rule] = seen.get(rule, 0) + 1
            continue
        theirs = replay_in_pokerkit(state, actions, False, seen)
        assert ours == theirs, f"hand {hand}: ours {ours} pokerkit {theirs}; {state!r} {actions}"
        seen["compared"] += 1
        seen["decisions"] += len(actions)
        seen["side_pots"] += sum(len(p.eligible) > 1 for p in state.pots()) > 1  # two contested pots or more
        seen["showdowns"] += state.strengths is not None
        seen["split"] += any(len(w) > 1 for _, w in state.awards)
        for value in state.strengths or ():
            if value is not None:
                key = f"shown: {CATEGORY_NAMES[hand_category(value)]}"
                if describe(value) == "straight, nine high":
                    key = "shown: straight A-6-7-8-9"
                seen[key] = seen.get(key, 0) + 1
    return seen


@pytest.mark.slow
def test_nolimit_shortdeck_hands_match_pokerkit() -> None:
    import pokerkit
    seen = replay_short_deck_hands(1200, seed=20261124)
    assert seen["compared"] >= 1000 and seen["side_pots"] > 500 and seen["showdowns"] > 800 and seen["split"] > 50, seen
    # The reordered categories and the A-6-7-8-9 straight met at showdowns, not only in the evaluator tests.
    shown = [seen.get(f"shown: {CATEGORY_NAMES[c]}", 0) for c in (STRAIGHT, FLUSH, FULL_HOUSE)]
    assert min(shown) > 10 and seen.get("shown: straight A-6-7-8-9", 0) > 5, seen


def test_hand_histories_know_short_deck() -> None:
    """Short deck is PHH variant NS (recorded and replayed in tests/test_hand_history_wrapper.py); the
    three-of-a-kind rule has no PHH code, so the recorder refuses it rather than write a wrong one."""
    from wrappers.hand_history import HandHistoryRecorder, phh_variant

    assert phh_variant(HoldemGame(HoldemConfig(ranking="short_deck"))) == "NS"
    assert phh_variant(HoldemGame(HoldemConfig(betting="limit"))) == "FT"
    with pytest.raises(ValueError, match="no PHH variant code"):
        HandHistoryRecorder(shortdeck_holdem_v0.env(trips_beat_straight=True))


def test_batched_engine_deals_the_short_deck() -> None:
    """The batched engine takes the deck and ranking from the config (differential: tests/test_vector_holdem.py)."""
    from poker_envs import vector

    venv = vector.make("short_deck_nolimit_holdem", num_envs=64, seed=1, num_players=6, trips_beat_straight=True)
    venv.reset()
    assert venv.tables.deck.min() >= 16 and set(venv.tables.deck.ravel().tolist()) == set(range(16, 52))
    with pytest.raises(ValueError, match=r"decks\[0\] deals card 0, not in the game's deck"):
        venv.reset(options={"decks": np.tile(np.arange(17), (64, 1))})
