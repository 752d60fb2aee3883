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
from poker_envs.text.parser import MAX_ANSWER_CHARS, MAX_REPLY_CHARS
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
    assert {e["failure"] for e in CORPUS if "failure" in e} == set(FAILURE_KINDS) - {"server_shape"}  # the transport's
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


# ---- adversarial replies: no silent wrong action ----------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "I won't fold. I call.", "Final Answer: don't fold", "I would not call", "Final Answer: I won\u2019t call",
    "Final Answer: never fold", "Final Answer: call, not raise", "Final Answer: raise instead of calling",
])
def test_negation_is_ambiguous_not_the_action_it_negates(reply):
    table, obs = situation("nl_facing")
    parsed = table.parse(reply, obs)
    assert (parsed.action, parsed.failure) == (None, "ambiguous") and "negation" in parsed.message, parsed


@pytest.mark.parametrize("reply", [
    "raise to 20-30", "Final Answer: raise to 20 or 30", "raise to 20 to 30", "raise to 20..30", "raise to 20/30",
    "Final Answer: raise to 15 or 23", "raise to between 15 and 23", "Final Answer: call or raise", "Final Answer: either call",
])
def test_alternatives_and_ranges_are_ambiguous_not_the_first_number(reply):
    table, obs = situation("nl_facing")
    parsed = table.parse(reply, obs)
    assert (parsed.action, parsed.failure) == (None, "ambiguous"), parsed


@pytest.mark.parametrize("name", ["nl_facing", "nl_facing_bb"])
@pytest.mark.parametrize("reply", ["raise to 10 blinds", "Final Answer: raise to 10 small blinds", "raise to 23 dollars",
                                   "raise to 2 stacks", "raise to 50%", "bet 3 sb", "raise to 1 buy-in"])
def test_units_other_than_chips_and_big_blinds_are_refused(name, reply):
    table, obs = situation(name)
    parsed = table.parse(reply, obs)
    assert (parsed.action, parsed.failure) == (None, "unparsable") and "unknown unit" in parsed.message, parsed


def test_big_blinds_convert_exactly_and_pot_fractions_stay_fractions():
    """nl_facing: big blind 2 chips, raise to 23 is a legal size (tests/text_situations.py)."""
    for name in ("nl_facing", "nl_facing_bb"):
        table, obs = situation(name)
        legal = {a.action: a for a in table.legal(obs)}
        for reply in ("raise to 11.5 bb", "raise to 11.5 big blinds", "raise to 23 chips", "raise 1/2 pot", "raise 75% pot"):
            parsed = table.parse(reply, obs)
            assert parsed.action is not None, (name, reply, parsed)
            assert legal[parsed.action].to == {"raise 1/2 pot": 15, "raise 75% pot": 19}.get(reply, 23) or parsed.snapped


