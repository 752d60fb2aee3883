"""The play-against-agents terminal session (agent_zoo.play), driven through its input stream."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

from agent_zoo.observe import public_state
from agent_zoo.play import QuitSession, action_menu, main, parse_action, play_session
from poker_envs.text import TextTable
from poker_envs import nolimit_holdem_v0
from poker_envs.games.base import ActionKind
from poker_envs.phh import load


class Script(io.StringIO):
    """Input lines, repeated as often as needed (a player with a fixed habit)."""

    def __init__(self, lines: list[str], repeat: int = 1) -> None:
        super().__init__("".join(line + "\n" for line in lines) * repeat)


def _menu(env):
    obs = env.observe(env.agent_selection)
    return action_menu(env.state, np.flatnonzero(obs["action_mask"]).tolist(), public_state(obs))


def _parser(env):
    """``parse_action`` at the seat to act, with the text table play builds (exact amounts: snap off)."""
    obs = env.observe(env.agent_selection)
    menu, table = _menu(env), TextTable.for_env(env, snap=False)
    return menu, lambda text: parse_action(text, menu, table, obs)


def test_parse_action_by_name_amount_and_id() -> None:
    env = nolimit_holdem_v0.raw_env(num_players=3, starting_stack=200, bet_sizing="chips", history=True)
    env.reset(seed=3, options={"button": 0})  # seat 0 faces the big blind of 2: fold, call 2, raise to 4..200
    menu, parse = _parser(env)
    assert parse("fold") == 0 and parse(" CALL ") == 1 and parse("c") == 1
    assert parse("raise 30") == 31 and parse("bet 30") == 31 and parse("30") == 31 and parse("r 30") == 31
    assert parse("allin") == 201 and parse("all") == 201 and parse("#5") == 5 and parse("id 0") == 0
    assert parse("raise pot") == parse("raise to 7")  # the shared grammar: pot words (2 + the pot after calling, 3 + 2)
    assert {m.kind for m in menu} == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALL_IN}
    for text, message in [("check", "you cannot check: there is 2 to call \\(call 2 or fold\\)"),
                          ("raise 3", "raise to 3 is outside the legal range 4 to 200"),
                          ("raise 1000", "raise to 1000 is outside the legal range"),
                          ("#999", "not a legal action id"), ("dance", "no action found"), ("", "type an action")]:
        with pytest.raises(ValueError, match=message):
            parse(text)
    with pytest.raises(QuitSession):
        parse("quit")
    env.step(1), env.step(1)  # seat 0 calls, seat 1 (small blind) calls: the big blind may check
    _, parse = _parser(env)
    assert parse("check") == 1 and parse("c") == 1
    with pytest.raises(ValueError, match="nothing to call: check"):
        parse("call")
    with pytest.raises(ValueError, match="folding is not offered when checking is free"):
        parse("fold")


def test_abstract_sizes_list_the_amounts_that_exist() -> None:
    env = nolimit_holdem_v0.raw_env(num_players=2, starting_stack=200, history=True)  # fold, check/call, 1/2 pot, pot, 2 pots, all-in
    env.reset(seed=0, options={"button": 0})
    menu, parse = _parser(env)
    sized = [m for m in menu if m.kind == ActionKind.RAISE]
    assert parse(f"raise {sized[0].to:g}") == sized[0].action
    with pytest.raises(ValueError, match="raise to 5.5 is not a legal size; legal: .*" + ", ".join(f"raise to {m.to:g}" for m in sized)):
        parse("raise 5.5")


@pytest.mark.parametrize("config", [{}, {"bet_sizing": "chips"}, {"bet_sizing": (0.33, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)}])
def test_the_table_shows_exactly_the_amounts_parse_action_accepts(config: dict) -> None:
    """What the table says you may raise to is what ``parse_action`` accepts: every amount it names (each of a
    list, both ends of a range) is accepted, and with abstract sizes the amounts between them are refused."""
    from agent_zoo.play import render_table

    env = nolimit_holdem_v0.raw_env(num_players=3, starting_stack=200, history=True, **config)
    env.reset(seed=3, options={"button": 0})
    obs = env.observe(env.agent_selection)
    public = public_state(obs)
    menu, parse = _parser(env)
    text = render_table(public, ["you", "a", "b"], 0, [0, 1], [], 1, menu)
    shown = re.search(r"raise to: (.*)$", text, re.M).group(1)
    if ".." in shown:
        low, high = (float(x) for x in shown.split(".."))
        amounts = np.arange(low, high + 1)
    else:
        amounts = np.array([float(x) for x in shown.split(", ")])
    for amount in amounts:
        assert parse(f"raise {amount:g}") in {m.action for m in menu}
    if ".." not in shown:  # abstract sizes: a whole number between two listed amounts is refused
        gaps = [a + 1 for a, b in zip(amounts, amounts[1:]) if b - a > 1]
        assert gaps
        with pytest.raises(ValueError, match=f"raise to {gaps[0]:g} is not a legal size"):
            parse(f"raise {gaps[0]:g}")


def test_main_fills_the_other_seats_with_the_specs_in_turn() -> None:
    """The README's command: six seats, two specs for the five other seats (heuristic, random, heuristic, ...)."""
    out = io.StringIO()
    result = main(["--game", "nolimit", "--players", "6", "--opponents", "heuristic", "random", "--hands", "2",
                   "--seed", "1"], input_stream=Script(["c"], repeat=100), output_stream=out)
    assert result.names == ["you", "heuristic", "random", "heuristic", "random", "heuristic"]
    assert result.hands == 2
    text = out.getvalue()
    seats = ", ".join(f"seat {s} \\({name}\\) [+-]\\d+\\.\\d\\d" for s, name in enumerate(result.names))
    assert len(re.findall(rf"  result: {seats} bb\n", text)) == 2, text  # two agents of one name: the seat tells them apart
    assert re.search(rf"after 2 hand\(s\): {seats} bb\n", text), text


