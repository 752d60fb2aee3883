"""Structured output of ``llm:`` agents (agent_zoo.llm.structured) against the scripted stub server.

Known truths used: heads-up no-limit (blinds 1/2, 200-chip stacks, abstract sizes) opens with the button facing
the big blind: fold, call and raises to 4 (the minimum) up to 200 (all-in) are legal; after the button calls,
the big blind checks for free, so folding is not offered. The schema is checked against ``jsonschema`` (a peer
validator): on random decisions, exactly the answers the strict reader accepts validate, for every legal answer
and for nearby illegal ones.
"""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest

from agent_zoo.llm import make_llm_agent, parse_llm_arg
from agent_zoo.llm.structured import action_schema, choices, read_structured, response_format
from agent_zoo.tournament import build_env
from poker_envs.encoders.public import decode_public
from tests.llm_stub import Reply, StubServer


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def opening(env_config: dict | None = None, seed: int = 3):
    env = build_env("nolimit", {"history": True, **(env_config or {})})
    env.reset(seed=seed)
    return env, env.observe(env.agent_selection)


def shapes(schema: dict) -> dict[str, dict]:
    """The schema's object shapes by action word."""
    out = {}
    for shape in schema.get("anyOf", [schema]):
        for word in shape["properties"]["action"]["enum"]:
            out[word] = shape
    return out


def test_the_request_carries_the_legal_actions_as_a_schema_in_both_envelopes(stub):
    env, obs = opening()
    for output in ("json_schema", "json_object"):
        agent = make_llm_agent(f"m@{stub.url},output={output},transport=http", env)
        stub.push(Reply('{"action": "call"}'))
        assert agent.act(obs, np.random.default_rng(0)) == 1
        form = stub.requests[-1]["response_format"]
        schema = form["json_schema"]["schema"] if output == "json_schema" else form["schema"]
        assert form["type"] == output and (output == "json_object" or form["json_schema"]["name"])
        by_word = shapes(schema)
        assert sorted(by_word) == ["call", "fold", "raise"]  # the button facing the big blind
        amount = by_word["raise"]["properties"]["amount"]
        assert (amount["type"], amount["minimum"], amount["maximum"]) == ("integer", 4, 200)
        assert by_word["raise"]["required"] == ["action", "amount"] and "amount" not in by_word["fold"]["properties"]
        assert '{"action"' in stub.requests[-1]["messages"][-1]["content"]  # the prompt asks for the JSON object
    # text output: no response_format
    agent = make_llm_agent(f"m@{stub.url},transport=http", env)
    stub.push(Reply("call"))
    agent.act(obs, np.random.default_rng(0))
    assert "response_format" not in stub.requests[-1]


def test_fold_is_not_in_the_schema_when_checking_is_free_and_bounds_follow_the_rules():
    env, _ = opening()
    env.step(1)  # the button calls: the big blind may check
    obs = env.observe(env.agent_selection)
    agent = make_llm_agent("m@http://127.0.0.1:9/v1,output=json_schema", env)
    by_word = shapes(action_schema(agent.table, obs))
    assert sorted(by_word) == ["check", "raise"]
    assert read_structured('{"action": "fold"}', agent.table, obs).failure == "illegal"
    # chip-by-chip sizing: every raise-to from the rules' minimum to the all-in is allowed, as an integer range
    env, obs = opening({"bet_sizing": "chips"})
    agent = make_llm_agent("m@http://127.0.0.1:9/v1,output=json_schema", env)
    public = decode_public(obs["public"], 2)
    amount = shapes(action_schema(agent.table, obs))["raise"]["properties"]["amount"]
    assert (amount["minimum"], amount["maximum"]) == (public.min_raise_to, public.max_raise_to) == (4, 200)
    assert sorted(amount["enum"]) == list(range(4, 201))
    action = read_structured('{"action": "raise", "amount": 57}', agent.table, obs).action
    assert action == agent.table.parse("raise to 57", obs).action == 58  # chip sizing: id = raise-to + 1


