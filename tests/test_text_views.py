"""Text and JSON views of poker_envs.text and the history=True observation key they read.

Known truths: the rules' own ``action_to_chips`` / ``action_kind`` and ``HoldemState.history`` on random hands
(the views are built from the observation dict only, the tests read the state to check them), hand-worked
positions at 2, 6 and 10 seats, limit, short deck, push/fold and a session, and the JSON Schema.
"""

from __future__ import annotations

import jsonschema
import numpy as np
import pytest

from poker_envs import (
    limit_holdem_v0, nolimit_holdem_v0, omaha_v0, potlimit_holdem_v0, push_fold_v0, shortdeck_holdem_v0,
)
from poker_envs.core.cards import card_from_str
from poker_envs.encoders.history import HistoryLayout, decode_history
from poker_envs.games.base import ActionKind
from poker_envs.games.holdem import HoldemState
from poker_envs.text import SCHEMA_VERSION, STATE_SCHEMA, TextTable

ENVS = {
    "nolimit3": lambda: nolimit_holdem_v0.env(num_players=3, history=True),
    "nolimit6_chips": lambda: nolimit_holdem_v0.env(num_players=6, starting_stack=80, bet_sizing="chips", history=True),
    "nolimit4_fractions": lambda: nolimit_holdem_v0.env(num_players=4, ante=1, bet_sizing=(0.33, 0.75, 1.5), history=True),
    "nolimit10_uneven": lambda: nolimit_holdem_v0.env(num_players=10, starting_stack=[30, 200, 50, 400, 8, 100, 60, 90, 120, 15], history=True),
    "potlimit3": lambda: potlimit_holdem_v0.env(num_players=3, history=True),
    "limit4": lambda: limit_holdem_v0.env(num_players=4, history=True),
    "shortdeck2": lambda: shortdeck_holdem_v0.env(history=True),
    "omaha3": lambda: omaha_v0.env(num_players=3, history=True),
    "push_fold4": lambda: push_fold_v0.env(num_players=4, stacks_bb=[10, 4, 25, 7], ante_bb=0.125, history=True),
    "tournament3": lambda: nolimit_holdem_v0.env(num_players=3, starting_stack=40, hands_per_episode=30, blind_levels=[(1, 2, 0), (2, 4, 1)],
                                                 hands_per_level=3, payouts=[0.7, 0.3], history=True),
    "push_fold_session": lambda: push_fold_v0.env(num_players=3, hands_per_episode=6, history=True),
}


VALIDATOR = jsonschema.Draft202012Validator(STATE_SCHEMA)


def cards(text: str) -> list[int]:
    return [card_from_str(c) for c in text.split()]


