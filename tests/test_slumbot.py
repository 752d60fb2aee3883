"""The Slumbot bridge: the action-string codec on the hold'em rules, the agent's seat, the client and the local server.

Hand-worked strings carry their chip counts worked out in the comments (blinds 50/100, 20,000 chips; position 1
is the small blind and acts first pre-flop, position 0 the big blind and first after the flop; every ``b`` amount
counts the player's chips on that street only). Random hands played on the rules round-trip through the string:
encoded, read back and replayed, they give the same state; an independent reading of the documented arithmetic
(written here from the protocol's description, not the codec) gives the same chips.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from agent_zoo.bridges import slumbot
from agent_zoo.bridges.slumbot_codec import (
    BUTTON,
    STACK,
    SlumbotActionError,
    encode,
    incr,
    incr_of_action,
    new_state,
    parse_incr,
    replay,
    slumbot_game,
    tokens,
)
from agent_zoo.bridges.slumbot_http import SlumbotConnection, SlumbotError
from agent_zoo.bridges.slumbot_seat import AgentSeat
from agent_zoo.bridges.slumbot_server import SlumbotServer
from poker_envs import nolimit_holdem_v0, phh
from poker_envs.core.cards import cards_from_str
from poker_envs.games.base import TERMINAL, play_chance
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemState

GAME = slumbot_game()
# Position 0 (big blind) holds As Kd, position 1 (small blind) 2c 3c; board Th 9c 4s 8c 9d. At a showdown both
# play the board's nines: position 0 with A K T kickers beats position 1's T 8 4. No flush (four clubs at most).
HOLE = [cards_from_str("AsKd"), cards_from_str("2c3c")]
BOARD = cards_from_str("Th9c4s8c9d")


def played(text: str) -> HoldemState:
    return replay(new_state(GAME, HOLE, BOARD), text)


# (string, chips put in by position 0 and position 1, position 0's result, over?)
HAND_WORKED = [
    # The small blind folds: it loses its 50, the big blind wins them.
    ("f", (100, 50), +50, True),
    # Limp (the small blind calls 50 more: 100 each), the big blind checks; checked down: 100 each, BB wins 100.
    ("ck/kk/kk/kk", (100, 100), +100, True),
    # Raise to 200, fold: the big blind loses its 100.
    ("b200f", (100, 200), -100, True),
    # 3-bet: SB raises to 200, BB re-raises to 600, SB calls (600 each); checked down, BB wins 600.
    ("b200b600c/kk/kk/kk", (600, 600), +600, True),
    # 4-bet and fold: SB 200, BB 600, SB 1800; BB folds and loses its 600.
    ("b200b600b1800f", (600, 1800), -600, True),
    # All-in pre-flop, called: 20,000 each; the streets left have no action (///). BB wins 20,000.
    ("b20000c///", (20000, 20000), +20000, True),
    # The same without the slashes, as the protocol also allows.
    ("b20000c", (20000, 20000), +20000, True),
    # THE TRAP: 200 each pre-flop; the flop bet "b400" is 400 chips ON THE FLOP (not 200 more, not 400 in the hand):
    # 200 + 400 = 600 each; BB wins 600.
    ("b200c/kb400c/kk/kk", (600, 600), +600, True),
    # All-in on the flop: 200 pre-flop, then a flop bet to 19,800 (the whole stack left): 20,000 each.
    ("b200c/b19800c//", (20000, 20000), +20000, True),
    # Streets add up: 300 pre-flop; flop BB bets 300, SB raises to 900, BB calls (900); turn bet 1200 called;
    # river checked: 300 + 900 + 1200 = 2400 each; BB wins 2400.
    ("b300c/b300b900c/b1200c/kk", (2400, 2400), +2400, True),
    # Limp, flop min bet 100 called (200 each); turn BB checks, SB bets 100, BB raises to 300, SB folds:
    # BB 100 + 100 + 300 = 500, SB 100 + 100 + 100 = 300; BB wins SB's 300.
    ("ck/b100c/kb100b300f", (500, 300), +300, True),
    # A raise all-in for less than a full raise: 1250 each pre-flop; flop SB bets 750, BB raises to 18,650,
    # SB's all-in to 18,750 (its 20,000 - 1,250 left) is 100 more; BB calls: 20,000 each.
    ("b200b1250c/kb750b18650b18750c//", (20000, 20000), +20000, True),
    # Mid-hand: 200 each pre-flop, the flop next (the trailing / closes the pre-flop round); nobody has won yet.
    ("b200c/", (200, 200), 0, False),
    # Mid-street: the flop bet to 650 is not yet answered: BB 200 + 650 = 850 in, SB 200.
    ("b200c/b650", (850, 200), 0, False),
]


@pytest.mark.parametrize(("text", "chips", "result", "over"), HAND_WORKED)
def test_hand_worked_strings(text: str, chips: tuple[int, int], result: int, over: bool) -> None:
    state = played(text)
    assert tuple(state.contributed) == chips
    assert state.stacks == [STACK - chips[0], STACK - chips[1]]
    assert (state.current_player() == TERMINAL) == over
    assert state.chip_returns()[0] == result and sum(state.chip_returns()) == 0
    assert documented_chips(text) == chips


def test_positions_and_who_acts() -> None:
    """Slumbot's position 1 is the button and small blind (first to act pre-flop), position 0 the big blind (first
    after the flop); the rules seat is the position."""
    state = new_state(GAME, HOLE, BOARD)
    play_chance(state, np.random.default_rng(0))  # the fixed cards: the generator draws nothing
    assert state.button == BUTTON == 1 and state.bets == [100, 50] and state.current_player() == 1
    state = played("b200c/")
    assert state.current_player() == 0 and state.street == 1 and len(state.board) == 3


@pytest.mark.parametrize(("text", "says"), [
    ("k", "cannot check: 50 chips to call"),  # the small blind owes 50
    ("b150", "outside the legal range 200..20000"),  # a raise to 150 is less than the minimum (to 200)
    ("b200c/b50", "outside the legal range 100..19800"),  # a flop bet is at least the big blind
    ("b200c/b19801", "outside the legal range 100..19800"),  # more than the stack left (the trap read per hand)
    ("b200ck", "a / is missing"),
    ("b200c//", "whose betting is not over"),
    ("b20000c/", "closes every street up to the river"),
    ("f/", "it must end after its last action"),
    ("fk", "comes after the hand is over"),
    ("b200c/kk/kk/kk/", "a fifth '/'"),
    ("x", "character 0 is 'x'"),
    ("b", "has no amount"),
    ("c/c", "that round is not closed"),  # the big blind has not acted on the limp
    ("ck/c", "cannot call: nothing to call"),
])
def test_refused_strings_say_why(text: str, says: str) -> None:
    with pytest.raises(SlumbotActionError, match=None) as err:
        played(text)
    assert says in str(err.value) and repr(text) in str(err.value)


def test_incr_of_each_kind() -> None:
    assert [incr(FOLD), incr(CHECK), incr(CALL), incr(BET, 300), incr(RAISE, 900)] == ["f", "k", "c", "b300", "b900"]
    assert parse_incr("b900") == ("b", 900) and parse_incr("k") == ("k", 0)
    for bad in ("kk", "b200/", "", "z"):
        with pytest.raises(SlumbotActionError):
            parse_incr(bad)
    with pytest.raises(ValueError, match="kind must be one of"):
        incr(7)


def test_incr_of_env_action_ids_is_the_street_bet_to() -> None:
    """The action ids of an environment at Slumbot's table become the bet-to on the street (abstract sizes: a pot
    is 400 after b200c, so the flop's half-pot, pot and two-pot bets are to 200, 400 and 800; all-in 19,800)."""
    env = nolimit_holdem_v0.raw_env(num_players=2, small_blind=50, big_blind=100, starting_stack=STACK)
    env.reset(options={"button": BUTTON, "hole": HOLE, "board": BOARD})
    replay(env.state, "b200c/")
    assert [incr_of_action(env.state, a) for a in env.state.legal_actions()] == ["k", "b200", "b400", "b800", "b19800"]
    with pytest.raises(ValueError, match="illegal"):
        incr_of_action(env.state, 0)  # folding when checking is free is not an action here


