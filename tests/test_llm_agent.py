"""Language-model players (agent_zoo.llm) against the scripted OpenAI-compatible stub on 127.0.0.1 (tests/llm_stub.py).

Known truths used: the stub's policy answers one of the legal actions the prompt lists, so every reply parses
(no failure, no fallback); a scripted sequence of replies gives counts worked out by hand; identical seeds give
identical tournaments; a resumed tournament equals an uninterrupted one. The tests of what a server does
wrong run over both transports (``LLMConfig.transport``): the two must count and word everything the same.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from agent_zoo.llm import LLMAgent, LLMServerError, make_llm_agent, parse_llm_arg
from agent_zoo.llm.client import ChatClient
from agent_zoo.llm.config import TRANSPORTS
from agent_zoo.tournament import TournamentConfig, build_env, main, run_tournament
from tests.llm_stub import Reply, StubServer, choose_action, closed_url, listed_actions


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def first_decision(env, seed: int = 3) -> dict:
    """The observation of the first player to act in a hand dealt by ``seed``."""
    env.reset(seed=seed)
    return env.observe(env.agent_selection)


def legal_reply(agent: LLMAgent, observation: dict) -> str:
    """A reply naming a listed legal action of the agent's prompt (the stub's own choice rule)."""
    return choose_action(listed_actions(agent.table.prompt(observation))[0])


# ---- the spec -----------------------------------------------------------------------------------


def test_spec_options_and_config_file(tmp_path):
    cfg = parse_llm_arg("qwen2.5:7b@http://127.0.0.1:11434/v1,temperature=0.7,max_reprompts=1,seed=false")
    assert (cfg.model, cfg.base_url, cfg.temperature, cfg.max_reprompts, cfg.seed) == (
        "qwen2.5:7b", "http://127.0.0.1:11434/v1", 0.7, 1, False)
    path = tmp_path / "agent.toml"
    path.write_text('model = "m"\nbase_url = "http://127.0.0.1:8000/v1"\nsystem_prompt = "Play tight, then fold."\n')
    cfg = parse_llm_arg(str(path))
    assert cfg.system_prompt == "Play tight, then fold." and cfg.base_url.endswith(":8000/v1")
    for arg, words in [("gpt-4o", "no server URL"), ("m@http://h/v1,tempo=1", "unknown llm option"),
                       ("m@http://h/v1,retries=-1", "retries must be"), ("m@ftp://h", "base_url must be"),
                       ("m@http://h/v1,retries", "KEY=VALUE"), (str(tmp_path / "none.toml"), "no such config file")]:
        with pytest.raises(ValueError, match=words):
            parse_llm_arg(arg)


# ---- one decision -------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_malformed_replies_are_reprompted_then_fall_back_with_exact_counts(stub, transport):
    from poker_envs.text import FAILURE_KINDS

    env = build_env("nolimit", {"history": True})
    obs = first_decision(env)
    agent = make_llm_agent(f"m@{stub.url},max_reprompts=2,transport={transport}", env)
    good = legal_reply(agent, obs)
    # two bad replies, then a good one: 3 requests, 2 failures, 2 reprompts, no fallback
    stub.push(Reply("I think I will go for a walk"), Reply("raise to 999999999"), Reply(good))
    action = agent.act(obs, np.random.default_rng(0))
    assert obs["action_mask"][action] == 1 and action == agent.table.parse(good, obs).action
    c = agent.counts
    assert (c.decisions, c.requests, c.parse_failures, c.reprompts, c.fallbacks) == (1, 3, 2, 2, 0)
    assert set(c.failures) <= set(FAILURE_KINDS) and sum(c.failures.values()) == 2
    # the reprompt carries the parser's error and the conversation so far
    second = stub.requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "I think I will go for a walk" and second[3]["content"]
    # three bad replies with max_reprompts=2: the fallback (check if free, else fold); heads-up the button acts
    # first pre-flop, facing the big blind: checking is not free, so it folds (action 0)
    stub.push(Reply("?"), Reply("!!"), Reply("maybe"))
    action = agent.act(obs, np.random.default_rng(0))
    assert action == agent.table.fallback(obs) == 0
    c = agent.counts
    assert (c.decisions, c.requests, c.parse_failures, c.reprompts, c.fallbacks) == (2, 6, 5, 4, 1)
    assert c.prompt_tokens > 0 and c.requests_with_usage == 6
    # no usage block: tokens not counted, requests still are
    stub.push(Reply(good, usage=False))
    before = c.prompt_tokens
    agent.act(obs, np.random.default_rng(0))
    assert agent.counts.prompt_tokens == before and agent.counts.requests_with_usage == 6 and agent.counts.requests == 7


def test_failures_are_counted_by_class_and_every_class_is_reported(stub):
    """A negation (ambiguous), a prose reply without Final Answer (unparsable), an illegal check facing the big
    blind, then a legal reply: counted by class; the counters a tournament adds carry every class, zero or not
    (``server_shape`` is the transport's class: counted like the others when a decision records it)."""
    from agent_zoo.llm.stats import Decision, DecisionCounts
    from poker_envs.text import FAILURE_KINDS

    env = build_env("nolimit", {"history": True})
    obs = first_decision(env)
    agent = make_llm_agent(f"m@{stub.url},max_reprompts=3", env)
    good = legal_reply(agent, obs)
    stub.push(Reply("I won't fold. I call."), Reply("Calling is fine here.\nMaybe a raise too."),
              Reply("Final Answer: check"), Reply(good))
    agent.act(obs, np.random.default_rng(0))
    assert agent.counts.failures == {"ambiguous": 1, "unparsable": 1, "illegal": 1}
    counters = agent.finish_block()
    assert {f"failures.{k}" for k in FAILURE_KINDS} <= set(counters) and "server_shape" in FAILURE_KINDS
    assert (counters["failures.ambiguous"], counters["failures.illegal"], counters["failures.server_shape"]) == (1, 1, 0)
    assert counters["parse_failures"] == 3
    counts = DecisionCounts()
    counts.add(Decision(prompt="p", seed=None, replies=["", "call"], failures=["server_shape"], action=1))
    assert counts.counters()["failures.server_shape"] == 1 and counts.counters()["failures.empty"] == 0


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_http_500_is_retried_with_backoff_then_one_clear_error(stub, transport):
    env = build_env("nolimit", {"history": True})
    obs = first_decision(env)
    agent = make_llm_agent(f"m@{stub.url},retries=2,backoff=0.01,transport={transport}", env)
    stub.push(Reply(status=500), Reply(status=500), Reply(legal_reply(agent, obs)))
    action = agent.act(obs, np.random.default_rng(0))
    assert obs["action_mask"][action] and agent.counts.retries == 2 and agent.counts.requests == 1
    stub.push(*[Reply("down", status=500)] * 3)
    with pytest.raises(LLMServerError, match=r"HTTP 500 from the server after 3 tries \(down\)$"):
        agent.act(obs, np.random.default_rng(0))
    # 429 is retried as 5xx is; 400 is not (a retry cannot mend a bad request)
    stub.push(Reply("slow down", status=429), Reply(legal_reply(agent, obs)))
    agent.act(obs, np.random.default_rng(0))
    assert agent.counts.retries == 3
    stub.push(Reply("bad request", status=400))
    requests = len(stub.requests)
    with pytest.raises(LLMServerError, match=r"HTTP 400 from the server \(bad request\)$"):
        agent.act(obs, np.random.default_rng(0))
    assert len(stub.requests) == requests + 1


def test_the_seed_comes_from_the_seat_generator(stub):
    env = build_env("nolimit", {"history": True})
    obs = first_decision(env)
    agent = make_llm_agent(f"m@{stub.url}", env)
    agent.act(obs, np.random.default_rng(7))
    agent.act(obs, np.random.default_rng(7))
    agent.act(obs, np.random.default_rng(8))
    seeds = [r["seed"] for r in stub.requests]
    assert seeds[0] == seeds[1] != seeds[2] and seeds[0] == int(np.random.default_rng(7).integers(2**31 - 1))
    off = make_llm_agent(f"m@{stub.url},seed=false", env)
    off.act(obs, np.random.default_rng(7))
    assert "seed" not in stub.requests[-1]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_requests_of_a_batch_are_in_flight_together(transport):
    """8 rows against a stub answering in 0.3 s: with concurrency 8 all 8 wait at the server at the same time."""
    with StubServer(delay=0.3) as server:
        env = build_env("nolimit", {"history": True})
        obs = first_decision(env)
        agent = make_llm_agent(f"m@{server.url},concurrency=8,transport={transport}", env)
        inflight, peak = [0], [0]
        lock = threading.Lock()
        original = server.next_reply

        def counting(*args):
            with lock:
                inflight[0] += 1
                peak[0] = max(peak[0], inflight[0])
            try:
                reply = original(*args)
                time.sleep(reply.delay)
                return Reply(reply.text)
            finally:
                with lock:
                    inflight[0] -= 1

        server.next_reply = counting  # type: ignore[method-assign]
        batch = {k: np.stack([v] * 8) for k, v in obs.items()}
        actions = agent.act_batch(batch, [np.random.default_rng(i) for i in range(8)])
        assert peak[0] == 8 and all(batch["action_mask"][0][a] for a in actions)
        agent.act_batch(batch, [np.random.default_rng(i) for i in range(8)])  # a second batch reuses the connections
        assert server.connections == 8 and len(server.requests) == 16


# ---- tournaments --------------------------------------------------------------------------------


def six_max(url: str, **kw):
    agents = [f"llm:stub-{k}@{url}" for k in "abc"] + ["heuristic", "random", "fold"]
    return run_tournament(TournamentConfig(game="nolimit", agents=agents, hands=12, players=6, seed=5, block_deals=1, tables=8, progress=False, **kw))


def test_six_max_tournament_with_three_llm_agents_repeats_and_reports(stub, tmp_path):
    first = six_max(stub.url, log_dir=tmp_path / "decisions")
    requests = len(stub.requests)
    second = six_max(stub.url, workers=2)  # the counters come back from the worker processes
    assert np.array_equal(first.agent_mean, second.agent_mean) and np.array_equal(first.mean, second.mean)
    llm = [a for a in first.agents if a.startswith("llm:")]
    assert sorted(first.counters) == sorted(llm) and sorted(second.counters) == sorted(llm)
    stats = first.decisions()
    for name in llm:
        a, b = stats[name], second.decisions()[name]
        assert {k: v for k, v in a.items() if "latency" not in k} == {k: v for k, v in b.items() if "latency" not in k}
        assert a["decisions"] > 0 and a["parse_failures"] == a["fallbacks"] == a["reprompts"] == 0  # legal replies
        assert a["requests"] == a["decisions"] and a["mean_latency_s"] > 0 and a["prompt_tokens"] > 0
    assert sum(stats[n]["requests"] for n in llm) == requests  # every request the stub got is counted once
    # the JSON and the table report them
    assert first.to_dict()["decisions"][llm[0]]["decisions"] == stats[llm[0]]["decisions"]
    assert "parse fails" in first.table() and "reprompts" in first.table()
    # the decision log: one line per decision, with its ids
    lines = [json.loads(line) for f in sorted((tmp_path / "decisions").glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert len(lines) == sum(stats[n]["decisions"] for n in llm)
    rec = lines[0]
    assert {"agent", "block", "deal", "rotation", "table", "hand", "seat", "prompt", "replies", "failures", "action",
            "fallback", "latency_s", "prompt_tokens", "completion_tokens", "seed", "state"} <= set(rec)
    assert rec["deal"] == rec["block"] and 0 <= rec["rotation"] < 6  # block_deals=1: block b is deal b
    assert {r["agent"] for r in lines} == set(llm)


def test_llm_agents_refuse_the_batched_engine(stub):
    with pytest.raises(ValueError, match="engine 'aec'"):
        run_tournament(TournamentConfig(game="nolimit", agents=[f"llm:m@{stub.url}", "random"], hands=2, engine="vector", progress=False))


def test_interrupted_tournament_resumes_without_replaying_finished_deals(stub, tmp_path, capsys):
    args = ["--game", "nolimit", "--players", "6", "--hands", "18", "--seed", "2", "--block-deals", "1", "--no-progress", "--agents",
            f"llm:a@{stub.url},retries=0", f"llm:b@{stub.url},retries=0", "heuristic"]
    full = main([*args, "--out", str(tmp_path / "full")])
    capsys.readouterr()
    per_run = len(stub.requests)
    stub.requests.clear()
    stub.answered, stub.fail_after = 0, per_run // 2  # the server goes down half-way
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--out", str(tmp_path / "cut")])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert "HTTP 503" in err and f"--resume {tmp_path / 'cut'}" in err
    lines = (tmp_path / "cut" / "tournament_nolimit.checkpoint.jsonl").read_text().splitlines()
    finished = len(lines) - 1
    assert 0 < finished < 3  # 3 blocks (one deal of 6 hands each): those finished before the failure
    # the same --out again without --resume refuses to overwrite the finished blocks
    with pytest.raises(SystemExit):
        main([*args, "--out", str(tmp_path / "cut")])
    assert "--resume" in capsys.readouterr().err
    stub.fail_after, stub.answered = None, 0
    stub.requests.clear()
    resumed = main([*args, "--resume", str(tmp_path / "cut")])
    assert 0 < len(stub.requests) < per_run  # the finished blocks were not asked again
    assert np.array_equal(resumed.agent_mean, full.agent_mean) and np.array_equal(resumed.mean, full.mean)
    for name in full.counters:
        assert resumed.counters[name]["decisions"] == full.counters[name]["decisions"]
        assert resumed.counters[name]["requests"] == full.counters[name]["requests"]
    saved = json.loads((tmp_path / "cut" / "tournament_nolimit.json").read_text())
    assert saved["ranking"] == json.loads((tmp_path / "full" / "tournament_nolimit.json").read_text())["ranking"]
    # another tournament's checkpoint is refused, naming the setting that differs
    with pytest.raises(SystemExit):
        main([*args[:7], "3", *args[8:], "--resume", str(tmp_path / "cut")])
    assert "seed was 2, now 3" in capsys.readouterr().err


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("case", ["unreachable", "model", "key", "no_url"])
def test_bad_server_input_is_one_line_through_the_cli(case, transport, capsys, monkeypatch):
    monkeypatch.setenv("POKER_ENVS_TEST_KEY", "secret")
    with StubServer(models=["real-model"], api_key="secret") as server:
        t = f",transport={transport}"
        spec, words = {
            "unreachable": (f"llm:real-model@{closed_url()},retries=1,backoff=0.01{t}",
                            ["cannot connect", "127.0.0.1", "(2 tries): is it running?"]),
            "model": (f"llm:no-such-model@{server.url},api_key_env=POKER_ENVS_TEST_KEY{t}",
                      ["404", "'no-such-model'", "The model `no-such-model` does not exist"]),
            "key": (f"llm:real-model@{server.url},api_key_env=POKER_ENVS_TEST_NO_KEY{t}",
                    ["401", "POKER_ENVS_TEST_NO_KEY", "(Incorrect API key provided.)"]),
            "no_url": ("llm:gpt-4o", ["no server URL", "llm:<model>@<base_url>"]),
        }[case]
        with pytest.raises(SystemExit) as exit_info:
            main(["--game", "nolimit", "--agents", spec, "random", "--hands", "2", "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert all(w in err for w in words), err


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_client_errors_name_the_url_without_a_table(transport):
    """The client alone (no text view): 401 and connection refused."""
    from agent_zoo.llm import LLMConfig

    with StubServer(api_key="secret") as server:
        with pytest.raises(LLMServerError, match="refused the API key"):
            ChatClient(LLMConfig("m", server.url, retries=0, transport=transport)).chat(
                [{"role": "user", "content": "hi"}], None)
    url = closed_url()
    with pytest.raises(LLMServerError, match=f"cannot connect to the server at {url}"):
        ChatClient(LLMConfig("m", url, retries=0, transport=transport)).chat([{"role": "user", "content": "hi"}], None)


def test_example_runs_against_the_stub(stub, tmp_path):
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "examples" / "llm_vs_zoo.py"
    spec = importlib.util.spec_from_file_location("example_llm_vs_zoo", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    result = module.main(["--model", "stub", "--base-url", stub.url, "--hands", "6", "--no-progress", "--out", str(tmp_path)])
    spec_name = f"llm:stub@{stub.url}"
    assert result.agents[0] == spec_name and result.counters[spec_name]["decisions"] > 0
    assert (tmp_path / "tournament_nolimit.json").is_file() and list((tmp_path / "decisions").glob("*.jsonl"))


def test_checkpoint_resume_equals_an_uninterrupted_run_for_zoo_agents(tmp_path):
    """The checkpoint alone (no server): cut after the first block (and a half-written line), resume, compare."""
    kw = dict(hands=24, players=3, seed=4, block_deals=2, tables=4, progress=False)
    agents = ["heuristic", "random", "fold"]
    full = run_tournament(TournamentConfig(game="nolimit", agents=agents, **kw))
    path = tmp_path / "ck.jsonl"
    run_tournament(TournamentConfig(game="nolimit", agents=agents, checkpoint=path, **kw))
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 4 and [json.loads(line)["block"] for line in lines[1:]] == [0, 1, 2, 3]
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][: len(lines[2]) // 2])  # block 0 kept, block 1 cut short
    resumed = run_tournament(TournamentConfig(game="nolimit", agents=agents, checkpoint=path, resume=True, **kw))
    assert np.array_equal(resumed.agent_mean, full.agent_mean) and np.array_equal(resumed.mean, full.mean)
    assert resumed.style == full.style
    assert [json.loads(line)["block"] for line in path.read_text().splitlines()[1:]] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="holds another run's finished blocks"):
        run_tournament(TournamentConfig(game="nolimit", agents=agents, checkpoint=path, **kw))
    with pytest.raises(ValueError, match="hands was 24, now 12"):
        run_tournament(TournamentConfig(game="nolimit", agents=agents, checkpoint=path, resume=True, **{**kw, "hands": 12}))


def test_agent_pickles_without_the_env_and_act_batch_equals_act(stub):
    """As every zoo agent (tests/test_agents_observe.py): a pickled copy acts the same, batches equal act row by row."""
    import io
    import pickle

    from tests.test_agents_observe import NoEnvPickler

    env = build_env("nolimit", {"history": True, "num_players": 3})
    agent = make_llm_agent(f"m@{stub.url}", env)
    observations = []
    for seed in range(4):
        env.reset(seed=seed)
        while env.agents and len(observations) < 4 * (seed + 1):
            obs = env.observe(env.agent_selection)
            observations.append(obs)
            env.step(int(np.flatnonzero(obs["action_mask"])[0]) if not obs["action_mask"][1] else 1)
    buf = io.BytesIO()
    NoEnvPickler(buf).dump(agent)
    clone = pickle.loads(buf.getvalue())
    one_by_one = [agent.act(o, np.random.default_rng(i)) for i, o in enumerate(observations)]
    assert [clone.act(o, np.random.default_rng(i)) for i, o in enumerate(observations)] == one_by_one
    batch = {k: np.stack([o[k] for o in observations]) for k in observations[0]}
    assert agent.act_batch(batch, [np.random.default_rng(i) for i in range(len(observations))]).tolist() == one_by_one
    assert all(o["action_mask"][a] for o, a in zip(observations, one_by_one))


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_slow_reply_times_out_and_is_retried(stub, transport):
    env = build_env("nolimit", {"history": True})
    obs = first_decision(env)
    agent = make_llm_agent(f"m@{stub.url},timeout=0.3,retries=1,backoff=0.01,transport={transport}", env)
    stub.push(Reply(legal_reply(agent, obs), delay=1.0), Reply(legal_reply(agent, obs)))
    action = agent.act(obs, np.random.default_rng(0))
    assert obs["action_mask"][action] and agent.counts.retries == 1 and agent.counts.latency_s >= 0.3
    stub.push(Reply("call", delay=1.0), Reply("call", delay=1.0))
    with pytest.raises(LLMServerError, match=r"no reply within timeout=0.3 s \(2 tries\)"):
        agent.act(obs, np.random.default_rng(0))
