"""One table runner: many hands of one game played at many tables in lockstep, each agent acting on the
stacked observations of all its seats that are to act at once.

A hand to play is a ``HandSpec``: which agent sits in which seat, how the cards fall (reset options that fix
the deal, so nothing about the cards depends on the order hands are played) and a ``SeedSequence`` from
which every seat gets its own ``np.random.Generator``. Every random choice of an agent at a seat comes from
that seat's Generator, so a hand's result is a function of its spec alone: the same for 1 table or 512,
for any number of worker processes, on Ray, and in any order.

Two engines play the hands:

* ``play_aec``: a list of AEC environments (any game of ``poker_envs``), one per table. Pending decisions
  are grouped by agent, each agent gets one batched call per round.
* ``play_vector``: the batched engine (``poker_envs.vector``: every game the catalog gives one). Episodes (hands, or
  hold'em sessions) are played in waves: every table is dealt its fixed deal by ``reset(options={"decks",
  "buttons"})``, tables whose episode is over wait (``step(actions, active=...)``) until the wave's last one
  ends. Same cards and the same seat Generators give the same results as ``play_aec`` for agents whose
  ``act_batch`` draws row by row.

``play_aec`` shows every turn and every episode's end to a ``Watcher`` (optional): callers that keep more than
the outcomes (play logs, stored training hands, per-decision statistics) read the observation, the action and
the rules state there, so the loop itself is written once.

Agents are called through ``act_rows``: ``agent.act_batch(observations, rngs)`` (``agent_zoo.agent``), with
``observations`` the observation dict stacked over rows and ``rngs`` one Generator per row, which row ``i``
uses alone. The batched hold'em engine built with ``public=True`` (and every batched session) also gives
``"public"``, so agents that read the public betting state (``heuristic``, ``cnn``) play there too; other
batched engines give ``{"observation", "action_mask"}`` only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, stack
from agent_zoo.aivat import Decision
from agent_zoo.stats import BET, CALL, CHECK, FOLD, ActionView, HandTracker, StyleCounts, classify
from poker_envs.games.base import play_chance
from poker_envs.text.records import keeps_records, last_hand_record

BatchObservation = dict[str, np.ndarray]


@dataclass(frozen=True)
class HandSpec:
    """One episode to play: a hand, or a session of hands where the environment is configured for one."""

    seats: tuple[int, ...]  # index into the runner's agents of the agent at each seat
    seat_seeds: np.random.SeedSequence  # seat s acts with default_rng(child s) (children made without spawn())
    options: dict[str, Any] = field(default_factory=dict)  # AEC reset options fixing the cards ("deck"/"deal"/"decks", "button")
    seed: int | None = None  # AEC reset seed (chance not fixed by ``options`` draws from it)


@dataclass
class HandOutcome:
    """What one episode (a hand, or a session) gave."""

    rewards: np.ndarray  # (num_players,) every seat's total reward over the episode
    style: list[StyleCounts] | None  # per seat, when style statistics were asked for
    hands: int = 1  # hands played in the episode
    places: np.ndarray | None = None  # sessions: finishing place of each seat (1 = first; ties share the best)
    trace: tuple[list[Decision], Any] | None = None  # ``record=True``: every decision and the final rules state


@dataclass(frozen=True)
class Turn:
    """One turn of a seat in ``play_aec``, shown to ``Watcher.turn`` right before its action is applied."""

    hand: int  # index into the runner's hands of the episode being played
    seat: int  # the environment seat that acts
    observation: dict[str, np.ndarray]  # what the seat observed (its row of the agent's batch)
    action: int  # the action the agent chose
    # The environment's rules state before the action; live, so read it during the call (clone it to keep it).
    # A pass turn of a hand the forced bets decided is no decision: there ``state.current_player()`` is < 0.
    # In a session with eliminated seats the state numbers the seats of its hand, not the environment's.
    state: Any


class Watcher:
    """Sees ``play_aec``'s episodes as they are played; the base class ignores everything, a subclass overrides
    what it needs (a play log, stored training hands, progress). Turns of different tables interleave, so a
    watcher that keeps per-episode data keys it by ``Turn.hand``."""

    def turn(self, turn: Turn) -> None:
        """Every turn a seat is asked to act, in the order the actions are applied at its table."""

    def episode_end(self, hand: int, state: Any, outcome: HandOutcome) -> None:
        """Episode ``hand`` (index into the runner's hands) is over: ``outcome`` is what it gave and ``state``
        the rules state its (last) hand ended in, live during the call only."""


def finishing_places(session: Any) -> np.ndarray:
    """Place of every seat at the end of a session: the seats still in by stack (equal stacks tie), then the
    eliminated ones, last out last."""
    groups: list[list[int]] = []
    for stack in sorted({session.stacks[s] for s in session.seated}, reverse=True):
        groups.append([s for s in session.seated if session.stacks[s] == stack])
    groups += session.eliminated[::-1]
    places = np.zeros(session.num_players, dtype=np.int64)
    place = 1
    for group in groups:
        places[group] = place
        place += len(group)
    return places


def child_seed(seq: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The child ``seq.spawn`` would give at ``key``, made without mutating ``seq`` (a replay gives it again)."""
    return np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, *key))


