"""Players' logs: (the state as the player saw it, the action taken) pairs taken from hand histories.

A log is what section 4.2.2 of Koyama's thesis clusters: one player's decisions. Logs come
from PHH hands (``poker_envs.phh``: real hand histories, or hands recorded from the environments by
``wrappers.hand_history.HandHistoryRecorder``); each hand is replayed through the hold'em rules and,
before every player action, the state is kept for that player with the other players' hole cards
removed. ``encode_log`` turns a log into arrays with any hold'em encoder (``flat107``, ``flat56``,
``poker_cnn``, an ``Encoder`` object): ``X`` and ``y`` = the thesis' three action classes
(0 fold, 1 check/call, 2 bet/raise); ``raw_actions`` gives the exact actions (kind and chips).

For large sets, ``encode_hands`` encodes while replaying (no state kept): the 10,000 Pluribus hands
with ``flat107`` need about as long as loading and replaying them (see ``benchmarks/phh_replay.py``).
Players whose hole cards a file does not give play with random stand-ins (``poker_envs.phh_replay``);
their entries carry ``cards_known=False`` and ``known_cards_only=True`` leaves them out.

    hands = list(phh.iter_hands("../shared/data/phh/pluribus"))
    encoded = encode_hands(hands, "flat107")          # {"Pluribus": EncodedLog(X, y, raw, cards_known), ...}
    logs = extract_logs(recorder.hands)               # hands recorded by HandHistoryRecorder: by agent name
    X, y = encode_log(logs["player_0"], "flat56")
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from poker_envs.encoders import action_added
from poker_envs.encoders.base import Encoder
from poker_envs.games.holdem import HoldemState
from poker_envs.phh import Hand
from poker_envs.phh_replay import replay

FOLD_CLASS, CHECK_CALL_CLASS, BET_RAISE_CLASS = 0, 1, 2
CLASS_NAMES = ("fold", "check/call", "bet/raise")
ACTION_CLASS = (FOLD_CLASS, CHECK_CALL_CLASS, CHECK_CALL_CLASS, BET_RAISE_CLASS, BET_RAISE_CLASS)  # by engine kind
BATCH = 4096  # states per call of an encoder's ``encode_batch``
RAW_DTYPE = np.dtype([("kind", np.int8), ("raise_to", np.float64), ("added", np.float64)])


class LogEntry(NamedTuple):
    """One decision of one player."""

    state: HoldemState  # before the action, as the player saw it (others' hole cards removed); engine chips
    seat: int  # the player's seat in ``state`` (PHH p(seat+1))
    action: int  # FOLD_CLASS, CHECK_CALL_CLASS or BET_RAISE_CLASS
    kind: int  # exact action: poker_envs.games.holdem FOLD, CHECK, CALL, BET or RAISE
    raise_to: float  # bet/raise-to street total in the hand's chips (0 unless a bet or raise)
    added: float  # chips the action put in, in the hand's chips
    cards_known: bool  # False: the file did not give this player's hole cards (random stand-ins)
    source: str  # the hand (file[table]) and the action index


Log = list[LogEntry]


def _snapshot(state: HoldemState, seat: int) -> HoldemState:
    snap = state.clone()
    for other in range(snap.num_players):
        if other != seat:
            snap.hole[other] = []
    return snap


def extract_logs(hands: Iterable[Hand], players: Iterable[str] | None = None, seed: int = 0,
                 known_cards_only: bool = False) -> dict[str, Log]:
    """Each player's log (by the names in the files; "p1".. when a file names nobody).

    ``players``: only these names; ``seed``: the stand-in cards of unknown hands (see phh_replay);
    ``known_cards_only``: leave out decisions of players whose hole cards the file does not give.
    """
    wanted = None if players is None else set(players)
    logs: dict[str, Log] = {}
    for hand in hands:
        names = hand.player_names()
        taken: list[tuple[int, int, HoldemState, int, int, int]] = []

        def hook(step: int, seat: int, state: HoldemState, kind: int, raise_to: int) -> None:
            if wanted is None or names[seat] in wanted:
                taken.append((step, seat, _snapshot(state, seat), kind, raise_to, action_added(state, seat, kind, raise_to)))

        result = replay(hand, seed=seed, on_action=hook)
        scale = result.scale
        for step, seat, snap, kind, raise_to, added in taken:
            known = result.cards_known[seat]
            if known_cards_only and not known:
                continue
            logs.setdefault(names[seat], []).append(
                LogEntry(snap, seat, ACTION_CLASS[kind], kind, raise_to / scale, added / scale, known,
                         f"{hand.source}#{step}")
            )
    return logs


def _resolve(encoder: Encoder | str | type[Encoder], state: HoldemState) -> Encoder:
    if isinstance(encoder, Encoder):
        return encoder
    from poker_envs.encoders.base import resolve_encoder
    from poker_envs.encoders.catalog import HOLDEM_ENCODERS

    return resolve_encoder(encoder, state.game, HOLDEM_ENCODERS)


def encode_log(log: Log, encoder: Encoder | str | type[Encoder]) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): X[i] = the encoder's observation of entry i for its player, y[i] its action class.

    ``encoder``: an Encoder object, or a catalog name / Encoder class built for the first entry's game.
    Encoders with ``encode_batch(states, players)`` (``poker_cnn``) are called in batches; others once
    per entry (``flat107``: about 10 us each, so 100,000 decisions take about a second).
    """
    if not log:
        raise ValueError("the log is empty: nothing to encode")
    enc = _resolve(encoder, log[0].state)
    batch = getattr(enc, "encode_batch", None)
    if callable(batch):  # the encoder's own batched path (poker_cnn), in chunks to bound memory
        X = np.concatenate([
            batch([e.state for e in log[i : i + BATCH]], [e.seat for e in log[i : i + BATCH]])
            for i in range(0, len(log), BATCH)
        ])
    else:
        first = enc.encode(log[0].state, log[0].seat)
        X = np.empty((len(log), *first.shape), dtype=first.dtype)
        X[0] = first
        for i in range(1, len(log)):
            entry = log[i]
            X[i] = enc.encode(entry.state, entry.seat)
    y = np.fromiter((e.action for e in log), dtype=np.int64, count=len(log))
    return X, y


