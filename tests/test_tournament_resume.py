"""A tournament of language-model agents interrupted and resumed, against the scripted stub server on 127.0.0.1
(tests/llm_stub.py).

Ctrl-C: the command line, in a subprocess, gets SIGINT while its second block's requests hang at the stub; it
stops at once with one line and exit code 130, the checkpoint keeps the first block, and ``--resume`` plays the
rest to the result an uninterrupted run gives. Resume: a language model's transport options (timeout, retries,
concurrency, ..., the server's address) may change, anything that changes play is refused naming the setting."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent_zoo.llm.config import LLMConfig
from agent_zoo.tournament import TournamentConfig, run_tournament
from agent_zoo.tournament_checkpoint import TRANSPORT_OPTIONS
from tests.llm_stub import Messages, StubServer, seeded_policy

ROOT = Path(__file__).resolve().parents[1]


class Hang:
    """A stub policy that answers at once until ``armed``, then holds every request until ``release``."""

    def __init__(self) -> None:
        self.armed, self.held, self.released = threading.Event(), threading.Event(), threading.Event()

    def __call__(self, model: str, seed: int | None, messages: Messages) -> str:
        if self.armed.is_set():
            self.held.set()
            self.released.wait(60)
        return seeded_policy(model, seed, messages)


@pytest.fixture
def hanging() -> Iterator[tuple[StubServer, Hang]]:
    policy = Hang()
    with StubServer(policy=policy) as stub:
        try:
            yield stub, policy
        finally:
            policy.released.set()


def tournament_args(url: str, **options: Any) -> list[str]:
    spec = ",".join([f"llm:m@{url}", *(f"{k}={v}" for k, v in options.items())])
    return ["--game", "nolimit", "--agents", spec, "heuristic", "--hands", "8", "--block-deals", "1", "--tables", "4",
            "--seed", "3", "--no-progress"]


def checkpoint_blocks(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]] if path.exists() else []


def test_ctrl_c_stops_at_once_keeps_the_finished_blocks_and_resume_finishes(hanging: tuple[StubServer, Hang], tmp_path: Path) -> None:
    stub, policy = hanging
    out = tmp_path / "run"
    checkpoint = out / "tournament_nolimit.checkpoint.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "OPENBLAS_NUM_THREADS": "1"}
    args = tournament_args(stub.url, concurrency=4, retries=0, timeout=120)
    process = subprocess.Popen([sys.executable, "-m", "agent_zoo.tournament", *args, "--out", str(out)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not checkpoint_blocks(checkpoint) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        policy.armed.set()  # from here on every request hangs: the second block's are in flight
        assert policy.held.wait(60), "no request after the first block"
        kept = checkpoint_blocks(checkpoint)
        assert [b["block"] for b in kept] == [0]
        process.send_signal(signal.SIGINT)
        start = time.monotonic()
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)  # a second Ctrl-C while it stops changes nothing
        stdout, stderr = process.communicate(timeout=30)
        stopped = time.monotonic() - start
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130 and stopped < 5, (process.returncode, stopped, stderr)
    assert stderr.splitlines() == [f"python -m agent_zoo.tournament: interrupted: 1 finished block kept in {checkpoint}; "
                                   f"rerun with --resume {out}"], stderr
    assert checkpoint_blocks(checkpoint) == kept  # the block under way is not written, the finished one stays
    policy.released.set()
    policy.armed.clear()
    requests = len(stub.requests)
    resumed = subprocess.run([sys.executable, "-m", "agent_zoo.tournament", *args, "--resume", str(out), "--json"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert [b["block"] for b in checkpoint_blocks(checkpoint)] == [0, 1, 2, 3]
    result = json.loads(resumed.stdout)
    uninterrupted = run_tournament(TournamentConfig(game="nolimit", agents=[args[3], "heuristic"], hands=8, block_deals=1,
                                                    tables=4, seed=3, progress=False))
    assert result["mean"] == uninterrupted.to_dict()["mean"] and len(stub.requests) > requests


# ---- what a resume may change -----------------------------------------------------------------------------


def run(url: str, checkpoint: Path, resume: bool, deals_seed: int = 3, hands: int = 8, other: str = "heuristic",
        **options: Any) -> Any:
    """The tournament of ``tournament_args``, in process, with the llm options ``options``."""
    spec = ",".join([f"llm:m@{url}", *(f"{k}={v}" for k, v in options.items())])
    return run_tournament(TournamentConfig(game="nolimit", agents=[spec, other], hands=hands, block_deals=1, tables=4,
                                           seed=deals_seed, checkpoint=checkpoint, resume=resume, progress=False))


def test_transport_options_may_change_on_resume_and_play_may_not(tmp_path: Path) -> None:
    path = tmp_path / "t.checkpoint.jsonl"
    with StubServer() as first, StubServer() as moved:  # the same seeded policy: the same replies
        full = run(first.url, path, resume=False)
        lines = path.read_text().splitlines()
        path.write_text("\n".join(lines[:2]) + "\n")  # as if interrupted after the first block
        transport = dict(timeout=7.5, retries=1, backoff=0.01, concurrency=2, max_retry_after=3, max_reply_bytes=100000,
                         transport="http", api_key_env="POKER_ENVS_NO_KEY")
        asked = len(first.requests)
        resumed = run(moved.url, path, resume=True, **transport)  # the server moved, and every way of asking changed
        assert len(first.requests) == asked and moved.requests  # the rest was asked of the new address
        assert np.array_equal(resumed.mean, full.mean) and np.array_equal(resumed.agent_mean, full.agent_mean)
        refused = {  # what changes play, and the setting the refusal names
            "temperature": (dict(temperature=0.5), "agents[0].llm.temperature was 0.0, now 0.5"),
            "max_reprompts": (dict(max_reprompts=0), "agents[0].llm.max_reprompts was 2, now 0"),
            "prompt": (dict(amounts="bb"), "agents[0].llm.amounts was 'chips', now 'bb'"),
            "list_actions": (dict(list_actions="false"), "agents[0].llm.list_actions was True, now False"),
            "seeds sent": (dict(seed="false"), "agents[0].llm.seed was True, now False"),
        }
        for what, (options, words) in refused.items():
            with pytest.raises(ValueError, match="another tournament") as info:
                run(moved.url, path, resume=True, **options)
            assert words in str(info.value), what
        cases = [({"other": "random"}, "agents[1] was 'heuristic', now 'random'"), ({"deals_seed": 4}, "seed was 3, now 4"),
                 ({"hands": 10}, "hands was 8, now 10")]
        for change, words in cases:
            with pytest.raises(ValueError, match="another tournament") as info:
                run(moved.url, path, resume=True, **change)
            assert words in str(info.value)
        with pytest.raises(ValueError, match=r"agents\[0\]\.llm\.model was 'm', now 'n'"):
            spec = f"llm:n@{moved.url}"
            run_tournament(TournamentConfig(game="nolimit", agents=[spec, "heuristic"], hands=8, block_deals=1, tables=4,
                                            seed=3, checkpoint=path, resume=True, progress=False))


def test_every_transport_option_is_a_config_field_that_leaves_play_alone() -> None:
    fields = {f.name for f in dataclasses.fields(LLMConfig)}
    assert set(TRANSPORT_OPTIONS) <= fields
    assert not {"model", "temperature", "seed", "max_tokens", "system_prompt", "max_reprompts", "amounts", "list_actions",
                "snap", "template"} & set(TRANSPORT_OPTIONS)
