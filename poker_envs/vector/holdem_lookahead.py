"""Look-ahead on copies of batched hold'em tables, for planners and evaluators (e.g. local best response).

``VectorHoldem`` steps its own tables and deals the next hand where one ends. A planner needs more: the
observation the seat to act would get *with other hole cards*, or *after an action that is not played*, for
many tables at once. The functions here run the engine's kernels (the same rules, masks and encoders) on a
``Tables`` the caller owns (``engine.tables.take(rows)`` or ``start``); they never touch the engine's state and
never deal a new hand.
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders import flat56, flat107
from poker_envs.vector import _holdem_kernels as k
from poker_envs.vector.holdem import VectorHoldem

Tables = k.Tables  # the tables' arrays (structure of arrays, first axis the table)
# Encoders in which the hole cards enter only as one-hot entries at this offset plus the card id (the batched
# encoders' ``card_entries``): an observation with other hole cards is the same vector with those entries moved.
HOLE_AT = {"default": 0, "flat56": flat56.CARDS, "flat107": flat107.HOLE}


def start(engine: VectorHoldem, buttons: np.ndarray, decks: np.ndarray) -> Tables:
    """New hands, one per row: ``buttons`` (R,) and dealing orders ``decks`` (R, engine.deal_size)."""
    decks = engine._dealer.check(decks, len(buttons))
    t = Tables.empty(len(buttons), engine.num_players, engine.rules.history, engine.deal_size)
    engine._start_hands(t, np.arange(len(buttons)), np.asarray(buttons, dtype=np.int64), decks)
    return t


def observe(engine: VectorHoldem, t: Tables) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """(observation dict of each table's seat to act, raise-to targets (R, ids)) as ``engine.step`` would give
    them: ``observation``, ``action_mask`` and, for an engine built with ``public=True``, ``public``."""
    (can, low, high, owe), mask, targets = k.decision(t, engine.rules)
    out = {"observation": engine._encode(t, None, can, low, high, owe), "action_mask": mask}
    if engine.public:
        out["public"] = engine._encode_public(t, None, can, low, high, owe)
    return out, targets


def encode(engine: VectorHoldem, t: Tables) -> np.ndarray:
    """The ``observation`` array alone of each table's seat to act (``observe`` without mask and public state)."""
    can, low, high, owe = k.raise_range(t, engine.rules)  # no raise on a pass turn
    return engine._encode(t, None, can, low, high, owe)


def encode_holdings(engine: VectorHoldem, t: Tables, tables: np.ndarray, counts: np.ndarray, holdings: np.ndarray,
                    observations: np.ndarray | None = None) -> np.ndarray:
    """Observations of the seat to act at table ``tables[q]`` of ``t`` holding each of its ``counts[q]`` rows of
    ``holdings`` (sum(counts), hole), in order: what ``encode`` gives after ``set_hole``, made from one encoding
    per table where the encoder allows (``HOLE_AT``). ``observations``: ``encode(engine, t.take(tables))`` when
    the caller has it already (read, not changed)."""
    base_t = t.take(np.asarray(tables, dtype=np.int64))
    seats = base_t.player.astype(np.int64)
    if engine.obs_encoder not in HOLE_AT:
        copies = base_t.take(np.repeat(np.arange(len(seats)), counts))
        set_hole(engine, copies, np.repeat(seats, counts), holdings)
        return encode(engine, copies)
    at = HOLE_AT[engine.obs_encoder]
    base = encode(engine, base_t) if observations is None else np.array(observations)
    real = hole_cards(engine, base_t)[np.arange(len(seats)), seats]  # (Q, hole)
    base[np.arange(len(seats))[:, None], at + real] = 0.0
    obs = np.repeat(base, counts, axis=0)
    width = obs.shape[1]
    obs.reshape(-1)[(np.arange(len(obs)) * width + at)[:, None] + np.asarray(holdings, dtype=np.int64)] = 1.0
    return obs


def raise_range(engine: VectorHoldem, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(can raise, min raise-to, max raise-to, chips owed) of each table's seat to act (street chips)."""
    return k.raise_range(t, engine.rules)


def play(engine: VectorHoldem, t: Tables, actions: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Play one legal action per table of ``t`` (``targets`` from ``observe``) and move on to the next seat to
    act, the next street or the hand's end; the rows whose hand ended (``t.player`` -1 there)."""
    k.apply_actions(t, engine.rules, np.asarray(actions, dtype=np.int64), targets)
    return k.advance(t, engine.rules)


def settle(engine: VectorHoldem, t: Tables, rows: np.ndarray) -> np.ndarray:
    """(R, n) int64 chips won (+) or lost (-) by each seat at the finished ``rows`` of ``t``."""
    return k.settle(t, engine.rules, rows)


def hole_cards(engine: VectorHoldem, t: Tables) -> np.ndarray:
    """(R, n, hole) each seat's hole cards."""
    return k.hole_cards(t.deck, t.button, engine.num_players, engine.rules.hole).astype(np.int64)


def board(engine: VectorHoldem, t: Tables, row: int) -> list[int]:
    """The board cards seen at table ``row`` (its street's)."""
    n, h = engine.num_players, engine.rules.hole
    return [int(c) for c in t.deck[row, n * h : n * h + engine.rules.board_after[int(t.street[row])]]]


def set_hole(engine: VectorHoldem, t: Tables, seats: np.ndarray, cards: np.ndarray) -> None:
    """Give ``seats[r]`` the hole cards ``cards[r]`` (R, hole) at each table ``r`` of ``t`` (in place)."""
    n = engine.num_players
    rows = np.arange(len(seats))
    place = (np.asarray(seats, dtype=np.int64) - t.button.astype(np.int64) - 1) % n
    for i in range(engine.rules.hole):
        t.deck[rows, place + i * n] = cards[:, i]
