"""Play any zoo agent against Slumbot, the public heads-up no-limit bot, over its HTTP API; bb/100 with a 95% interval.

    python -m agent_zoo.bridges.slumbot --agent heuristic --hands 1000 --out slumbot_runs/heuristic

Each hand: ``/api/new_hand``, then the agent acts (``slumbot_seat``: from its environment observation, the hand
replayed by ``slumbot_codec``) and its action goes to ``/api/act`` until the reply carries ``winnings``. The
finished hand is replayed on the rules with the cards shown; the server's ``winnings`` must be the rules' result
(a SlumbotError otherwise). With ``--out DIR`` every finished hand is appended to ``DIR/slumbot.phhs`` (PHH, the
client's seat named by its spec, Slumbot's cards ``????`` unless shown; fields ``_winnings``,
``_baseline_winnings``, ``_client_pos``, ``_slumbot_action``) the moment it ends, and ``DIR/slumbot_run.json``
records the run's settings: after an interruption ``--resume DIR`` plays the hands still missing to ``--hands``
(a hand cut short is played anew; the finished ones are kept as written). The results are read from the file.

Results: bb/100 (the mean of the client's chips per hand, in big blinds per 100 hands) with its 95% interval,
and where the server reports ``baseline_winnings`` (the client's winnings less Slumbot's own in the same seat
with the same cards) the same figure for them: much less luck, the same expected value when the client sits in
both positions equally often.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.bridges.slumbot_codec import BIG_BLIND, new_state, replay, slumbot_game
from agent_zoo.bridges.slumbot_http import DEFAULT_URL, SlumbotConnection, SlumbotError, check_url
from agent_zoo.bridges.slumbot_seat import AgentSeat, holes_for, stand_ins
from poker_envs import phh
from poker_envs.core.cards import cards_arg
from poker_envs.games.holdem import HoldemState
from wrappers.hand_history import hand_from_state

PHH_FILE = "slumbot.phhs"
RUN_FILE = "slumbot_run.json"
RUN_FORMAT = "poker-envs slumbot run 1"
BB_PER_100 = 100 / BIG_BLIND  # chips per hand -> big blinds per 100 hands


@dataclass(frozen=True)
class HandOutcome:
    """What one finished hand counts for: the client's chips, Slumbot's baseline figure, the client's position."""

    winnings: int
    baseline: int | None
    client_pos: int


def mean_ci(values: Sequence[float]) -> tuple[float | None, float | None]:
    """(mean, half-width of its 95% normal interval); None where there are too few values (0, or 1 for the width)."""
    if not values:
        return None, None
    x = np.asarray(values, dtype=np.float64)
    return float(x.mean()), (1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else None)


@dataclass(frozen=True)
class SlumbotResult:
    """A run's hands and its figures in big blinds per 100 hands."""

    agent: str
    url: str
    outcomes: tuple[HandOutcome, ...]

    @property
    def hands(self) -> int:
        return len(self.outcomes)

    def bb100(self, which: str = "winnings", position: int | None = None) -> tuple[float | None, float | None]:
        """(bb/100, 95% half-width) of ``which`` ("winnings" or "baseline"), over every hand or one position's."""
        rows = [o for o in self.outcomes if position is None or o.client_pos == position]
        values = [o.winnings if which == "winnings" else o.baseline for o in rows]
        if which == "baseline" and any(v is None for v in values):
            return None, None
        mean, half = mean_ci([float(v) * BB_PER_100 for v in values if v is not None])
        return mean, half

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"agent": self.agent, "url": self.url, "hands": self.hands}
        for key, which, position in (("bb100", "winnings", None), ("baseline_bb100", "baseline", None),
                                     ("big_blind_bb100", "winnings", 0), ("small_blind_bb100", "winnings", 1)):
            mean, half = self.bb100(which, position)
            out[key], out[f"{key}_ci95"] = mean, half
        out["chips"] = sum(o.winnings for o in self.outcomes)
        return out

    def text(self) -> str:
        def figure(which: str, position: int | None = None) -> str:
            mean, half = self.bb100(which, position)
            if mean is None:
                return "n/a"
            return f"{mean:+.1f}" + (f" +/- {half:.1f}" if half is not None else "")

        big = sum(o.client_pos == 0 for o in self.outcomes)
        chips = sum(o.winnings for o in self.outcomes)
        return "\n".join([
            f"{self.agent} against Slumbot ({self.url}): {self.hands} hands, {chips:+d} chips",
            f"  bb/100: {figure('winnings')} (95% interval)",
            f"  bb/100 against Slumbot's baseline (baseline_winnings): {figure('baseline')}",
            f"  as big blind ({big} hands): {figure('winnings', 0)}; as small blind ({self.hands - big} hands): "
            + figure("winnings", 1),
        ])


