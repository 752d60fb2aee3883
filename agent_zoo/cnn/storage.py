"""Compact hand histories: the deck, the button and the actions in chips, never the tensors.

1.4 million 33x17x17 float32 tensors would take 53 GB; a stored action takes 8 bytes and a hand
12 bytes plus an 8-byte offset (1.4 million actions: about 15 MB). Training samples are re-encoded
on the fly by replaying the hand in the rules engine up to the action (``encode_samples``), which
gives exactly the tensor a live player saw.

A hand: ``deck`` (the 9 cards of a heads-up deal in dealing order: 4 hole cards, 5 board cards,
all drawn whether or not the hand reached the river), ``button``, the two players' ids
(``seat_players``), and its actions ``actions[start[h]:start[h + 1]]``: seat, kind (FOLD=0 ..
RAISE=4), raise-to chips (0 unless a bet/raise), and the target: the chips the action's player
has won (+) or lost (-) at the end of the hand, divided by the buy-in (his starting stack), so every
target lies in [-1, 1] as the document's network output. (The chips put in before the action are a
function of the state, so ranking a state's candidate actions by this target or by the chips won
from the action on is the same.) With ``allin_equity`` (see ``equity``) a showdown whose last
decision came before the river stores the expected result over the cards still to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.games.holdem import HoldemGame
from poker_envs.games.base import CHANCE

DECK_CARDS = 9  # heads-up: 2 x 2 hole cards + 5 board cards
_NO_RNG = np.random.default_rng(0)  # never drawn from: every stored deal has a full fixed deck


@dataclass
class HandStore:
    """Hands in flat numpy arrays (concatenate with ``HandStore.concat``, save with ``save``)."""

    deck: np.ndarray  # (H, 9) int8 dealing order
    button: np.ndarray  # (H,) int8
    seat_players: np.ndarray  # (H, 2) int8: player id at seat 0 and seat 1 (ids are the caller's)
    start: np.ndarray  # (H + 1,) int64 offsets into the action arrays
    seat: np.ndarray  # (A,) int8 seat that acted
    kind: np.ndarray  # (A,) int8 FOLD=0, CHECK=1, CALL=2, BET=3, RAISE=4
    raise_to: np.ndarray  # (A,) int16 street total of a bet/raise (0 otherwise)
    target: np.ndarray  # (A,) float32 chips the actor won (+) / lost (-) in the hand / buy-in

    @property
    def num_hands(self) -> int:
        return len(self.button)

    @property
    def num_actions(self) -> int:
        return len(self.kind)

    def hand_of(self) -> np.ndarray:
        """(A,) index of the hand each action belongs to."""
        return np.repeat(np.arange(self.num_hands), np.diff(self.start))

    def head(self, hands: int) -> HandStore:
        """The first ``hands`` hands."""
        return self.hands(0, min(hands, self.num_hands))

    def hands(self, lo: int, hi: int) -> HandStore:
        """Hands ``lo`` to ``hi - 1``, action offsets rebased to 0."""
        if not 0 <= lo <= hi <= self.num_hands:
            raise ValueError(f"hands(lo, hi) needs 0 <= lo <= hi <= {self.num_hands}, got lo={lo}, hi={hi}")
        a, b = int(self.start[lo]), int(self.start[hi])
        return HandStore(self.deck[lo:hi], self.button[lo:hi], self.seat_players[lo:hi], self.start[lo : hi + 1] - a,
                         self.seat[a:b], self.kind[a:b], self.raise_to[a:b], self.target[a:b])

    @staticmethod
    def concat(stores: Sequence[HandStore]) -> HandStore:
        if not stores:
            raise ValueError("concat needs at least one HandStore")
        starts, offset = [np.zeros(1, dtype=np.int64)], 0
        for s in stores:
            starts.append(s.start[1:] + offset)
            offset += s.num_actions
        cat = np.concatenate
        return HandStore(cat([s.deck for s in stores]), cat([s.button for s in stores]),
                         cat([s.seat_players for s in stores]), cat(starts), cat([s.seat for s in stores]),
                         cat([s.kind for s in stores]), cat([s.raise_to for s in stores]),
                         cat([s.target for s in stores]))

    def save(self, path: str | Path) -> None:
        """Atomic write of an ``.npz`` (a crash leaves either the old file or the new one)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, **{k: getattr(self, k) for k in _FIELDS})
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> HandStore:
        with np.load(path) as data:
            return cls(**{k: data[k] for k in _FIELDS})