# The round trip -------------------------------------------------------------------------------------------------
def documented_chips(text: str) -> tuple[int, int]:
    """Chips each position put in, read from the protocol's description alone: blinds 100 (position 0) and 50
    (position 1); per street position 1 acts first pre-flop, position 0 after; players alternate; ``b<N>`` sets the
    actor's bet on the street to N, ``c`` matches the other's (at most the stack), ``k`` and ``f`` add nothing."""
    totals = [0, 0]
    for street, segment in enumerate(text.split("/")):
        bets = [100, 50] if street == 0 else [0, 0]
        actor = 1 if street == 0 else 0
        for token in segment.replace("b", " b").replace("c", " c").replace("k", " k").replace("f", " f").split():
            if token[0] == "b":
                bets[actor] = int(token[1:])
            elif token == "c":
                bets[actor] = min(bets[1 - actor], STACK - totals[actor])
            actor = 1 - actor
        totals = [t + b for t, b in zip(totals, bets)]
    return totals[0], totals[1]


def random_hand(rng: np.random.Generator, stop: float = 0.0) -> HoldemState:
    """A hand of random legal actions on the rules (folds, checks and calls, raises to the minimum, to all-in or to
    any amount between); with probability ``stop`` it is left unfinished after a random action."""
    cards = [int(c) for c in rng.permutation(52)[:9]]
    state = new_state(GAME, [cards[0:2], cards[2:4]], cards[4:9])
    play_chance(state, rng)  # every card is fixed: nothing is drawn
    cut = rng.random() < stop
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        legal = state.legal_raise_range()
        kinds = ([FOLD] if state.to_call(seat) else []) + [CALL if state.to_call(seat) else CHECK] * 2
        kinds += [RAISE if state.max_bet() else BET] * 2 if legal else []
        kind = kinds[int(rng.integers(len(kinds)))]
        to = 0
        if kind in (BET, RAISE):
            low, high = legal
            to = (low, high, int(rng.integers(low, high + 1)))[int(rng.integers(3))]
        state.apply_raw(kind, to)
        play_chance(state, rng)
        if cut and rng.random() < 0.2:
            break
    return state