REPLIES = [  # (reply, failure or None, action id when legal) at the opening decision (abstract sizes 4, 6, 10, 200)
    ('{"action": "call"}', None, 1),
    (' {"action":"fold"}\n', None, 0),
    ('{"action": "raise", "amount": 200}', None, 5),
    ('{"action": "raise", "amount": 6}', None, 3),
    ('{"action": "raise", "amount": 5}', "illegal", None),  # inside the range, not a legal size: never snapped
    ('{"action": "raise", "amount": 400}', "illegal", None),
    ('{"action": "check"}', "illegal", None),  # facing the big blind
    ('{"action": "bet", "amount": 6}', "illegal", None),  # a raise here, not a bet
    ('{"action": "raise", "amount": 6.0}', "unparsable", None),  # not an integer: not coerced
    ('{"action": "raise", "amount": "6"}', "unparsable", None),
    ('{"action": "raise"}', "unparsable", None),
    ('{"action": "call", "amount": 1}', "unparsable", None),  # an amount with a call is outside the schema
    ('{"action": "call", "reason": "pot odds"}', "unparsable", None),
    ('{"action": "CALL"}', "illegal", None),
    ('{"move": "call"}', "unparsable", None),
    ('["call"]', "unparsable", None),
    ('Final Answer: call', "unparsable", None),  # prose is never read in structured mode
    ('I call. {"action": "call"}', "unparsable", None),
    ('{"action": "call"} {"action": "fold"}', "unparsable", None),
    ("", "empty", None),
    ("  \n", "empty", None),
]


@pytest.mark.parametrize(("reply", "failure", "action"), REPLIES)
def test_replies_are_read_strictly(reply, failure, action):
    env, obs = opening()
    agent = make_llm_agent("m@http://127.0.0.1:9/v1,output=json_object", env)
    parsed = read_structured(reply, agent.table, obs)
    assert (parsed.failure, parsed.action) == (failure, action)
    assert not parsed.snapped and parsed.message


def test_bad_replies_are_counted_by_class_through_the_agent(stub):
    env, obs = opening()
    agent = make_llm_agent(f"m@{stub.url},output=json_schema,max_reprompts=3,transport=http", env)
    stub.push(Reply("Final Answer: call"), Reply('{"action": "check"}'), Reply(""), Reply('{"action": "raise", "amount": 10}'))
    assert agent.act(obs, np.random.default_rng(0)) == 4
    c = agent.counts
    assert c.failures == {"unparsable": 1, "illegal": 1, "empty": 1}
    assert (c.requests, c.reprompts, c.fallbacks, c.snapped) == (4, 3, 0, 0)
    again = stub.requests[1]["messages"][-1]["content"]
    assert again.startswith("Your last reply was not a legal action") and '{"action"' in again
    assert all(r["response_format"]["type"] == "json_schema" for r in stub.requests)
    # every reply bad: the fallback (facing the big blind: fold)
    stub.push(*[Reply('{"action": "check"}')] * 4)
    assert agent.act(obs, np.random.default_rng(0)) == 0 and agent.counts.fallbacks == 1


def test_the_schema_accepts_exactly_what_the_reader_accepts_on_random_decisions():
    rng = np.random.default_rng(7)
    for env_config in ({}, {"bet_sizing": "chips"}):
        env = build_env("nolimit", {"history": True, **env_config})
        agent = make_llm_agent("m@http://127.0.0.1:9/v1,output=json_schema", env)
        checked = 0
        for hand in range(6):
            env.reset(seed=int(rng.integers(1 << 30)))
            while not all(env.terminations.values()) and checked < 400:
                obs = env.observe(env.agent_selection)
                schema = action_schema(agent.table, obs)
                jsonschema.Draft202012Validator.check_schema(schema)
                legal = choices(agent.table, obs)
                assert [c.action for c in legal] == np.flatnonzero(obs["action_mask"]).tolist()
                sizes = sorted({c.amount for c in legal if c.amount is not None})
                candidates = [{"action": w} for w in ("fold", "check", "call", "bet", "raise", "all-in")]
                for w in ("bet", "raise"):
                    for x in {*sizes, *(s + d for s in sizes for d in (-1, 1)), 0, 10_000}:
                        candidates.append({"action": w, "amount": x})
                for answer in candidates:
                    parsed = read_structured(json.dumps(answer), agent.table, obs)
                    valid = jsonschema.Draft202012Validator(schema).is_valid(answer)
                    assert valid == (parsed.action is not None), (answer, parsed)
                    if valid:
                        assert obs["action_mask"][parsed.action]
                        checked += 1
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert checked > 20


def test_bad_output_options_are_refused_clearly():
    with pytest.raises(ValueError, match="output must be"):
        parse_llm_arg("m@http://h/v1,output=grammar")
    with pytest.raises(ValueError, match="amounts=chips"):
        parse_llm_arg("m@http://h/v1,output=json_schema,amounts=bb")
    with pytest.raises(ValueError, match="output must be one of"):
        response_format("text", {})
    assert parse_llm_arg("m@http://h/v1").output == "text"
