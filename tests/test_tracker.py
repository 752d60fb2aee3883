"""Tracker statistics (poker_envs.text.tracker) on hand-worked sessions, their text view (summary="hud" / "hands")
and the hands the text env records (wrappers.text_env.SessionHands)."""

from __future__ import annotations

import numpy as np
import pytest

from poker_envs import nolimit_holdem_v0
from poker_envs.encoders.history import ActionEntry
from poker_envs.encoders.public import decode_public
from poker_envs.text import TextTable
from poker_envs.text.tracker import HandRecord, SeatStats, hand_stats, session_stats
from wrappers.text_env import SessionHands, TextPokerEnv

F, X, C, B, R = 0, 1, 2, 3, 4  # fold, check, call, bet, raise (games.base.ActionKind)


def a(street: int, seat: int, kind: int, added: float = 0.0, total: float = 0.0, all_in: bool = False) -> ActionEntry:
    return ActionEntry(street, seat, kind, added, total, all_in)


def hand(number: int, dealt: tuple[int, ...], *actions: ActionEntry) -> HandRecord:
    return HandRecord(number, dealt, tuple(actions), (), (0.0,) * 3)


def counts(st: SeatStats) -> dict[str, int]:
    return {k: v for k, v in vars(st).items() if v}


# Session A, 3-handed: seat 0 button, seat 1 small blind (1), seat 2 big blind (2); preflop order 0, 1, 2.
SESSION_A = [
    # 1: open, fold, 3-bet, fold to the 3-bet
    hand(0, (0, 1, 2), a(0, 0, R, 6, 6), a(0, 1, F), a(0, 2, R, 16, 18), a(0, 0, F)),
    # 2: a limp, a raise, the limper calls; c-bet on the flop, folded to
    hand(1, (0, 1, 2), a(0, 0, C, 2, 2), a(0, 1, R, 7, 8), a(0, 2, F), a(0, 0, C, 6, 8),
         a(1, 1, B, 10, 10), a(1, 0, F)),
    # 3: a walk: the big blind never acts
    hand(2, (0, 1, 2), a(0, 0, F), a(0, 1, F)),
    # 4: open, all-in 3-bet, the big blind folds, the opener calls all-in: board run out, showdown
    hand(3, (0, 1, 2), a(0, 0, R, 6, 6), a(0, 1, R, 199, 200, True), a(0, 2, F), a(0, 0, C, 194, 200, True)),
    # 5: limped pot (no preflop aggressor); small blind completes, big blind checks; postflop bets, raise, calls
    hand(4, (0, 1, 2), a(0, 0, C, 2, 2), a(0, 1, C, 1, 2), a(0, 2, X),
         a(1, 1, X), a(1, 2, B, 4, 4), a(1, 0, C, 4, 4), a(1, 1, F),
         a(2, 2, B, 10, 10), a(2, 0, R, 30, 30), a(2, 2, C, 20, 30),
         a(3, 2, X), a(3, 0, X)),
]