def seat_rngs(spec: HandSpec) -> list[np.random.Generator]:
    """The Generators of a hand's seats; the same spec gives the same streams every time it is played."""
    return [np.random.default_rng(child_seed(spec.seat_seeds, s)) for s in range(len(spec.seats))]


class SeatStreams:
    """``seat_rngs`` for a runner: one set of Generators per table slot, rewound to each new hand's streams.

    Setting a bit generator's state costs a fraction of seeding a new Generator, and the rotations of a
    deal share their seat seeds, so the seeded states are computed once per deal (a small cache)."""

    def __init__(self, slots: int, seats: int) -> None:
        self._gens = [[np.random.Generator(np.random.PCG64(0)) for _ in range(seats)] for _ in range(slots)]
        self._states: dict[tuple[Any, ...], list[dict[str, Any]]] = {}

    def take(self, slot: int, spec: HandSpec) -> list[np.random.Generator]:
        """The Generators of table ``slot``, set to the streams ``seat_rngs(spec)`` would give."""
        seq = spec.seat_seeds
        key = (seq.entropy, seq.spawn_key, len(spec.seats))
        states = self._states.get(key)
        if states is None:
            if len(self._states) > 256:
                self._states.clear()
            states = [g.bit_generator.state for g in seat_rngs(spec)]
            self._states[key] = states
        gens = self._gens[slot]
        for g, state in zip(gens, states, strict=True):
            g.bit_generator.state = state
        return gens


def act_rows(agent: Agent, observations: BatchObservation, rngs: Sequence[np.random.Generator]) -> np.ndarray:
    """One action per row of ``observations`` from ``agent.act_batch``, row ``i`` drawing from ``rngs[i]`` only."""
    actions = np.asarray(agent.act_batch(observations, rngs))
    if actions.shape != (len(rngs),):
        raise ValueError(f"agent {agent.name!r}: act_batch returned shape {actions.shape} for {len(rngs)} rows")
    return actions.astype(np.int64, copy=False)


@dataclass
class _Episode:
    """An episode in progress at one AEC table."""

    index: int  # position of the episode in the runner's list
    spec: HandSpec
    rngs: list[np.random.Generator]
    totals: np.ndarray  # rewards so far per seat (what ``last()`` reports at each of the seat's turns)
    tracker: HandTracker | None  # the current hand's style counts
    style: list[StyleCounts] | None  # style counts of the finished hands, per seat
    hands_seen: int = 0  # the env's ``hands_done`` when the tracker was last emptied
    decisions: list[Decision] | None = None  # ``record=True``: the hand's decisions so far

    def file_hand(self, env: Any, names: Sequence[str]) -> None:
        """Add the finished hand's style counts for the seats that played it."""
        if self.tracker is None or self.style is None:
            return
        played = set(env.last_hand[1]) if getattr(env, "last_hand", None) else set(names)
        for seat, counts in enumerate(self.tracker.finish()):
            if names[seat] in played:
                self.style[seat].add(counts)
        self.tracker = HandTracker(len(names))


def show_hand(env: Any, agents: Sequence[Agent], episode: _Episode) -> None:
    """Give the hand ``env`` just finished to the agents with ``hand_records`` that played it (``end_hand``); a
    hand whose action log outgrew the history's rows has no record and is shown to no one."""
    seats = episode.spec.seats
    if not any(agents[who].hand_records for who in seats):
        return
    record = last_hand_record(env, seats)
    if record is None:
        return
    for seat in record.dealt:
        if agents[seats[seat]].hand_records:
            agents[seats[seat]].end_hand(episode.index, seat, record)