def test_a_folding_player_loses_at_most_the_blinds_and_sees_only_own_cards(tmp_path: Path) -> None:
    """Fold whenever folding is offered, else check: never more than the big blind lost per hand; every
    hand is saved as PHH, and a hand that ends without showdown never shows an opponent's hole cards."""
    out = io.StringIO()
    hands = 8
    result = play_session("nolimit", ["heuristic"], players=6, seat=2, hands=hands, seed=4, phh=str(tmp_path / "s.phhs"),
                          input_stream=Script(["fold", "check"], repeat=200), output_stream=out)
    text = out.getvalue()
    assert result.hands == hands and not result.quit
    assert result.totals[2] >= -1.0 * hands and abs(result.totals.sum()) < 1e-9
    assert "folding is not offered when checking is free: check" in text or "you cannot check" in text
    saved = load(tmp_path / "s.phhs")
    assert len(saved) == hands and all("you" in h.players for h in saved)
    sections = text.split("=== hand ")[1:]
    for hand, section in zip(saved, sections):
        dealt = {}
        for act in hand.actions:
            m = re.match(r"d dh (p\d+) (\w\w)(\w\w)", act)
            if m:
                dealt[int(m.group(1)[1:]) - 1] = f"{m.group(2)} {m.group(3)}"
        mine = dealt[hand.players.index("you")]
        if "your cards:" in section:
            assert f"your cards: {mine}" in section
        shown = any(" sm " in a for a in hand.actions)
        for k, cards in dealt.items():
            if hand.players[k] != "you" and not shown:
                assert cards not in section
    assert f"after {hands} hand(s): " in text


