"""Duplicate tournament of zoo agents on any game, 2 to 10 seats: every deal under every seat rotation, 95% intervals.

Each deal (the cards, fixed through the environment's reset options ``deck`` / ``deal`` and the button) is
played once per rotation of the n seats, so every agent gets every seat's cards and position and most of the
card luck cancels. Who sits at the table (fewer agents than seats: the table is filled by cycling through the
agents; more: every set of n agents is a match, heads-up the round robin) is ``agent_zoo.lineups``; how the
per-deal results become per-agent and pairwise numbers is ``agent_zoo.tournament_report``. Hands are played
by ``agent_zoo.runner`` (many tables in lockstep, AEC environments or the batched engine). What to play is one
frozen ``TournamentConfig`` (``agent_zoo.tournament_config``), played by ``run_tournament(config)``.

Reproducibility: the master seed gives one ``SeedSequence`` per deal (by the deal's index) and from it the
cards and one Generator per seat; every rotation of the deal reuses the same seat Generators' seeds, so
identical agents score exactly 0 (each seat's play repeats, only the agents' names move). A deal's result
depends only on its index, so ``workers``, ``tables``, ``block_deals`` and Ray never change a bit of it.

    python -m agent_zoo.tournament --game leduc --agents random cfr:leduc.npz --hands 10000 --seed 1
    python -m agent_zoo.tournament --game nolimit --players 6 --agents random heuristic fold --hands 600 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import inspect
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo import lineups as seating
from agent_zoo.agent import Agent
from agent_zoo.aivat import VARIANCE_REDUCTIONS, aivat_terms, value_function
from agent_zoo.ratings import rate
from agent_zoo.registry import make_agent, needed_env_options
from agent_zoo.runner import HandOutcome, HandSpec, child_seed, play_aec, play_vector
from agent_zoo.stats import StyleCounts
from agent_zoo.tournament_checkpoint import Checkpoint, agent_identity
from agent_zoo.tournament_config import ENGINES, TournamentConfig, table_size, vector_games, vector_session_games
from agent_zoo.tournament_report import Z95, TournamentResult, finite_list, short_label, summarise
from poker_envs import catalog

__all__ = ["Z95", "TournamentConfig", "TournamentResult", "build_env", "check_env_config", "env_config_keys", "main",
           "play_block", "run_tournament", "short_label", "table_size", "vector_games", "vector_session_games"]

AIVAT_STREAM = 1 << 16  # key of the seat-seed child that AIVAT's sampled boards draw from (no seat has it)


def env_config_keys(game: str) -> tuple[str, ...]:
    """The keywords the environment of catalog game ``game`` takes (what ``--env-config`` may set)."""
    from poker_envs.session import AEC_SESSION_ARGS

    raw = importlib.import_module(catalog.game(game).module_path).raw_env
    keys: list[str] = []
    for name, parameter in inspect.signature(raw.__init__).parameters.items():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:  # the hold'em variants that pass sessions on
            keys += [k for k in AEC_SESSION_ARGS if k not in keys]
        elif name != "self" and parameter.kind is not inspect.Parameter.VAR_POSITIONAL:
            keys.append(name)
    return tuple(keys)


def check_env_config(game: str, env_config: dict[str, Any]) -> None:
    """A ValueError naming every key of ``env_config`` the environment of ``game`` does not take, and the keys it does."""
    allowed = env_config_keys(game)
    unknown = [k for k in env_config if k not in allowed]
    if unknown:
        raise ValueError(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} for {game}; "
                         f"its environment takes: {', '.join(allowed)}")


def build_env(game: str, env_config: dict[str, Any] | None = None, players: int | None = None) -> Any:
    """The raw AEC env of a catalog short name (``leduc``, ``nolimit``, ...) with the tournament's defaults
    (heads-up unless ``players`` or ``env_config["num_players"]`` says otherwise); a key the environment does
    not take is a ValueError listing the keys it takes."""
    entry = catalog.game(game)
    check_env_config(game, env_config or {})
    n = table_size(game, env_config, players)
    config = {**dict(entry.heads_up), **(env_config or {})}
    if entry.players[1] > 2:  # the env takes num_players
        config["num_players"] = n
    return importlib.import_module(entry.module_path).raw_env(**config)


@dataclass(frozen=True)
class DealLayout:
    """How a game's cards are fixed at reset: the option, the cards drawn from, how many one deal needs."""

    option: str  # AEC reset option: "deck" (hold'em family, dealing order), "deal" (small games), "decks" (sessions)
    cards: np.ndarray  # card ids a deal is drawn from
    size: int  # cards of one hand
    button: bool  # the game has a reset option "button" (fixed on seat 0; the rotations move the agents instead)
    hands: int = 1  # hands of one episode (sessions: a deck for each of them)