def same_state(a: HoldemState, b: HoldemState) -> bool:
    return (a.history == b.history and a.contributed == b.contributed and a.stacks == b.stacks and a.bets == b.bets
            and a.folded == b.folded and a.street == b.street and a.board == b.board
            and a.current_player() == b.current_player() and a.chip_returns() == b.chip_returns()
            and a.legal_actions() == b.legal_actions())


def round_trip(hands: int, seed: int) -> dict[str, int]:
    """Encode ``hands`` random hands, read each back on fresh rules and compare; returns what was seen (counts)."""
    rng = np.random.default_rng(seed)
    seen = {"hands": 0, "finished": 0, "all_in": 0, "folds": 0, "slash_free": 0}
    for _ in range(hands):
        state = random_hand(rng, stop=0.3)
        text = encode(state)
        again = replay(new_state(GAME, state.hole, state.board), text)
        assert same_state(state, again), text
        assert documented_chips(text) == tuple(state.contributed), text
        trimmed = text.rstrip("/")  # the same hand without the trailing slashes (b200c, b20000c)
        if trimmed != text:
            assert same_state(state, replay(new_state(GAME, state.hole, state.board), trimmed)), trimmed
            seen["slash_free"] += 1
        over = state.current_player() == TERMINAL
        seen["hands"] += 1
        seen["finished"] += over
        seen["folds"] += any(state.folded)
        seen["all_in"] += over and 0 in state.stacks
    return seen


