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
    """A stub policy that answers at once until ``checkpoint`` holds a finished block, then holds every request
    until ``released`` (so the next blocks' requests are in flight when the test interrupts)."""

    def __init__(self, checkpoint: Path) -> None:
        self.checkpoint = checkpoint
        self.held, self.released = threading.Event(), threading.Event()

    def __call__(self, model: str, seed: int | None, messages: Messages) -> str:
        if not self.released.is_set() and checkpoint_blocks(self.checkpoint):
            self.held.set()
            self.released.wait(60)
        return seeded_policy(model, seed, messages)


def tournament_args(url: str, **options: Any) -> list[str]:
    spec = ",".join([f"llm:m@{url}", *(f"{k}={v}" for k, v in options.items())])
    return ["--game", "nolimit", "--agents", spec, "heuristic", "--hands", "8", "--block-deals", "1", "--tables", "4",
            "--seed", "3", "--no-progress"]


def checkpoint_blocks(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]] if path.exists() else []


@pytest.mark.parametrize("workers, backend", [(1, "process"), (2, "process"), (2, "ray")])
def test_ctrl_c_stops_at_once_keeps_the_finished_blocks_and_resume_finishes(workers: int, backend: str, tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal's Ctrl-C sends it (worker processes included), twice."""
    out = tmp_path / "run"
    checkpoint = out / "tournament_nolimit.checkpoint.jsonl"
    policy = Hang(checkpoint)
    with StubServer(policy=policy) as stub:
        try:
            interrupt(stub.url, out, workers, policy, backend)
        finally:
            policy.released.set()
        requests = len(stub.requests)
        args = tournament_args(stub.url, concurrency=4, retries=0, timeout=120)
        resumed = subprocess.run([sys.executable, "-m", "agent_zoo.tournament", *args, "--workers", str(workers), "--resume",
                                  str(out), "--json"], cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=300)
        assert len(stub.requests) > requests
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(b["block"] for b in checkpoint_blocks(checkpoint)) == [0, 1, 2, 3]
    result = json.loads(resumed.stdout)
    with StubServer() as fresh:  # the same seeded policy: the uninterrupted run's replies
        uninterrupted = run_tournament(TournamentConfig(game="nolimit", agents=[f"llm:m@{fresh.url}", "heuristic"], hands=8,
                                                        block_deals=1, tables=4, seed=3, progress=False))
    assert result["mean"] == uninterrupted.to_dict()["mean"]
    assert [r["mean"] for r in result["ranking"]] == [r["mean"] for r in uninterrupted.to_dict()["ranking"]]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "OPENBLAS_NUM_THREADS": "1"}


def default_sigint() -> None:
    """In the child before it starts: SIGINT's default action, which Python turns into KeyboardInterrupt. A shell
    that runs the suite in the background (``make test &``) starts it with SIGINT ignored, and a child inherits
    that, as a program started in the background should."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(url: str, out: Path, workers: int, policy: Hang, backend: str = "process") -> None:
    """Run the tournament in its own process group until the requests after its first finished block hang, then
    Ctrl-C it twice: it exits at once (130), says how many blocks it kept, and kept them."""
    checkpoint = out / "tournament_nolimit.checkpoint.jsonl"
    args = tournament_args(url, concurrency=4, retries=0, timeout=120)
    process = subprocess.Popen([sys.executable, "-m", "agent_zoo.tournament", *args, "--workers", str(workers), "--backend", backend,
                                "--out", str(out)],
                               cwd=ROOT, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=default_sigint)
    try:
        assert policy.held.wait(180), f"no request after the first block: {process.poll()}"
        kept = checkpoint_blocks(checkpoint)
        os.killpg(process.pid, signal.SIGINT)
        start = time.monotonic()
        time.sleep(0.2)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)  # a second Ctrl-C while it stops changes nothing
        _, stderr = process.communicate(timeout=30)
        stopped = time.monotonic() - start
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    final = checkpoint_blocks(checkpoint)
    assert process.returncode == 130 and stopped < 5, (process.returncode, stopped, stderr)
    if workers == 1:  # the second block's requests hang: only the first is finished
        assert [b["block"] for b in final] == [b["block"] for b in kept] == [0]
    assert kept == final[: len(kept)] and 1 <= len(final) < 4  # finished blocks stay, the blocks under way are not written
    blocks = f"{len(final)} finished block{'s' * (len(final) != 1)}"
    lines = stderr.splitlines()
    if backend == "ray":  # Ray's own start-up lines come first
        lines = lines[-1:]
    assert lines == [f"python -m agent_zoo.tournament: interrupted: {blocks} kept in {checkpoint}; "
                     f"rerun with --resume {out}"], stderr


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
        transport = {"timeout": 7.5, "retries": 1, "backoff": 0.01, "concurrency": 2, "max_retry_after": 3,
                     "max_reply_bytes": 100000, "transport": "http", "api_key_env": "POKER_ENVS_NO_KEY"}
        asked = len(first.requests)
        resumed = run(moved.url, path, resume=True, **transport)  # the server moved, and every way of asking changed
        assert len(first.requests) == asked and moved.requests  # the rest was asked of the new address
        assert np.array_equal(resumed.mean, full.mean) and np.array_equal(resumed.agent_mean, full.agent_mean)
        refused = {  # what changes play, and the setting the refusal names
            "temperature": ({"temperature": 0.5}, "agents[0].llm.temperature was 0.0, now 0.5"),
            "max_reprompts": ({"max_reprompts": 0}, "agents[0].llm.max_reprompts was 2, now 0"),
            "prompt": ({"amounts": "bb"}, "agents[0].llm.amounts was 'chips', now 'bb'"),
            "list_actions": ({"list_actions": "false"}, "agents[0].llm.list_actions was True, now False"),
            "seeds sent": ({"seed": "false"}, "agents[0].llm.seed was True, now False"),
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
