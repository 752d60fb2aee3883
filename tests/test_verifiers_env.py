"""The hold'em environment for ``verifiers`` (wrappers.verifiers_env), run through verifiers' own evaluation API
with a scripted OpenAI-compatible client: hands reach their end, the reward is the rules' result of the hand in
big blinds (replayed on a fresh table), and bad tool calls are answered with a readable error, nothing played."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import verifiers as vf
from openai.types.chat import ChatCompletion

from wrappers.text_env import TextPokerEnv
from wrappers.verifiers_env import ACTIONS, TOOL_NAME, load_environment

Move = tuple[str, str] | str  # (tool name, raw JSON arguments), "text" (no tool call) or "legal" (a legal action)
BAD_MOVES: list[Move] = [
    (TOOL_NAME, '{action: call'),  # malformed JSON
    (TOOL_NAME, json.dumps({"action": "raise", "amount": 1e9})),  # far past any stack: out of range (or no raise)
    (TOOL_NAME, json.dumps({"action": "dance"})),  # not an action word
    (TOOL_NAME, json.dumps({"action": "call", "amount": 5})),  # amount on an action that takes none
    ("fold_everything", json.dumps({"action": "fold"})),  # not the tool
    "text",  # prose, no tool call
]
_LEGAL_LINE = re.compile(r"^- (fold|check|call|bet|raise to|all-in)\b(?: (\d+(?:\.\d+)?))?", re.MULTILINE)


def legal_lines(messages: list[dict[str, Any]]) -> list[tuple[str, float | None]]:
    """The legal actions the last table text lists: ("raise", 14.0), ("call", None), ..."""
    for m in reversed(messages):
        content = m.get("content") or ""
        if m["role"] in ("user", "tool") and "Legal actions:" in content:
            found = _LEGAL_LINE.findall(content.rsplit("Legal actions:", 1)[1])
            assert found, content
            out: list[tuple[str, float | None]] = []
            for word, amount in found:
                if word == "raise to" or (word == "bet" and amount):
                    out.append(("raise" if word == "raise to" else "bet", float(amount)))
                else:
                    out.append((word, None))
            return out
    raise AssertionError("no table text with legal actions in the conversation")


class ScriptedCompletions:
    """``chat.completions.create`` of an OpenAI client: the script's moves in order, then legal actions, picked
    from the listed ones by the turn number (calls and checks mostly, some raises and folds)."""

    def __init__(self, script: list[Move]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []

    async def create(self, *, model: str, messages: list[dict[str, Any]], tools: Any = None, **kwargs: Any) -> ChatCompletion:
        self.requests.append({"tools": tools, **kwargs})
        turn = sum(m["role"] == "assistant" for m in messages)
        move = self.script[turn] if turn < len(self.script) else "legal"
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if move == "text":
            message["content"] = "I think I will call here."
        else:
            if move == "legal":
                legal = legal_lines(messages)
                passive = [a for a in legal if a[0] in ("check", "call")]
                k = turn % 7
                pick = legal[min(2, len(legal) - 1)] if k == 3 else legal[0] if k == 5 else (passive or legal)[0]
                args = {"action": pick[0]} if pick[1] is None else {"action": pick[0], "amount": pick[1]}
                move = (TOOL_NAME, json.dumps(args))
            name, arguments = move
            message["tool_calls"] = [{"id": f"call_{turn}", "type": "function",
                                      "function": {"name": name, "arguments": arguments}}]
        return ChatCompletion.model_validate({
            "id": f"stub-{turn}", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "tool_calls" if "tool_calls" in message else "stop", "message": message}],
        })


class ScriptedClient:
    """What verifiers uses of an ``AsyncOpenAI`` client."""

    base_url = "http://127.0.0.1:1/v1"

    def __init__(self, script: list[Move]) -> None:
        self.chat = type("Chat", (), {})()
        self.chat.completions = ScriptedCompletions(script)


def evaluate(env: vf.Environment, script: list[Move], n: int) -> list[dict[str, Any]]:
    results = asyncio.run(env.evaluate(ScriptedClient(script), model="stub", num_examples=n, state_columns=["poker"]))
    outputs = results["outputs"]
    assert len(outputs) == n
    return outputs


def played_calls(completion: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """(the tool call's function, its answer) of every tool call, in order: each assistant message's calls are
    answered by the tool messages that follow it, in order (the outputs keep the calls as JSON text)."""
    out = []
    for i, m in enumerate(completion):
        calls = [json.loads(c) if isinstance(c, str) else c for c in m.get("tool_calls") or []]
        answers = completion[i + 1 : i + 1 + len(calls)]
        assert [a["role"] for a in answers] == ["tool"] * len(calls)
        out += [(call["function"], answer["content"]) for call, answer in zip(calls, answers)]
    return out


def rules_result(num_players: int, poker: dict[str, Any], replies: list[str], forfeit: bool = False) -> tuple[float, str]:
    """The seat's result in big blinds by the rules (the hand's final state's returns), on a fresh table replayed
    with ``replies``; then, with ``forfeit``, check-or-fold to the end. Also the first prompt (the deal)."""
    env = TextPokerEnv("nolimit", opponents="heuristic", seat=poker["seat"], num_players=num_players, snap=False)
    first, info = env.reset(seed=poker["seed"])
    done = False
    for reply in replies:
        _, _, done, _, info = env.step(reply)
        assert info["failure"] is None, info["message"]
    while forfeit and not done:
        kinds = {a["action"] for a in info["state"]["legal_actions"]}
        _, _, done, _, info = env.step("check" if "check" in kinds else "fold")
    assert done
    raw = env.table_env.aec.unwrapped
    state, _, table = raw.last_hand
    rules_seat = list(table.seats).index(poker["seat"])
    return float(state.returns()[rules_seat]) / raw.game.config.big_blind, first


def reply_for(args: dict[str, Any]) -> str:
    """The table reply the test reads a legal tool call as (written here, not taken from the module)."""
    if "amount" not in args:
        return args["action"]
    return f"{'raise to' if args['action'] == 'raise' else 'bet'} {args['amount']:g}"


@pytest.mark.parametrize("num_players", [2, 6])
def test_rollouts_end_the_hand_and_pay_the_rules_result(num_players: int) -> None:
    env = load_environment(num_players=num_players, num_examples=4, seed=11)
    outputs = evaluate(env, BAD_MOVES, 4)
    assert sorted(o["poker"]["seat"] for o in outputs) == sorted(i % num_players for i in range(4))
    for out in outputs:
        poker = out["poker"]
        assert out["error"] is None
        assert out["stop_condition"] == "has_final_env_response"
        assert poker["hand_over"] and not poker["forfeited"]
        calls = played_calls(out["completion"])
        bad = calls[: len(BAD_MOVES) - 1]  # the script's tool calls (the last bad move is prose)
        assert all(answer.startswith("Error: ") and "Nothing was played" in answer for _, answer in bad)
        assert "valid JSON" in bad[0][1]
        assert "out_of_range" in bad[1][1] or "illegal" in bad[1][1]
        assert all(word in bad[2][1] for word in ACTIONS)  # names what is allowed
        assert "amount is only for bet and raise" in bad[3][1]
        assert "unknown tool 'fold_everything'" in bad[4][1]
        reminder = out["completion"][2 * len(BAD_MOVES) - 1]
        assert reminder["role"] == "user" and TOOL_NAME in reminder["content"]
        played = calls[len(BAD_MOVES) - 1 :]
        assert played and all(answer.startswith("You played: ") for _, answer in played)
        assert "The hand is over" in played[-1][1]
        assert out["metrics"]["tool_errors"] == len(BAD_MOVES) - 1 == poker["tool_errors"]
        assert len(poker["actions"]) == len(played)  # one action per legal call: the errors played nothing
        expected, first = rules_result(num_players, poker, [reply_for(json.loads(f["arguments"])) for f, _ in played])
        assert out["reward"] == pytest.approx(expected, abs=1e-9)
        assert out["metrics"]["chips_won_bb"] == pytest.approx(expected, abs=1e-9)
        deal = re.search(r"Your cards: .*", first).group(0)
        assert deal in out["prompt"][-1]["content"]  # the hand the model saw is the hand replayed


def test_folding_the_small_blind_loses_half_a_big_blind() -> None:
    """Hand-worked: heads-up, the button posts the small blind (1 chip of a 2-chip big blind) and acts first;
    folding there loses 0.5 big blinds."""
    env = load_environment(num_players=2, num_examples=6, seed=3)
    outputs = evaluate(env, [(TOOL_NAME, json.dumps({"action": "fold"}))], 6)
    small_blind = [o for o in outputs if "(BTN/SB) (you)" in o["prompt"][-1]["content"]]
    assert small_blind, "no row dealt the model the small blind"
    for out in small_blind:
        assert out["reward"] == -0.5 and out["poker"]["actions"] == ["fold"]


def test_a_rollout_out_of_turns_forfeits_the_hand() -> None:
    """Only bad calls until max_turns: the hand is finished by check-or-fold and that result is the reward."""
    env = load_environment(num_players=6, num_examples=3, seed=5, max_turns=3)
    outputs = evaluate(env, [(TOOL_NAME, "not json")] * 3, 3)
    for out in outputs:
        poker = out["poker"]
        assert out["stop_condition"] == "max_turns_reached"
        assert poker["forfeited"] and poker["hand_over"] and out["metrics"]["forfeited"] == 1.0
        assert poker["actions"] == [] and poker["tool_errors"] == 2  # the third call is never answered: out of turns
        expected, _ = rules_result(6, poker, [], forfeit=True)
        assert out["reward"] == pytest.approx(expected, abs=1e-9) and expected <= 0


def test_the_tool_is_offered_and_loaded_by_name() -> None:
    env = vf.load_environment("wrappers.verifiers_env", num_players=3, num_examples=2)
    client = ScriptedClient([])
    asyncio.run(env.evaluate(client, model="stub", num_examples=1))
    tools = client.chat.completions.requests[0]["tools"]
    assert [t["function"]["name"] for t in tools] == [TOOL_NAME]
    assert tools[0]["function"]["parameters"]["properties"]["action"]["enum"] == list(ACTIONS)


@pytest.mark.parametrize("kwargs, words", [
    ({"num_players": 11}, "num_players must be an int from 2 to 10"),
    ({"num_players": 2, "seat": 2}, "seat must be 'rotate' or an int in 0..1"),
    ({"game": "kuhn"}, "game must be one of"),
    ({"num_examples": 0}, "num_examples must be an int >= 1"),
    ({"opponents": "no_such_agent"}, "no_such_agent"),
])
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        load_environment(**kwargs)