def test_three_handed_session_by_hand() -> None:
    stats = session_stats(SESSION_A)
    # seat 0: VPIP in 1, 2, 4, 5 of 5; PFR in 1, 4; faced one raise once (hand 2, called); folded to the 3-bet in
    # hand 1, called it in 4; folded to the c-bet in 2; saw flops 2, 4, 5, showdowns 4, 5; postflop 1 raise, 1 call
    assert counts(stats[0]) == {"hands": 5, "vpip": 4, "vpip_opportunities": 5, "pfr": 2, "pfr_opportunities": 5,
                                "three_bet_opportunities": 1, "fold_to_three_bet": 1, "fold_to_three_bet_opportunities": 2,
                                "fold_to_cbet": 1, "fold_to_cbet_opportunities": 1, "wtsd": 2, "wtsd_opportunities": 3,
                                "aggressive": 1, "calls": 1}
    assert stats[0].af == 1.0
    # seat 1: VPIP in 2, 4, 5 (completing the small blind counts); PFR in 2, 4; faced a single raise in 1 (folded)
    # and 4 (3-bet); c-bet in 2; saw flops 2, 4, 5, showdown 4; one postflop bet, no call
    assert counts(stats[1]) == {"hands": 5, "vpip": 3, "vpip_opportunities": 5, "pfr": 2, "pfr_opportunities": 5,
                                "three_bet": 1, "three_bet_opportunities": 2, "cbet": 1, "cbet_opportunities": 1,
                                "wtsd": 1, "wtsd_opportunities": 3, "aggressive": 1}
    assert stats[1].af is None
    # seat 2 (big blind every hand): the walk (3) is no opportunity; the 3-bet of 1 is VPIP and PFR, the check of
    # 5 is not; faced a single raise in 1 (3-bet) and 2 (fold), a 3-bet in 4 (no opportunity); saw the flop in 5
    # only and went to showdown; postflop 2 bets, 1 call
    assert counts(stats[2]) == {"hands": 5, "vpip": 1, "vpip_opportunities": 4, "pfr": 1, "pfr_opportunities": 4,
                                "three_bet": 1, "three_bet_opportunities": 2, "wtsd": 1, "wtsd_opportunities": 1,
                                "aggressive": 2, "calls": 1}
    assert stats[2].af == 2.0


# Session B, heads-up: the button (small blind) acts first preflop, the big blind first postflop.
SESSION_B = [
    # 1: seat 0 opens, seat 1 calls; flop: check, c-bet, raise (not a fold to the c-bet), the c-bettor folds
    hand(0, (0, 1), a(0, 0, R, 5, 6), a(0, 1, C, 4, 6), a(1, 1, X), a(1, 0, B, 6, 6), a(1, 1, R, 20, 20), a(1, 0, F)),
    # 2: seat 1 opens, seat 0 calls; seat 0 bets the flop first (a donk bet: no c-bet opportunity); checked down
    hand(1, (0, 1), a(0, 1, R, 5, 6), a(0, 0, C, 4, 6), a(1, 0, B, 8, 8), a(1, 1, C, 8, 8),
         a(2, 0, X), a(2, 1, X), a(3, 0, X), a(3, 1, X)),
    # 3: open, 3-bet, 4-bet (the opener does not fold to the 3-bet), fold
    hand(2, (0, 1), a(0, 0, R, 5, 6), a(0, 1, R, 16, 18), a(0, 0, R, 48, 54), a(0, 1, F)),
]


def test_heads_up_session_by_hand() -> None:
    stats = session_stats(SESSION_B)
    # seat 0: VPIP 3/3, PFR in 1, 3; faced one raise in 2 (called); 4-bet facing the 3-bet of 3; c-bet in 1;
    # saw flops 1, 2, showdown 2; postflop bets in 1 (c-bet) and 2 (donk), no call
    assert counts(stats[0]) == {"hands": 3, "vpip": 3, "vpip_opportunities": 3, "pfr": 2, "pfr_opportunities": 3,
                                "three_bet_opportunities": 1, "fold_to_three_bet_opportunities": 1, "cbet": 1,
                                "cbet_opportunities": 1, "wtsd": 1, "wtsd_opportunities": 2, "aggressive": 2}
    # seat 1: VPIP 3/3; PFR in 2, 3; faced one raise in 1 (called) and 3 (3-bet); no c-bet opportunity in 2 (donk
    # bet first); raised the c-bet of 1 (an opportunity, not a fold); saw flops 1, 2, showdown 2; 1 raise, 1 call
    assert counts(stats[1]) == {"hands": 3, "vpip": 3, "vpip_opportunities": 3, "pfr": 2, "pfr_opportunities": 3,
                                "three_bet": 1, "three_bet_opportunities": 2, "fold_to_cbet_opportunities": 1,
                                "wtsd": 1, "wtsd_opportunities": 2, "aggressive": 1, "calls": 1}
    assert stats[1].af == 1.0


