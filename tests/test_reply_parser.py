"""The reply parser of poker_envs.text: a hand-written corpus of replies with their expected actions or failures
(tests/data/llm_replies.jsonl, situations in tests/text_situations.py), and properties: it never raises, what it
returns is legal, and every legal action's canonical text parses back to itself."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from poker_envs import nolimit_holdem_v0, potlimit_holdem_v0
from poker_envs.text import FAILURE_KINDS, Parsed, TextTable
from tests.text_situations import SITUATIONS

CORPUS = [json.loads(line) for line in (Path(__file__).parent / "data" / "llm_replies.jsonl").read_text().splitlines() if line.strip()]
_BUILT: dict[str, tuple[TextTable, dict]] = {}


def situation(name: str) -> tuple[TextTable, dict]:
    if name not in _BUILT:
        _BUILT[name] = SITUATIONS[name]()
    return _BUILT[name]


def reply_of(entry: dict) -> str:
    return entry.get("prefix", "") * entry.get("repeat", 1) + entry["reply"]


def test_corpus_is_large_and_covers_every_failure_and_situation():
    assert len(CORPUS) >= 200
    assert {e["failure"] for e in CORPUS if "failure" in e} == set(FAILURE_KINDS)
    assert {e["situation"] for e in CORPUS} == set(SITUATIONS)
    assert max(len(reply_of(e)) for e in CORPUS) >= 10_000


@pytest.mark.parametrize("entry", CORPUS, ids=[f"{i}-{e['situation']}" for i, e in enumerate(CORPUS)])
def test_corpus(entry):
    table, obs = situation(entry["situation"])
    parsed = table.parse(reply_of(entry), obs)
    assert isinstance(parsed, Parsed) and "\n" not in parsed.message and parsed.message
    if "failure" in entry:
        assert (parsed.action, parsed.failure) == (None, entry["failure"]), parsed
        return
    legal = {a.action: a for a in table.legal(obs)}
    assert parsed.failure is None and parsed.action in legal, parsed
    got = legal[parsed.action]
    assert (got.kind, got.to) == (entry["kind"], entry["to"]), parsed  # amounts in chips (push/fold: big blinds)
    assert parsed.snapped == entry.get("snapped", False), parsed


def test_situations_are_as_documented():
    """The sizes the corpus relies on, worked out by hand in tests/text_situations.py."""
    sizes = {name: [(a.kind, a.to) for a in situation(name)[0].legal(situation(name)[1])] for name in SITUATIONS}
    assert sizes["nl_facing"] == [("fold", 1), ("call", 7), ("raise", 15), ("raise", 23), ("raise", 39), ("all-in", 200)]
    assert sizes["limit_facing"] == [("fold", 1), ("call", 2), ("raise", 4)]
    assert sizes["push_fold"] == [("fold", 0.5), ("all-in", 10)]
    assert sizes["push_fold_facing"] == [("fold", 1), ("call", 10)]
    unopened = sizes["nl_chips_unopened"]
    assert unopened[0] == ("check", 0) and unopened[1] == ("bet", 2) and unopened[-1] == ("all-in", 98) and len(unopened) == 98
    facing = sizes["nl_chips_facing"]
    assert facing[:3] == [("fold", 3), ("call", 10), ("raise", 17)] and facing[-1] == ("all-in", 98)


# ---- properties ------------------------------------------------------------------------------------------

HARD = [
    "", " ", "\x00", "Final Answer:", "final answer: final answer:", "{", '{"action": }', '{"action": null}', "{" * 5000,
    "raise to " + "9" * 400, "raise to 1e999", "raise to -0", "raise by 1/0 pot", "raise 0/0 pot", "bet 1" + "0" * 30 + " pots",
    "call\u0000raise", "\ud800", "ＦＩＮＡＬ ＡＮＳＷＥＲ： ＲＡＩＳＥ ＴＯ ２３", "all in all in all in", "x" * 20_000,
    "Final Answer: " + "raise " * 2000, "([{" * 1000, "1/" * 1000 + "pot", "%" * 100 + "pot",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reply=st.text(max_size=300), name=st.sampled_from(sorted(SITUATIONS)))
@example(reply="raise to 23", name="nl_facing")
@example(reply="Final Answer: raise 1/2 pot", name="nl_chips_unopened")
def test_parse_never_raises_and_returns_a_legal_action(reply, name):
    table, obs = situation(name)
    for text in (reply, *HARD) if reply == "raise to 23" else (reply,):
        parsed = table.parse(text, obs)
        assert (parsed.action is None) == (parsed.failure is not None)
        assert parsed.failure is None or parsed.failure in FAILURE_KINDS
        assert "\n" not in parsed.message
        if parsed.action is not None:
            assert obs["action_mask"][parsed.action] == 1


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["fold", "check", "call", "raise", "bet", "to", "by", "all-in", "pot", "half", "2/3", "3x",
                                       "23", "-5", "0", "1e9", "bb", "chips", "$1,000", "**", "`", "Final Answer:", "\n", "or",
                                       "２３", "\u00a0", "🃏", "{\"action\": \"raise\", \"amount\": 39}"]), max_size=12),
       name=st.sampled_from(sorted(SITUATIONS)))
def test_parse_of_poker_words_is_legal_or_a_failure(words, name):
    table, obs = situation(name)
    parsed = table.parse(" ".join(words), obs)
    assert parsed.action is None or obs["action_mask"][parsed.action] == 1
    assert parsed.action is not None or parsed.failure in FAILURE_KINDS


def test_non_strings_do_not_raise():
    table, obs = situation("nl_facing")
    assert table.parse(None, obs).failure == "empty"  # type: ignore[arg-type]
    assert table.parse(42, obs).failure == "unparsable"  # type: ignore[arg-type]


def _decisions(env, seed: int, limit: int = 40):
    """(observation) of up to ``limit`` decisions of random play."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        out.append(obs)
        if len(out) >= limit:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("make, amounts, snap", [
    (lambda: nolimit_holdem_v0.env(num_players=3, history=True), "chips", True),
    (lambda: nolimit_holdem_v0.env(num_players=3, history=True), "bb", False),
    (lambda: nolimit_holdem_v0.env(num_players=2, starting_stack=60, bet_sizing="chips", history=True), "bb", False),
    (lambda: nolimit_holdem_v0.env(num_players=4, big_blind=3, small_blind=1, bet_sizing=(0.33, 0.75, 1.5), history=True), "bb", False),
    (lambda: potlimit_holdem_v0.env(num_players=3, history=True), "chips", False),
])
def test_every_legal_action_text_parses_back_to_itself(make, amounts, snap):
    env = make()
    table = TextTable.for_env(env, amounts=amounts, snap=snap)
    seen = 0
    for seed in range(6):
        for obs in _decisions(env, seed):
            for a in np.flatnonzero(obs["action_mask"]):
                text = table.action_text(int(a), obs)
                parsed = table.parse(f"I think so.\nFinal Answer: {text}", obs)
                assert (parsed.action, parsed.failure, parsed.snapped) == (a, None, False), (text, parsed)
                seen += 1
    assert seen > 100
    for name in SITUATIONS:
        t, obs = situation(name)
        for a in np.flatnonzero(obs["action_mask"]):
            assert t.parse(t.action_text(int(a), obs), obs).action == a


def test_fallback_checks_when_free_else_folds():
    t, obs = situation("nl_chips_unopened")
    assert t.fallback(obs) == 1 and t.legal(obs)[0].kind == "check"
    t, obs = situation("nl_facing")
    assert t.fallback(obs) == 0


def test_reprompt_is_the_message_then_the_prompt():
    t, obs = situation("nl_facing")
    parsed = t.parse("check", obs)
    first, rest = t.reprompt(parsed, obs).split("\n", 1)
    assert parsed.message in first and "cannot check" in first
    assert rest.strip() == t.prompt(obs).strip()
