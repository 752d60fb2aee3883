"""The heuristic player of Hwang & Kaneko (bet/raise 45%, check/call 45%, fold 10%, cards ignored)
and the two readings of its random player.

The document (after Poker-CNN, but without its hand-strength weighting) fixes only the action-type
shares of the heuristic, not the size of its bets. The size is a reading (``SIZINGS``):

* ``"pot"`` (the zoo's original player, spec ``heuristic``): a pot fraction f drawn uniformly from
  ``RAISE_FRACTIONS`` (1/2, 3/4, 1, 3/2, 2), raise to ``max bet + f * (pot after calling)``, rounded to a
  chip, lifted to the minimum raise and capped at all-in. Not in the document.
* ``"min"``: the minimum legal raise (Poker-CNN's heuristic played limit games, where a bet's size is
  fixed by the rules; the smallest no-limit bet is the closest carry-over).
* ``"uniform"``: uniform over the legal raise-to amounts (the document's section 2.2 counts every chip
  amount of a bet as its own action).

``PAPER_SIZING`` is the reading chosen from the document's text (docs/results/cnn.md, "Calibrating the
baselines"). In every reading a share whose action is illegal goes to check/call: when checking is free
(folding is not allowed then, under the default rules) check 55%; when no raise is possible (facing an
all-in) call 90%. Where the table's rules let a player fold when checking is free
(``allow_fold_when_check``), the heuristic folds its 10% there too (the document: "always these shares").

The random player (section 4.2: "takes every selectable action with the same probability") is read two
ways (``RANDOM_READINGS``): ``"ids"``, uniform over the legal action ids, every chip amount one action
(``agent_zoo.agent.RandomAgent``, spec ``random``); ``"kinds"``, uniform over the legal kinds (fold,
check/call, bet/raise) and then uniform over the legal raise amounts (``KindRandomAgent``, spec
``random:kinds``).

The heuristic reads the pot, the bets and the raise range from the public betting state of its
observation (``observation["public"]``); with ``bet_sizing`` other than ``"chips"`` it needs only the
mask and the raise is the smallest legal raise id (``"min"``) or uniform over them (the others). Each
decision draws one uniform, plus (``"pot"``, ``"uniform"``) one integer when it raises, from the
caller's generator (``act_batch`` keeps those draws row by row).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, Rngs, batch_masks, legal_actions, row_rngs
from agent_zoo.observe import PublicColumns, public_state
from poker_envs.encoders.public import PublicState

BET_SHARE, CALL_SHARE, FOLD_SHARE = 0.45, 0.45, 0.10
RAISE_FRACTIONS = (0.5, 0.75, 1.0, 1.5, 2.0)
SIZINGS = ("pot", "min", "uniform")
PAPER_SIZING = "uniform"  # the reading chosen from the document's text (see the module doc and docs/results/cnn.md)
RANDOM_READINGS = ("ids", "kinds")
PAPER_RANDOM = "ids"  # section 4.2 read literally, every chip amount one action (docs/results/cnn.md)
A_FOLD, A_CALL = 0, 1


def check_sizing(sizing: str) -> str:
    """``sizing`` if it is one of ``SIZINGS`` (``"paper"`` stands for ``PAPER_SIZING``), else ValueError."""
    sizing = PAPER_SIZING if sizing == "paper" else sizing
    if sizing not in SIZINGS:
        raise ValueError(f"heuristic sizing must be one of {SIZINGS} or 'paper', got {sizing!r}")
    return sizing


def raise_tos(max_bet: Any, pot: Any, to_call: Any, low: Any, high: Any, fraction: Any) -> np.ndarray:
    """Raise-to (street chips) of pot-fraction raises, element-wise: ``max_bet + fraction * (pot + to_call)``
    rounded half up to a chip and kept inside the legal range ``[low, high]``."""
    to = np.floor(np.asarray(max_bet, dtype=np.float64) + np.asarray(fraction) * (np.asarray(pot) + np.asarray(to_call)) + 0.5)
    return np.minimum(np.maximum(to, low), high).astype(np.int64)


def pot_raise_to(public: PublicState, fraction: float) -> int:
    """Raise-to of a pot-fraction raise by the seat to act (whose public state is ``public``).

    Where a raise is possible the amount to call is below the stack, so it is the whole amount owed."""
    if not public.can_raise:
        raise ValueError("pot_raise_to: the seat to act cannot raise here")
    return int(raise_tos(max(public.bets), public.pot, public.to_call, public.min_raise_to, public.max_raise_to, fraction))


def _size_draw(sizing: str, low: int, high: int, rng: np.random.Generator) -> float:
    """The size draw of one raise: a pot fraction (``"pot"``), an offset above ``low`` (``"uniform"``) or 0."""
    if sizing == "pot":
        return RAISE_FRACTIONS[int(rng.integers(len(RAISE_FRACTIONS)))]
    if sizing == "uniform":
        return int(rng.integers(high - low + 1))
    return 0


def heuristic_action(public: PublicState, rng: np.random.Generator, sizing: str = "pot", can_fold: bool | None = None) -> int:
    """The heuristic's discrete action id (``bet_sizing="chips"``: a raise to r chips is id r + 1).

    ``can_fold``: folding is legal (default: only facing a bet, the rules' default; a table whose rules let a
    player fold when checking is free passes True there, and the heuristic folds its 10% there too)."""
    can_fold = public.to_call > 0 if can_fold is None else can_fold
    u = rng.random()
    if u < BET_SHARE and public.can_raise:
        low, high = int(public.min_raise_to), int(public.max_raise_to)
        draw = _size_draw(sizing, low, high, rng)
        if sizing == "pot":
            return pot_raise_to(public, draw) + 1
        return low + int(draw) + 1
    if u >= BET_SHARE + CALL_SHARE and can_fold:
        return A_FOLD
    return A_CALL


def _mask_action(legal: np.ndarray, rng: np.random.Generator, sizing: str = "pot") -> int:
    """The heuristic from the mask alone (abstract or limit sizing): ids >= 2 are raises."""
    raises = legal[legal >= 2]
    u = rng.random()
    if u < BET_SHARE and raises.size:
        return int(raises[0]) if sizing == "min" else int(raises[rng.integers(raises.size)])
    if u >= BET_SHARE + CALL_SHARE and A_FOLD in legal:
        return A_FOLD
    return A_CALL


def random_kinds_action(legal: np.ndarray, rng: np.random.Generator) -> int:
    """The random player read as uniform over the legal kinds (fold, check/call, bet/raise), then uniform
    over the legal raise ids: one integer for the kind, one more when it raises."""
    raises = legal[legal >= 2]
    kinds = [k for k, ok in ((0, A_FOLD in legal), (1, A_CALL in legal), (2, raises.size > 0)) if ok]
    kind = kinds[int(rng.integers(len(kinds)))]
    return int(raises[rng.integers(raises.size)]) if kind == 2 else kind


class KindRandomAgent(Agent):
    """The document's random player read as uniform over action kinds (spec ``random:kinds``)."""

    name = "random:kinds"

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return random_kinds_action(legal_actions(observation), rng)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        legal = legal_actions(observation)
        raises = legal[legal >= 2]
        p = np.zeros(len(observation["action_mask"]))
        share = 1.0 / sum((A_FOLD in legal, A_CALL in legal, raises.size > 0))
        for a in (A_FOLD, A_CALL):
            if a in legal:
                p[a] = share
        if raises.size:
            p[raises] = share / raises.size
        return p


