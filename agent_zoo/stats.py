"""Style statistics as poker players know them, counted from the actions agents take in the tournament.

* VPIP: share of hands in which the player voluntarily put chips in during the first betting round
  (a call, bet or raise; blinds and antes do not count).
* PFR: share of hands with a bet or raise in the first betting round ("pre-flop raise").
* AF (aggression factor): (bets + raises) / calls over all rounds.
* Fold to bet: folds / decisions taken facing a bet or raise.

Each game tells how to read its actions through ``classify`` (an ``ActionView``); games without a
notion (the threshold game has no calls) report ``None`` for it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

FOLD, CHECK, CALL, BET = "fold", "check", "call", "bet"  # BET covers bets, raises and all-ins


class ActionView(NamedTuple):
    kind: str  # one of FOLD, CHECK, CALL, BET
    first_round: bool  # taken in the first betting round (pre-flop)
    facing_bet: bool  # the player owed chips when taking it


@dataclass
class StyleCounts:
    """Integer counters (summed across matches in a fixed order, so results repeat exactly)."""

    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    bets: int = 0
    calls: int = 0
    folds_facing_bet: int = 0
    decisions_facing_bet: int = 0

    def add(self, other: StyleCounts) -> None:
        for key, value in asdict(other).items():
            setattr(self, key, getattr(self, key) + value)

    def summary(self, has_calls: bool = True) -> dict[str, float | None]:
        """VPIP, PFR and fold-to-bet in percent, AF as a ratio; None where the game or the sample gives no value."""

        def pct(num: int, den: int) -> float | None:
            return 100.0 * num / den if den else None

        return {
            "vpip": pct(self.vpip_hands, self.hands),
            "pfr": pct(self.pfr_hands, self.hands),
            "af": (self.bets / self.calls if self.calls else None) if has_calls else None,
            "fold_to_bet": pct(self.folds_facing_bet, self.decisions_facing_bet) if has_calls else None,
        }


def _word_kind(word: str, facing: bool) -> str:
    word = word.lower()
    if "fold" in word:
        return FOLD
    if "check" in word:
        return CHECK
    if "call" in word:
        return CALL if facing else CHECK
    if any(w in word for w in ("bet", "raise", "all", "push", "shove")):
        return BET
    raise ValueError(f"cannot read action {word!r} as fold/check/call/bet")


def classify(state: Any, action: int) -> ActionView:
    """How ``action`` reads in poker terms at ``state`` (before it is applied)."""
    name = getattr(getattr(state, "game", None), "name", None) or type(state).__name__
    legal = state.legal_actions()
    if type(state).__name__ == "KuhnState":  # pass/bet: a pass facing a bet folds, a bet facing one calls
        facing = bool(state.history) and state.history[-1] == 1
        kind = (CALL if action == 1 else FOLD) if facing else (BET if action == 1 else CHECK)
        return ActionView(kind, True, facing)
    first_round = int(getattr(state, "round", getattr(state, "street", 0)) or 0) == 0
    words = [state.action_to_string(a).lower() for a in legal]
    if hasattr(state, "to_call"):  # hold'em: exact, even where folding instead of checking is allowed
        facing = state.to_call(state.current_player()) > 0
    else:
        facing = any("fold" in w for w in words)  # the small games mask fold out unless chips are owed
    try:
        kind = _word_kind(state.action_to_string(action), facing)
    except ValueError as exc:
        raise ValueError(f"style statistics for {name}: {exc}") from exc
    return ActionView(kind, first_round, facing)


class HandTracker:
    """Counts one hand's actions per seat; ``finish`` adds them to per-seat StyleCounts."""

    def __init__(self, num_players: int) -> None:
        self.vpip = [False] * num_players
        self.pfr = [False] * num_players
        self.counts = [StyleCounts() for _ in range(num_players)]

    def record(self, seat: int, view: ActionView) -> None:
        c = self.counts[seat]
        if view.first_round and view.kind in (CALL, BET):
            self.vpip[seat] = True
        if view.first_round and view.kind == BET:
            self.pfr[seat] = True
        if view.kind == BET:
            c.bets += 1
        elif view.kind == CALL:
            c.calls += 1
        if view.facing_bet:
            c.decisions_facing_bet += 1
            c.folds_facing_bet += view.kind == FOLD

    def finish(self) -> list[StyleCounts]:
        for seat, c in enumerate(self.counts):
            c.hands = 1
            c.vpip_hands = int(self.vpip[seat])
            c.pfr_hands = int(self.pfr[seat])
        return self.counts
