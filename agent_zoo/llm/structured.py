"""Structured output: the legal actions of a decision as a JSON schema the server constrains its reply to, and
the strict reading of that reply.

With ``output="json_schema"`` or ``"json_object"`` (``LLMConfig.output``) each request carries, in
``response_format``, a schema whose ``action`` enum lists exactly the legal action words (``fold`` only when
folding is legal, ``check`` or ``call``, ``bet`` or ``raise`` with an integer ``amount``: the street total in
chips, its ``minimum``/``maximum`` the legal range and, unless every chip count in that range is legal and there
are many, an ``enum`` of the legal sizes; push/fold: ``all-in``). A server that honours the schema (a grammar
built from it: llama.cpp, vLLM; OpenAI's structured outputs) can only answer a legal action.

The reply is read strictly (``read_structured``): the whole reply must be one JSON object with ``action`` and,
for a bet or raise, ``amount``, nothing else. Not JSON, another shape, a missing or extra key, a wrong type:
``"unparsable"``; an action word or amount outside the legal ones: ``"illegal"``; an empty reply: ``"empty"``.
Nothing is coerced (no snapping, no rounding) and nothing is read from prose.

Two envelopes for the same schema: ``json_schema`` is ``{"type": "json_schema", "json_schema": {"name": ...,
"schema": ...}}`` (OpenAI, vLLM, llama.cpp's ``llama-server``, Ollama); ``json_object`` is ``{"type":
"json_object", "schema": ...}`` (``llama-cpp-python``'s server, which answers the other with HTTP 500;
``llama-server`` takes both). ``llama-cpp-python`` builds its grammar from ``enum`` but not from ``minimum``/``maximum``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agent_zoo.llm.config import OUTPUTS
from poker_envs.encoders.public import decode_public
from poker_envs.text import LegalAction, Parsed, TextTable, sized_word

SCHEMA_NAME = "poker_action"
SIZED_WORDS = ("bet", "raise")  # the words that carry an amount
MAX_ENUM_SIZES = 256  # more legal sizes than this, every chip count of the range: minimum/maximum only


@dataclass(frozen=True)
class Choice:
    """One legal answer: its action word, its amount (bets and raises: the street total in chips) and its id."""

    word: str
    amount: int | None
    action: int


def choices(table: TextTable, observation: Mapping[str, Any]) -> list[Choice]:
    """The legal answers of the decision, in action-id order (the words and amounts the schema allows)."""
    legal = table.legal(observation)
    public = decode_public(observation["public"], table.num_players)
    verb = sized_word(public)  # the views' word, an all-in's too
    push_fold = table.sizing.betting == "push_fold"
    out = []
    for a in legal:
        if push_fold or a.kind in ("fold", "check", "call"):
            out.append(Choice(a.kind, None, a.action))
        else:
            out.append(Choice(verb, _chips(a), a.action))
    return out


def _chips(a: LegalAction) -> int:
    """The street total of a sized action in whole chips (structured output is refused for big-blind amounts)."""
    if a.to != int(a.to):
        raise ValueError(f"structured output needs whole-chip sizes; action {a.action} bets to {a.to}")
    return int(a.to)


def action_schema(table: TextTable, observation: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON schema of a legal answer at this decision (module doc); one object shape per kind of answer."""
    found = choices(table, observation)
    plain = sorted({c.word for c in found if c.amount is None}, key=[c.word for c in found].index)
    shapes: list[dict[str, Any]] = []
    if plain:
        shapes.append({"type": "object", "properties": {"action": {"type": "string", "enum": plain}},
                       "required": ["action"], "additionalProperties": False})
    sized = sorted({c.amount for c in found if c.amount is not None})
    if sized:
        verb = next(c.word for c in found if c.amount is not None)
        amount: dict[str, Any] = {"type": "integer", "minimum": sized[0], "maximum": sized[-1]}
        contiguous = len(sized) == sized[-1] - sized[0] + 1
        if not (contiguous and len(sized) > MAX_ENUM_SIZES):
            amount["enum"] = sized
        shapes.append({"type": "object", "properties": {"action": {"type": "string", "enum": [verb]}, "amount": amount},
                       "required": ["action", "amount"], "additionalProperties": False})
    return shapes[0] if len(shapes) == 1 else {"anyOf": shapes}