_FIELDS = ("deck", "button", "seat_players", "start", "seat", "kind", "raise_to", "target")


class HandRecorder:
    """Collects hands as they are played (``add_hand``) and builds a ``HandStore``."""

    def __init__(self) -> None:
        self.decks: list[Sequence[int]] = []
        self.buttons: list[int] = []
        self.players: list[tuple[int, int]] = []
        self.lengths: list[int] = []
        self.actions: list[tuple[int, int, int, float]] = []

    def add_hand(self, deck: Sequence[int], button: int, players: tuple[int, int],
                 actions: Sequence[tuple[int, int, int]], chips_won: Sequence[float], buy_in: int) -> None:
        """``actions``: (seat, kind, raise_to); ``chips_won``: each seat's result of the hand in chips."""
        self.decks.append(deck)
        self.buttons.append(button)
        self.players.append(players)
        self.lengths.append(len(actions))
        for seat, kind, to in actions:
            self.actions.append((seat, kind, to, chips_won[seat] / buy_in))

    def store(self) -> HandStore:
        acts = np.array(self.actions, dtype=np.float64).reshape(-1, 4)
        start = np.zeros(len(self.lengths) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=start[1:])
        return HandStore(
            deck=np.array(self.decks, dtype=np.int8).reshape(-1, DECK_CARDS),
            button=np.array(self.buttons, dtype=np.int8),
            seat_players=np.array(self.players, dtype=np.int8).reshape(-1, 2),
            start=start,
            seat=acts[:, 0].astype(np.int8),
            kind=acts[:, 1].astype(np.int8),
            raise_to=acts[:, 2].astype(np.int16),
            target=acts[:, 3].astype(np.float32),
        )


def new_hand(game: HoldemGame, deck: Sequence[int], button: int):  # noqa: ANN201 (HoldemState)
    """A state at the first decision (or the end) of a stored deal."""
    state = game.new_initial_state(button=int(button), deck=[int(c) for c in deck])
    deal_cards(state)
    return state


def deal_cards(state) -> None:  # noqa: ANN001
    """Apply chance moves until a player acts or the hand ends (fixed decks need no randomness)."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(_NO_RNG))


def encode_samples(store: HandStore, game: HoldemGame, encoder: PokerCNNEncoder, indices: np.ndarray) -> np.ndarray:
    """(len(indices), 33, 17, 17) tensors of stored actions, each state re-built by replaying its hand.

    Each distinct hand is replayed once, up to the last action asked for.
    """
    indices = np.asarray(indices, dtype=np.int64)
    out = np.empty((len(indices), *encoder.observation_space.shape), dtype=encoder.dtype)
    hands = np.searchsorted(store.start, indices, side="right") - 1
    order = np.argsort(indices, kind="stable")
    k = 0
    while k < len(order):
        h = int(hands[order[k]])
        state = new_hand(game, store.deck[h], store.button[h])
        a = int(store.start[h])
        while k < len(order) and hands[order[k]] == h:
            target = int(indices[order[k]])
            while a < target:
                _apply_stored(state, store, a)
                a += 1
            seat = int(store.seat[a])
            kind, to = int(store.kind[a]), int(store.raise_to[a])
            if state.current_player() != seat:
                raise ValueError(f"stored action {a} is by seat {seat} but seat {state.current_player()} acts")
            action = 0 if kind == 0 else (1 if kind in (1, 2) else to + 1)
            out[order[k]] = encoder.encode_actions(state, seat, [action])[0]
            k += 1
    return out


def _apply_stored(state, store: HandStore, a: int) -> None:  # noqa: ANN001
    state.apply_raw(int(store.kind[a]), int(store.raise_to[a]))
    deal_cards(state)