def finished_state(reply: Mapping[str, Any]) -> tuple[HoldemState, bool]:
    """The rules state of a finished hand's reply, and whether Slumbot's cards were shown (``bot_hole_cards``);
    cards not shown are stand-ins (``slumbot_seat.stand_ins``)."""
    position = int(reply["client_pos"])
    mine, board = cards_arg(reply["hole_cards"], "hole_cards"), cards_arg(reply.get("board") or [], "board")
    shown = reply.get("bot_hole_cards")
    bot = cards_arg(shown, "bot_hole_cards") if shown else stand_ins(mine, board)
    return replay(new_state(slumbot_game(), holes_for(position, mine, bot), board), reply["action"]), bool(shown)


def hand_record(state: HoldemState, reply: Mapping[str, Any], agent: str, number: int, known: bool) -> phh.Hand:
    """The PHH hand of a finished hand (``known``: Slumbot's cards were shown; else they are written ``????``)."""
    position = int(reply["client_pos"])
    names = ["slumbot", "slumbot"]
    names[position] = agent
    extra = {"_client_pos": position, "_slumbot_action": reply["action"], "_winnings": int(reply["winnings"]),
             "_baseline_winnings": reply.get("baseline_winnings")}
    hand = hand_from_state(state, names, number, extra)
    if known:
        return hand
    bot = 1 - position
    label = f"p{(bot - state.button - 1) % 2 + 1}"  # PHH's p1 sits left of the button (heads-up: the big blind)
    stand_in = phh.format_cards(state.hole[bot])
    actions = tuple(f"d dh {label} ????" if a == f"d dh {label} {stand_in}" else a for a in hand.actions
                    if a != f"{label} sm {stand_in}")
    won, mine = int(reply["winnings"]), (position - state.button - 1) % 2
    finishing = tuple(s + (won if i == mine else -won) for i, s in enumerate(hand.starting_stacks))
    return replace(hand, actions=actions, finishing_stacks=finishing)


def outcome_of_reply(reply: Mapping[str, Any]) -> HandOutcome:
    """The outcome of a finished hand's reply (``winnings``, ``baseline_winnings`` if reported, ``client_pos``)."""
    baseline = reply.get("baseline_winnings")
    return HandOutcome(int(reply["winnings"]), None if baseline is None else int(baseline), int(reply["client_pos"]))


def outcome_of(hand: phh.Hand) -> HandOutcome:
    """A logged hand's outcome (its ``_winnings``, ``_baseline_winnings``, ``_client_pos`` fields)."""
    f = hand.fields
    if "_winnings" not in f or "_client_pos" not in f:
        raise ValueError(f"{hand.source}: a Slumbot run's hand has the fields _winnings and _client_pos")
    return outcome_of_reply({"winnings": f["_winnings"], "baseline_winnings": f.get("_baseline_winnings"),
                             "client_pos": f["_client_pos"]})


def complete(hand: phh.Hand) -> bool:
    """Whether a logged hand was written to its end (its last key, ``finishing_stacks``, and the run's fields)."""
    return hand.finishing_stacks is not None and all(k in hand.fields for k in ("hand", "_winnings", "_client_pos"))


