"""Decision logs as replays: the hands a language-model player's JSONL log saw, with its replies.

A tournament with ``log_dir`` (``agent_zoo.tournament``) has every logging agent (``agent_zoo.llm.LLMAgent``)
write ``agent<i>_block<b>.jsonl``: one JSON object a decision, holding the ids of the hand (``block``,
``hand``, ``deal``, ``rotation``, ``table``, ``seat``), the public state the agent saw (``state``, the schema
``poker_envs.text.STATE_SCHEMA``: its own cards, the board, the stacks, the hand so far), the prompt, every
reply and the action taken.

``group_hands`` gathers the decisions of one hand (from one file or several: two logging agents at one table
are one hand); ``log_replay`` turns them into frames. Hold'em hands counted in chips are replayed through the
rules (``frames.walk``) from the last decision's hand so far: every action gets a frame, each decision its
replies, and the pot the log recorded at every decision is checked against the rules'. Cards nobody logged
stay face down and are never drawn; the replay stops where the log does (an unknown card, or the hand
after the last decision). Other logs (push/fold, amounts in big blinds, a history cut short) are shown
decision by decision, as logged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_zoo.viewer.frames import Frame, Move, chips_text, walk
from poker_envs.core.cards import card_from_str
from poker_envs.games.holdem import HoldemConfig, HoldemGame

Line = dict[str, Any]
LOG_KEYS = ("state", "prompt", "replies", "action")  # what makes a JSON line a decision of the log
REPLAYED_BETTING = ("nolimit", "potlimit", "limit")
VERB = {"fold": "f", "check": "cc", "call": "cc", "bet": "cbr", "raise": "cbr", "all-in": "cbr"}
NO_CAP = 1000  # raises per street allowed when replaying a log (the table's cap was enforced when it was played)


def is_decision(line: object) -> bool:
    """Whether a parsed JSON line is a decision of a decision log."""
    return isinstance(line, dict) and all(k in line for k in LOG_KEYS) and isinstance(line["state"], dict)


def read_log(path: Path) -> list[Line]:
    """The decisions of a JSONL decision log, each with ``_where`` ("file:line"); a ValueError names a line that
    is not one."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            where = f"{path}:{number}"
            try:
                line = json.loads(text)
            except json.JSONDecodeError as err:
                raise ValueError(f"{where}: not JSON ({err.msg})") from None
            if not is_decision(line):
                raise ValueError(f"{where}: not a decision of a decision log (it needs the keys {', '.join(LOG_KEYS)})")
            lines.append({**line, "_where": where, "_folder": str(path.parent)})
    return lines


def hand_key(line: Line) -> tuple[Any, ...]:
    """What one hand's decisions share: the tournament's ids where the log has them, else the deal itself."""
    state = line["state"]
    if "hand" in line and "block" in line:
        return (line["_folder"], line["block"], line["hand"], state["hand_number"])
    starts = tuple(s["start_stack"] for s in state["seats"])
    return (line["_where"].rsplit(":", 1)[0], line.get("agent"), line["seat"], tuple(state["hole_cards"]),
            state["hand_number"], starts)


def group_hands(lines: Iterable[Line]) -> list[list[Line]]:
    """The decisions of each hand, hands in order of their first decision, decisions in the hand's order."""
    hands: dict[tuple[Any, ...], list[Line]] = {}
    for line in lines:
        hands.setdefault(hand_key(line), []).append(line)
    return [sorted(group, key=_position) for group in hands.values()]


def _position(line: Line) -> int:
    return len(line["state"]["actions"]) + line["state"]["actions_dropped"]


def hand_title(group: Sequence[Line]) -> str:
    """A hand's name in the list: its tournament ids where the log has them, and who logged it."""
    first = group[0]
    parts = [f"{k} {first[k]}" for k in ("block", "deal", "rotation") if k in first]
    if first["state"]["hand_number"] or first["state"]["level"]:
        parts.append(f"hand {first['state']['hand_number'] + 1}")
    agents = sorted({short_name(str(line.get("agent", "agent"))) for line in group})
    return ", ".join(parts or [first["_where"]]) + " · " + ", ".join(agents)


def _reply(line: Line) -> dict[str, Any]:
    keys = ("agent", "prompt", "replies", "failures", "reprompts", "fallback", "snapped", "latency_s")
    return {k: line[k] for k in keys if k in line}


def _chips(value: float, where: str, what: str) -> int:
    if float(value) != int(value):
        raise ValueError(f"{where}: {what} {value} is not a whole number of chips")
    return int(value)


def _taken(line: Line) -> Mapping[str, Any]:
    """The legal action the line's decision took (its ``action`` id in the state's ``legal_actions``)."""
    for entry in line["state"]["legal_actions"]:
        if entry["id"] == line["action"]:
            return entry
    raise ValueError(f"{line['_where']}: action {line['action']} is not one of the state's legal actions "
                     f"{[e['id'] for e in line['state']['legal_actions']]}")