def test_ten_thousand_random_hands_round_trip() -> None:
    start = time.perf_counter()
    seen = round_trip(10_000, seed=2024)
    elapsed = time.perf_counter() - start
    assert seen["hands"] == 10_000
    assert min(seen["finished"], seen["all_in"], seen["folds"], seen["slash_free"], 10_000 - seen["finished"]) > 300, seen
    assert elapsed < 60, elapsed  # a few seconds on one core; the bound only catches a runaway


# The agent's seat -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sizing", ["chips", "abstract"])
def test_the_seat_observes_what_the_environment_gives(sizing: str) -> None:
    """The seat's observation (the hand replayed from the string, Slumbot's cards stand-ins) is the one an
    environment played through ``env.step`` gives the same seat: every key, bit for bit."""
    seat = AgentSeat("random", {"bet_sizing": sizing, "history": True})
    env = nolimit_holdem_v0.raw_env(num_players=2, small_blind=50, big_blind=100, starting_stack=STACK,
                                    bet_sizing=sizing, history=True)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(30):
        cards = [int(c) for c in rng.permutation(52)[:9]]
        env.reset(options={"button": BUTTON, "hole": [cards[0:2], cards[2:4]], "board": cards[4:9]})
        while env.state.current_player() != TERMINAL:
            position = env.state.current_player()
            ours = env.observe(env.possible_agents[position])
            theirs, _ = seat.observe(position, env.state.hole[position], env.state.board, encode(env.state))
            assert ours.keys() == theirs.keys()
            for key in ours:
                assert np.array_equal(ours[key], theirs[key]), key
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(ours["action_mask"]))))
    assert checked > 60


def test_the_seat_refuses_what_slumbot_fixes_and_wrong_turns() -> None:
    with pytest.raises(ValueError, match="big_blind, starting_stack are fixed by Slumbot"):
        AgentSeat("random", {"starting_stack": 100, "big_blind": 2})
    with pytest.raises(ValueError, match="hands_per_episode is fixed"):
        AgentSeat("random", {"hands_per_episode": 5})
    seat = AgentSeat("random")
    with pytest.raises(ValueError, match="the player to act is position 1, not the client's position 0"):
        seat.observe(0, ["As", "Kd"], [], "")