def read_log(path: Path) -> list[phh.Hand]:
    """The finished hands of a run's PHH file; a last table cut short by an interruption is removed from the file."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    try:
        hands = phh.loads(text, str(path), many=True) if text.strip() else []
        cut = bool(hands) and not complete(hands[-1])
    except phh.PHHError:
        cut = True
    if cut:
        heads = [m.start() for m in re.finditer(r"^\[\d+\]\s*$", text, re.M)]
        text = text[: heads[-1]].rstrip("\n") + "\n" if heads and heads[-1] else ""
        hands = phh.loads(text, str(path), many=True) if text.strip() else []  # an error now: a damaged file
        path.write_text(text, encoding="utf-8")
    numbers = [h.fields.get("hand") for h in hands]
    if numbers != list(range(1, len(hands) + 1)) or not all(map(complete, hands)):
        raise ValueError(f"{path} is not the hand log of a Slumbot run (hands numbered 1, 2, ... with the fields "
                         "_winnings and _client_pos)")
    return hands


def play_hand(connection: SlumbotConnection, token: str | None, seat: AgentSeat, rng: np.random.Generator
              ) -> tuple[str | None, dict[str, Any], HoldemState, bool]:
    """One hand: (the token to go on with, the final reply, the finished rules state, whether Slumbot's cards were
    shown). A SlumbotError when the server's ``winnings`` differ from the rules' result of the hand it describes
    (checked where the result does not hang on cards not shown: a fold or a showdown with Slumbot's cards)."""
    reply = connection.new_hand(token)
    token = reply.get("token") or token
    position = reply.get("client_pos")
    if position not in (0, 1):
        raise SlumbotError(f"/api/new_hand: client_pos must be 0 (big blind) or 1 (small blind), got {position!r}")
    seat.begin_hand(position)
    while reply.get("winnings") is None:
        incr = seat.act(position, reply["hole_cards"], reply.get("board") or [], reply["action"], rng)
        reply = connection.act(token, incr)
        token = reply.get("token") or token
        if reply.get("client_pos", position) != position:
            raise SlumbotError(f"/api/act: client_pos changed within a hand ({position} -> {reply['client_pos']})")
    state, known = finished_state(reply)
    ours = state.chip_returns()[position]
    if (known or any(state.folded)) and ours != reply["winnings"]:
        raise SlumbotError(f"the server says the client won {reply['winnings']} chips in {reply['action']!r} "
                           f"(client_pos {position}, cards {reply['hole_cards']} / {reply.get('bot_hole_cards')}, "
                           f"board {reply.get('board')}); the rules say {ours}")
    return token, reply, state, known


def check_run(folder: Path, settings: dict[str, Any], resume: bool) -> list[phh.Hand]:
    """The hands a run in ``folder`` finished; its settings file written (a new run) or checked (``resume``)."""
    run, log = folder / RUN_FILE, folder / PHH_FILE
    header = {"format": RUN_FORMAT, **settings}
    if not resume:
        if log.exists() and log.stat().st_size:
            raise ValueError(f"{log} holds another run's hands: continue it with --resume {folder}, or remove it")
        folder.mkdir(parents=True, exist_ok=True)
        run.write_text(json.dumps(header, indent=1) + "\n")
        return []
    if not run.exists():
        raise ValueError(f"{folder} holds no Slumbot run ({RUN_FILE} is missing)")
    old = json.loads(run.read_text())
    for key in sorted(set(old) | set(header)):
        if old.get(key) != header.get(key):
            raise ValueError(f"{folder} is the run of other settings: {key} was {old.get(key)!r}, now {header.get(key)!r}")
    return read_log(log)


def run(agent: str, hands: int, url: str = DEFAULT_URL, out: str | Path | None = None, resume: bool = False,
        seed: int = 0, username: str | None = None, password: str | None = None,
        env_config: Mapping[str, Any] | None = None, progress: bool = True, timeout: float = 30.0) -> SlumbotResult:
    """Play ``agent`` (a registry spec) against the server at ``url`` until ``hands`` hands are finished.

    ``out``: the folder of the hand log and the run's settings (None: nothing written); ``resume``: continue the run
    there. Hand ``k`` (1-based) acts with the generator ``default_rng([seed, k])``, so a resumed run draws as an
    uninterrupted one would."""
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise ValueError(f"hands must be an integer >= 1, got {hands!r}")
    if (username is None) != (password is None):
        raise ValueError("give both username and password (to log in), or neither (an anonymous session)")
    url = check_url(url)
    seat = AgentSeat(agent, env_config)
    connection = SlumbotConnection(url, timeout=timeout)
    folder = None if out is None else Path(out)
    if resume and folder is None:
        raise ValueError("resume needs the folder of the run (out)")
    settings = {"agent": agent, "url": url, "seed": seed, "env_config": dict(env_config or {})}
    done = check_run(folder, settings, resume) if folder is not None else []
    outcomes = [outcome_of(h) for h in done]
    if len(outcomes) > hands:
        raise ValueError(f"the run already has {len(outcomes)} hands, more than hands={hands}")
    bar = None
    if progress:
        try:
            from tqdm.auto import tqdm
        except ImportError:  # a bare install: no bar rather than no run
            tqdm = None
        if tqdm is not None:
            bar = tqdm(total=hands, initial=len(outcomes), unit="hand", desc="slumbot")
    token = connection.login(username, password) if username is not None and password is not None else None
    try:
        while len(outcomes) < hands:
            number = len(outcomes) + 1
            token, reply, state, known = play_hand(connection, token, seat, np.random.default_rng([seed, number]))
            if folder is not None:
                write_hand(folder / PHH_FILE, hand_record(state, reply, agent, number, known), number)
            outcomes.append(outcome_of_reply(reply))
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"{mean_ci([o.winnings * BB_PER_100 for o in outcomes])[0]:+.1f} bb/100")
    finally:
        if bar is not None:
            bar.close()
    return SlumbotResult(agent, url, tuple(outcomes))


