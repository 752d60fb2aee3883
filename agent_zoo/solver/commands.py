"""TexasSolver's console command files, read into a :class:`~agent_zoo.solver.spot.Spot` and solve settings.

TexasSolver (github.com/bupticybee/TexasSolver) runs a text file of one command per line, ``command argument``::

    set_pot 50
    set_effective_stack 200
    set_board Qs,Jh,2h
    set_range_ip AA,KK,AQs:0.75
    set_range_oop QQ:0.5,JJ
    set_bet_sizes oop,flop,bet,50
    set_bet_sizes oop,flop,allin
    set_allin_threshold 0.67
    build_tree
    set_accuracy 0.5
    set_max_iteration 200
    start_solve
    set_dump_rounds 2
    dump_result output_result.json

Reading it here is stricter than TexasSolver, which skips unknown commands and applies a setting given too late
without a word: an unknown command, a bad argument, a game setting after ``build_tree`` (the tree is already built
from the earlier ones) and any setting after ``start_solve`` raise ValueError with the line number. Blank lines are
skipped; there are no comments (TexasSolver's console stops at a line with more than one space). Spaces around
commas are allowed here.

``set_bet_sizes player,street,kind[,size...]``: player ``oop`` / ``ip``, street ``flop`` / ``turn`` / ``river``,
kind ``bet`` / ``raise`` / ``donk`` (each with sizes in percent of the pot, decimals allowed; they replace the sizes
set before) or ``allin`` (no sizes). A donk size is OOP's lead on the turn or river (see ``spot.py``).
``set_raise_limit N`` is written by TexasSolver's GUI (its console ignores it): N counts the opening bet, so a limit
of 4 allows a bet and three raises, which is ``Spot.raise_limit = N - 1``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from agent_zoo.solver.config import SolveSettings
from agent_zoo.solver.ranges import parse_range
from agent_zoo.solver.spot import PLAYERS, STREETS, Conventions, Spot, StreetSizes
from poker_envs.core.cards import card_from_str

# TexasSolver's defaults (its console's CommandLineTool.h; the GUI's job has the same): raise_limit = 4, which counts
# the opening bet (GameTree.cpp allows a raise while the bets and raises so far on the street number fewer than
# it), so a bet and three raises: Spot.raise_limit 3. allin_threshold = 0.67: a bet or raise becomes all-in when the
# bettor's total commitment after it (half the starting pot plus what they put in since) exceeds 0.67 times the
# effective stack.
TEXASSOLVER_RAISE_LIMIT = 4
TEXASSOLVER_ALLIN_THRESHOLD = Fraction(67, 100)
# TexasSolver drops from a range every holding of weight 0.005 or less (PrivateRangeConverter.cpp).
TEXASSOLVER_MIN_WEIGHT = 0.005

_TREE = ("set_pot", "set_effective_stack", "set_board", "set_bet_sizes", "set_allin_threshold", "set_raise_limit")
_RANGES = ("set_range_ip", "set_range_oop")
_SOLVE = ("set_thread_num", "set_accuracy", "set_max_iteration", "set_print_interval", "set_use_isomorphism")
_AFTER = ("set_dump_rounds", "dump_result")
KNOWN_COMMANDS = _TREE + _RANGES + ("build_tree",) + _SOLVE + ("start_solve",) + _AFTER
_KINDS = ("bet", "raise", "donk", "allin")

_WHOLE_RE = re.compile(r"\d+(\.0*)?")
_INT_RE = re.compile(r"\d+")
_DECIMAL_RE = re.compile(r"\d+(\.\d*)?|\.\d+")


@dataclass(frozen=True)
class CommandFile:
    """A command file read: the subgame it defines, how to solve it and where to write the result."""

    spot: Spot
    settings: SolveSettings
    dump: tuple[str, ...] = ()  # the paths of its dump_result commands, in order
    dump_rounds: tuple[int, ...] = ()  # the set_dump_rounds in force at each dump_result


class _Line:
    """One command line, for error messages."""

    def __init__(self, source: str, number: int, command: str, arg: str) -> None:
        self.source, self.number, self.command, self.arg = source, number, command, arg

    def error(self, what: str) -> ValueError:
        return ValueError(f"{self.source}, line {self.number}: {self.command}: {what}")


def _whole(line: _Line, minimum: int, what: str) -> int:
    if not _WHOLE_RE.fullmatch(line.arg) or int(float(line.arg)) < minimum:
        raise line.error(f"expected {what}, a whole number >= {minimum}, got {line.arg!r}")
    return int(float(line.arg))


def _int(line: _Line, minimum: int, what: str) -> int:
    if not _INT_RE.fullmatch(line.arg) or int(line.arg) < minimum:
        raise line.error(f"expected {what}, a whole number >= {minimum}, got {line.arg!r}")
    return int(line.arg)


def _positive_decimal(line: _Line, text: str, what: str) -> Fraction:
    if not _DECIMAL_RE.fullmatch(text) or Fraction(text) <= 0:
        raise line.error(f"expected {what}, a positive decimal number, got {text!r}")
    return Fraction(text)


def _board(line: _Line) -> tuple[int, ...]:
    items = line.arg.split(",")
    try:
        cards = tuple(card_from_str(c) for c in items)
    except ValueError as exc:
        raise line.error(f"{exc}; expected 3, 4 or 5 comma-separated cards such as Qs,Jh,2h") from None
    if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards):
        raise line.error(f"expected 3, 4 or 5 different comma-separated cards such as Qs,Jh,2h, got {line.arg!r}")
    return cards


def _bet_sizes(line: _Line, sizes: dict[tuple[int, str], dict[str, object]]) -> None:
    params = line.arg.split(",")
    if params and params[-1] == "" and len(params) > 3:  # TexasSolver's GUI writes "bet," when it has no sizes
        params = params[:-1]
    allowed = "player,street,kind[,size...] with player oop/ip, street flop/turn/river, kind bet/raise/donk/allin"
    if len(params) < 3:
        raise line.error(f"expected {allowed}, got {line.arg!r}")
    player, street, kind, *values = params
    if player not in PLAYERS or street not in STREETS or kind not in _KINDS:
        raise line.error(f"expected {allowed}, got {line.arg!r}")
    entry = sizes.setdefault((PLAYERS.index(player), street), {})
    if kind == "allin":
        if values:
            raise line.error(f"allin takes no sizes, got {line.arg!r}")
        entry["allin"] = True
        return
    if kind == "donk" and (player != "oop" or street == "flop"):
        raise line.error("donk sizes are OOP's lead on the turn or river (oop,turn,donk or oop,river,donk)")
    what = f"{kind} sizes in percent of the pot"
    entry["raise_" if kind == "raise" else kind] = tuple(_positive_decimal(line, v, what) / 100 for v in values)


def parse_commands(
    text: str, *, conventions: Conventions = Conventions.RULES, source: str = "<commands>"
) -> CommandFile:
    """Read a TexasSolver console command file (its text) into a :class:`CommandFile`.

    With ``Conventions.TEXASSOLVER`` a file that does not set them gets TexasSolver's raise limit and all-in
    threshold, and holdings of weight 0.005 or less are dropped as TexasSolver drops them; with ``RULES`` the
    defaults are Spot's. ``source`` names the text in error messages.
    """
    if not isinstance(conventions, Conventions):
        raise ValueError(f"conventions: expected a Conventions member, got {conventions!r}")
    game: dict[str, object] = {}
    sizes: dict[tuple[int, str], dict[str, object]] = {}
    solve: dict[str, object] = {}
    dump: list[str] = []
    dump_rounds: list[int] = []
    built: int | None = None  # line of build_tree
    solved: int | None = None  # line of start_solve

    def range_arg(line: _Line) -> np.ndarray:
        try:
            return parse_range(line.arg)
        except ValueError as exc:
            raise line.error(str(exc)) from None

    setters: dict[str, Callable[[_Line], None]] = {
        "set_pot": lambda ln: game.__setitem__("pot", _whole(ln, 1, "the pot in chips")),
        "set_effective_stack": lambda ln: game.__setitem__("stack", _whole(ln, 0, "the effective stack in chips")),
        "set_board": lambda ln: game.__setitem__("board", _board(ln)),
        "set_bet_sizes": lambda ln: _bet_sizes(ln, sizes),
        "set_allin_threshold": lambda ln: game.__setitem__(
            "allin_threshold", _positive_decimal(ln, ln.arg, "a share of the effective stack")
        ),
        "set_raise_limit": lambda ln: game.__setitem__(
            "raise_limit", _int(ln, 1, "the bets and raises allowed per street (TexasSolver counts the bet)") - 1
        ),
        "set_range_ip": lambda ln: game.__setitem__("range_ip", range_arg(ln)),
        "set_range_oop": lambda ln: game.__setitem__("range_oop", range_arg(ln)),
        "set_thread_num": lambda ln: solve.__setitem__("threads", _int(ln, 1, "the number of threads")),
        "set_accuracy": lambda ln: solve.__setitem__(
            "accuracy", float(_positive_decimal(ln, ln.arg, "the target exploitability in percent of the pot"))
        ),
        "set_max_iteration": lambda ln: solve.__setitem__("max_iterations", _int(ln, 1, "the most iterations")),
        "set_print_interval": lambda ln: solve.__setitem__("print_interval", _int(ln, 1, "iterations between reports")),
        "set_dump_rounds": lambda ln: solve.__setitem__("dump_rounds", _int(ln, 1, "the streets to dump")),
    }

    for number, raw in enumerate(str(text).splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        command, *rest = stripped.split(None, 1)
        line = _Line(source, number, command, "".join("".join(rest).split()))
        if command.startswith("#"):
            raise line.error("TexasSolver's command files have no comments (its console stops at such a line)")
        if command not in KNOWN_COMMANDS:
            raise ValueError(
                f"{source}, line {number}: unknown command {command!r}; known commands: {', '.join(KNOWN_COMMANDS)}"
            )
        if solved is not None and command not in _AFTER:
            raise line.error(f"comes after start_solve (line {solved}); only {' and '.join(_AFTER)} may follow it")
        if built is not None and command in _TREE:
            raise line.error(f"comes after build_tree (line {built}), which built the tree from the settings above it")
        if command in ("build_tree", "start_solve"):
            if line.arg:
                raise line.error(f"takes no argument, got {line.arg!r}")
            if command == "build_tree":
                if built is not None:
                    raise line.error(f"given twice (first on line {built})")
                built = number
            else:
                if built is None:
                    raise line.error("needs build_tree before it")
                solved = number
            continue
        if not line.arg:
            raise line.error("expected an argument")
        if command == "dump_result":
            if solved is None:
                raise line.error("comes before start_solve: nothing is solved yet")
            dump.append(line.arg)
            dump_rounds.append(int(solve.get("dump_rounds", 1)))  # type: ignore[call-overload]
        elif command == "set_use_isomorphism":
            if line.arg not in ("0", "1"):
                raise line.error(f"expected 0 or 1, got {line.arg!r}")
            solve["use_isomorphism"] = line.arg == "1"
        else:
            setters[command](line)

    names = {"board": "set_board (the board)", "pot": "set_pot (the pot)",
             "stack": "set_effective_stack (the effective stack)", "range_oop": "set_range_oop (OOP's range)",
             "range_ip": "set_range_ip (IP's range)"}
    missing = [text for key, text in names.items() if key not in game]
    if missing:
        raise ValueError(f"{source}: missing {', '.join(missing)}")
    ranges = [np.asarray(game["range_oop"]), np.asarray(game["range_ip"])]
    extra: dict[str, object] = {}
    if conventions is Conventions.TEXASSOLVER:
        ranges = [np.where(r <= TEXASSOLVER_MIN_WEIGHT, 0.0, r) for r in ranges]
        extra = {"raise_limit": TEXASSOLVER_RAISE_LIMIT - 1, "allin_threshold": TEXASSOLVER_ALLIN_THRESHOLD}
    for key in ("raise_limit", "allin_threshold"):
        if key in game:
            extra[key] = game[key]
    try:
        spot = Spot(
            board=game["board"],  # type: ignore[arg-type]
            pot=game["pot"],  # type: ignore[arg-type]
            stack=game["stack"],  # type: ignore[arg-type]
            ranges=(ranges[0], ranges[1]),
            sizes={key: StreetSizes(**entry) for key, entry in sizes.items()},  # type: ignore[arg-type]
            conventions=conventions,
            **extra,  # type: ignore[arg-type]
        )
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None
    settings = SolveSettings(**solve)  # type: ignore[arg-type]
    return CommandFile(spot=spot, settings=settings, dump=tuple(dump), dump_rounds=tuple(dump_rounds))


def load_commands(path: str | os.PathLike[str], *, conventions: Conventions = Conventions.RULES) -> CommandFile:
    """Read the command file at ``path`` (see :func:`parse_commands`)."""
    with open(path, encoding="utf-8") as fh:
        return parse_commands(fh.read(), conventions=conventions, source=os.fspath(path))
