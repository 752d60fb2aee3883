"""Play hold'em against zoo agents in a terminal: one seat is yours, the others are any agent specs.

    python -m agent_zoo.play --game nolimit --players 6 --opponents heuristic random --hands 20 --seed 1

You see what your seat's observation holds: your own cards, the board and the public betting state
(pot, every seat's stack and street bet, folds and all-ins, the amount to call and the raise range,
read from ``observation["public"]``), plus each action as it is taken. Type an action:

* ``fold`` (``f``), ``check`` (``x``), ``call``, ``c`` (check or call), ``allin`` (``all-in``, ``shove``);
* ``raise 300`` / ``bet 300`` (or just ``300``): bet or raise *to* 300 chips this street (push/fold:
  big blinds); with abstract bet sizes only the listed amounts exist;
* ``#3`` or ``id 3``: the action id itself; ``help`` lists the legal actions; ``quit`` ends the session;
* and the rest of the reply grammar language models use (``raise pot``, ``bet 3bb``, ``raise by 20``, ...):
  ``poker_envs.text``'s parser reads everything but these shorthands (docs/llm.md, "Reply parser").

Invalid input is explained and asked again. Each hand is one episode (the button moves every hand),
or a session of hands with ``--env-config hands_per_episode=N`` (stacks carried over; ``rebuy=true``,
blind levels: see docs/holdem.md); after each hand the shown-down cards and the results are printed,
with your running total (big blinds). ``--out DIR`` saves every finished hand to ``DIR/play_<game>.phhs`` as a PHH hand
history (hold'em only).
The games are the hold'em family of ``poker_envs.catalog``: those whose observations carry the public
betting state (no-limit, limit, short-deck, pot-limit, Omaha, push/fold).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from agent_zoo.agent import Agent
from agent_zoo.observe import public_state
from agent_zoo.registry import make_agent
from poker_envs import catalog
from poker_envs.core.cards import card_to_str
from poker_envs.core.evaluator import describe
from poker_envs.encoders.public import PublicState
from poker_envs.games.base import ActionKind
from poker_envs.games.holdem import STREET_NAMES, HoldemState
from poker_envs.text import TextTable

HUMAN = "you"
QUIT_WORDS = ("quit", "q", "exit")


class QuitSession(Exception):
    """The player typed ``quit`` (or the input ended)."""


@dataclass(frozen=True)
class MenuItem:
    """One legal action as the player sees it."""

    action: int  # the action id
    kind: ActionKind  # fold, check, call, bet, raise, all-in
    to: float | None  # raise-to amount of a bet, raise or all-in (street total); None otherwise
    label: str  # e.g. "raise to 300"


def cards_text(cards: Sequence[int]) -> str:
    """Cards as ``As Kd``; ``-`` for none."""
    return " ".join(card_to_str(int(c)) for c in cards) or "-"


def chips(x: float) -> str:
    """An amount as people write it: 300, 2.5."""
    return f"{x:g}" if x != int(x) else str(int(x))


def menu_item(state: Any, action: int, public: PublicState) -> MenuItem:
    """What legal ``action`` means at ``state`` (the table host's knowledge of its own rules)."""
    kind = state.action_kind(int(action))
    to: float | None = None
    if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN):
        to = float(state.action_to_chips(int(action))[1]) if isinstance(state, HoldemState) else public.max_raise_to
    if kind == ActionKind.CALL:
        label = f"call {chips(public.to_call)}"
    elif to is not None:
        label = {ActionKind.BET: "bet to", ActionKind.RAISE: "raise to", ActionKind.ALL_IN: "all-in to"}[kind] + f" {chips(to)}"
    else:
        label = kind.name.lower()
    return MenuItem(int(action), kind, to, label)


def action_menu(state: Any, legal: Sequence[int], public: PublicState) -> list[MenuItem]:
    """``menu_item`` of every legal action."""
    return [menu_item(state, a, public) for a in legal]


def sizes_text(amounts: Sequence[float]) -> str:
    """Bet or raise-to amounts as the player may type them: ``4..200`` when every whole amount between the two
    is legal (and there are more than six), else each amount (``5, 7, 12, 200``)."""
    whole = all(b - a == 1 for a, b in zip(amounts, amounts[1:]))
    if len(amounts) > 6 and whole:
        return f"{chips(amounts[0])}..{chips(amounts[-1])}"
    return ", ".join(chips(a) for a in amounts)


def menu_text(menu: Sequence[MenuItem]) -> str:
    """One line listing the legal actions; a run of every whole bet or raise amount is shown as a range."""
    sizing = (ActionKind.BET, ActionKind.RAISE)
    sized = [m for m in menu if m.kind in sizing]
    parts = [m.label for m in menu if m.to is None]
    amounts = [float(m.to) for m in sized if m.to is not None]
    if len(sized) > 6 and sizes_text(amounts).count("..") == 1:
        parts.append(f"{sized[0].kind.name.lower()} to N (N = {sizes_text(amounts)})")
    else:
        parts += [m.label for m in sized]
    parts += [m.label for m in menu if m.kind == ActionKind.ALL_IN]
    return "legal: " + ", ".join(parts) + "  (#id also works; help, quit)"


