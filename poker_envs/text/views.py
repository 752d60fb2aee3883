"""``TextTable``: the text and JSON views of a hold'em-family table for language-model players, and their parser.

Built once per environment from its configuration (``TextTable.for_env``), then used per decision with the
observation dict the seat gets from ``last()`` (``"public"``, ``"action_mask"`` and ``"history"``: the
environment must be built with ``history=True``). Nothing reads the environment's state.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from poker_envs.core.cards import card_to_str
from poker_envs.encoders.history import HandHistory, HistoryLayout, decode_history
from poker_envs.encoders.public import PublicState, decode_public
from poker_envs.games.holdem import STREET_NAMES
from poker_envs.text.actions import LegalAction, Sizing, legal_actions, sized_word
from poker_envs.text.parser import Parsed, Table, format_amount, parse_reply, sized_actions
from poker_envs.text.schema import SCHEMA_VERSION, STATE_FIELDS
from poker_envs.text.tracker import HandRecord, SeatStats, player_stats, reseat, session_stats

KIND_WORDS = {0: "folds", 1: "checks", 2: "calls", 3: "bets", 4: "raises to"}
KIND_NAMES = ("fold", "check", "call", "bet", "raise")
Template = str | Callable[[dict[str, Any]], str] | None
TEMPLATE_EXTRAS = ("prompt", "hand_text", "actions_text", "answer_format", "amounts_text")
SUMMARIES = ("results", "hands", "hud")  # how the prompt shows the session's earlier hands (TextTable.summary)
HUD_LEGEND = ("made/opportunities. VPIP: put chips in voluntarily preflop; PFR: raised preflop; 3B: re-raised a single "
              "raise preflop; F3B: open raiser folded to a 3-bet; CB: preflop aggressor bet the flop (c-bet); FCB: folded "
              "to a c-bet; WTSD: went to showdown after seeing the flop; AF: postflop (bets + raises) / calls")


@dataclass(frozen=True)
class TextTable:
    """Text and JSON views and the reply parser of one environment's table (see the module doc and docs/llm.md)."""

    sizing: Sizing  # the game's sizing configuration
    layout: HistoryLayout  # where the hand so far sits in observation["history"]
    num_players: int  # environment seats
    amounts: str = "chips"  # unit of every amount in the prompt and, by default, in replies: "chips" or "bb"
    list_actions: bool = True  # list the legal actions with their sizes in the prompt
    template: Template = None  # None (the default prompt), a str.format template or a callable(state_json) -> str
    snap: bool = True  # a size inside the legal range snaps to the nearest legal size (else: "illegal")
    summary: str = "results"  # earlier hands: "results" (net results), "hands" (every action log), "hud" (tracker)
    summary_hands: int = 2  # with summary="hud": the last hands shown in full beside the statistics

    def __post_init__(self) -> None:
        if self.amounts not in ("chips", "bb"):
            raise ValueError(f"amounts must be 'chips' or 'bb', got {self.amounts!r}")
        if self.summary not in SUMMARIES:
            raise ValueError(f"summary must be one of {list(SUMMARIES)}, got {self.summary!r}")
        k = self.summary_hands
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"summary_hands must be an int >= 0 (the last hands shown with summary='hud'), got {k!r}")
        for name in ("list_actions", "snap"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if isinstance(self.template, str):
            known = set(STATE_FIELDS) | set(TEMPLATE_EXTRAS)
            try:
                names = {f for _, f, _, _ in string.Formatter().parse(self.template) if f is not None}
            except ValueError as e:
                raise ValueError(f"template is not a valid str.format template: {e}") from None
            unknown = sorted(n for n in names if n.split(".")[0].split("[")[0] not in known)
            if unknown:
                raise ValueError(f"template names unknown fields {unknown}; known: {sorted(known)}")
        elif self.template is not None and not callable(self.template):
            raise ValueError(f"template must be None, a str.format template or a callable(state_json) -> str, got {self.template!r}")

    @staticmethod
    def for_env(env: Any, *, amounts: str = "chips", list_actions: bool = True, template: Template = None,
                snap: bool = True, summary: str = "results", summary_hands: int = 2) -> TextTable:
        """The views of a hold'em-family ``env`` (raw or wrapped, built with ``history=True``), from its
        configuration only: the rules configuration (sizing), the seats and the history layout."""
        raw = getattr(env, "unwrapped", env)
        game = getattr(raw, "game", None)
        if game is None or not hasattr(game.config, "num_players") or not hasattr(raw, "history_layout"):
            raise ValueError(f"TextTable.for_env needs a hold'em-family environment of poker_envs, got {type(raw).__name__}")
        layout = HistoryLayout.for_env(raw)
        return TextTable(Sizing.of_game(game), layout, len(raw.possible_agents), amounts, list_actions, template, snap,
                         summary, summary_hands)

    # ---- reading an observation ------------------------------------------------------------------------
    def _read(self, observation: Mapping[str, Any]) -> tuple[PublicState, HandHistory, np.ndarray]:
        try:
            public = decode_public(observation["public"], self.num_players)
            history = decode_history(observation["history"], self.layout)
            mask = np.asarray(observation["action_mask"])
        except KeyError as e:
            raise ValueError(f"the observation has no {e.args[0]!r} (TextTable reads 'public', 'history' and 'action_mask'; "
                             "build the environment with history=True)") from None
        return public, history, mask

    def _decision(self, observation: Mapping[str, Any]) -> Table:
        """The legal actions sized, from ``"public"`` and ``"action_mask"`` only (parsing needs no history)."""
        try:
            public = decode_public(observation["public"], self.num_players)
            mask = np.asarray(observation["action_mask"])
        except KeyError as e:
            raise ValueError(f"the observation has no {e.args[0]!r} (TextTable reads 'public' and 'action_mask')") from None
        return self._table(public, mask)

    def _table(self, public: PublicState, mask: np.ndarray) -> Table:
        return Table(tuple(legal_actions(self.sizing, public, mask)), public, self.sizing, self.amounts, self.snap)

    def legal(self, observation: Mapping[str, Any]) -> list[LegalAction]:
        """The legal actions of the observing seat, with their sizes in chips."""
        return list(self._decision(observation).actions)

    def action_text(self, action: int, observation: Mapping[str, Any]) -> str:
        """The canonical reply for legal ``action`` (``"raise to 300"``), which the parser reads back as ``action``."""
        table = self._decision(observation)
        for a in table.actions:
            if a.action == action:
                return _action_text(a, table)
        raise ValueError(f"action {action} is not legal here; legal ids: {[a.action for a in table.actions]}")

    # ---- the views ---------------------------------------------------------------------------------
    def state_json(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The public state for the seat to act as a JSON-able dict (schema: ``poker_envs.text.STATE_SCHEMA``)."""
        public, history, mask = self._read(observation)
        table = self._table(public, mask)
        return _state_json(self, public, history, table)

    def prompt(self, observation: Mapping[str, Any], hands: Sequence[HandRecord] = (), players: Sequence[int] = ()) -> str:
        """The prompt: the hand so far, own cards, stacks, pot, to call, the legal actions (``list_actions``) and the
        answer format, ending ``Final Answer: <action> [amount]``; or the ``template`` filled in.

        ``hands``: the session's finished hands, oldest first, for ``summary="hands"`` / ``"hud"`` (the observation
        keeps only the net results of the last ones; ``wrappers.text_env.SessionHands`` records them).
        ``players``: who sits at each seat now, for hands that name their players (``HandRecord.players``, e.g. a
        tournament's, where seats change between hands): statistics are then kept per player and shown at the
        seat the player has now, and hands are shown renumbered to the current seats (those whose players are not
        all seated now are left out of the hands shown, not of the statistics)."""
        public, history, mask = self._read(observation)
        table = self._table(public, mask)
        if hands and self.summary == "results":
            raise ValueError("hands were given but summary='results' shows only net results; "
                             "build the view with summary='hands' or 'hud' to show them")
        if any(not isinstance(h, HandRecord) for h in hands):
            raise ValueError("hands must be poker_envs.text.tracker.HandRecord values, oldest first")
        if players and len(players) != self.num_players:
            raise ValueError(f"players must name who sits at each of the {self.num_players} seats, got {len(players)}")
        if players and any(not h.players for h in hands):
            raise ValueError("players were given but a hand names no players (HandRecord.players is empty)")
        parts = _prompt_parts(self, public, history, table, hands, tuple(players))
        default = "\n\n".join(p for p in (parts["amounts_text"], parts["hand_text"], parts["actions_text"], parts["answer_format"]) if p)
        if self.template is None:
            return default  # the state dict is built only for a template (a third of a prompt's time)
        state = _state_json(self, public, history, table)
        if callable(self.template):
            return str(self.template(state))
        return self.template.format_map({**state, **parts, "prompt": default})

    def parse(self, reply: str, observation: Mapping[str, Any]) -> Parsed:
        """The legal action ``reply`` names, or why none (``Parsed.failure``); never raises on any str."""
        return parse_reply(reply, self._decision(observation))

    def reprompt(self, parsed: Parsed, observation: Mapping[str, Any], hands: Sequence[HandRecord] = (),
                 players: Sequence[int] = ()) -> str:
        """The parser's message in one line, then the prompt again."""
        return f"Your last reply was not a legal action: {parsed.message}\n\n{self.prompt(observation, hands, players)}"

    def fallback(self, observation: Mapping[str, Any]) -> int:
        """The action played when no reply gave a legal action: check if checking is free, else fold."""
        mask = np.asarray(observation["action_mask"])
        public = decode_public(observation["public"], self.num_players)
        if mask[1] and (public.to_call == 0 or not mask[0]):
            return 1
        return 0 if mask[0] else int(np.flatnonzero(mask)[0])


# ---- building the views ------------------------------------------------------------------------------


def _action_text(a: LegalAction, table: Table) -> str:
    if a.kind in ("fold", "check"):
        return a.kind
    if a.kind == "call":
        return "call"
    if a.kind == "all-in":
        return "all-in"
    return f"{'bet' if a.kind == 'bet' else 'raise to'} {table.fmt(a.to)}"


def fraction_name(fraction: float) -> str:
    """A pot fraction as players say it (and the parser reads it): half pot, 2/3 pot, pot, 2 pots."""
    names = {0.25: "1/4 pot", 1 / 3: "1/3 pot", 0.5: "half pot", 2 / 3: "2/3 pot", 0.75: "3/4 pot", 1.0: "pot"}
    for f, name in names.items():
        if abs(fraction - f) < 1e-9:
            return name
    return f"{format_amount(fraction)} pot" + ("s" if fraction > 1 else "")


def game_title(sizing: Sizing) -> str:
    """The game in words: "no-limit hold'em", "short-deck no-limit hold'em", "pot-limit Omaha", "push-or-fold hold'em"."""
    name = sizing.game
    if sizing.betting == "push_fold":
        return "push-or-fold hold'em"
    betting = {"nolimit": "no-limit", "potlimit": "pot-limit", "limit": "fixed-limit"}[sizing.betting]
    family = "Omaha" if "omaha" in name else "hold'em"
    variant = "short-deck " if name.startswith("short_deck") else ""
    return f"{variant}{betting} {family}" + (f" ({name})" if name not in (f"{sizing.betting}_holdem", f"{sizing.betting}_omaha", f"short_deck_{sizing.betting}_holdem") else "")


def _positions(public: PublicState) -> dict[int, str]:
    """Position names of the seats in play: BTN, SB, BB (heads-up the button is the small blind)."""
    seated = [s for s in range(len(public.seated)) if public.seated[s]]
    if public.button not in seated:
        return {}
    i = seated.index(public.button)
    order = seated[i:] + seated[:i]
    if len(order) == 2:
        return {order[0]: "BTN/SB", order[1]: "BB"}
    return {order[0]: "BTN", order[1]: "SB", order[2]: "BB"}


def _unit_amount(table: Table, chips: float) -> float:
    x = chips / table.public.big_blind if table.unit == "bb" else chips
    return float(round(x, 6))


def _unit_name(view: TextTable) -> str:
    """What the views' amounts count: big blinds (``amounts="bb"``, and push/fold always) or chips."""
    return "big blinds" if view.amounts == "bb" or view.sizing.betting == "push_fold" else "chips"


def _state_json(view: TextTable, public: PublicState, history: HandHistory, table: Table) -> dict[str, Any]:
    u = lambda x: _unit_amount(table, x)  # noqa: E731
    positions = _positions(public)
    me = public.observer
    seats = []
    for s in range(view.num_players):
        seats.append({
            "seat": s, "position": positions.get(s, ""), "in_play": bool(public.seated[s]), "stack": u(public.stacks[s]),
            "bet": u(public.bets[s]), "contributed": u(public.contributed[s]), "folded": bool(public.folded[s]),
            "all_in": bool(public.all_in[s]), "start_stack": u(history.start_stacks[s]),
        })
    actions = [{
        "street": STREET_NAMES[e.street], "seat": e.seat, "action": KIND_NAMES[e.kind], "amount": u(e.total),
        "added": u(e.added), "all_in": e.all_in,
    } for e in history.actions]
    legal = [{"id": a.action, "action": a.kind, "amount": u(a.to if a.kind != "call" else a.added),
              "to": u(a.to), "text": _action_text(a, table)} for a in table.actions]
    return {
        "schema_version": SCHEMA_VERSION,
        "game": view.sizing.game,
        "betting": view.sizing.betting,
        "unit": _unit_name(view),
        "num_players": view.num_players,
        "seat": me,
        "hand_number": public.hand_number,
        "level": public.level,
        "street": STREET_NAMES[public.street],
        "button": public.button,
        "small_blind": u(public.small_blind),
        "big_blind": u(public.big_blind),
        "ante": u(public.ante),
        "hole_cards": [card_to_str(c) for c in history.hole],
        "board": [card_to_str(c) for c in history.board],
        "pot": u(public.pot + view.sizing.dead_chips),
        "to_call": u(public.to_call),
        "min_raise_to": u(public.min_raise_to),
        "max_raise_to": u(public.max_raise_to),
        "seats": seats,
        "actions": actions,
        "actions_dropped": history.num_actions - len(history.actions),
        "legal_actions": legal,
        "recent_hands": [[u(x) for x in hand] for hand in history.recent],
    }


def _prompt_parts(view: TextTable, public: PublicState, history: HandHistory, table: Table,
                  hands: Sequence[HandRecord] = (), players: tuple[int, ...] = ()) -> dict[str, str]:
    unit = _unit_name(view)
    f = table.fmt
    me = public.observer
    lines = [f"You are playing {game_title(view.sizing)}, {sum(public.seated)} players, as seat {me}."
             f" All amounts are in {unit}" + (f" (big blind {format_amount(public.big_blind)} chips)." if unit == "chips" else ".")]
    if view.sizing.betting != "push_fold":
        lines.append(f"Blinds {f(public.small_blind)}/{f(public.big_blind)}" + (f", ante {f(public.ante)}" if public.ante else "") + ".")
    if public.hand_number or history.recent:
        lines.append(f"This is hand {public.hand_number + 1} of the session.")
    amounts_text = " ".join(lines)

    positions = _positions(public)
    hand: list[str] = ["Seats at the start of the hand:"]
    for s in range(view.num_players):
        if not public.seated[s]:
            continue
        tag = f" ({positions[s]})" if s in positions else ""
        you = " (you)" if s == me else ""
        hand.append(f"- seat {s}{tag}{you}: {f(history.start_stacks[s])}")
    posts = []
    for s in range(view.num_players):
        if history.antes[s]:
            posts.append(f"seat {s} posts ante {f(history.antes[s])}")
    for s in range(view.num_players):
        if history.blinds[s]:
            name = "big blind" if positions.get(s) == "BB" else "small blind"
            posts.append(f"seat {s} posts {name} {f(history.blinds[s])}")
    hand.append("")
    hand.append("Hand so far:")
    by_street = _by_street(history.actions, f)
    board = history.board
    cut = view.sizing.board_after
    if history.num_actions > len(history.actions):
        hand.append(f"({history.num_actions - len(history.actions)} earlier actions not shown)")
    for street in range(public.street + 1):
        acts = by_street.get(street, [])
        if street == 0:
            acts = posts + acts
        cards = f" [{' '.join(card_to_str(c) for c in board[: cut[street]])}]" if street and street < len(cut) else ""
        hand.append(f"{STREET_NAMES[street].capitalize()}{cards}: " + ("; ".join(acts) if acts else "no action yet") + ".")
    hand.append("")
    hand.append(f"Your cards: {' '.join(card_to_str(c) for c in history.hole) or '-'}")
    hand.append(f"Board: {' '.join(card_to_str(c) for c in board) or '-'}")
    stacks = ", ".join(f"seat {s}{' (you)' if s == me else ''} {f(public.stacks[s])}"
                       + (" folded" if public.folded[s] else " all-in" if public.all_in[s] else "")
                       for s in range(view.num_players) if public.seated[s])
    hand.append(f"Stacks behind: {stacks}.")
    hand.append(f"Pot: {f(public.pot + view.sizing.dead_chips)}. To call: {f(public.to_call)}.")
    if view.summary != "results":
        hand.extend(_summary_lines(view, public, hands, players, f))
    elif history.recent:
        results = "; ".join(", ".join(f"seat {s} {'+' if x > 0 else ''}{f(x)}" for s, x in enumerate(h) if x) or "no chips moved"
                            for h in history.recent)
        hand.append(f"Earlier hands (latest first), net results: {results}.")
    hand_text = "\n".join(hand)

    sized = sized_actions(table)
    if view.list_actions:
        items = []
        for a in table.actions:
            if a in sized and view.sizing.bet_sizing == "chips" and len(sized) > 2:
                continue
            if a.kind == "call":
                items.append(f"- call {f(a.added)}" + (" (all-in)" if a.added >= public.stacks[me] else ""))
            elif a.kind == "all-in":
                items.append(f"- all-in ({sized_word(public)} to {f(a.to)})")
            elif a.kind in ("bet", "raise"):
                pot = f" ({fraction_name(a.fraction)})" if a.fraction is not None else ""
                if view.sizing.betting == "potlimit" and a is sized[-1]:
                    pot = " (pot: the most allowed)"
                items.append(f"- {'bet' if a.kind == 'bet' else 'raise to'} {f(a.to)}{pot}")
            else:
                items.append(f"- {a.kind}")
        if sized and view.sizing.bet_sizing == "chips" and len(sized) > 2:
            verb = "bet" if max(public.bets) == 0 else "raise to"
            items.append(f"- {verb} {f(sized[0].to)}..{f(sized[-1].to)} (any amount in that range)")
        actions_text = "Legal actions:\n" + "\n".join(items)
    else:
        actions_text = ""
    answer = ("Answer with one action: fold, check, call, bet X, raise to X or all-in. \"bet X\" and \"raise X\" mean a "
              f"total bet of X this street (raise to X), in {unit}. End your reply with a line\n"
              "Final Answer: <action> [amount]")
    return {"amounts_text": amounts_text, "hand_text": hand_text, "actions_text": actions_text, "answer_format": answer}



def _by_street(actions: Sequence[Any], f: Callable[[float], str]) -> dict[int, list[str]]:
    """The actions in words ("seat 2 raises to 300 (all-in)"), by street."""
    by_street: dict[int, list[str]] = {}
    for e in actions:
        word = KIND_WORDS[e.kind]
        text = f"seat {e.seat} {word}" + (f" {f(e.total)}" if e.kind >= 3 else f" {f(e.added)}" if e.kind == 2 else "")
        by_street.setdefault(e.street, []).append(text + (" (all-in)" if e.all_in else ""))
    return by_street


def _hand_line(view: TextTable, record: HandRecord, f: Callable[[float], str]) -> str:
    """One finished hand in one line: its actions by street, the board as dealt, the net results."""
    by_street = _by_street(record.actions, f)
    cut = view.sizing.board_after
    posts = ", ".join(f"seat {s} {f(x)}" for s, x in enumerate(record.blinds) if x)
    parts = [f"Blinds {posts}."] if posts else []
    for street in sorted(by_street):
        cards = record.board[: cut[street]] if street and street < len(cut) else ()
        board = f" [{' '.join(card_to_str(c) for c in cards)}]" if cards else ""
        parts.append(f"{STREET_NAMES[street].capitalize()}{board}: {', '.join(by_street[street])}.")
    shown = cut[max(by_street)] if by_street and max(by_street) < len(cut) else 0
    if len(record.board) > shown:
        parts.append(f"Board [{' '.join(card_to_str(c) for c in record.board)}].")  # an all-in run-out
    net = ", ".join(f"seat {s} {'+' if x > 0 else ''}{f(x)}" for s, x in enumerate(record.net) if x) or "no chips moved"
    return f"- hand {record.number + 1}: {' '.join(parts)} Net: {net}."


def _hands(n: int) -> str:
    return f"{n} hand" + ("s" if n != 1 else "")


def _percent(made: int, opportunities: int) -> str:
    return f"{round(100 * made / opportunities)}% ({made}/{opportunities})" if opportunities else "- (0/0)"


def _hud_line(seat: int, st: SeatStats) -> str:
    af = f"{st.af:.1f}" if st.af is not None else "-"
    return (f"- seat {seat} ({_hands(st.hands)}): VPIP {_percent(st.vpip, st.vpip_opportunities)}, "
            f"PFR {_percent(st.pfr, st.pfr_opportunities)}, 3B {_percent(st.three_bet, st.three_bet_opportunities)}, "
            f"F3B {_percent(st.fold_to_three_bet, st.fold_to_three_bet_opportunities)}, "
            f"CB {_percent(st.cbet, st.cbet_opportunities)}, FCB {_percent(st.fold_to_cbet, st.fold_to_cbet_opportunities)}, "
            f"WTSD {_percent(st.wtsd, st.wtsd_opportunities)}, AF {af} ({st.aggressive}/{st.calls})")


def _summary_lines(view: TextTable, public: PublicState, hands: Sequence[HandRecord], players: tuple[int, ...],
                   f: Callable[[float], str]) -> list[str]:
    """The session's earlier hands as ``view.summary`` shows them: every hand ("hands"), or each opponent's
    tracker statistics and the last ``summary_hands`` hands ("hud"). With ``players`` (who sits where now) the
    statistics follow the players and the hands shown are renumbered to the current seats."""
    if not hands:
        return []
    shown = [r for r in (reseat(h, players) for h in hands) if r is not None] if players else list(hands)
    if view.summary == "hands":
        left_out = len(hands) - len(shown)
        note = [f"({_hands(left_out)} with players not at this table now not shown)"] if left_out else []
        return ["", "Earlier hands of the session (oldest first):", *note, *(_hand_line(view, h, f) for h in shown)]
    if players:
        by_player = player_stats(hands)
        stats = {s: by_player[p] for s, p in enumerate(players) if p in by_player}
    else:
        stats = session_stats(hands)
    me = public.observer
    lines = ["", f"Opponents this session ({_hands(len(hands))}; {HUD_LEGEND}):"]
    lines += [_hud_line(s, stats[s]) for s in range(view.num_players) if s != me and public.seated[s] and s in stats]
    last = shown[len(shown) - view.summary_hands :] if view.summary_hands else []
    if last:
        lines += [f"Last {_hands(len(last))} (oldest first):", *(_hand_line(view, h, f) for h in last)]
    return lines
