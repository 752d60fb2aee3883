"""The JSON Schema (draft 2020-12) of ``TextTable.state_json``; ``SCHEMA_VERSION`` changes with any change to it."""

from __future__ import annotations

from typing import Any

SCHEMA_VERSION = 1

_NUMBER = {"type": "number"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 9}
_STREET = {"enum": ["preflop", "flop", "turn", "river"]}
_CARD = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"}

STATE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "poker_envs text view: the public state for the seat to act",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "schema_version", "game", "betting", "unit", "num_players", "seat", "hand_number", "level", "street", "button",
        "small_blind", "big_blind", "ante", "hole_cards", "board", "pot", "to_call", "min_raise_to", "max_raise_to",
        "seats", "actions", "actions_dropped", "legal_actions", "recent_hands",
    ],
    "properties": {
        "schema_version": {"const": SCHEMA_VERSION},
        "game": {"type": "string"},  # the game's name, e.g. "nolimit_holdem", "short_deck_nolimit_holdem", "push_fold_2p"
        "betting": {"enum": ["nolimit", "potlimit", "limit", "push_fold"]},
        "unit": {"enum": ["chips", "big blinds"]},  # the unit of every amount below
        "num_players": {"type": "integer", "minimum": 2, "maximum": 10},  # seats of the environment
        "seat": _SEAT,  # the observing seat (the seat to act)
        "hand_number": {"type": "integer", "minimum": 0},  # hands played before this one in a session
        "level": {"type": "integer", "minimum": 0},  # blind level of a tournament session
        "street": _STREET,
        "button": _SEAT,
        "small_blind": _NUMBER, "big_blind": _NUMBER, "ante": _NUMBER,
        "hole_cards": {"type": "array", "items": _CARD, "maxItems": 6},  # the observer's own cards
        "board": {"type": "array", "items": _CARD, "maxItems": 5},
        "pot": _NUMBER,  # every chip put in this hand (blinds and antes included)
        "to_call": _NUMBER,  # what the observer must add to call
        "min_raise_to": _NUMBER, "max_raise_to": _NUMBER,  # the legal raise-to range (street totals), 0 when none
        "seats": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["seat", "position", "in_play", "stack", "bet", "contributed", "folded", "all_in", "start_stack"],
            "properties": {
                "seat": _SEAT,
                "position": {"enum": ["", "BTN", "SB", "BB", "BTN/SB"]},
                "in_play": {"type": "boolean"},  # False once eliminated from a session
                "stack": _NUMBER, "bet": _NUMBER, "contributed": _NUMBER,  # behind, this street, this hand
                "folded": {"type": "boolean"}, "all_in": {"type": "boolean"},
                "start_stack": _NUMBER,  # at the start of the hand, before posting
            },
        }},
        "actions": {"type": "array", "items": {  # the hand so far, oldest first (blinds and antes are not actions)
            "type": "object", "additionalProperties": False,
            "required": ["street", "seat", "action", "amount", "added", "all_in"],
            "properties": {
                "street": _STREET, "seat": _SEAT,
                "action": {"enum": ["fold", "check", "call", "bet", "raise"]},
                "amount": _NUMBER,  # the seat's street total after the action (bet-to / raise-to)
                "added": _NUMBER,  # chips the action put in
                "all_in": {"type": "boolean"},
            },
        }},
        "actions_dropped": {"type": "integer", "minimum": 0},  # earliest actions of a very long hand not kept
        "legal_actions": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "action", "amount", "to", "text"],
            "properties": {
                "id": {"type": "integer", "minimum": 0},  # the action id to play
                "action": {"enum": ["fold", "check", "call", "bet", "raise", "all-in"]},
                "amount": _NUMBER,  # call: what it adds; bet / raise / all-in: the street total; else the bet now
                "to": _NUMBER,  # the street total after the action
                "text": {"type": "string"},  # the canonical reply naming it
            },
        }},
        "recent_hands": {"type": "array", "items": {"type": "array", "items": _NUMBER}},  # session: net per seat, latest first
    },
}

STATE_FIELDS = tuple(STATE_SCHEMA["properties"])