def deal_layout(env: Any) -> DealLayout:
    """The ``DealLayout`` of a raw env's rules. The deal's size is the rules' own ``deal_size`` (hold'em family:
    hole cards per seat x seats + the board's cards, from its configuration, so Omaha deals 4 per seat) and its
    cards the rules' deck (a short deck: 36 cards), so every rotation of a deal gets every card from the deal."""
    from poker_envs.games.holdem import HoldemGame
    from poker_envs.games.push_fold import PushFoldGame

    base = env.unwrapped
    game = base.game
    session = getattr(base, "session_config", None)
    hands = session.hands_per_episode if session is not None and session.is_session else 0
    deck = getattr(game, "deck", None)
    cards = np.asarray(deck if deck is not None else np.arange(game.num_cards), dtype=np.int64)
    if isinstance(game, HoldemGame | PushFoldGame):  # reset option "deck" (a dealing order), or "decks" in sessions
        return DealLayout("decks" if hands else "deck", cards, game.deal_size, isinstance(game, HoldemGame), max(hands, 1))
    return DealLayout("deal", cards, game.deal_size, False)  # Leduc, Kuhn, threshold


# ---- playing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlockTask:
    """A block of consecutive deals; ``play_block`` is a pure function of it."""

    block: int  # position of the block (results are combined in this order)
    game: str  # catalog short name
    env_config: dict[str, Any]  # raw_env keywords (num_players included)
    agents: tuple[Any, ...]  # every agent of the tournament: registry specs or Agent objects
    first_deal: int  # index of the block's first deal (deal d's SeedSequence is child d of ``deals_seq``)
    lineups: np.ndarray  # (deals, seats) agent index per slot of each deal
    deals_seq: np.random.SeedSequence  # parent of every deal's sequence
    style: bool  # count VPIP/PFR/aggression
    engine: str = "aec"  # "aec" or "vector"
    tables: int = 64  # tables played in lockstep
    log_dir: str | None = None  # agents that log their decisions write agent<i>_block<b>.jsonl here
    variance_reduction: str = "none"  # "aivat": also the AIVAT-corrected values (``agent_zoo.aivat``)

    @property
    def hands(self) -> int:
        """Episodes (hands, or sessions) the block plays: one per rotation of each deal."""
        return int(self.lineups.size)


@dataclass
class BlockResult:
    """Per-deal values of every agent (nan where it did not sit), style counts and the agents' own counters."""

    block: int
    values: np.ndarray  # (deals, num_agents)
    style: list[StyleCounts]  # per agent
    places: np.ndarray  # (num_agents, seats): sessions ended in place k + 1 (all zero without sessions)
    counters: list[dict[str, float]] = field(default_factory=list)  # per agent: Agent.finish_block's counters
    aivat: np.ndarray | None = None  # (deals, num_agents) AIVAT-corrected values (variance_reduction "aivat")

    def to_json(self) -> dict[str, Any]:
        """The block as strict-JSON-ready values (floats round-trip exactly; null where an agent did not sit), for
        the checkpoint."""
        out = {"block": self.block, "values": finite_list(self.values), "style": [vars(c) for c in self.style],
               "places": self.places.tolist(), "counters": self.counters}
        if self.aivat is not None:
            out["aivat"] = finite_list(self.aivat)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlockResult:
        aivat = np.asarray(data["aivat"], dtype=np.float64) if "aivat" in data else None
        return cls(int(data["block"]), np.asarray(data["values"], dtype=np.float64),
                   [StyleCounts(**c) for c in data["style"]], np.asarray(data["places"], dtype=np.int64),
                   [dict(c) for c in data["counters"]], aivat)


def _resolve(agent: str | Agent, env: Any, cache: dict[str, Agent]) -> Agent:
    if isinstance(agent, Agent):
        return agent
    if agent not in cache:
        cache[agent] = make_agent(agent, env)
    return cache[agent]


_WORKER_CACHE: dict[tuple[str, str], Any] = {}