def names_by_seat(group: Sequence[Line]) -> dict[int, str]:
    """Environment seat -> the name shown: the logging agent's where it sat, else "seat N"."""
    state = group[-1]["state"]
    names = {s["seat"]: f"seat {s['seat']}" for s in state["seats"]}
    for line in group:
        names[line["seat"]] = short_name(str(line.get("agent", names[line["seat"]])))
    return names


def short_name(agent: str) -> str:
    """An agent's name without its server address ("llm:gpt-4o@https://..." -> "llm:gpt-4o"), for the table."""
    return agent.split("@", 1)[0]


def log_replay(group: Sequence[Line]) -> dict[str, Any]:
    """The replay of one hand's decisions: ``names``, ``frames``, ``notes`` and ``focus`` (the first logging seat)."""
    state = group[-1]["state"]
    if state["unit"] != "chips" or state["betting"] not in REPLAYED_BETTING or state["actions_dropped"]:
        return snapshot_replay(group)
    last = group[-1]
    where = last["_where"]
    seats = [s for s in state["seats"] if s["in_play"]]  # the hand's rules seats, in table order
    rules = {s["seat"]: i for i, s in enumerate(seats)}
    hole_size = len(state["hole_cards"])
    config = HoldemConfig(
        num_players=len(seats), small_blind=_chips(state["small_blind"], where, "small_blind"),
        big_blind=_chips(state["big_blind"], where, "big_blind"), ante=_chips(state["ante"], where, "ante"),
        starting_stacks=tuple(_chips(s["start_stack"], where, "start_stack") for s in seats), betting=state["betting"],
        hole_cards=hole_size, hand_rule="omaha" if hole_size >= 4 else "best_five", allow_fold_when_check=True,
        max_raises_per_round=NO_CAP)  # the cards only need to be distinct: no showdown is settled with unknown cards
    board = [card_from_str(c) for c in state["board"]]
    hole: list[list[int] | None] = [None] * len(seats)
    for line in group:
        own = [card_from_str(c) for c in line["state"]["hole_cards"]]
        if line["state"]["board"] != state["board"][: len(line["state"]["board"])]:
            raise ValueError(f"{line['_where']}: its board {line['state']['board']} is not the start of the hand's "
                             f"board {state['board']} ({where})")
        hole[rules[line["seat"]]] = own
    known = [h is not None for h in hole]
    spare = iter(c for c in HoldemGame(config).deck if c not in board and all(c not in h for h in hole if h))
    hole = [h if h is not None else [next(spare) for _ in range(hole_size)] for h in hole]
    moves = [Move(rules[a["seat"]], VERB[a["action"]], _chips(a["amount"], where, "amount")) for a in state["actions"]]
    moves.append(Move(rules[last["seat"]], VERB[_taken(last)["action"]], _chips(_taken(last)["to"], where, "to")))
    for line in group:
        k = len(line["state"]["actions"])
        taken, move = _taken(line), moves[k]
        if move.seat != rules[line["seat"]] or move.verb != VERB[taken["action"]] or (
                move.verb == "cbr" and move.to != _chips(taken["to"], where, "to")):
            raise ValueError(f"{line['_where']}: took {taken['text']!r} as seat {line['seat']}, but the hand's later "
                             f"decision ({where}) records another action there")
        moves[k] = Move(move.seat, move.verb, move.to, _reply(line), _chips(line["state"]["pot"], where, "pot"),
                        line["_where"])
    by_seat = names_by_seat(group)
    names = [by_seat[s["seat"]] for s in seats]
    if state["button"] not in rules:
        raise ValueError(f"{where}: the button (seat {state['button']}) is not a seat in play")
    frames = walk(HoldemGame(config), rules[state["button"]], hole, board, moves, names, known)
    notes = []
    if not frames[-1].get("over"):
        notes.append("The log ends with its last decision: the rest of the hand (later actions, cards nobody "
                     "logged) is not in it.")
    return {"names": names, "frames": frames, "notes": notes, "focus": rules[group[0]["seat"]]}


def snapshot_replay(group: Sequence[Line]) -> dict[str, Any]:
    """One frame per decision, from the state as logged (for logs the rules replay does not take)."""
    by_seat = names_by_seat(group)
    frames: list[Frame] = []
    for line in group:
        state = line["state"]
        seats = [{"name": by_seat[s["seat"]], "cards": list(state["hole_cards"]) if s["seat"] == line["seat"] else [],
                  "stack": s["stack"], "bet": s["bet"], "folded": s["folded"], "all_in": s["all_in"],
                  "button": s["seat"] == state["button"]} for s in state["seats"]]
        taken = _taken(line)
        frames.append({"street": state["street"], "board": list(state["board"]), "pot": state["pot"], "seats": seats,
                       "to_act": line["seat"], "actor": line["seat"], "reply": _reply(line),
                       "text": f"{by_seat[line['seat']]}: {taken['text']} (to call {chips_text(state['to_call'])})"})
    unit = group[-1]["state"]["unit"]
    return {"names": [by_seat[s] for s in sorted(by_seat)], "frames": frames, "focus": group[0]["seat"],
            "notes": [f"Shown decision by decision as logged (amounts in {unit}), not replayed through the rules."]}
