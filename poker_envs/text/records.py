"""The public record of an environment's latest finished hand, as a ``HandRecord`` (``poker_envs.text.tracker``).

What every seat at the table saw of the hand: its actions, the board as dealt, the blinds and each seat's net
result; no hole cards. The session wrapper (``wrappers.text_env.SessionHands``) and the zoo's runner
(``agent_zoo.runner``, for agents that keep the hands they play) read finished hands through this one function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from poker_envs.encoders.history import decode_history, encode_history
from poker_envs.text.tracker import HandRecord


def keeps_records(env: Any) -> bool:
    """Whether ``env`` (raw or wrapped) can give its finished hands' records: a hold'em-family environment of
    poker_envs built with ``history=True``."""
    raw = getattr(env, "unwrapped", env)
    return getattr(raw, "history_layout", None) is not None and hasattr(raw, "last_hand")


def last_hand_record(env: Any, players: Sequence[int] = ()) -> HandRecord | None:
    """The record of the hand ``env`` finished last (None before the first one, or when the hand had more actions
    than the history's rows hold: no complete log). ``players``: who sat at each environment seat, stored in
    the record (``HandRecord.players``)."""
    if not keeps_records(env):
        raise ValueError(f"hand records need a hold'em-family environment built with history=True, got {type(env).__name__}")
    raw = getattr(env, "unwrapped", env)
    if raw.last_hand is None:
        return None
    state, _, table = raw.last_hand
    layout = raw.history_layout
    history = decode_history(encode_history(state, 0, layout, table), layout)
    if history.num_actions > len(history.actions):
        return None
    net = [0.0] * len(raw.possible_agents)
    for rules_seat, result in enumerate(state.returns()):
        net[table.seats[rules_seat]] = float(result)
    if players and len(players) != len(net):
        raise ValueError(f"players names {len(players)} seats, the table has {len(net)}")
    return HandRecord(table.hand_number, tuple(table.seats), history.actions, history.board, tuple(net),
                      history.blinds, tuple(int(p) for p in players))


__all__ = ["keeps_records", "last_hand_record"]