def test_raised_cbet_is_no_fold_to_cbet_opportunity_for_later_seats() -> None:
    # 3-handed: seat 0 opens, 1 and 2 call; flop: 1 and 2 check, 0 c-bets, 1 raises, 2 folds (to the raise), 0 folds
    record = hand(0, (0, 1, 2), a(0, 0, R, 6, 6), a(0, 1, C, 5, 6), a(0, 2, C, 4, 6),
                  a(1, 1, X), a(1, 2, X), a(1, 0, B, 10, 10), a(1, 1, R, 40, 40), a(1, 2, F), a(1, 0, F))
    stats = hand_stats(record)
    assert (stats[0].cbet, stats[0].cbet_opportunities) == (1, 1)
    assert (stats[1].fold_to_cbet, stats[1].fold_to_cbet_opportunities) == (0, 1)
    assert (stats[2].fold_to_cbet, stats[2].fold_to_cbet_opportunities) == (0, 0)
    assert [stats[s].three_bet_opportunities for s in range(3)] == [0, 1, 1]
    assert [stats[s].wtsd_opportunities for s in range(3)] == [1, 1, 1]
    assert [stats[s].wtsd for s in range(3)] == [0, 0, 0]  # the hand ended without a showdown


def test_checked_flop_and_blind_all_in() -> None:
    # 3-handed, seat 2 all-in posting its big blind (never acts, yet is dealt in and sees the flop); seat 0 opens,
    # seat 1 calls; flop: seat 1 checks, the aggressor checks back (a c-bet opportunity not taken); then to showdown
    record = hand(0, (0, 1, 2), a(0, 0, R, 6, 6), a(0, 1, C, 5, 6), a(1, 1, X), a(1, 0, X),
                  a(2, 1, X), a(2, 0, X), a(3, 1, X), a(3, 0, X))
    stats = hand_stats(record)
    assert (stats[0].cbet, stats[0].cbet_opportunities) == (0, 1)
    assert (stats[2].hands, stats[2].vpip_opportunities, stats[2].wtsd, stats[2].wtsd_opportunities) == (1, 0, 1, 1)
    assert (stats[1].fold_to_cbet_opportunities, stats[1].wtsd) == (0, 1)


def test_seat_not_dealt_in_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 3 acts but is not dealt in"):
        hand_stats(hand(0, (0, 1), a(0, 3, F)))


def test_view_options_are_checked() -> None:
    with pytest.raises(ValueError, match="summary must be one of"):
        TextPokerEnv("nolimit", opponents="random", summary="full")
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="summary_hands must be an int >= 0"):
            TextPokerEnv("nolimit", opponents="random", summary="hud", summary_hands=bad)


def play_session(summary: str, hands: int = 12, seed: int = 5, summary_hands: int = 2) -> tuple[TextPokerEnv, list[str]]:
    """A seeded 3-seat session: the learner checks when free, calls every third decision, else folds."""
    env = TextPokerEnv("nolimit", opponents="heuristic", num_players=3, hands_per_episode=hands, summary=summary,
                       summary_hands=summary_hands, starting_stack=400)
    prompt, info = env.reset(seed=seed)
    prompts = [prompt]
    for k in range(10_000):
        legal = [x["action"] for x in info["state"]["legal_actions"]]
        prompt, _, terminated, truncated, info = env.step("check" if "check" in legal else "call" if k % 3 == 0 else "fold")
        if terminated or truncated:
            return env, prompts
        prompts.append(prompt)
    raise AssertionError("the session did not end")


def test_session_hands_and_hud_in_the_prompt() -> None:
    env, prompts = play_session("hud")
    records = env.session_hands.hands
    assert [r.number for r in records] == list(range(len(records))) and len(records) >= 5
    for r in records:
        assert abs(sum(r.net)) < 1e-6  # zero-sum hands
    stats = session_stats(records)
    for seat, st in stats.items():
        assert st.hands == sum(seat in r.dealt for r in records)
        assert st.vpip <= st.vpip_opportunities <= st.hands and st.pfr <= st.vpip
    last = prompts[-1]
    assert "Opponents this session" in last and "Earlier hands (latest first), net results" not in last
    assert "Last 2 hands (oldest first):" in last and "VPIP" in last
    seat0 = prompts[-1].split("as seat ")[1][0]
    assert f"- seat {seat0} (" not in last.split("Opponents this session")[1]  # no statistics of the player itself


