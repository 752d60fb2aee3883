"""``LLMAgent``: a language model over an OpenAI-compatible server plays from the text view of the observation.

Each decision is a short conversation: the text view's prompt (``poker_envs.text.TextTable``) -> the model's
reply -> the view's parser. A reply that gives no legal action (unparsable, ambiguous, illegal, out of range) is answered
with the parser's error message and asked again, at most ``max_reprompts`` times; then the agent takes the
documented fallback: check when checking is free, else fold. Every failure, reprompt and fallback is counted
(``agent_zoo.llm.stats``); a bad reply never stops a hand. A server that fails is another matter
(``agent_zoo.llm.client``): retried with backoff, then ``LLMServerError``.

``act_batch`` over m observations (one per table deciding) sends the m conversations at once from a pool of
``concurrency`` threads, so a tournament playing 64 tables waits for one round trip per round, not 64.

Reproducibility: each decision draws one seed from its seat's Generator (row order, before any request) and
sends it as the request's ``seed``; a server that honours seeds (and ``temperature=0``) then repeats its replies.

Decision log: between ``begin_block(path, hands)`` and ``finish_block()`` (the tournament calls them around each
block) every decision is one JSON line in ``path``: the ids the runner gave (``table``, ``hand``, ``seat``, and
the block's ``hands[hand]``, e.g. deal and rotation), the prompt, the replies, the failures, the action, latency
and tokens.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any

import numpy as np

from agent_zoo.agent import Agent, Observation, Rngs, batch_size, row, row_rngs
from agent_zoo.llm.client import ChatClient
from agent_zoo.llm.config import LLMConfig
from agent_zoo.llm.stats import Decision, DecisionCounts
from agent_zoo.llm.structured import action_schema, instruction, read_structured, response_format
from poker_envs.text.tracker import HandRecord

SEED_BOUND = 2**31 - 1  # seeds sent to the server lie in [0, SEED_BOUND)
SessionView = tuple[tuple[HandRecord, ...], tuple[int, ...]]  # a prompt's earlier hands, and who sits at each seat now


Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]  # a RequestPool's unit of work: where the result goes, the call


class RequestPool:
    """``size`` daemon threads running one batch's decisions at once (``act_batch``).

    Not a ``ThreadPoolExecutor``: Python joins an executor's threads at exit, so a Ctrl-C would wait for every
    request in flight (up to ``timeout`` each), and a second Ctrl-C would print a traceback from that join.
    An interrupted ``map`` cancels the decisions not started yet and returns at once; the requests in flight
    are abandoned with their daemon threads, which never hold up the process's exit."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    def __del__(self) -> None:  # the threads end with the pool (each takes one None)
        for _ in self._threads:
            self._jobs.put(None)

    def map(self, fn: Callable[..., Any], *iterables: Sequence[Any]) -> list[Any]:
        """``[fn(*args) for args in zip(*iterables)]``, run by the threads; the first exception is raised."""
        futures: list[Future[Any]] = []
        for args in zip(*iterables, strict=True):
            future: Future[Any] = Future()
            self._jobs.put((future, fn, args))
            futures.append(future)
        while len(self._threads) < min(self.size, len(futures)):
            thread = threading.Thread(target=run_jobs, args=(self._jobs,), name=f"llm-{len(self._threads)}", daemon=True)
            thread.start()
            self._threads.append(thread)
        try:
            return [f.result() for f in futures]
        except BaseException:  # Ctrl-C (or a failed decision): what has not started never will
            for f in futures:
                f.cancel()
            raise


def run_jobs(jobs: queue.SimpleQueue[Job | None]) -> None:
    """A ``RequestPool`` thread: runs jobs until it takes a None (the thread holds the queue, not the pool)."""
    while (job := jobs.get()) is not None:
        future, fn, args = job
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # handed to map's caller
                future.set_exception(exc)
        del job, future, fn, args  # no reference to the agent kept while idle