# The client against the local server ----------------------------------------------------------------------------
def test_client_plays_the_local_server(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with SlumbotServer(seed=3) as server:
        result = slumbot.run("heuristic", 40, server.url, out, seed=1, progress=False)
        (session,) = server.dealer.sessions.values()
    assert result.hands == 40 == session.hands
    assert sum(o.winnings for o in result.outcomes) == session.total  # the server's books and the client's agree
    assert sum(o.baseline for o in result.outcomes) == session.baseline_total
    assert {o.client_pos for o in result.outcomes} == {0, 1}
    hands = phh.load(out / "slumbot.phhs")
    assert len(hands) == 40
    for hand, outcome in zip(hands, result.outcomes):
        replayed = phh.replay(hand)
        assert replayed.results[outcome.client_pos] == outcome.winnings  # p1 is position 0 (the big blind)
        assert sum(replayed.results) == 0 and sum(hand.finishing_stacks) == 2 * STACK and not replayed.mismatch()
        assert hand.players[outcome.client_pos] == "heuristic" and hand.players[1 - outcome.client_pos] == "slumbot"
        if "sm" not in " ".join(hand.actions):
            assert f"d dh p{2 - outcome.client_pos} ????" in hand.actions  # Slumbot's cards, never shown
    mean, half = result.bb100()
    assert mean == pytest.approx(np.mean([o.winnings for o in result.outcomes]))  # 1 bb = 100 chips: bb/100 = chips/hand
    assert half == pytest.approx(1.96 * np.std([o.winnings for o in result.outcomes], ddof=1) / np.sqrt(40))


def test_a_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with SlumbotServer(seed=5, max_hands=7) as server:  # this server stops dealing after 7 hands
        port = int(server.url.rsplit(":", 1)[1])
        with pytest.raises(SlumbotError, match="deals 7 hands"):
            slumbot.run("random", 20, server.url, out, seed=2, progress=False)
        url = server.url
    log = out / "slumbot.phhs"
    first = log.read_text()
    assert len(phh.load(log)) == 7
    with log.open("a") as f:
        f.write("\n[8]\nvariant = \"NT\"\nantes = [0, ")  # a hand cut short by the interruption
    with SlumbotServer(port=port, seed=6) as server:
        assert server.url == url
        with pytest.raises(ValueError, match="seed was 2, now 3"):
            slumbot.run("random", 20, url, out, resume=True, seed=3, progress=False)
        result = slumbot.run("random", 20, url, out, resume=True, seed=2, progress=False)
    assert result.hands == 20 and len(phh.load(log)) == 20
    assert log.read_text().startswith(first)  # the finished hands untouched
    assert [h.fields["hand"] for h in phh.load(log)] == list(range(1, 21))
    with pytest.raises(ValueError, match="holds another run's hands"):
        slumbot.run("random", 20, url, out, seed=2, progress=False)


def test_login_and_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLUMBOT_PASSWORD", raising=False)
    with SlumbotServer(seed=8, users={"alice": "secret"}) as server:
        assert SlumbotConnection(server.url).login("alice", "secret")
        with pytest.raises(SlumbotError, match="Invalid username or password"):
            SlumbotConnection(server.url).login("alice", "wrong")
        result = slumbot.main(["--agent", "fold", "--hands", "6", "--url", server.url, "--username", "alice",
                               "--password", "secret", "--json", "--no-progress", "--out", str(tmp_path / "r")])
        summary = json.loads(capsys.readouterr().out)
        # fold gives up its 50 as small blind; as big blind it wins 50 (Slumbot folds), loses its 100 to a bet or
        # checks down for 100 more or less (or a split)
        assert all(o.winnings in ((-50,) if o.client_pos == 1 else (-100, 0, 50, 100)) for o in result.outcomes)
        assert summary["hands"] == 6 and summary["chips"] == sum(o.winnings for o in result.outcomes)
        with pytest.raises(SystemExit) as exit_:
            slumbot.main(["--agent", "nonesuch", "--hands", "2", "--url", server.url, "--no-progress"])
        assert exit_.value.code == 2 and "unknown agent 'nonesuch'" in capsys.readouterr().err
        with pytest.raises(SystemExit) as exit_:
            slumbot.main(["--agent", "random", "--url", server.url, "--username", "alice", "--no-progress"])
        assert exit_.value.code == 2


def test_the_server_refuses_illegal_actions() -> None:
    with SlumbotServer(seed=9) as server:
        connection = SlumbotConnection(server.url)
        reply = connection.new_hand(None)
        while reply.get("winnings") is not None:  # the bot folded its small blind: deal again
            reply = connection.new_hand(reply["token"])
        with pytest.raises(SlumbotError, match="Illegal action 'b10'"):  # pre-flop a raise is to 200 at least
            connection.act(reply["token"], "b10")
        with pytest.raises(SlumbotError, match="exactly one action"):
            connection.act(reply["token"], "kk")
        with pytest.raises(SlumbotError, match="unknown token"):
            connection.act("nonesuch", "k")
        with pytest.raises(SlumbotError, match="unknown endpoint"):
            connection.post("nonesuch", {})


def test_connection_errors_name_the_cause() -> None:
    with pytest.raises(ValueError, match="url must be an http:// or https:// address"):
        SlumbotConnection("slumbot.com")
    with pytest.raises(SlumbotError, match="could not be reached"):
        SlumbotConnection("http://127.0.0.1:1", retries=0).new_hand(None)  # nothing listens on port 1


def test_tokens_read_the_syntax_only() -> None:
    moves, streets = tokens("b200c/kb400")
    assert [(m.street, m.letter, m.to, m.at) for m in moves] == [(0, "b", 200, 0), (0, "c", 0, 4), (1, "k", 0, 6),
                                                                  (1, "b", 400, 7)]
    assert streets == 2