def test_main_plays_push_fold_and_ends_at_quit_or_end_of_input() -> None:
    out = io.StringIO()
    result = main(["--game", "push_fold", "--opponents", "push_fold", "--hands", "50", "--seed", "1"],
                  input_stream=Script(["allin"], repeat=3), output_stream=out)
    assert result.quit and 1 <= result.hands < 50  # three pushes, then the input ends
    assert "session ended" in out.getvalue() and "all-in to 10" in out.getvalue()
    out = io.StringIO()
    result = main(["--game", "limit", "--players", "3", "--opponents", "random", "heuristic", "--hands", "3",
                   "--seed", "2"], input_stream=Script(["raise", "quit"]), output_stream=out)  # seeded: unseeded, both
    # opponents sometimes fold to the raise, the hand ends and one hand counts before "quit" is read
    assert result.quit and result.hands == 0 and "seat 0 (you): raise to 4" in out.getvalue()  # limit: one size, no amount needed


@pytest.mark.parametrize("argv, message", [
    (["--game", "kuhn", "--opponents", "random"], "argument --game: invalid choice: 'kuhn'"),
    (["--game", "nolimit", "--players", "3", "--opponents", "random", "random", "fold"], "--opponents: give 1 to 2 agent specs"),
    (["--game", "nolimit", "--opponents", "random", "--seat", "5"], "seat must be a seat 0..1"),
    (["--game", "nolimit", "--opponents", "nobody"], "unknown agent 'nobody'"),
    (["--game", "nolimit", "--opponents", "random", "--env-config", "num_playerz=3"],
     "unknown key 'num_playerz' for nolimit; its environment takes: num_players, small_blind, big_blind"),
])
def test_main_refuses_bad_setups(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv, input_stream=io.StringIO(""), output_stream=io.StringIO())
    assert exc.value.code == 2
    assert re.search(message, capsys.readouterr().err)


def test_sessions_carry_stacks_and_count_hands_across_episodes(tmp_path: Path) -> None:
    """Cash sessions of 3 hands with rebuys: 5 hands are 2 episodes; each hand is announced, shown and saved."""
    out = io.StringIO()
    result = play_session("nolimit", ["random"], players=3, seat=1, hands=5, seed=2, phh=str(tmp_path / "s.phhs"),
                          env_config={"hands_per_episode": 3, "rebuy": True}, input_stream=Script(["c"], repeat=400),
                          output_stream=out)
    text = out.getvalue()
    assert result.hands == 5 and not result.quit and abs(result.totals.sum()) < 1e-9
    assert [f"=== hand {k} of 5 ===" in text for k in range(1, 6)] == [True] * 5 and "=== hand 6" not in text
    assert text.count("  result: ") == 5 and len(load(tmp_path / "s.phhs")) == 5


def test_showdown_names_hands_by_the_games_ranking() -> None:
    """Short deck: A-6-7-8-9 is a straight (and beats kings); the transcript must say what the rules paid."""
    from agent_zoo.play import _show_down
    from poker_envs import shortdeck_holdem_v0
    from poker_envs.core.cards import cards_from_str

    env = shortdeck_holdem_v0.raw_env(num_players=2)
    kings, wheel = cards_from_str("KhKc"), cards_from_str("As6d")
    deck = [kings[0], wheel[0], kings[1], wheel[1], *cards_from_str("7c8h9sJdQd")]  # dealt one card a seat at a time
    env.reset(seed=0, options={"deck": deck, "button": 0})
    while env.agents:  # check or call down
        env.step(None if env.terminations[env.agent_selection] else 1)
    state = env.last_hand[0]
    assert state.hole[0] == wheel and state.winnings[0] > 0
    out = io.StringIO()
    _show_down(state, ["you", "kings"], [1.0, -1.0], out)
    assert "As 6d  (straight, nine high)" in out.getvalue() and "Kh Kc  (pair of kings)" in out.getvalue()
    out = io.StringIO()
    _show_down(state, ["you", "kings"], [1.0, -1.0], out, seats=[0, 3])  # a session's hand: the table's seat numbers
    assert "    seat 3 (kings): Kh Kc" in out.getvalue()
    assert "  result: seat 0 (you) +1.00, seat 3 (kings) -1.00 bb" in out.getvalue()