class LLMAgent(Agent):
    """A language-model player; ``table`` is the text view built for the env (``TextTable.for_env``)."""

    env_options: Mapping[str, Any] = MappingProxyType({"history": True})  # the views read the hand so far

    def __init__(self, config: LLMConfig, table: Any, name: str | None = None) -> None:
        self.config = config
        self.table = table
        self.name = name or f"llm:{config.model}@{config.base_url}"
        self.counts = DecisionCounts()
        self._client: ChatClient | None = None
        self._pool: RequestPool | None = None
        self._log: IO[str] | None = None
        self._hand_ids: Sequence[Mapping[str, int]] = ()
        self._rows: Sequence[tuple[int, int, int]] | None = None
        self._log_tags: dict[str, Any] = {}
        # summary="hands" / "hud": the hands this agent played in the block, as the runner showed them (end_hand),
        # and who sat where at each hand (seated); both emptied by begin_block
        self.hand_records = table.summary != "results"
        self._session: list[tuple[int, Any, HandRecord]] = []  # (hand, its deal or None, record)
        self._seating: dict[int, tuple[int, ...]] = {}

    # pickling (a tournament sends agents to worker processes): the client, threads and log stay behind
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(_client=None, _pool=None, _log=None, _rows=None)
        return state

    def client(self) -> ChatClient:
        if self._client is None:
            self._client = ChatClient(self.config)
        return self._client

    # ---- acting ---------------------------------------------------------------------------------

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return int(self.act_batch({k: np.asarray(v)[None] for k, v in observation.items()}, [rng])[0])

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        m = batch_size(observations)
        rngs = row_rngs(rng, m)
        self.client()  # made once here, not raced for by the threads
        seeds = [int(g.integers(SEED_BOUND)) if self.config.seed else None for g in rngs]
        rows = [row(observations, i) for i in range(m)]
        ids, self._rows = self._rows, None
        if ids is not None and len(ids) != m:
            ids = None
        views = [self.session_view(None if ids is None else ids[i][1]) for i in range(m)]
        if m == 1 or self.config.concurrency == 1:
            decisions = [self.decide(o, s, v) for o, s, v in zip(rows, seeds, views, strict=True)]
        else:
            if self._pool is None:
                self._pool = RequestPool(self.config.concurrency)
            decisions = self._pool.map(self.decide, rows, seeds, views)
        for i, d in enumerate(decisions):
            self.counts.add(d)
            if self._log is not None:
                self._write(d, rows[i], ids[i] if ids is not None else None)
        return np.array([d.action for d in decisions], dtype=np.int64)

    def session_view(self, hand: int | None) -> SessionView:
        """The earlier hands the prompt of a decision in ``hand`` (the runner's index; None: unknown) shows, and
        who sits where in it. In a duplicate tournament the other seatings of the same deal are held back: their
        boards are this hand's cards to come (the block's hand ids name each hand's ``deal``)."""
        if not self.hand_records:
            return (), ()
        deal = self._deal(hand)
        hands = [r for h, d, r in self._session if deal is None or h == hand or d != deal]
        return tuple(hands), self._seating.get(hand, ()) if hand is not None else ()

    def _deal(self, hand: int | None) -> Any:
        if hand is None or not 0 <= hand < len(self._hand_ids):
            return None
        return self._hand_ids[hand].get("deal")

    def decide(self, observation: Mapping[str, np.ndarray], seed: int | None, view: SessionView = ((), ())) -> Decision:
        """One decision: prompt -> reply -> parse, reprompted with the error up to ``max_reprompts`` times, then
        the fallback. ``view``: the session's earlier hands and the current seating (``session_view``). Server
        failures raise ``LLMServerError``; a bad reply never does."""
        cfg, table = self.config, self.table
        mask = np.asarray(observation["action_mask"])
        structured = cfg.output != "text"  # the legal actions as a JSON schema in every request (structured.py)
        answer = f"\n\n{instruction(table, observation)}" if structured else ""
        form = response_format(cfg.output, action_schema(table, observation)) if structured else None
        hands, players = view
        prompt = table.prompt(observation, hands, players) + answer
        d = Decision(prompt=prompt, seed=seed)
        messages = [{"role": "system", "content": cfg.system_prompt}, {"role": "user", "content": prompt}]
        for attempt in range(cfg.max_reprompts + 1):
            reply = self.client().chat(messages, seed, form)
            d.replies.append(reply.text)
            d.latency_s += reply.latency_s
            d.retries += reply.retries
            if reply.prompt_tokens is not None:
                d.prompt_tokens = (d.prompt_tokens or 0) + reply.prompt_tokens
                d.completion_tokens = (d.completion_tokens or 0) + (reply.completion_tokens or 0)
                d.usage_requests += 1
            if structured:
                parsed = read_structured(reply.text, table, observation)
            else:
                parsed = table.parse(reply.text, observation)
            if parsed.action is not None and 0 <= parsed.action < mask.size and mask[parsed.action]:
                d.action, d.snapped = int(parsed.action), bool(parsed.snapped)
                return d
            d.failures.append(parsed.failure or "illegal")
            if attempt < cfg.max_reprompts:
                again = table.reprompt(parsed, observation, hands, players) + answer
                d.reprompts.append(again)
                messages += [{"role": "assistant", "content": reply.text}, {"role": "user", "content": again}]
        d.action, d.fallback = int(table.fallback(observation)), True
        return d

    # ---- the runner's and the tournament's hooks ----------------------------------------------

    def note_rows(self, rows: Sequence[tuple[int, int, int]]) -> None:
        self._rows = rows

    def seated(self, hand: int, seat: int, players: tuple[int, ...]) -> None:
        self._seating[hand] = players

    def end_hand(self, hand: int, seat: int, record: HandRecord) -> None:
        self._session.append((hand, self._deal(hand), record._replace(number=len(self._session))))  # numbered in the agent's session

    def begin_block(self, log: Path | None, hands: Sequence[Mapping[str, int]] = (), **tags: Any) -> None:
        self.finish_block()
        self._hand_ids, self._log_tags = hands, dict(tags)
        self._session, self._seating = [], {}
        if log is not None:
            Path(log).parent.mkdir(parents=True, exist_ok=True)
            self._log = open(log, "w")  # noqa: SIM115 (closed by finish_block)

    def finish_block(self) -> dict[str, float]:
        counters = self.counts.counters()
        self.counts = DecisionCounts()
        if self._log is not None:
            self._log.close()
            self._log = None
        return counters

    def _write(self, d: Decision, observation: Mapping[str, np.ndarray], ids: tuple[int, int, int] | None) -> None:
        head: dict[str, Any] = {"agent": self.name, **self._log_tags}
        if ids is not None:
            table, hand, seat = ids
            head.update(table=table, hand=hand, seat=seat)
            if 0 <= hand < len(self._hand_ids):
                head.update(self._hand_ids[hand])
        head["state"] = self.table.state_json(observation)
        assert self._log is not None
        self._log.write(json.dumps({**head, **d.record()}) + "\n")
        self._log.flush()