def test_reply_past_the_cap_is_refused_not_read_from_a_window():
    """The answer first, then ~100k characters: nothing is read from the reply's tail (which would start mid-word)."""
    table, obs = situation("nl_facing")
    tail = " because calling" * (MAX_REPLY_CHARS // 16)
    for reply in ("Final Answer: fold" + tail, "Final Answer: fold\n" + "x" * MAX_REPLY_CHARS + "\ncall"):
        assert len(reply) > MAX_REPLY_CHARS
        parsed = table.parse(reply, obs)
        assert (parsed.action, parsed.failure) == (None, "unparsable") and str(MAX_REPLY_CHARS) in parsed.message
    at_cap = "Final Answer: fold" + "\n" + "y" * (MAX_REPLY_CHARS - 19)
    assert len(at_cap) == MAX_REPLY_CHARS and table.parse(at_cap, obs).action == 0  # the cap itself is read whole


def test_a_fullwidth_final_answer_is_found_on_any_line():
    table, obs = situation("nl_facing")
    assert table.parse("I think.\n\uff26\uff49\uff4e\uff41\uff4c \uff21\uff4e\uff53\uff57\uff45\uff52\uff1a call", obs).action == 1
    assert table.parse("\uff26\uff29\uff2e\uff21\uff2c \uff21\uff2e\uff33\uff37\uff25\uff32\uff1a\n\uff26\uff2f\uff2c\uff24", obs).action == 0


def test_an_answer_past_its_length_cap_is_refused_whole():
    table, obs = situation("nl_facing")
    long = "Final Answer: raise to " + "9" * MAX_ANSWER_CHARS
    assert table.parse(long, obs).failure == "unparsable"
    short = "Final Answer: raise to " + "9" * 400  # under the cap: read, a size no stack has
    assert table.parse(short, obs).failure == "out_of_range"


@pytest.mark.parametrize("name", ["nl_facing", "nl_chips_unopened", "limit_facing", "push_fold_facing"])
def test_a_prompt_echo_is_not_a_decision(name):
    """The prompt, or its action list, repeated and cut anywhere (``max_tokens``): never an action."""
    table, obs = situation(name)
    prompt = table.prompt(obs)
    items = [line for line in prompt.splitlines() if line.startswith("- ")]
    assert items
    for item in items:
        assert table.parse(item, obs).action is None, item
        assert table.parse("Final Answer:\n" + item, obs).action is None, item
    for cut in range(1, len(prompt) + 1, 7):
        parsed = table.parse(prompt[:cut], obs)
        assert parsed.action is None, (prompt[:cut][-60:], parsed)


def test_hostile_megabyte_replies_are_read_through_bounded_windows(monkeypatch):
    """The algorithm, not the clock: a reply past MAX_REPLY_CHARS is refused before any scan, and the per-character
    steps (normalizing, the grammar's regexes) never see more than MAX_ANSWER_CHARS (or a JSON object); the scans
    over the whole reply are single linear passes (one regular expression each, no nested quantifiers)."""
    from poker_envs.text import parser

    seen: list[int] = []
    normalize = parser.normalize
    monkeypatch.setattr(parser, "normalize", lambda text: (seen.append(len(text)), normalize(text))[1])
    table, obs = situation("nl_facing")
    mega = 1_000_000
    hostile = ["Final Answer: raise to " + "9" * mega, "raise to " + "9" * mega, "{" * mega, "final answer " * (mega // 13),
               "1/" * (mega // 2) + "pot", "Final Answer: " + "raise " * (mega // 6), "\n" * mega + "call",
               "\ufdfa" * mega + "\uff21", "\uff26\uff29\uff2e\uff21\uff2c \uff21\uff2e\uff33\uff37\uff25\uff32 " * (mega // 13)]
    near_cap = [h[: MAX_REPLY_CHARS - 4] + "call" for h in hostile] + [h[-MAX_REPLY_CHARS:] for h in hostile]
    for reply in hostile + near_cap:
        parsed = table.parse(reply, obs)
        assert parsed.action is None or len(reply) <= MAX_REPLY_CHARS
        if len(reply) > MAX_REPLY_CHARS:
            assert parsed.failure == "unparsable" and str(MAX_REPLY_CHARS) in parsed.message
    assert seen and max(seen) <= max(MAX_ANSWER_CHARS, 2002)


# ---- ghost moves: never an action from prose outside the answer ---------------------------------------------

GHOST_SITUATIONS = {  # situation: (legal actions the prose names, structured answers the rules refuse or that name none)
    "nl_facing": (["call", "fold", "raise to 23", "go all in", "raise to 15"],
                  ["check", "raise to 5000", "raise to 3", "pass", "limp", "don't call", "call or raise", "raise to 10 blinds", ""]),
    "nl_chips_unopened": (["check", "bet 10", "bet 2", "shove"],
                          ["fold", "bet 500", "bet 1", "bet 0", "wait", "check or bet", "never check", ""]),
    "limit_facing": (["call", "fold", "raise"], ["check", "raise to 10", "bet 50", "hmm", "not fold", ""]),
    "push_fold_facing": (["call", "fold"], ["check", "raise", "bet 3", "muck it", "maybe call", ""]),
    "nl_facing_nosnap": (["call", "raise to 23"], ["raise to 23.4", "check", "raise to 1", ""]),
}
GHOST_FORMATS = [  # {a}: the structured answer, or None: no structured answer at all
    "Final Answer: {a}", "**Final Answer:** {a}", "Final Answer:\n{a}", "FINAL ANSWER = {a}", "final answer - {a}",
    '{{"action": "{a}"}}', '```json\n{{"action": "{a}", "reasoning": "x"}}\n```', "Final Answer: {{\"action\": \"{a}\"}}",
    '{{"action": 1}}', '{{"action": null, "comment": "{a}"}}', None, None,
]
GHOST_PROSE = ["I think I should {p}.", "The best line is to {p} here", "Pot odds say {p}!", "Option: {p}",
               "Let me {p}; no wait", "Most players would {p}", "Consider: {p}"]


def ghost_corpus(seed: int, size: int) -> list[tuple[str, str]]:
    """(situation, reply) pairs whose structured answer is illegal or missing while the prose names a legal action."""
    rng = np.random.default_rng(seed)
    out: dict[tuple[str, str], None] = {}
    names = sorted(GHOST_SITUATIONS)
    while len(out) < size:
        name = names[rng.integers(len(names))]
        legal, bad = GHOST_SITUATIONS[name]
        prose = GHOST_PROSE[rng.integers(len(GHOST_PROSE))].format(p=legal[rng.integers(len(legal))])
        fmt = GHOST_FORMATS[rng.integers(len(GHOST_FORMATS))]
        where = int(rng.integers(3))  # prose before the answer, after it, or both
        if fmt is None:  # no structured answer: the prose on two lines or more
            parts = [prose, GHOST_PROSE[rng.integers(len(GHOST_PROSE))].format(p=legal[rng.integers(len(legal))])]
            reply = "\n".join(parts if where else ["Thinking about it.", *parts])
        else:
            answer = fmt.format(a=bad[rng.integers(len(bad))])
            reply = {0: f"{prose}\n{answer}", 1: f"{answer}\n{prose}", 2: f"{prose}\n{answer}\n{prose}"}[where]
            if rng.integers(4) == 0:
                reply = reply.replace("\n", " ", 1) if where == 0 else reply  # prose and answer on one line
        out[(name, reply)] = None
    return list(out)


GHOST_CORPUS = ghost_corpus(seed=2026, size=400)


def test_no_ghost_moves_on_illegal_or_missing_structured_answers():
    moves = []
    kinds: dict[str, int] = {}
    for name, reply in GHOST_CORPUS:
        table, obs = situation(name)
        parsed = table.parse(reply, obs)
        if parsed.action is not None:
            moves.append((name, reply, parsed))
        kinds[parsed.failure or "action"] = kinds.get(parsed.failure or "action", 0) + 1
    assert len(GHOST_CORPUS) >= 200
    assert moves == []  # 0 ghost moves in 400
    assert {"illegal", "unparsable", "ambiguous", "empty", "out_of_range"} <= set(kinds), kinds


def test_the_ghost_corpus_templates_do_read_a_legal_structured_answer():
    """The control: the same formats and prose around a legal answer give that answer (the corpus is not vacuous)."""
    table, obs = situation("nl_facing")
    for fmt in GHOST_FORMATS:
        if fmt is None or "null" in fmt or ": 1}" in fmt:
            continue
        for prose in GHOST_PROSE:
            reply = prose.format(p="fold") + "\n" + fmt.format(a="raise to 23") + "\n" + prose.format(p="call")
            parsed = table.parse(reply, obs)
            assert parsed.action == 3 and parsed.failure is None, (reply, parsed)