def play_aec(
    make_env: Callable[[], Any],
    agents: Sequence[Agent],
    hands: Sequence[HandSpec],
    tables: int = 32,
    style: bool = False,
    watch: Watcher | None = None,
    record: bool = False,
) -> list[HandOutcome]:
    """Play ``hands`` (episodes) on up to ``tables`` raw AEC environments made by ``make_env``; outcomes in order.

    Rewards are counted as PettingZoo's ``last()`` reports them (each agent's cumulative reward at each of
    its turns and at its final ``None`` step), so a session's eliminated agents and prize payouts count.
    ``watch`` (optional) sees every turn as it is taken and every episode as it ends (``Watcher``), e.g. to
    write play logs. ``record``: each outcome's ``trace`` holds every
    decision (the rules' state before it, the action, the agent's ``action_probabilities`` there or None) and
    the final state, for AIVAT (``agent_zoo.aivat``); the host reads the finished hand, the agents do not.
    """
    if tables < 1:
        raise ValueError(f"tables must be >= 1, got {tables}")
    envs = [make_env() for _ in range(min(tables, len(hands)))]
    names = envs[0].possible_agents if envs else []
    for agent in agents:
        if agent.hand_records and envs and not keeps_records(envs[0]):
            raise ValueError(f"agent {agent.name!r} keeps the hands it plays (hand_records), which needs a hold'em-family "
                             "environment built with history=True")
    outcomes: list[HandOutcome | None] = [None] * len(hands)
    queue = iter(enumerate(hands))
    live: list[_Episode | None] = [None] * len(envs)
    streams = SeatStreams(len(envs), len(names))

    def start(t: int) -> None:
        nxt = next(queue, None)
        if nxt is None:
            live[t] = None
            return
        k, spec = nxt
        if len(spec.seats) != len(names):
            raise ValueError(f"hands[{k}] seats {len(spec.seats)} agents at a table of {len(names)}")
        envs[t].reset(seed=spec.seed, options=dict(spec.options))
        for seat, who in enumerate(spec.seats):
            agents[who].begin_hand(seat)
            if agents[who].hand_records:
                agents[who].seated(k, seat, tuple(spec.seats))
        tracker = HandTracker(len(names)) if style else None
        counts = [StyleCounts() for _ in names] if style else None
        live[t] = _Episode(k, spec, streams.take(t, spec), np.zeros(len(names)), tracker, counts,
                           decisions=[] if record else None)

    def finish(t: int, episode: _Episode) -> None:
        env = envs[t]
        session = getattr(env, "session", None)
        places = finishing_places(session) if session is not None else None
        done = getattr(env, "hands_done", None)
        if done is None:
            episode.file_hand(env, names)
        trace = (episode.decisions, env.state.clone()) if episode.decisions is not None else None
        outcome = HandOutcome(episode.totals, episode.style, 1 if done is None else done, places, trace)
        outcomes[episode.index] = outcome
        if watch is not None:
            watch.episode_end(episode.index, env.state, outcome)
        start(t)

    for t in range(len(envs)):
        start(t)
    while any(h is not None for h in live):
        pending: dict[int, list[tuple[int, int]]] = {}  # agent -> [(table, seat)]
        for t, episode in enumerate(live):
            while episode is not None:
                env = envs[t]
                if not env.agents:
                    finish(t, episode)
                    episode = live[t]
                    continue
                agent_id = env.agent_selection
                seat = names.index(agent_id)
                episode.totals[seat] += env._cumulative_rewards[agent_id]
                if env.terminations[agent_id] or env.truncations[agent_id]:
                    env.step(None)
                    continue
                pending.setdefault(episode.spec.seats[seat], []).append((t, seat))
                break
        for who, rows in pending.items():
            obs = stack([envs[t].observe(names[seat]) for t, seat in rows])
            rngs = [live[t].rngs[seat] for t, seat in rows]  # type: ignore[union-attr]
            agents[who].note_rows([(t, live[t].index, seat) for t, seat in rows])  # type: ignore[union-attr]
            actions = act_rows(agents[who], obs, rngs)
            probs = agents[who].action_probabilities_batch(obs) if record else None
            for i, ((t, seat), action) in enumerate(zip(rows, actions.tolist(), strict=True)):
                env, episode = envs[t], live[t]
                if episode.tracker is not None and env.state.current_player() >= 0:  # a pass turn is no decision
                    episode.tracker.record(seat, classify(env.state, action))  # type: ignore[union-attr]
                if record and env.state.current_player() >= 0:
                    episode.decisions.append(  # type: ignore[union-attr]
                        Decision(env.state.clone(), action, None if probs is None else np.asarray(probs[i], dtype=np.float64)))
                if watch is not None:
                    watch.turn(Turn(episode.index, seat, {k: v[i] for k, v in obs.items()}, action, env.state))  # type: ignore[union-attr]
                env.step(action)
                done = getattr(env, "hands_done", None)  # envs without it: the one hand is filed at the end
                if done is not None and done != episode.hands_seen:  # type: ignore[union-attr]
                    episode.hands_seen = done  # type: ignore[union-attr]
                    episode.file_hand(env, names)  # type: ignore[union-attr]
                    show_hand(env, agents, episode)  # type: ignore[arg-type]
    return outcomes  # type: ignore[return-value]


