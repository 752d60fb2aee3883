"""Fixed table situations for the text-view and reply-parser tests (tests/data/llm_replies.jsonl names them).

Each builds an environment with ``history=True``, deals fixed cards with a fixed button, plays scripted action
ids and returns (TextTable, observation of the seat to act). The amounts each situation offers are worked out
in the comments (and checked in tests/test_reply_parser.py::test_situations_are_as_documented).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from poker_envs import limit_holdem_v0, nolimit_holdem_v0, push_fold_v0
from poker_envs.core.cards import card_from_str
from poker_envs.text import TextTable


def cards(text: str) -> list[int]:
    return [card_from_str(c) for c in text.split()]


def _play(env: Any, actions: list[int], **view: Any) -> tuple[TextTable, dict]:
    for a in actions:
        env.step(a)
    return TextTable.for_env(env, **view), env.observe(env.agent_selection)


def nl_facing(**view: Any) -> tuple[TextTable, dict]:
    """No-limit, 3 seats, 200 chips, blinds 1/2, abstract sizes; button seat 0 raised pot to 7 (id 3); seat 1 (SB,
    As Kd) to act: pot 10, to call 6; fold, call 6, raise to 15 (half pot: 7 + 0.5 * 16), 23 (pot), 39 (2 pots),
    all-in 200."""
    env = nolimit_holdem_v0.env(num_players=3, history=True)
    env.reset(seed=0, options={"button": 0, "hole": [cards("2c 3d"), cards("As Kd"), cards("7h 7s")]})
    return _play(env, [3], **view)


def nl_chips_unopened(**view: Any) -> tuple[TextTable, dict]:
    """No-limit heads-up, 100 chips, blinds 1/2, chip sizing; button (seat 0) called, big blind checked; on the flop
    Qh Jh 2c seat 1 (Th 9h) acts first: pot 4, nothing to call; check, bet 2..98 (98 behind: bet 98 is all-in)."""
    env = nolimit_holdem_v0.env(num_players=2, starting_stack=100, bet_sizing="chips", history=True)
    env.reset(seed=0, options={"button": 0, "hole": [cards("Ac Ad"), cards("Th 9h")], "board": cards("Qh Jh 2c 5d 5s")})
    return _play(env, [1, 1], **view)


def nl_chips_facing(**view: Any) -> tuple[TextTable, dict]:
    """As ``nl_chips_unopened``, then seat 1 bets 3 (id 4) and the button raises to 10 (id 11); seat 1 to act: pot
    17, to call 7; fold, call 7, raise to 17 (10 + a full raise of 7) .. 98 (all-in: 3 bet + 95 behind)."""
    env = nolimit_holdem_v0.env(num_players=2, starting_stack=100, bet_sizing="chips", history=True)
    env.reset(seed=0, options={"button": 0, "hole": [cards("Ac Ad"), cards("Th 9h")], "board": cards("Qh Jh 2c 5d 5s")})
    return _play(env, [1, 1, 4, 11], **view)


def limit_facing(**view: Any) -> tuple[TextTable, dict]:
    """Fixed-limit heads-up, blinds 1/2 (bets of 2 pre-flop); the button (seat 0, Kc Qc) acts first: pot 3, to call
    1; fold, call 1, raise to 4."""
    env = limit_holdem_v0.env(history=True)
    env.reset(seed=0, options={"button": 0, "hole": [cards("Kc Qc"), cards("8d 3s")]})
    return _play(env, [], **view)


def push_fold(**view: Any) -> tuple[TextTable, dict]:
    """Push/fold heads-up, 10 big blinds; the small blind (seat 0, As Qd: cards are dealt one at a time) acts: pot
    1.5, to call 0.5; fold or all-in to 10 (big blinds)."""
    env = push_fold_v0.env(history=True)
    env.reset(seed=0, options={"deck": cards("As Ks Qd Jd 2c 3c 4h 9s 8s")})
    return _play(env, [], **view)


def push_fold_facing(**view: Any) -> tuple[TextTable, dict]:
    """Push/fold heads-up, 10 big blinds; the small blind pushed; the big blind (Ks Jd) to act: fold or call 9."""
    env = push_fold_v0.env(history=True)
    env.reset(seed=0, options={"deck": cards("As Ks Qd Jd 2c 3c 4h 9s 8s")})
    return _play(env, [1], **view)


SITUATIONS: dict[str, Callable[..., tuple[TextTable, dict]]] = {
    "nl_facing": nl_facing,
    "nl_facing_bb": lambda **v: nl_facing(amounts="bb", **v),
    "nl_facing_nosnap": lambda **v: nl_facing(snap=False, **v),
    "nl_chips_unopened": nl_chips_unopened,
    "nl_chips_facing": nl_chips_facing,
    "limit_facing": limit_facing,
    "push_fold": push_fold,
    "push_fold_facing": push_fold_facing,
}