def write_hand(path: Path, hand: phh.Hand, number: int) -> None:
    """Append ``hand`` as table ``[number]`` and flush it to disk (a finished hand survives a crash after it)."""
    lead = "\n" if path.exists() and path.stat().st_size else ""
    with path.open("a", encoding="utf-8") as f:
        f.write(f"{lead}[{number}]\n{phh.dumps(hand)}")
        f.flush()
        os.fsync(f.fileno())


def kept_note(out: str | None) -> str:
    """What an interrupted run says about its log: the hands kept and how to go on (nothing without a log)."""
    if out is None or not (Path(out) / PHH_FILE).exists():
        return ""
    return f" (finished hands are kept in {Path(out) / PHH_FILE}: rerun with --resume {out})"


def build_parser() -> argparse.ArgumentParser:
    from agent_zoo import cli
    from agent_zoo.registry import REGISTRY

    parser = cli.parser("bridges.slumbot", __doc__.split("\n\n")[0],
                        cli.examples("bridges.slumbot", "--agent heuristic --hands 1000 --out slumbot_runs/heuristic",
                                     "--agent heuristic --hands 1000 --resume slumbot_runs/heuristic",
                                     "--agent random --hands 100 --url http://127.0.0.1:8765 --no-progress"))
    parser.add_argument("--agent", required=True, help=f"the zoo agent's registry spec ({', '.join(sorted(REGISTRY))})")
    parser.add_argument("--hands", type=cli.positive_int, default=1000,
                        help="hands of the run (with --resume: in all, those already played included)")
    parser.add_argument("--url", default=DEFAULT_URL, help="the server (a local one: python -m agent_zoo.bridges.slumbot_server)")
    cli.add_seed(parser, what="the agent's random choices (hand k draws from the seed and k)")
    cli.add_out(parser, None, f"{PHH_FILE} (every finished hand as PHH) and {RUN_FILE} (the run's settings) "
                "(default: nothing written)")
    parser.add_argument("--resume", metavar="DIR", default=None,
                        help="continue the interrupted run whose --out was DIR (same agent, url, seed, env config): "
                             "its finished hands are kept, the missing ones played")
    parser.add_argument("--username", default=None, help="log in as this slumbot.com user (the hands count on its record)")
    parser.add_argument("--password", default=None,
                        help="the user's password (default: the environment variable SLUMBOT_PASSWORD)")
    parser.add_argument("--timeout", type=cli.positive_float, default=30.0, help="seconds to wait for each reply")
    cli.add_env_config(parser)
    cli.add_json(parser, "the result")
    cli.add_progress(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> SlumbotResult:
    from agent_zoo import cli

    parser = build_parser()
    args = parser.parse_args(argv)
    env_config = cli.env_config(parser, args.env_config)
    cli.check_out(parser, args.out)
    cli.check_out(parser, args.resume, "--resume")
    if args.resume is not None and args.out is not None and Path(args.resume) != Path(args.out):
        parser.error(f"argument --resume: {args.resume} differs from --out {args.out} (--resume DIR writes to DIR)")
    if args.resume is not None and not Path(args.resume).is_dir():
        parser.error(f"argument --resume: no such folder {args.resume!r}")
    out = args.resume if args.resume is not None else args.out
    password = args.password if args.password is not None else os.environ.get("SLUMBOT_PASSWORD")
    if args.username is not None and password is None:
        parser.error("argument --username: give --password or set SLUMBOT_PASSWORD")
    if args.username is None and args.password is not None:
        parser.error("argument --password: give --username too")
    try:
        result = run(args.agent, args.hands, args.url, out, args.resume is not None, args.seed, args.username,
                     password if args.username is not None else None, env_config, not args.no_progress, args.timeout)
    except (ValueError, RuntimeError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}{kept_note(out)}\n")
    except KeyboardInterrupt:
        parser.exit(130, f"{parser.prog}: interrupted{kept_note(out)}\n")
    if not cli.emit_json(result.to_dict(), args.json, allow_nan=False):
        print(result.text())
    return result


if __name__ == "__main__":
    main()