def test_hands_summary_grows_and_hud_does_not_show_old_hands() -> None:
    _, full = play_session("hands")
    _, hud = play_session("hud", summary_hands=1)
    _, results = play_session("results")
    assert len(full) == len(hud) == len(results)  # the same decisions: the summary changes the text only
    assert full[-1].count("\n- hand ") > hud[-1].count("\n- hand ") == 1
    assert "- hand 1:" in full[-1] and "- hand 1:" not in hud[-1]


def test_hud_prompt_is_shorter_than_every_hand_in_a_6_max_session() -> None:
    """A seeded 6-max 40-hand cash session of random legal actions: at the first decision of hand 40 the prompt with
    every earlier hand is at least 4x the tracker summary's (13x at hand 100: benchmarks/prompt_length.py), and
    the summary does not grow with the session as the hands do."""
    env = SessionHands(nolimit_holdem_v0.raw_env(num_players=6, hands_per_episode=40, rebuy=True, history=True))
    full, hud = TextTable.for_env(env, summary="hands"), TextTable.for_env(env, summary="hud")
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    lengths: dict[int, tuple[int, int]] = {}
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        number = decode_public(obs["public"], 6).hand_number + 1
        if number not in lengths:
            lengths[number] = (len(full.prompt(obs, env.hands)), len(hud.prompt(obs, env.hands)))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(lengths) == list(range(1, 41))
    assert lengths[40][0] >= 4 * lengths[40][1]
    assert lengths[40][0] >= 3 * lengths[10][0] and lengths[40][1] <= 1.5 * lengths[10][1]


def test_text_server_summary_flags() -> None:
    from wrappers.text_server import build_parser, env_factory

    args = build_parser().parse_args(["--players", "3", "--hands-per-episode", "5", "--summary", "hud", "--summary-hands", "1"])
    env = env_factory(args)()
    assert (env.text.summary, env.text.summary_hands) == ("hud", 1) and env.session_hands is not None
    bad = build_parser().parse_args(["--summary", "hud", "--summary-hands", "-1"])
    with pytest.raises(ValueError, match="summary_hands must be an int >= 0"):
        env_factory(bad)()


@pytest.mark.parametrize("game", ["nolimit", "limit", "shortdeck", "potlimit", "omaha", "push_fold"])
def test_recorded_sessions_of_every_text_game_are_consistent(game: str) -> None:
    """Properties on recorded sessions: zero-sum hands, each count at most its opportunities, PFR within VPIP,
    every seat's hands = the hands it was dealt into, the prompt's hand count = the records'."""
    env = TextPokerEnv(game, opponents="random", num_players=3, hands_per_episode=8, summary="hud")
    prompt, info = env.reset(seed=2)
    while True:
        legal = [x["action"] for x in info["state"]["legal_actions"]]
        prompt, _, terminated, truncated, info = env.step("check" if "check" in legal else "call" if "call" in legal else "fold")
        if terminated or truncated:
            break
        records = env.session_hands.hands
        assert len(records) == info["state"]["hand_number"]
        assert (f"Opponents this session ({len(records)} hand" in prompt) == bool(records)
    records = env.session_hands.hands
    assert records and env.session_hands.incomplete == 0
    for r in records:
        assert abs(sum(r.net)) < 1e-6 and set(r.dealt) >= {e.seat for e in r.actions}
    for seat, st in session_stats(records).items():
        assert st.hands == sum(seat in r.dealt for r in records)
        assert st.pfr <= st.vpip <= st.vpip_opportunities == st.pfr_opportunities <= st.hands
        for name in ("three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "wtsd"):
            assert 0 <= getattr(st, name) <= getattr(st, f"{name}_opportunities") <= st.hands