def _differs_from_before(a: np.ndarray) -> np.ndarray:
    """(m - 1,) bool: row ``i + 1`` of ``a`` (m, ...) differs from row ``i`` in some byte (compared a word of up
    to 8 bytes at a time; equal bytes are equal values, so rows taken as equal are)."""
    a = np.ascontiguousarray(a).reshape(len(a), -1)
    width = a.shape[1] * a.itemsize
    words = a.view(f"u{next(k for k in (8, 4, 2, 1) if width % k == 0)}")
    return (words[1:] != words[:-1]).any(axis=1)


class HeuristicAgent(Agent):
    """The heuristic as a zoo agent; ``chips_sizing``: the env's ``bet_sizing`` is ``"chips"`` (one id per
    raise-to amount), then raise sizes are read from the public state; ``sizing``: one of ``SIZINGS``."""

    name = "heuristic"

    def __init__(self, chips_sizing: bool = False, sizing: str = "pot") -> None:
        if not isinstance(chips_sizing, bool):
            raise TypeError(f"chips_sizing must be a bool (the env's bet_sizing is 'chips'), got {type(chips_sizing).__name__}")
        self.chips_sizing = chips_sizing
        self.sizing = check_sizing(sizing)

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        legal = legal_actions(observation)
        if not self.chips_sizing:
            return _mask_action(legal, rng, self.sizing)
        action = heuristic_action(public_state(observation, "the heuristic"), rng, self.sizing, bool(A_FOLD in legal))
        if observation["action_mask"][action] != 1:
            raise ValueError(f"heuristic chose {action}, not legal in the observation (public state and mask disagree)")
        return action

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The mixed strategy ``act`` draws from (the same for every holding: cards are ignored)."""
        return self.action_probabilities_batch({k: np.asarray(v)[None] for k, v in observation.items()})[0]

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        """``action_probabilities`` of ``m`` stacked observations, vectorised over the rows: the raise share
        spread over the sizes the sizing draws (equal amounts add up), fold where legal, the rest check/call.

        A row depends on its mask (and, with chips sizing, its public state) alone, so a row equal to the one
        before it takes that row's answer: a range query (local best response, AIVAT) asks about one public
        state for a thousand holdings, and is answered once."""
        inputs = [np.asarray(observations["action_mask"])]
        if self.chips_sizing and "public" in observations:
            inputs.append(np.asarray(observations["public"]))
        changed = np.ones(len(inputs[0]), dtype=bool)  # rows unlike the row before
        if len(changed) > 1:
            changed[1:] = np.logical_or.reduce([_differs_from_before(a) for a in inputs])
        if changed.all():
            return self._probabilities(observations, batch_masks(observations))
        first = np.flatnonzero(changed)
        unique = {k: np.asarray(v)[first] for k, v in observations.items() if k != "observation"}
        mask = np.asarray(unique["action_mask"]) > 0
        if not mask.any(axis=1).all():
            batch_masks(observations)  # raises, naming the rows
        return np.repeat(self._probabilities(unique, mask), np.diff(np.append(first, len(changed))), axis=0)

    def _probabilities(self, observations: Observation, mask: np.ndarray) -> np.ndarray:
        """``action_probabilities_batch`` computed row by row (``mask``: the rows' legal masks)."""
        probs = np.zeros(mask.shape)
        if self.chips_sizing:
            pub = PublicColumns.of(observations, "the heuristic")
            rows = np.flatnonzero(pub.can_raise)
            low, high = pub.min_raise_to[rows].astype(np.int64), pub.max_raise_to[rows].astype(np.int64)
            if self.sizing == "pot":  # equal amounts add up (each row once per fraction: a plain indexed add)
                max_bet, pot, to_call = pub.max_bet[rows], pub.pot[rows], pub.to_call[rows]
                for f in RAISE_FRACTIONS:
                    probs[rows, raise_tos(max_bet, pot, to_call, low, high, f) + 1] += BET_SHARE / len(RAISE_FRACTIONS)
            elif self.sizing == "min":
                probs[rows, low + 1] += BET_SHARE
            else:  # uniform over the raise-to amounts low..high (ids low + 1 .. high + 1)
                ids = np.arange(mask.shape[1])[None, :]
                inside = (ids >= low[:, None] + 1) & (ids <= high[:, None] + 1)
                probs[rows] += inside * (BET_SHARE / (high - low + 1))[:, None]
        else:
            raises = mask.copy()
            raises[:, :2] = False
            if self.sizing == "min":  # the smallest legal raise id only
                raises &= np.cumsum(raises, axis=1) == 1
            probs += np.where(raises, BET_SHARE / np.maximum(raises.sum(axis=1, keepdims=True), 1), 0.0)
        probs[:, A_FOLD] += np.where(mask[:, A_FOLD], FOLD_SHARE, 0.0)
        probs[:, A_CALL] += 1.0 - probs.sum(axis=1)
        return probs

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        mask = batch_masks(observations)
        rngs = row_rngs(rng, len(mask))
        if not self.chips_sizing:
            return np.array([_mask_action(np.flatnonzero(m), g, self.sizing) for m, g in zip(mask, rngs)], dtype=np.int64)
        pub = PublicColumns.of(observations, "the heuristic")
        low, high = pub.min_raise_to.astype(np.int64), pub.max_raise_to.astype(np.int64)
        # The draws, row by row in act's order: a uniform, then the size draw where it raises.
        u = np.empty(len(mask))
        draw = np.zeros(len(mask))
        for i, g in enumerate(rngs):
            u[i] = g.random()
            if u[i] < BET_SHARE and pub.can_raise[i]:
                draw[i] = _size_draw(self.sizing, int(low[i]), int(high[i]), g)
        raising = (u < BET_SHARE) & pub.can_raise
        if self.sizing == "pot":
            to = raise_tos(pub.max_bet, pub.pot, pub.to_call, pub.min_raise_to, pub.max_raise_to, draw)
        else:
            to = low + draw.astype(np.int64)
        folding = ~raising & (u >= BET_SHARE + CALL_SHARE) & mask[:, A_FOLD].astype(bool)
        actions = np.where(raising, to + 1, np.where(folding, A_FOLD, A_CALL)).astype(np.int64)
        bad = np.flatnonzero(~mask[np.arange(len(mask)), actions])
        if bad.size:
            raise ValueError(f"heuristic chose actions not legal in rows {bad.tolist()} (public state and mask disagree)")
        return actions


def make_heuristic_agent(env: Any, arg: str | None = None) -> HeuristicAgent:
    """Registry factory (``heuristic`` or ``heuristic:SIZING``, SIZING one of ``SIZINGS`` or ``paper``): reads
    whether ``env``'s bet sizing is ``"chips"``."""
    game = getattr(getattr(env, "unwrapped", env), "game", None)
    return HeuristicAgent(bool(getattr(game, "chips_sizing", False)), check_sizing(arg or "pot"))