def block_hands(task: BlockTask, layout: DealLayout) -> tuple[list[HandSpec], np.ndarray]:
    """The hands of a block (every deal once per rotation, deal-major) and their dealing orders."""
    hands: list[HandSpec] = []
    decks = []
    for i, lineup in enumerate(task.lineups):
        deal_seq = child_seed(task.deals_seq, task.first_deal + i)
        cards = np.random.default_rng(child_seed(deal_seq, 0))
        if layout.option == "decks":  # a session: one deck per hand
            order = np.argsort(cards.random((layout.hands, layout.cards.size)), axis=1)[:, : layout.size]
            deal = layout.cards[order]
        else:
            deal = cards.permutation(layout.cards)[: layout.size]
        options: dict[str, Any] = {layout.option: deal.tolist()}
        if layout.button:
            options["button"] = 0
        for r in range(len(lineup)):
            hands.append(HandSpec(seating.rotation(lineup, r), child_seed(deal_seq, 1), options))
            decks.append(deal)
    return hands, np.asarray(decks, dtype=np.int64)


def _vector_engine(game: str, env_config: dict[str, Any], num_tables: int) -> Any:
    """The batched engine of ``game`` with the tournament's configuration."""
    from poker_envs import vector

    entry = catalog.game(game)
    config = {**dict(entry.heads_up), **env_config}
    if entry.family == "holdem":  # hold'em: the public betting state too, for the agents that read it
        config["public"] = True
    return vector.make(entry.vector_name, num_envs=num_tables, **config)