def random_decisions(env, seed: int, limit: int = 200):
    """Yield (observation, raw env) at each decision of random play."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    n = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield obs, env.unwrapped
        n += 1
        if n >= limit:
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", sorted(ENVS))
def test_sizes_history_and_json_agree_with_the_rules(name):
    env = ENVS[name]()
    table = TextTable.for_env(env)
    layout = HistoryLayout.for_env(env)
    space = env.observation_space(env.possible_agents[0])
    checked, shrunk = 0, False
    for seed in range(12):
        for obs, raw in random_decisions(env, seed, limit=60):
            assert space.contains(obs)
            state, seats = raw.state, raw._table.seats
            shrunk |= seats != tuple(range(len(env.possible_agents)))  # eliminations or a rotated push/fold seating
            seat = state.current_player()
            if seat < 0:
                continue  # a hand decided before any decision: only the pass
            # every legal action's kind and street total, by the rules
            for la in table.legal(obs):
                kind = state.action_kind(la.action)
                if isinstance(state, HoldemState):
                    to = state.action_to_chips(la.action)[1] if kind >= ActionKind.BET else state.bets[seat] + (
                        state.to_call(seat) if kind == ActionKind.CALL else 0)
                else:
                    to = state.config.stacks[seat] - state.config.ante_bb if la.action == 1 else state.contributions[seat] - state.config.ante_bb
                expect = "all-in" if kind == ActionKind.ALL_IN else kind.name.lower()
                assert (la.kind, la.to) == (expect, to), (la, kind, to)
                checked += 1
            # the hand so far and the cards
            h = decode_history(obs["history"], layout)
            if isinstance(state, HoldemState):
                records = [(st, seats[r.player], r.kind, r.added, r.total, r.all_in) for st, street in enumerate(state.history) for r in street]
            else:
                records = [(0, seats[r[0]], *r[1:]) for r in state.action_records()]
            assert h.num_actions == len(records)
            assert [tuple(e) for e in h.actions] == [tuple(r) for r in records[-layout.action_rows:]]
            assert h.hole == tuple(state.hole[seat]) and h.board == tuple(state.board)
            # the JSON view
            js = table.state_json(obs)
            VALIDATOR.validate(js)
            assert js["schema_version"] == SCHEMA_VERSION and js["seat"] == seats[seat]
            assert [a["id"] for a in js["legal_actions"]] == np.flatnonzero(obs["action_mask"]).tolist()
    assert checked > 50
    assert shrunk == (name in ("tournament3", "push_fold_session"))  # the seat mapping of sessions was exercised


def test_push_fold_records_match_action_kind():
    """PushFoldState.action_records replays the kinds and amounts action_kind gives as each action is taken."""
    from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame
    from poker_envs.games.base import play_chance

    game = PushFoldGame(PushFoldConfig(num_players=5, stacks_bb=(3, 12, 6, 20, 2), ante_bb=0.25))
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = game.new_initial_state()
        play_chance(state, rng)
        taken = []
        while state.current_player() >= 0:
            seat, action = state.current_player(), int(rng.integers(2))
            kind = state.action_kind(action)
            before = state.contributions[seat]
            state.apply(action)
            play_chance(state, rng)
            expect = {ActionKind.ALL_IN: ActionKind.RAISE}.get(kind, kind)
            taken.append((seat, int(expect), state.contributions[seat] - before))
        assert [(r[0], r[1], r[2]) for r in state.action_records()] == taken


def test_history_is_off_by_default_and_checked():
    env = nolimit_holdem_v0.env()
    env.reset(seed=0)
    assert "history" not in env.observe(env.agent_selection)
    with pytest.raises(ValueError, match="history=True"):
        TextTable.for_env(env)
    with pytest.raises(ValueError, match="history must be True or False"):
        nolimit_holdem_v0.env(history="yes")
    with pytest.raises(ValueError, match="amounts must be 'chips' or 'bb'"):
        TextTable.for_env(nolimit_holdem_v0.env(history=True), amounts="dollars")
    with pytest.raises(ValueError, match="unknown fields"):
        TextTable.for_env(nolimit_holdem_v0.env(history=True), template="{pot} {nonsense}")


# ---- hand-worked positions -----------------------------------------------------------------------------


def play(env, actions, **options):
    for a in actions:
        env.step(a)
    return env.observe(env.agent_selection)


def test_six_seats_prompt():
    """Button 0, blinds 1/2: seat 3 raises pot to 7 (2 + pot 3 + call 2), seat 4 folds, seat 5 calls, seat 0 folds;
    the small blind (seat 1, Ah Kh) faces 6 more into a pot of 17; half pot is 7 + 0.5 * 23 -> 19 (rounded half up:
    18.5 + 0.5), pot 30, 2 pots 53."""
    env = nolimit_holdem_v0.env(num_players=6, history=True)
    env.reset(seed=0, options={"button": 0, "hole": [cards(c) for c in ("2c 3c", "Ah Kh", "9d 9s", "Qs Js", "7c 2d", "Tc Td")]})
    obs = play(env, [3, 0, 1, 0])
    table = TextTable.for_env(env)
    prompt = table.prompt(obs)
    assert "as seat 1" in prompt and "Your cards: Ah Kh" in prompt and "Board: -" in prompt
    assert ("Preflop: seat 1 posts small blind 1; seat 2 posts big blind 2; seat 3 raises to 7; seat 4 folds; "
            "seat 5 calls 7; seat 0 folds.") in prompt
    assert "Pot: 17. To call: 6." in prompt
    assert "- raise to 19 (half pot)\n- raise to 30 (pot)\n- raise to 53 (2 pots)\n- all-in (raise to 200)" in prompt
    assert "seat 0 (BTN): 200" in prompt and "seat 1 (SB) (you): 200" in prompt and "seat 2 (BB): 200" in prompt
    assert "seat 3 193" in prompt and "seat 1 (you) 199" in prompt and "seat 4 200 folded" in prompt
    assert prompt.rstrip().endswith("Final Answer: <action> [amount]")
    js = table.state_json(obs)
    assert (js["pot"], js["to_call"], js["min_raise_to"], js["hole_cards"]) == (17, 6, 12, ["Ah", "Kh"])
    assert [(a["seat"], a["action"], a["amount"]) for a in js["actions"]] == [(3, "raise", 7), (4, "fold", 0), (5, "call", 7), (0, "fold", 0)]
    bb = TextTable.for_env(env, amounts="bb").prompt(obs)
    assert "Pot: 8.5. To call: 3." in bb and "- raise to 9.5 (half pot)" in bb and "in big blinds" in bb


def test_ten_seats_with_antes_prompt():
    """Ten seats, ante 1, blinds 1/2, 100 chips, button 9: seats 2..7 fold, seat 8 calls 2; the button (seat 9)
    faces 2 into 10 antes + 1 + 2 + 2 = 15."""
    env = nolimit_holdem_v0.env(num_players=10, ante=1, starting_stack=100, history=True)
    env.reset(seed=0, options={"button": 9})
    obs = play(env, [0] * 6 + [1])
    prompt = TextTable.for_env(env).prompt(obs)
    assert "as seat 9" in prompt and "10 players" in prompt and "Blinds 1/2, ante 1." in prompt
    assert "seat 0 posts ante 1; seat 1 posts ante 1" in prompt
    assert "seat 0 posts small blind 1; seat 1 posts big blind 2; seat 2 folds" in prompt
    assert "seat 7 folds; seat 8 calls 2." in prompt and "Pot: 15. To call: 2." in prompt
    assert "seat 9 (BTN) (you): 100" in prompt and "seat 9 (you) 99" in prompt and "seat 8 97" in prompt
    hole = env.unwrapped.state.hole[9]
    assert f"Your cards: {' '.join(TextTable.for_env(env).state_json(obs)['hole_cards'])}" in prompt and len(hole) == 2


def test_two_seats_postflop_prompt():
    """Heads-up chips sizing: the button calls, the big blind checks; flop Qh Jh 2c; seat 1 bets 3, the button raises
    to 10; seat 1 (Th 9h) faces 7 into 17, may raise to 17..98."""
    from tests.text_situations import nl_chips_facing

    table, obs = nl_chips_facing()
    prompt = table.prompt(obs)
    assert "Preflop: seat 0 posts small blind 1; seat 1 posts big blind 2; seat 0 calls 1; seat 1 checks." in prompt
    assert "Flop [Qh Jh 2c]: seat 1 bets 3; seat 0 raises to 10." in prompt
    assert "Your cards: Th 9h" in prompt and "Board: Qh Jh 2c" in prompt and "Pot: 17. To call: 7." in prompt
    assert "- raise to 17..98 (any amount in that range)" in prompt and "- call 7" in prompt


def test_limit_prompt():
    """Limit heads-up: the small blind raises to 4, the big blind re-raises to 6; the small blind faces 2 into 10 and
    may cap it at 8."""
    env = limit_holdem_v0.env(history=True)
    env.reset(seed=0, options={"button": 0})
    obs = play(env, [2, 2])
    prompt = TextTable.for_env(env).prompt(obs)
    assert "fixed-limit hold'em" in prompt and "seat 0 raises to 4; seat 1 raises to 6." in prompt
    assert "Pot: 10. To call: 2." in prompt and "- fold\n- call 2\n- raise to 8" in prompt


def test_short_deck_prompt():
    env = shortdeck_holdem_v0.env(history=True)
    env.reset(seed=3, options={"button": 0, "hole": [cards("As 6d"), cards("Kc Kd")], "board": cards("6s 7s 8s 9c Tc")})
    obs = play(env, [1, 1])  # call, check: the flop
    prompt = TextTable.for_env(env).prompt(obs)
    assert "short-deck no-limit hold'em" in prompt and "Board: 6s 7s 8s" in prompt and "Your cards: Kc Kd" in prompt
    assert "Flop [6s 7s 8s]: no action yet." in prompt


def test_push_fold_prompt():
    """Three seats, 10 big blinds: the button (seat 0) pushes, the small blind folds; the big blind faces 9 more
    into 10 + 0.5 + 1."""
    env = push_fold_v0.env(num_players=3, history=True)
    env.reset(seed=0)
    obs = play(env, [1, 0])
    prompt = TextTable.for_env(env).prompt(obs)
    assert "push-or-fold hold'em" in prompt and "All amounts are in big blinds." in prompt
    assert "seat 0 raises to 10 (all-in); seat 1 folds." in prompt and "Pot: 11.5. To call: 9." in prompt
    assert "- fold\n- call 9 (all-in)" in prompt


def test_session_prompt_shows_earlier_hands():
    env = nolimit_holdem_v0.env(hands_per_episode=3, history=True)
    env.reset(seed=0, options={"button": 0})
    obs = play(env, [0])  # the button (small blind) folds: seat 0 -1, seat 1 +1
    table = TextTable.for_env(env)
    prompt = table.prompt(obs)
    assert "This is hand 2 of the session." in prompt
    assert "Earlier hands (latest first), net results: seat 0 -1, seat 1 +1." in prompt
    assert table.state_json(obs)["recent_hands"] == [[-1, 1]]
    assert "seat 1 (BTN/SB)" in prompt and "seat 0 (BB)" in prompt  # the button moved


def test_session_prompt_hud_and_hands_summaries():
    """summary="hud" / "hands" read the finished hands SessionHands records (hand-worked: the button folds)."""
    from wrappers.text_env import SessionHands

    env = SessionHands(nolimit_holdem_v0.env(hands_per_episode=3, history=True))
    env.reset(seed=0, options={"button": 0})
    obs = play(env, [0])  # hand 1: the button (seat 0, small blind) folds; hand 2: seat 1 is the button, to act
    hud, full = TextTable.for_env(env, summary="hud"), TextTable.for_env(env, summary="hands", summary_hands=0)
    line = "- hand 1: Blinds seat 0 1, seat 1 2. Preflop: seat 0 folds. Net: seat 0 -1, seat 1 +1."
    prompt = hud.prompt(obs, env.hands)
    assert "Earlier hands (latest first)" not in prompt and "Opponents this session (1 hand;" in prompt
    assert ("\n- seat 0 (1 hand): VPIP 0% (0/1), PFR 0% (0/1), 3B - (0/0), F3B - (0/0), CB - (0/0), FCB - (0/0), "
            "WTSD - (0/0), AF - (0/0)\n") in prompt
    assert f"Last 1 hand (oldest first):\n{line}\n" in prompt
    assert f"Earlier hands of the session (oldest first):\n{line}\n" in full.prompt(obs, env.hands)
    assert "Opponents this session" not in TextTable.for_env(env, summary="hud").prompt(obs)  # no hands: no statistics
    with pytest.raises(ValueError, match="summary='results' shows only net results"):
        TextTable.for_env(env).prompt(obs, env.hands)
    with pytest.raises(ValueError, match="hands must be poker_envs.text.tracker.HandRecord"):
        hud.prompt(obs, [("not", "a", "record")])
    with pytest.raises(ValueError, match="summary must be one of"):
        TextTable.for_env(env, summary="HUD")


def test_templates():
    env = nolimit_holdem_v0.env(history=True)
    env.reset(seed=0, options={"button": 0})
    obs = env.observe(env.agent_selection)
    t = TextTable.for_env(env, template="Pot {pot}, you hold {hole_cards[0]}.\n{actions_text}\n{answer_format}")
    text = t.prompt(obs)
    assert text.startswith("Pot 3.0, you hold ") and "- call 1" in text and text.endswith("Final Answer: <action> [amount]")
    t = TextTable.for_env(env, template=lambda js: f"to call {js['to_call']}")
    assert t.prompt(obs) == "to call 1.0"
    t = TextTable.for_env(env, list_actions=False)
    assert "Legal actions" not in t.prompt(obs) and "Final Answer:" in t.prompt(obs)