def parse_action(text: str, menu: Sequence[MenuItem], table: TextTable, observation: Mapping[str, Any]) -> int:
    """The action id the player's ``text`` names; ValueError with a clear message otherwise.

    The person's own shorthands are read here (``#3`` / ``id 3``, a bare amount or ``r 300`` / ``b 300`` for a
    raise to it, ``all``, ``quit``); everything else is the one reply parser of ``poker_envs.text`` (``table``,
    built with ``snap=False``: a person types exact amounts), so people and language models share one grammar."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("type an action, e.g. call, fold, raise 300 (help lists them)")
    if words[0] in QUIT_WORDS:
        raise QuitSession
    if words[0].startswith("#") or words[0] == "id":
        token = words[0][1:] if words[0].startswith("#") else (words[1] if len(words) > 1 else "")
        if not token.isdigit() or int(token) not in {m.action for m in menu}:
            raise ValueError(f"{text.strip()!r}: not a legal action id; legal ids: {[m.action for m in menu]}")
        return int(token)
    if len(words) == 1 and _is_number(words[0]):
        text = f"raise to {words[0]}"
    elif len(words) == 2 and words[0] in ("r", "b") and _is_number(words[1]):
        text = f"raise to {words[1]}"
    elif words == ["all"]:
        text = "all-in"
    parsed = table.parse(text, observation)
    if parsed.action is None:
        raise ValueError(parsed.message)
    return parsed.action


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def render_table(public: PublicState, names: Sequence[str], me: int, hole: Sequence[int], board: Sequence[int], hand: int,
                 menu: Sequence[MenuItem] | None = None) -> str:
    """The public state of the table and your own cards, as text; with ``menu`` (your legal actions) the amounts
    you may bet or raise to are those the menu accepts (with abstract bet sizes, only the listed ones)."""
    street = STREET_NAMES[public.street] if 0 <= public.street < len(STREET_NAMES) else str(public.street)
    ante = f" ante {chips(public.ante)}" if public.ante else ""
    lines = [f"-- hand {hand} | {street} | pot {chips(public.pot)} | blinds {chips(public.small_blind)}/{chips(public.big_blind)}{ante}"]
    width = max(len(n) for n in names)
    for s, name in enumerate(names):
        if not public.seated[s]:
            continue
        tags = [t for t, on in (("BTN", s == public.button), ("folded", public.folded[s]), ("all-in", public.all_in[s])) if on]
        arrow = "  <- to act" if s == public.actor else ""
        lines.append(f"  seat {s} {name:<{width}}  stack {chips(public.stacks[s]):>6}  bet {chips(public.bets[s]):>5}"
                     + (f"  [{', '.join(tags)}]" if tags else "") + arrow)
    lines.append(f"  board: {cards_text(board)}    your cards: {cards_text(hole)}")
    if public.actor == me:
        line = f"  to call: {chips(public.to_call)}"
        sized = [float(m.to) for m in menu or () if m.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)
                 and m.to is not None]
        if menu is None and public.can_raise:
            line += f"    raise to: {chips(public.min_raise_to)}..{chips(public.max_raise_to)}"
        elif sized:
            line += f"    raise to: {sizes_text(sorted(set(sized)))}"
        lines.append(line)
    return "\n".join(lines)


@dataclass
class SessionResult:
    """What a session produced."""

    names: list[str]  # by seat; the person's seat is named "you"
    seat: int  # the person's seat
    hands: int = 0  # hands finished
    totals: np.ndarray = field(default_factory=lambda: np.zeros(0))  # summed reward per seat (big blinds)
    quit: bool = False  # ended by "quit" or the end of the input


@functools.cache
def playable_games() -> tuple[str, ...]:
    """The catalog's games whose observations carry the public betting state (the hold'em family): the ones
    ``play`` can show a person, and so the ones ``--game`` offers."""
    games = []
    for entry in catalog.GAMES:
        env = importlib.import_module(entry.module_path).raw_env()
        if "public" in env.observation_space(env.possible_agents[0]).spaces:
            games.append(entry.key)
    return tuple(games)


def build_table(game: str, players: int, opponents: Sequence[str], seat: int,
                env_config: dict[str, Any] | None = None) -> tuple[Any, list[Agent | None], list[str]]:
    """(raw env, agent per seat with None at the person's seat, names by seat)."""
    entry = catalog.game(game)
    low, high = entry.players
    if not low <= players <= high:
        raise ValueError(f"players: {game} seats {low}..{high} players, got {players}")
    from agent_zoo.tournament import check_env_config

    check_env_config(game, env_config or {})
    config = dict(env_config or {})
    config.setdefault("history", True)  # the reply parser reads the hand so far (poker_envs.text)
    if low != high:
        config.setdefault("num_players", players)
    env = importlib.import_module(entry.module_path).raw_env(**config)
    n = len(env.possible_agents)
    if "public" not in env.observation_space(env.possible_agents[0]).spaces:
        raise ValueError(f"game {game!r} has no public betting state in its observations; play offers the hold'em family "
                         f"({', '.join(playable_games())})")
    if not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0..{n - 1}, got {seat}")
    if not 1 <= len(opponents) <= n - 1:
        raise ValueError(f"--opponents: give 1 to {n - 1} agent specs (they fill the {n - 1} other seats in turn), "
                         f"got {len(opponents)}")
    specs = [opponents[i % len(opponents)] for i in range(n - 1)]
    agents: list[Agent | None] = []
    names = []
    for s in range(n):
        if s == seat:
            agents.append(None)
            names.append(HUMAN)
        else:
            spec = specs.pop(0)
            agents.append(make_agent(spec, env))
            names.append(spec)
    return env, agents, names


def _ask(menu: Sequence[MenuItem], table: TextTable, observation: Mapping[str, Any], input_stream: TextIO, out: TextIO) -> int:
    while True:
        out.write("> ")
        out.flush()
        line = input_stream.readline()
        if not line:
            out.write("\n")
            raise QuitSession
        text = line.strip()
        if not input_stream.isatty():  # a script or a test: echo, so the transcript reads like a terminal's
            out.write(text + "\n")
        if text.lower() in ("help", "?", "h"):
            out.write(menu_text(menu) + "\n")
            continue
        try:
            return parse_action(text, menu, table, observation)
        except ValueError as exc:
            out.write(f"  {exc}\n")


def play_session(game: str, opponents: Sequence[str], players: int = 2, seat: int = 0, hands: int = 1,
                 seed: int | None = None, phh: str | None = None, env_config: dict[str, Any] | None = None,
                 input_stream: TextIO | None = None, output_stream: TextIO | None = None) -> SessionResult:
    """Play ``hands`` hands with the person at ``seat`` (input from ``input_stream``, text to ``output_stream``)."""
    if hands < 1:
        raise ValueError(f"hands must be >= 1, got {hands}")
    inp = sys.stdin if input_stream is None else input_stream
    out = sys.stdout if output_stream is None else output_stream
    raw, agents, names = build_table(game, players, opponents, seat, env_config)
    env = raw
    if phh is not None:
        from wrappers.hand_history import HandHistoryRecorder

        env = HandHistoryRecorder(raw, path=phh, keep=False, players=names)
    rng = np.random.default_rng(seed)
    result = SessionResult(names, seat, totals=np.zeros(len(names)))
    try:
        episode = 0
        while result.hands < hands:
            env.reset(seed=seed if episode == 0 else None)
            episode += 1
            _play_episode(env, raw, agents, names, seat, hands, rng, result, inp, out)
    except QuitSession:
        result.quit = True
        out.write("session ended\n")
    out.write(summary(result) + "\n")
    return result


def _play_episode(env: Any, raw: Any, agents: Sequence[Agent | None], names: Sequence[str], seat: int, hands: int,
                  rng: np.random.Generator, result: SessionResult, inp: TextIO, out: TextIO) -> None:
    """One episode (one hand, or a session of hands): until it ends or ``hands`` hands are done in all."""
    ids = raw.possible_agents
    for s, agent in enumerate(agents):
        if agent is not None:
            agent.begin_hand(s)
    won = np.zeros(len(names))  # rewards of the hand in play
    board_seen, seen = 0, raw.hands_done
    out.write(f"\n=== hand {result.hands + 1} of {hands} ===\n")
    while env.agents:
        agent_id = env.agent_selection
        if env.terminations[agent_id] or env.truncations[agent_id]:
            env.step(None)  # a seat that is out (the hand is over, or eliminated from a tournament)
            continue
        s = ids.index(agent_id)
        obs = env.observe(agent_id)
        public = public_state(obs, "the table")
        state = raw.state
        board = list(getattr(state, "board", []))
        if len(board) > board_seen:
            out.write(f"  {STREET_NAMES[public.street]}: {cards_text(board)}\n")
            board_seen = len(board)
        legal = np.flatnonzero(obs["action_mask"])
        if s == seat and len(legal) > 1:
            menu = action_menu(state, legal.tolist(), public)
            # the person's own cards: the hole of the rules seat to act (sessions renumber seats that are out)
            out.write(render_table(public, names, seat, state.hole[state.current_player()], board, result.hands + 1,
                                   menu) + "\n")
            action = _ask(menu, TextTable.for_env(raw, snap=False), obs, inp, out)
        else:
            action = int(legal[0]) if s == seat else agents[s].act(obs, rng)
        out.write(f"  seat {s} ({names[s]}): {menu_item(state, action, public).label}\n")
        env.step(action)
        won += [env.rewards[a] for a in ids]
        if raw.hands_done != seen:  # a hand ended: show it, count it
            seen = raw.hands_done
            hand_state, _, table = raw.last_hand
            _show_down(hand_state, [names[e] for e in table.seats], [won[e] for e in table.seats], out, list(table.seats))
            result.totals += won
            result.hands += 1
            won[:] = 0
            board_seen = 0
            out.write(f"  running total: you {result.totals[seat]:+.2f} bb after {result.hands} hand(s)\n")
            if result.hands >= hands:
                return
            if env.agents and not all(env.terminations[a] for a in env.agents):
                out.write(f"\n=== hand {result.hands + 1} of {hands} ===\n")


def _show_down(state: Any, names: Sequence[str], won: Sequence[float], out: TextIO,
               seats: Sequence[int] | None = None) -> None:
    """The cards shown at a showdown (seats that did not fold, when more than one is left) and the results;
    ``names`` and ``won`` by the hand's seats, ``seats``: the table's seat number of each (default: the same)."""
    seats = list(range(len(names))) if seats is None else list(seats)
    live = [s for s in range(len(names)) if not _folded(state, s)]
    if len(live) > 1:
        # the rules' own hand values (the game's ranking: short deck ranks A-6-7-8-9 a straight)
        values = state.strengths if isinstance(state, HoldemState) else state.strengths()
        out.write(f"  showdown, board {cards_text(state.board)}:\n")
        for s in live:
            out.write(f"    seat {seats[s]} ({names[s]}): {cards_text(state.hole[s])}  ({describe(values[s])})\n")
    out.write("  result: " + ", ".join(f"seat {seats[s]} ({names[s]}) {won[s]:+.2f}" for s in range(len(names))) + " bb\n")


def _folded(state: Any, seat: int) -> bool:
    if isinstance(state, HoldemState):
        return bool(state.folded[seat])
    return not state.live()[seat]


def summary(result: SessionResult) -> str:
    """Totals per seat over the session (big blinds)."""
    per = ", ".join(f"seat {s} ({n}) {t:+.2f}" for s, (n, t) in enumerate(zip(result.names, result.totals, strict=True)))
    return f"after {result.hands} hand(s): {per} bb"


EXAMPLES = (  # the end of --help
    "--game nolimit --opponents heuristic --hands 10 --seed 1",
    "--game nolimit --players 6 --opponents heuristic random --hands 20 --out out/play",
    "--game push_fold --opponents push_fold --hands 20 --env-config stack_bb=8",
)


def build_parser() -> argparse.ArgumentParser:
    """The command line (the zoo's dialect, see ``agent_zoo.cli``)."""
    from agent_zoo import cli

    parser = cli.parser("play", __doc__.split("\n\n")[0],
                        epilog="agent specs: see python -m agent_zoo.tournament --help\n\n" + cli.examples("play", *EXAMPLES))
    parser.add_argument("--game", required=True, choices=playable_games(), help="the game (the hold'em family)")
    parser.add_argument("--players", type=int, default=2, help="seats at the table, yours included")
    parser.add_argument("--opponents", nargs="+", required=True, help="agent specs, one per other seat or one for all")
    parser.add_argument("--seat", type=int, default=0, help="your seat (the button moves every hand)")
    parser.add_argument("--hands", type=int, default=10, help="hands (or sessions, with hands_per_episode) to play")
    cli.add_seed(parser, default=None, what="the cards and the agents (default: fresh entropy)")
    cli.add_out(parser, None, "play_<game>.phhs, every finished hand as a PHH hand history (default: not saved)")
    cli.add_env_config(parser)
    cli.add_threads(parser)
    return parser


def main(argv: Sequence[str] | None = None, input_stream: TextIO | None = None,
         output_stream: TextIO | None = None) -> SessionResult:
    from agent_zoo import cli

    parser = build_parser()
    args = parser.parse_args(argv)
    env_config = cli.env_config(parser, args.env_config)
    cli.check_out(parser, args.out)
    cli.limit_threads(args.threads)  # before an agent (sb3:, cnn:, rnad:, cluster:) loads torch
    phh = None if args.out is None else str(cli.out_dir(args.out) / f"play_{args.game}.phhs")
    try:
        return play_session(args.game, args.opponents, players=args.players, seat=args.seat, hands=args.hands,
                            seed=args.seed, phh=phh, env_config=env_config,
                            input_stream=input_stream, output_stream=output_stream)
    except (TypeError, ValueError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")


if __name__ == "__main__":
    main()