def play_block(task: BlockTask) -> BlockResult:
    """Play a block's deals, each once per seat rotation, and reduce them to per-deal values per agent."""
    key = (task.game, repr(sorted(task.env_config.items())))
    if key not in _WORKER_CACHE:
        _WORKER_CACHE[key] = (build_env(task.game, task.env_config), {})
    env, agent_cache = _WORKER_CACHE[key]
    agents = [_resolve(a, env, agent_cache) for a in task.agents]
    layout = deal_layout(env)
    hands, decks = block_hands(task, layout)
    n = task.lineups.shape[1]
    ids = [{"deal": task.first_deal + k // n, "rotation": k % n} for k in range(len(hands))]
    for i, agent in enumerate(agents):
        log = None if task.log_dir is None else Path(task.log_dir) / f"agent{i}_block{task.block:05d}.jsonl"
        agent.begin_block(log, ids, block=task.block)
    try:
        if task.engine == "vector":
            engine = _vector_engine(task.game, task.env_config, min(task.tables, len(hands)))
            buttons = np.zeros(len(hands), dtype=np.int64) if layout.button else None
            rules = env.unwrapped.game if task.variance_reduction == "aivat" else None
            outcomes = play_vector(engine, agents, hands, decks, buttons, style=task.style, record=rules)
        else:
            make = lambda: build_env(task.game, task.env_config)  # noqa: E731
            outcomes = play_aec(make, agents, hands, tables=task.tables, style=task.style,
                                record=task.variance_reduction == "aivat")
    finally:
        counters = [agent.finish_block() for agent in agents]  # (also closes the logs of a block that failed)
    prizes = bool(getattr(env.unwrapped, "session_config", None) and env.unwrapped.session_config.payouts)
    result = reduce_block(task, hands, outcomes, prizes, counters)
    if task.variance_reduction == "aivat":
        result.aivat = reduce_block(task, hands, aivat_outcomes(env, hands, outcomes), prizes).values
    return result


def aivat_outcomes(env: Any, hands: list[HandSpec], outcomes: list[HandOutcome]) -> list[HandOutcome]:
    """The outcomes with AIVAT-corrected rewards (``agent_zoo.aivat``): each hand's result less its control
    variates, in the env's reward unit. The boards a pre-flop value samples come from a stream of the hand's
    seat seeds that no agent draws from, shared by the deal's rotations."""
    value = value_function(env.unwrapped.game)
    scale = env.unwrapped.reward_scale
    corrected = []
    for spec, outcome in zip(hands, outcomes, strict=True):
        decisions, final = outcome.trace  # type: ignore[misc]
        value.reseed(np.random.default_rng(child_seed(spec.seat_seeds, AIVAT_STREAM)))
        rewards = outcome.rewards - scale * aivat_terms(value, decisions, final)
        corrected.append(dataclasses.replace(outcome, rewards=rewards, trace=None))
    return corrected


def reduce_block(task: BlockTask, hands: list[HandSpec], outcomes: list[HandOutcome], prizes: bool,
                 counters: list[dict[str, float]] | None = None) -> BlockResult:
    """Per-deal values per agent: reward per hand (one-hand episodes and cash sessions: the session's chips over
    the hands it lasted) or, with prizes, the prize per session; style counts and finishing places per agent;
    ``counters``: each agent's own counters over the block (``Agent.finish_block``), passed through."""
    deals, n = task.lineups.shape
    m = len(task.agents)
    values = np.full((deals, m), np.nan)
    counts = [StyleCounts() for _ in range(m)]
    places = np.zeros((m, n), dtype=np.int64)
    for i in range(deals):
        sums, weight = np.zeros(m), np.zeros(m)
        for r in range(n):
            hand, outcome = hands[i * n + r], outcomes[i * n + r]
            np.add.at(sums, list(hand.seats), outcome.rewards)
            np.add.at(weight, list(hand.seats), 1 if prizes else outcome.hands)
            for seat, who in enumerate(hand.seats):
                if outcome.style is not None:
                    counts[who].add(outcome.style[seat])
                if prizes and outcome.places is not None:
                    places[who, outcome.places[seat] - 1] += 1
        sat = weight > 0
        values[i, sat] = sums[sat] / weight[sat]
    return BlockResult(task.block, values, counts, places, counters or [{} for _ in range(m)])


# ---- driver -------------------------------------------------------------------------------------


def _run_tasks(tasks: list[BlockTask], workers: int, backend: str, total_hands: int, progress: bool,
               unit: str = "hand", done: dict[int, BlockResult] | None = None,
               on_result: Callable[[BlockResult], None] | None = None) -> list[BlockResult]:
    """Run block tasks on this process, a process pool or Ray; returned in task order. ``done``: results of
    blocks finished before (a resumed run: not played again); ``on_result`` sees each new result as it comes."""
    bar = None
    if progress:
        try:
            from tqdm.auto import tqdm
        except ImportError:  # bare install (numpy, gymnasium, pettingzoo): no bar rather than no tournament
            tqdm = None
        if tqdm is not None:
            bar = tqdm(total=total_hands, unit=unit, desc="tournament")  # unit: what --hands counts
    results: list[BlockResult | None] = [(done or {}).get(t.block) for t in tasks]
    if bar:
        bar.update(sum(t.hands for t, r in zip(tasks, results, strict=True) if r is not None))
    todo = [k for k, r in enumerate(results) if r is None]

    def finished(k: int, result: BlockResult) -> None:
        results[k] = result
        if on_result is not None:
            on_result(result)
        if bar:
            bar.update(tasks[k].hands)

    try:
        if backend == "ray":
            try:
                import ray
            except ImportError as exc:
                raise RuntimeError("--backend ray needs the ray package: pip install 'poker-envs[ray]'") from exc
            if not ray.is_initialized():
                ray.init(num_cpus=workers if workers > 1 else None, include_dashboard=False, log_to_driver=False)
            remote = ray.remote(play_block)
            pending = {remote.remote(tasks[k]): k for k in todo}
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                k = pending.pop(ready[0])
                finished(k, ray.get(ready[0]))
        elif workers <= 1:
            for k in todo:
                finished(k, play_block(tasks[k]))
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=ignore_ctrl_c) as pool:
                futures = {pool.submit(play_block, tasks[k]): k for k in todo}
                try:
                    for fut in as_completed(futures):
                        finished(futures[fut], fut.result())
                except BaseException as exc:
                    if isinstance(exc, KeyboardInterrupt):  # Ctrl-C: stop at once, the blocks under way are dropped
                        stop_workers(pool)
                    else:  # a block failed: the blocks under way finish and are kept
                        pool.shutdown(wait=True, cancel_futures=True)
                    for fut, k in futures.items():
                        if results[k] is None and fut.done() and not fut.cancelled() and fut.exception() is None:
                            finished(k, fut.result())
                    raise
    finally:
        if bar:
            bar.close()
    return results  # type: ignore[return-value]


def ignore_ctrl_c() -> None:
    """A worker process's start: Ctrl-C (sent to the whole process group) is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel every block not started and end the worker processes now, blocks under way and all (the pool has
    no public way to end a running call before Python 3.14's ``terminate_workers``)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (shutdown forgets them)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


SNG_LEVELS = ((1, 2, 0), (2, 4, 0), (3, 6, 0), (5, 10, 0), (10, 20, 0), (15, 30, 0), (25, 50, 0), (50, 100, 0),
              (75, 150, 0), (100, 200, 0), (150, 300, 0), (200, 400, 0))  # sit-and-go blinds (chips) for 1/2 blinds, 200 chips
SNG_HANDS_PER_LEVEL = 10  # hands at each sit-and-go level
SNG_MAX_HANDS = 400  # a sit-and-go stops here at the latest (prizes then by ICM on the stacks)


def sng_payouts(seats: int) -> tuple[float, ...]:
    """Prize shares of the default sit-and-go: winner takes all heads-up, 65/35 up to 6 seats, else 50/30/20."""
    return (1.0,) if seats == 2 else (0.65, 0.35) if seats <= 6 else (0.5, 0.3, 0.2)


def session_config(
    game: str, seats: int, env_config: dict[str, Any], hands_per_episode: int, rebuy: bool, sit_and_go: bool
) -> dict[str, Any]:
    """``env_config`` with the session keywords of a cash session (``hands_per_episode``, ``rebuy``) or a sit-and-go
    (``payouts``, and for hold'em ``blind_levels`` / ``hands_per_level``, unless ``env_config`` sets them)."""
    config = dict(env_config)
    if hands_per_episode == 1 and not rebuy and not sit_and_go:
        return config
    if isinstance(hands_per_episode, bool) or not isinstance(hands_per_episode, int) or hands_per_episode < 1:
        raise ValueError(f"hands_per_episode must be an integer >= 1, got {hands_per_episode!r}")
    raw = importlib.import_module(catalog.game(game).module_path).raw_env
    accepts = inspect.signature(raw.__init__).parameters
    if "hands_per_episode" not in accepts:
        raise ValueError(f"hands_per_episode / rebuy / sit_and_go: {game} has no sessions (hold'em and push/fold have)")
    if sit_and_go:
        if rebuy:
            raise ValueError("sit_and_go cannot be combined with rebuy (a sit-and-go is played down to one stack)")
        config.setdefault("payouts", list(sng_payouts(seats)))
        if "blind_levels" in accepts:
            config.setdefault("blind_levels", [list(level) for level in SNG_LEVELS])
            config.setdefault("hands_per_level", SNG_HANDS_PER_LEVEL)
        hands_per_episode = hands_per_episode if hands_per_episode > 1 else SNG_MAX_HANDS
    config["hands_per_episode"] = hands_per_episode
    if rebuy:
        config["rebuy"] = True
    return config


def run_tournament(config: TournamentConfig) -> TournamentResult:
    """Play the duplicate tournament ``config`` describes (``TournamentConfig``; see the module doc).

    Sessions (hold'em, push/fold; hold'em on the batched engine too): ``hands_per_episode`` > 1 plays cash
    sessions of that many hands (``rebuy``: stacks topped up every hand), results in reward per hand played;
    ``sit_and_go`` plays each episode down to one stack with blind levels and payouts (``session_config``),
    results in prize per sit-and-go, with finishing places. Then ``hands`` counts episodes (sessions) per match.

    ``checkpoint``: a file (``agent_zoo.tournament_checkpoint``) that gets every block's result as the block
    finishes; with ``resume`` the blocks already in it are not played again (the result is the same as an
    uninterrupted run's). Agents that need environment options (``Agent.env_options``) get environments built
    with them.

    ``variance_reduction="aivat"`` (one-hand episodes, either engine) also reports every mean and interval
    corrected by AIVAT's control variates (``agent_zoo.aivat``, ``TournamentResult.aivat``): chance terms for
    everyone, decision terms for the agents that give ``action_probabilities`` (the others are named in
    ``aivat["chance_only"]``).
    """
    if not isinstance(config, TournamentConfig):
        raise TypeError(f"run_tournament takes a TournamentConfig, got {type(config).__name__}")
    cfg = config
    game, agents, engine, seed, hands, style = cfg.game, cfg.agents, cfg.engine, cfg.seed, cfg.hands, cfg.style
    env_config = dict(cfg.env_config)
    n = cfg.seats
    if n > 2 or "num_players" in env_config:
        env_config["num_players"] = n
    env_config = session_config(game, n, env_config, cfg.hands_per_episode, cfg.rebuy, cfg.sit_and_go)
    if engine != "aec" and env_config.get("hands_per_episode", 1) > 1 and game not in vector_session_games():
        raise ValueError(f"engine 'vector' plays sessions (hands_per_episode, sit_and_go) of {', '.join(vector_session_games())} "
                         f"only; {game} sessions need engine 'aec'")
    if cfg.variance_reduction == "aivat" and env_config.get("hands_per_episode", 1) > 1:
        raise ValueError("variance_reduction 'aivat' corrects one-hand episodes, not sessions; got hands_per_episode "
                         f"{env_config['hands_per_episode']}")
    needs = needed_env_options(agents, env_config)  # environment options the agents need
    if needs and engine == "vector":
        raise ValueError(f"engine 'vector': agents here need the environment options {needs}, which the batched "
                         "engine does not give; use engine 'aec'")
    env_config.update(needs)
    try:
        env = build_env(game, env_config)
    except TypeError as exc:
        if not needs:
            raise
        raise ValueError(f"agents here need the environment options {needs}, which {game} does not take ({exc})") from None
    names: list[str] = []
    identities: list[str | dict[str, Any]] = []  # the checkpoint's record of each agent (agent_identity)
    for spec in agents:  # build every agent once here: bad names and files fail before any hand
        agent = spec if isinstance(spec, Agent) else make_agent(spec, env)
        names.append(spec if isinstance(spec, str) else agent.name)
        identities.append(agent_identity(names[-1], agent))
        missing = {k: v for k, v in agent.env_options.items() if env_config.get(k) != v}
        if missing:
            raise ValueError(f"agent {names[-1]!r} needs the environment options {missing}; pass them in env_config")
    if len(set(names)) != len(names):
        raise ValueError(f"agents: names must be distinct, got {names}")
    if engine == "vector":
        _vector_engine(game, env_config, 1)  # its configuration errors before any hand
    lineup_seq, deals_seq = np.random.SeedSequence(seed).spawn(2)
    _, lineups = seating.schedule(len(agents), n, hands // n, cfg.max_lineups, np.random.default_rng(lineup_seq))
    tasks = [
        BlockTask(b, game, env_config, tuple(agents), lo, lineups[lo : lo + cfg.block_deals], deals_seq, style, engine, cfg.tables)
        for b, lo in enumerate(range(0, len(lineups), cfg.block_deals))
    ]
    if cfg.log_dir is not None:
        tasks = [dataclasses.replace(t, log_dir=str(cfg.log_dir)) for t in tasks]
    chance_only: list[str] = []
    if cfg.variance_reduction == "aivat":
        tasks = [dataclasses.replace(t, variance_reduction="aivat") for t in tasks]
        chance_only = policy_unknown(agents, names, build_env(game, env_config), seed)
        if chance_only and cfg.progress:
            import sys

            print(aivat_note(chance_only), file=sys.stderr)
    store = None
    if cfg.checkpoint is not None:
        header = {"game": game, "agents": identities, "hands": hands, "seed": seed, "env_config": env_config, "players": n,
                  "engine": engine, "block_deals": cfg.block_deals, "max_lineups": cfg.max_lineups, "style": style}
        if cfg.variance_reduction != "none":  # (checkpoints of plain tournaments keep their header)
            header["variance_reduction"] = cfg.variance_reduction
        store = Checkpoint(cfg.checkpoint, header, cfg.resume)
    done = {k: BlockResult.from_json(b) for k, b in store.done.items()} if store is not None else {}
    on_result = (lambda r: store.add(r.to_json())) if store is not None else None
    counted = "sit-and-go" if cfg.sit_and_go else "session" if env_config.get("hands_per_episode", 1) > 1 else "hand"
    blocks = _run_tasks(tasks, cfg.workers, cfg.backend, int(lineups.size), cfg.progress, counted, done, on_result)
    values = np.concatenate([r.values for r in blocks])
    agent_mean, agent_ci, agent_deals, mean, ci = summarise(values)
    counts = {name: StyleCounts() for name in names}
    for r in blocks:
        for name, c in zip(names, r.style, strict=True):
            counts[name].add(c)
    entry = catalog.game(game)
    summary = {name: c.summary(entry.has_calls) for name, c in counts.items()} if style else {}
    unit = "prize" if env_config.get("payouts") else entry.reward_unit
    places = np.sum([r.places for r in blocks], axis=0)
    counters: dict[str, dict[str, float]] = {}
    for r in blocks:  # in block order, so float sums repeat exactly
        for name, c in zip(names, r.counters, strict=True):
            for key, value in c.items():
                counters.setdefault(name, {})[key] = counters.get(name, {}).get(key, 0) + value
    aivat = None
    if cfg.variance_reduction == "aivat":
        a_mean, a_ci, _, p_mean, p_ci = summarise(np.concatenate([r.aivat for r in blocks]))  # type: ignore[misc]
        aivat = {"agent_mean": a_mean, "agent_ci95": a_ci, "mean": p_mean, "ci95": p_ci, "chance_only": chance_only}
    board = rate(names, values) if cfg.ratings else None
    return TournamentResult(
        game, unit, names, hands, seed, mean, ci, summary, counts, n, agent_mean, agent_ci, agent_deals,
        int(env_config.get("hands_per_episode", 1)), places, counters, aivat, board,
        env_config={**dict(entry.heads_up), **env_config},
    )


def policy_unknown(agents: Sequence[str | Agent], names: Sequence[str], env: Any, seed: int) -> list[str]:
    """The agents whose ``action_probabilities`` is None at a first decision: AIVAT gives them no decision terms."""
    cache: dict[str, Agent] = {}
    env.reset(seed=seed)
    observation = env.observe(env.agent_selection)
    return [name for spec, name in zip(agents, names, strict=True)
            if _resolve(spec, env, cache).action_probabilities(observation) is None]


def aivat_note(chance_only: Sequence[str]) -> str:
    """The one line saying which AIVAT terms are dropped for which agents."""
    return (f"aivat: no policy (action_probabilities is None) for {', '.join(chance_only)}: decision terms dropped "
            "for their actions, chance terms only")


EXAMPLES = (  # the end of --help
    "--game kuhn --agents random fold --hands 2000 --seed 1",
    "--game nolimit --players 6 --agents random heuristic fold --hands 600 --seed 1 --out out/nolimit_6max",
    "--game nolimit --agents random heuristic --hands 1000 --variance-reduction aivat --env-config starting_stack=50",
)


def build_parser() -> argparse.ArgumentParser:
    """The command line (the zoo's dialect, see ``agent_zoo.cli``)."""
    from agent_zoo import cli
    from agent_zoo.registry import REGISTRY

    agents_help = "\n".join(
        f"  {name + (f':<{e.arg_help}>' if e.needs_arg else (f'[:<{e.arg_help}>]' if e.arg_help else '')):<58} {e.summary}"
        for name, e in REGISTRY.items()
    )
    parser = cli.parser("tournament", __doc__.split("\n\n")[0],
                        epilog=f"agents:\n{agents_help}\n\n{cli.examples('tournament', *EXAMPLES)}")
    parser.add_argument("--game", required=True, choices=catalog.keys(), help="the game (catalog short name)")
    parser.add_argument("--agents", nargs="+", required=True, help="registry specs, e.g. random cfr:leduc.npz (listed below)")
    parser.add_argument("--players", type=int, default=None, help="seats at the table (default: 2, or --env-config num_players)")
    parser.add_argument("--hands", type=int, default=2000,
                        help="hands (with sessions: sessions) per match, a multiple of the seats: each deal is played once per rotation")
    cli.add_seed(parser, what="the deals and line-ups")
    cli.add_workers(parser, what=" on this machine")
    parser.add_argument("--backend", choices=["process", "ray"], default="process", help="how --workers are run")
    parser.add_argument("--engine", choices=ENGINES, default="aec", help=f"AEC environments or the batched engine ({', '.join(vector_games())})")
    parser.add_argument("--tables", type=int, default=64, help="tables played in lockstep per worker")
    parser.add_argument("--max-lineups", type=int, default=500, help="most sets of agents when there are more agents than seats")
    parser.add_argument("--block-deals", type=int, default=250,
                        help="deals per block: the work sent to a worker, and what the checkpoint saves at once")
    parser.add_argument("--hands-per-episode", type=int, default=1, help="cash sessions of this many hands (--hands then counts sessions)")
    parser.add_argument("--rebuy", action="store_true", help="with --hands-per-episode: every stack topped up to the start each hand")
    parser.add_argument("--sit-and-go", action="store_true", help="each episode a sit-and-go: blind levels, eliminations, payouts")
    cli.add_threads(parser)
    cli.add_env_config(parser)
    cli.add_json(parser, "the whole result")
    cli.add_out(parser, None, "tournament_<game>.json, .csv (results matrix) and .png (heat map), the checkpoint "
                "tournament_<game>.checkpoint.jsonl (every finished block) and decisions/ (language models' decision "
                "logs) (default: nothing written)")
    parser.add_argument("--resume", metavar="DIR", default=None,
                        help="continue the interrupted tournament whose --out was DIR (same arguments): finished blocks "
                             "are read from its checkpoint, not played again")
    parser.add_argument("--variance-reduction", choices=VARIANCE_REDUCTIONS, default="none",
                        help="aivat: also every result corrected by AIVAT's control variates (Burch et al., AAAI 2018): "
                             "chance terms by all-in equity, decision terms of agents with a known policy; one-hand episodes")
    parser.add_argument("--ratings", action="store_true",
                        help="also rate the agents (OpenSkill, Plackett-Luce; one match per deal, ranked by the agents' "
                             "results over its seat rotations): a leaderboard, and with --out tournament_<game>_ratings.csv "
                             "and .png")
    cli.add_progress(parser)
    return parser


@contextlib.contextmanager
def interrupt_once() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt once; later ones are ignored while the run stops (no second traceback
    from the unwinding). Python's own handler is put back after; elsewhere (not the main thread, or another
    handler installed) nothing changes."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def first(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is first:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def interrupted_line(checkpoint: Path | None, out: str | None) -> str:
    """The one line an interrupted run prints: how many finished blocks the checkpoint keeps, how to go on."""
    if checkpoint is None or not checkpoint.exists():
        return "interrupted (no --out: nothing kept)"
    blocks = sum(1 for line in checkpoint.read_text().splitlines()[1:] if line.strip())
    return f"interrupted: {blocks} finished block{'s' * (blocks != 1)} kept in {checkpoint}; rerun with --resume {out}"


def main(argv: Sequence[str] | None = None) -> TournamentResult:
    import json
    import sys

    from agent_zoo import cli

    parser = build_parser()
    args = parser.parse_args(argv)
    env_config = cli.env_config(parser, args.env_config)
    cli.limit_threads(args.threads)  # before an agent (sb3:, cnn:, rnad:, cluster:) loads torch, here or in a worker
    lo, hi = catalog.game(args.game).players
    if args.players is not None and not lo <= args.players <= hi:
        seats = f"is played by exactly {lo}" if lo == hi else f"seats {lo} to {hi}"
        parser.error(f"argument --players: {args.game} {seats}, got {args.players}")
    try:
        build_env(args.game, env_config, args.players)
    except (TypeError, ValueError) as exc:
        parser.error(f"--env-config: {exc}")
    cli.check_out(parser, args.out)
    cli.check_out(parser, args.resume, "--resume")
    if args.resume is not None and args.out is not None and Path(args.resume) != Path(args.out):
        parser.error(f"argument --resume: {args.resume} differs from --out {args.out} (--resume DIR writes to DIR)")
    out = args.resume if args.resume is not None else args.out
    if args.resume is not None and not Path(args.resume).is_dir():
        parser.error(f"argument --resume: no such folder {args.resume!r}")
    checkpoint = Path(out) / f"tournament_{args.game}.checkpoint.jsonl" if out is not None else None
    try:
        config = TournamentConfig(
            game=args.game,
            agents=args.agents,
            hands=args.hands,
            seed=args.seed,
            workers=args.workers,
            backend=args.backend,
            env_config=env_config,
            progress=not args.no_progress,
            players=args.players,
            engine=args.engine,
            tables=args.tables,
            max_lineups=args.max_lineups,
            block_deals=args.block_deals,
            hands_per_episode=args.hands_per_episode,
            rebuy=args.rebuy,
            sit_and_go=args.sit_and_go,
            checkpoint=checkpoint,
            resume=args.resume is not None,
            log_dir=Path(out) / "decisions" if out is not None else None,
            variance_reduction=args.variance_reduction,
            ratings=args.ratings,
        )
        with interrupt_once():
            result = run_tournament(config)
    except (ValueError, RuntimeError) as exc:
        kept = f" (finished blocks are kept: rerun with --resume {out})" if checkpoint is not None and checkpoint.exists() else ""
        parser.exit(2, f"{parser.prog}: error: {exc}{kept}\n")
    except KeyboardInterrupt:
        parser.exit(130, f"{parser.prog}: {interrupted_line(checkpoint, out)}\n")
    if not cli.emit_json(result.to_dict(), args.json, allow_nan=False):
        print(result.table())
    if out is not None:
        stem = cli.out_dir(out) / f"tournament_{args.game}"
        try:
            stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=1, allow_nan=False))
            result.write_csv(str(stem.with_suffix(".csv")))
            result.write_png(str(stem.with_suffix(".png")))
            if result.ratings is not None:
                result.ratings.write_csv(f"{stem}_ratings.csv")
                result.ratings.write_png(f"{stem}_ratings.png", f"{args.game}, {result.players} seats: OpenSkill ratings")
        except (RuntimeError, OSError) as exc:
            parser.exit(2, f"{parser.prog}: error: {exc}\n")
        print(f"written: {stem}.json, .csv, .png", file=sys.stderr)
    return result


if __name__ == "__main__":
    main()