def response_format(output: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The request's ``response_format`` for ``output`` ("json_schema" or "json_object") carrying ``schema``."""
    if output == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": schema}}
    if output == "json_object":
        return {"type": "json_object", "schema": schema}
    raise ValueError(f"output must be one of {list(OUTPUTS[1:])} for a response_format, got {output!r}")


def instruction(table: TextTable, observation: Mapping[str, Any]) -> str:
    """The line appended to the prompt: answer with the JSON object, and (``list_actions``) the legal values."""
    if not table.list_actions:
        return ('Reply with one JSON object only: {"action": ACTION}, or to bet or raise {"action": ACTION, '
                '"amount": CHIPS}, the street total in chips.')
    found = choices(table, observation)
    words = ", ".join(dict.fromkeys(c.word for c in found))
    sized = [c.amount for c in found if c.amount is not None]
    size = (f'; with "{next(c.word for c in found if c.amount is not None)}" add "amount": the street total in '
            f"chips, from {min(sized)} to {max(sized)}") if sized else ""
    return f'Reply with one JSON object only: {{"action": ...}}, the action one of {words}{size}.'


def _fail(kind: str, message: str, text: str = "") -> Parsed:
    return Parsed(None, kind, message, False, text)


def read_structured(reply: object, table: TextTable, observation: Mapping[str, Any]) -> Parsed:
    """The legal action a structured ``reply`` names, or the failure (module doc); never raises on any input."""
    if reply is None or (isinstance(reply, str) and not reply.strip()):
        return _fail("empty", 'the reply is empty; answer with a JSON object such as {"action": "call"}')
    if not isinstance(reply, str):
        return _fail("unparsable", f"the reply must be text, got {type(reply).__name__}")
    text = reply.strip()
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        data = json.loads(text)
    except ValueError:
        return _fail("unparsable", f"the reply is not one JSON object: {shown!r}", shown)
    if not isinstance(data, dict):
        return _fail("unparsable", f"the reply must be a JSON object with an action, got {shown!r}", shown)
    found = choices(table, observation)
    legal_words = list(dict.fromkeys(c.word for c in found))
    word = data.get("action")
    if not isinstance(word, str):
        return _fail("unparsable", f'the JSON object needs "action", a string, one of {legal_words}; got {shown!r}', shown)
    sized = word in SIZED_WORDS
    allowed = {"action", "amount"} if sized else {"action"}
    extra = sorted(set(data) - allowed)
    if extra:
        return _fail("unparsable", f"unexpected key(s) {extra} for action {word!r}; allowed: {sorted(allowed)}", shown)
    if word not in legal_words:
        return _fail("illegal", f"action {word!r} is not legal here; legal: {legal_words}", shown)
    if not sized:
        return Parsed(next(c.action for c in found if c.word == word), None, word, False, shown)
    amount = data.get("amount")
    sizes = sorted({c.amount for c in found if c.amount is not None})
    if amount is None:
        return _fail("unparsable", f'{word} needs "amount", an integer from {sizes[0]} to {sizes[-1]} chips', shown)
    if isinstance(amount, bool) or not isinstance(amount, int):
        return _fail("unparsable", f'"amount" must be an integer number of chips, got {json.dumps(amount)[:40]}', shown)
    for c in found:
        if c.word == word and c.amount == amount:
            return Parsed(c.action, None, f"{word} {amount}", False, shown)
    listed = f"{sizes}" if len(sizes) <= 12 else f"{sizes[0]} to {sizes[-1]}"
    return _fail("illegal", f"{word} {amount} is not a legal size; legal amounts: {listed}", shown)


__all__ = ["MAX_ENUM_SIZES", "OUTPUTS", "SCHEMA_NAME", "SIZED_WORDS", "Choice", "action_schema", "choices", "instruction",
           "read_structured", "response_format"]