def _vector_views(engine: Any, rows: np.ndarray, actions: np.ndarray) -> list[ActionView | None] | None:
    """How the actions read in poker terms at a batched hold'em engine's tables (None for other engines; None
    entries for pass turns of hands the forced bets decided, which are no decisions)."""
    t = getattr(engine, "tables", None)
    if t is None or not hasattr(t, "max_bet"):
        return None
    player = t.player[rows].astype(np.int64)
    facing = t.max_bet[rows] > t.bets[rows, player]
    first = t.street[rows] == 0
    views: list[ActionView | None] = []
    for a, f, r, p in zip(actions.tolist(), facing.tolist(), first.tolist(), t.passing[rows].tolist(), strict=True):
        kind = FOLD if a == 0 else (CALL if f else CHECK) if a == 1 else BET
        views.append(None if p else ActionView(kind, r, f))
    return views


def play_vector(
    engine: Any,
    agents: Sequence[Agent],
    hands: Sequence[HandSpec],
    decks: np.ndarray,
    buttons: np.ndarray | None = None,
    style: bool = False,
    record: Any = None,
) -> list[HandOutcome]:
    """Play ``hands`` on the batched ``engine`` in waves of ``engine.num_envs`` tables.

    ``record`` (the rules' ``Game`` of the engine's game; one-hand episodes): each outcome's ``trace`` is the
    hand replayed on the rules from ``record.new_initial_state(**spec.options)`` with the actions taken (pass
    turns skipped) and the agents' ``action_probabilities``, as ``play_aec(record=True)`` gives it.

    ``decks[k]`` is episode k's dealing order (``options["decks"]`` of the engine: one deck per hand, or in a
    session engine a list of decks, one per hand), ``buttons[k]`` its button (hold'em only). Style statistics
    are counted for hold'em engines only (None elsewhere). A session engine's outcomes count the hands each
    session lasted and its finishing places.
    """
    b, n = engine.num_envs, engine.num_players
    for agent in agents:
        if agent.hand_records:
            raise ValueError(f"agent {agent.name!r} keeps the hands it plays (hand_records); the batched engine gives no "
                             "hand records: play it with play_aec")
    sessions = getattr(engine, "session_config", None) is not None
    outcomes: list[HandOutcome] = []
    streams = SeatStreams(b, n)
    for lo in range(0, len(hands), b):
        wave = list(hands[lo : lo + b])
        used = len(wave)
        wave_decks = np.concatenate([decks[lo : lo + used], np.repeat(decks[lo : lo + 1], b - used, axis=0)])
        options: dict[str, Any] = {"decks": wave_decks}
        if buttons is not None:
            options["buttons"] = np.concatenate([buttons[lo : lo + used], np.zeros(b - used, dtype=np.int64)])
        out = engine.reset(options=options)
        seats = np.array([h.seats for h in wave] + [wave[0].seats] * (b - used), dtype=np.int64)
        rngs = [streams.take(h, spec) for h, spec in enumerate(wave)]
        for h, spec in enumerate(wave):
            for seat, who in enumerate(spec.seats):
                agents[who].begin_hand(seat)
        totals = np.zeros((used, n))
        played = np.zeros(b, dtype=np.int64)  # hands finished per table
        places = np.zeros((used, n), dtype=np.int64)
        trackers = [HandTracker(n) for _ in range(used)] if style else None
        session_style = [[StyleCounts() for _ in range(n)] for _ in range(used)] if style and sessions else None
        counted = style
        steps: list[list[tuple[int, np.ndarray | None]]] = [[] for _ in range(used)]
        active = np.zeros(b, dtype=bool)
        active[:used] = True
        while active.any():
            rows = np.flatnonzero(active)
            player = out.current_player[rows]
            who = seats[rows, player]
            actions = np.zeros(b, dtype=np.int64)
            for agent in np.unique(who).tolist():
                sel = rows[who == agent]
                obs = {"observation": out.observation[sel], "action_mask": out.action_mask[sel]}
                if out.public is not None:
                    obs["public"] = out.public[sel]
                row_rngs = [rngs[t][int(p)] for t, p in zip(sel.tolist(), out.current_player[sel].tolist(), strict=True)]
                try:
                    actions[sel] = act_rows(agents[agent], obs, row_rngs)
                    if record is not None:
                        probs = agents[agent].action_probabilities_batch(obs)
                        for i, t in enumerate(sel.tolist()):
                            steps[t].append((int(actions[t]), None if probs is None else np.asarray(probs[i], dtype=np.float64)))
                except KeyError as exc:
                    if exc.args != ("public",):
                        raise
                    raise ValueError(f"agent {agents[agent].name!r} reads the public betting state (observation['public']), "
                                     "which this batched engine does not give (hold'em: build it with public=True); "
                                     "play it on the AEC engine") from exc
            if trackers is not None:
                views = _vector_views(engine, rows, actions[rows])
                if views is None:
                    counted = False
                    trackers = None
                else:
                    for t, p, view in zip(rows.tolist(), player.tolist(), views, strict=True):
                        if view is not None:
                            trackers[t].record(int(p), view)
            seated = engine.seated.copy() if sessions else None  # the seats of the hands being played
            out = engine.step(actions, active=None if active.all() else active)
            if sessions:
                paid = np.flatnonzero(out.hand_over & active)
                totals[paid] += out.rewards[paid]
                played[paid] += 1
                if session_style is not None and trackers is not None:
                    for t in paid.tolist():
                        for seat, counts in enumerate(trackers[t].finish()):
                            if seated[t, seat]:
                                session_style[t][seat].add(counts)
                        trackers[t] = HandTracker(n)
                ended = np.flatnonzero(out.terminated & active)
                places[ended] = engine.final_places[ended]
            else:
                ended = np.flatnonzero(out.terminated & active)
                totals[ended] += out.rewards[ended]
                played[ended] += 1
            active[ended] = False
        for h in range(used):
            if session_style is not None:
                per_seat = session_style[h] if counted else None
            else:
                per_seat = trackers[h].finish() if trackers is not None and counted else None
            trace = None
            if record is not None:
                trace = replay(record.new_initial_state(**wave[h].options), steps[h])
                scale = getattr(engine, "reward_scale", 1.0)
                if not np.allclose(trace[1].returns() * scale, totals[h]):
                    raise RuntimeError(f"hand {lo + h}: the rules' replay pays {trace[1].returns() * scale}, the engine {totals[h]}")
            outcomes.append(HandOutcome(totals[h].astype(np.float64), per_seat, int(played[h]),
                                        places[h] if sessions else None, trace))
    return outcomes


def replay(state: Any, steps: Sequence[tuple[int, np.ndarray | None]]) -> tuple[list[Decision], Any]:
    """A hand's decisions and final state, replaying ``steps`` (action, policy or None) on the rules' ``state``
    whose deal is fixed (its chance nodes deal the fixed cards). Steps taken once the rules' hand is over are the
    engine's pass turns (a hand the forced bets decided: no decision in the rules) and are skipped."""
    decisions = []
    dealer = np.random.default_rng(0)  # unused by a fixed deal; the rules' sample_chance takes a Generator
    for action, probs in steps:
        play_chance(state, dealer)
        if state.is_terminal():
            continue
        decisions.append(Decision(state.clone(), action, probs))
        state.apply(action)
    play_chance(state, dealer)
    return decisions, state