def raw_actions(log: Log) -> np.ndarray:
    """The exact actions of a log: structured array with ``kind`` (FOLD..RAISE), ``raise_to`` and ``added``."""
    return np.array([(e.kind, e.raise_to, e.added) for e in log], dtype=RAW_DTYPE)


class EncodedLog(NamedTuple):
    """A player's log already encoded: observations, action classes and exact actions."""

    X: np.ndarray
    y: np.ndarray
    raw: np.ndarray  # RAW_DTYPE
    cards_known: np.ndarray  # bool per row


def encode_hands(hands: Iterable[Hand], encoder: Encoder | str | type[Encoder], players: Iterable[str] | None = None,
                 seed: int = 0, known_cards_only: bool = False, progress: bool = False) -> dict[str, EncodedLog]:
    """``extract_logs`` + ``encode_log`` in one pass, keeping no states: name -> EncodedLog.

    Faster and far lighter than keeping the states (the encoder sees the live state and reads only
    the acting player's own cards, as encoders must). ``progress``: a tqdm bar over the hands.
    """
    wanted = None if players is None else set(players)
    rows: dict[str, list[Any]] = {}
    enc: list[Encoder] = []
    if progress:
        from tqdm import tqdm

        hands = tqdm(hands, desc="encoding hands", unit="hand")
    for hand in hands:
        names = hand.player_names()
        taken: list[tuple[int, np.ndarray, int, int, int]] = []

        def hook(step: int, seat: int, state: HoldemState, kind: int, raise_to: int) -> None:
            if wanted is None or names[seat] in wanted:
                if not enc:
                    enc.append(_resolve(encoder, state))
                taken.append((seat, enc[0].encode(state, seat), kind, raise_to, action_added(state, seat, kind, raise_to)))

        result = replay(hand, seed=seed, on_action=hook)
        scale = result.scale
        for seat, x, kind, raise_to, added in taken:
            known = result.cards_known[seat]
            if known_cards_only and not known:
                continue
            rows.setdefault(names[seat], []).append((x, kind, raise_to / scale, added / scale, known))
    out: dict[str, EncodedLog] = {}
    classes = np.array(ACTION_CLASS, dtype=np.int64)
    for name, items in rows.items():
        X = np.stack([r[0] for r in items])
        raw = np.array([(r[1], r[2], r[3]) for r in items], dtype=RAW_DTYPE)
        known = np.fromiter((r[4] for r in items), dtype=bool, count=len(items))
        out[name] = EncodedLog(X, classes[raw["kind"]], raw, known)
    return out


__all__ = [
    "ACTION_CLASS", "BET_RAISE_CLASS", "CHECK_CALL_CLASS", "CLASS_NAMES", "EncodedLog", "FOLD_CLASS", "Log",
    "LogEntry", "RAW_DTYPE", "encode_hands", "encode_log", "extract_logs", "raw_actions",
]
