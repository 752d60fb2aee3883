"""The reply parser: a language model's free-text reply -> one legal action id, or a failure that says why.

The grammar (docs/llm.md, "Reply parser"): the answer is the text after the last ``Final Answer:`` (the rest of
that line, or the next line when it is empty), else a JSON object with an ``"action"`` key, else the last line
naming an action; the answer ends at the first sentence end (``.`` ``!`` ``?`` ``;`` ``(``) or ``because`` /
``since``. Words: ``fold``, ``check``, ``call``, ``bet X``, ``raise X``, ``raise to X``, ``raise by X``, ``all-in`` /
``all in`` / ``shove`` / ``jam`` / ``push``, ``min raise``, ``max``; amounts in the table's unit, or with ``bb`` /
``big blinds`` / ``chips``, ``$`` and thousands separators, ``3x`` (times the bet faced), pot words (``pot``,
``half pot``, ``1/2 pot``, ``2/3 pot``, ``75% pot``, ``2 pots``). ``bet X`` and ``raise X`` are bet / raise *to*
X (the seat's street total, the convention of Kaggle's Game Arena); ``raise by X`` adds X to the bet faced.
Two different actions in the answer are ``"ambiguous"``, never a silent pick.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from poker_envs.encoders.public import PublicState
from poker_envs.text.actions import LegalAction, Sizing, pot_fraction_to

FAILURE_KINDS = ("empty", "unparsable", "ambiguous", "illegal", "out_of_range", "no_amount")
MAX_REPLY_CHARS = 100_000  # a longer reply is read from its last this-many characters (where the answer is)


@dataclass(frozen=True)
class Parsed:
    """What the parser made of one reply."""

    action: int | None  # the legal action id; None when the reply gave no legal action
    failure: str | None  # None, or one of FAILURE_KINDS
    message: str  # one line: what was understood, or why not
    snapped: bool  # a size (or "call" with nothing to call) was moved to the nearest legal action
    text: str  # the answer part that was read (normalized)


@dataclass(frozen=True)
class Intent:
    """One action named in the answer."""

    kind: str  # "fold" | "check" | "call" | "check/call" | "bet" | "raise" | "all-in"
    mode: str | None = None  # amount: None | "to" | "by" | "x" (times the bet faced) | "pot" | "min" | "max"
    amount: float | Fraction | None = None  # the number (for "pot": the pot fraction, exact where it is finite)
    unit: str | None = None  # "bb" | "chips" | None (the table's unit)


# ---- normalizing and finding the answer ---------------------------------------------------------------

_GROUPED = re.compile(r"(?<=\d)[,_'\u00a0\u202f\u2009\u2007](?=\d{3}(?!\d))")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"})
_MARKDOWN = re.compile(r"[*`~_#>|\[\]\\]")
_FINAL = re.compile(r"final\s*answer\s*[:=\-]*", re.IGNORECASE)
_JSON = re.compile(r"\{[^{}]{0,2000}\}")
_CUT = re.compile(r"(?:\.(?!\d)|[!?;(\n]|\bbecause\b|\bsince\b|\bas i\b)")


def normalize(text: str) -> str:
    """Lower case ASCII-like text: fullwidth digits and odd spaces folded (NFKC), thousands separators dropped,
    dashes made ``-``, markdown marks removed, emoji and other symbols made spaces."""
    text = _GROUPED.sub("", text)
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).lower()
    text = _GROUPED.sub("", text)
    text = _MARKDOWN.sub(" ", text)
    text = "".join(c if c.isascii() or c.isalnum() else " " for c in text)
    return re.sub(r"[ \t\r\f\v]+", " ", text)


def _json_answer(text: str) -> str | None:
    """``{"action": "raise", "amount": 300}`` (the last such object) as answer text, else None."""
    for blob in reversed(_JSON.findall(text)):
        try:
            data = json.loads(blob)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        keys = {str(k).strip().lower(): v for k, v in data.items()}
        action = next((keys[k] for k in ("action", "move", "decision", "final_answer", "final answer") if k in keys), None)
        if not isinstance(action, str):
            continue
        amount = next((keys[k] for k in ("amount", "raise_to", "to", "size", "bet", "value") if k in keys), None)
        if amount is None or isinstance(amount, bool) or not isinstance(amount, int | float | str):
            return action
        if isinstance(amount, str) and not amount.strip():
            return action
        return f"{action} {'to ' if re.search(r'raise|bet', action, re.IGNORECASE) else ''}{amount}"
    return None


def _cut(answer: str) -> str:
    m = _CUT.search(answer)
    return (answer[: m.start()] if m else answer).strip(" ,:-=\"'")


def answer_text(reply: str) -> str:
    """The part of ``reply`` that names the action (normalized; see the module doc)."""
    text = reply[-MAX_REPLY_CHARS:]
    finals = list(_FINAL.finditer(text))
    if finals:
        rest = text[finals[-1].end() :]
        found = _json_answer(rest)
        if found is not None:
            return _cut(normalize(found))
        rest = normalize(rest).lstrip(" :\n")
        return _cut(rest)
    found = _json_answer(text)
    if found is not None:
        return _cut(normalize(found))
    lines = [line.strip() for line in normalize(text).split("\n") if line.strip()]
    for line in reversed(lines):
        answer = _cut(re.sub(r"^\s*(?:[-+*]|\d+[.)])\s+", "", line))
        if _VERB.search(answer) or _BARE.match(answer) or answer in _LETTERS:
            return answer
    return _cut(lines[-1]) if lines else ""


# ---- the grammar -------------------------------------------------------------------------------------

_VERBS = {
    "all-in": r"go\s+all\s*-?\s*in|all\s*-?\s*in|allin|shov(?:e|es|ed|ing)|jam(?:s|med|ming)?|push(?:es|ed|ing)?",
    "fold": r"fold(?:s|ed|ing)?",
    "check": r"check(?:s|ed|ing)?",
    "call": r"call(?:s|ed|ing)?",
    "raise": r"min\s*-?\s*raise|re\s*-?\s*rais(?:e|es|ed|ing)|rais(?:e|es|ed|ing)",
    "bet": r"bet(?:s|ting)?",
}
_VERB = re.compile("|".join(f"(?<![a-z])(?P<{k.replace('-', '_')}>{v})(?![a-z])" for k, v in _VERBS.items()))
_NUMBER = r"(?P<neg>-\s*)?\$?\s*(?P<num>(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+(?![a-z]))?)(?:\s*(?P<k>k)(?![a-z]))?"
_UNIT = r"(?:\s*(?P<unit>bbs?|big\s*blinds?|chips?|x|times)(?![a-z]))?"
_AMOUNT = re.compile(_NUMBER + _UNIT)
_BARE = re.compile(r"^\s*" + _NUMBER + _UNIT + r"\s*$")
_POT_WORDS = (
    (r"(?P<a>\d+)\s*/\s*(?P<b>\d+)\s*(?:of\s+)?(?:the\s+)?pot", None),
    (r"(?P<pct>\d+(?:\.\d+)?)\s*%\s*(?:of\s+)?(?:the\s+)?pot", None),
    (r"(?P<mul>\d+(?:\.\d+)?)\s*(?:x|times)?\s*(?:the\s+)?pots?(?![a-z])", None),
    (r"half\s*(?:of\s+)?(?:a\s+|the\s+)?pot", Fraction(1, 2)),
    (r"(?:a\s+)?quarter\s*(?:of\s+)?(?:the\s+)?pot", Fraction(1, 4)),
    (r"(?:one\s*-?\s*|a\s+)?third\s*(?:of\s+)?(?:the\s+)?pot", Fraction(1, 3)),
    (r"two\s*-?\s*thirds?\s*(?:of\s+)?(?:the\s+)?pot", Fraction(2, 3)),
    (r"three\s*-?\s*quarters?\s*(?:of\s+)?(?:the\s+)?pot", Fraction(3, 4)),
    (r"(?:full\s+|the\s+|a\s+)?pot(?:\s*-?\s*sized?)?(?![a-z])", Fraction(1)),
)
_POT = [(re.compile(p), f) for p, f in _POT_WORDS]
_LETTERS = {"f": "fold", "x": "check", "k": "check", "c": "check/call"}


def _amount_intent(kind: str, segment: str) -> Intent:
    """The size named after a bet or raise verb (``segment``: the text up to the next verb)."""
    if re.match(r"\s*(?:to\s+|by\s+|it\s+)?(?:the\s+)?(?:min|minimum)(?![a-z])", segment):
        return Intent(kind, "min")
    if re.match(r"\s*(?:to\s+|it\s+)?(?:the\s+)?(?:max|maximum)(?![a-z])", segment):
        return Intent(kind, "max")
    best: tuple[int, Intent] | None = None
    for pattern, fraction in _POT:
        m = pattern.search(segment)
        if m is None:
            continue
        if fraction is None:
            g = m.groupdict()
            if g.get("a") is not None:
                fraction = Fraction(int(g["a"]), int(g["b"])) if int(g["b"]) else math.inf
            elif g.get("pct") is not None:
                fraction = Fraction(g["pct"]) / 100
            else:
                fraction = Fraction(g["mul"])
        best = (m.start(), Intent(kind, "pot", fraction))
        break
    m = _AMOUNT.search(segment)
    if m is not None and (best is None or m.start("num") < best[0]):
        num = float(m["num"]) * (1000 if m["k"] else 1) * (-1 if m["neg"] else 1)
        unit = (m["unit"] or "").replace(" ", "")
        prefix = segment[: m.start()]
        if unit in ("x", "times"):
            return Intent(kind, "x", num)
        if unit.startswith("bb") or unit.startswith("big"):
            unit = "bb"
        elif unit.startswith("chip"):
            unit = "chips"
        else:
            unit = None
        return Intent(kind, "by" if re.search(r"(?<![a-z])by(?![a-z])", prefix) else "to", num, unit)
    return best[1] if best is not None else Intent(kind)


def intents(answer: str) -> list[Intent]:
    """Every action the answer names, in order (see the module doc)."""
    if answer in _LETTERS:
        return [Intent(_LETTERS[answer])]
    found = list(_VERB.finditer(answer))
    out = []
    for i, m in enumerate(found):
        kind = m.lastgroup.replace("_", "-")
        if kind in ("bet", "raise"):
            if re.match(r"min", m.group(0)):
                out.append(Intent(kind, "min"))
                continue
            end = found[i + 1].start() if i + 1 < len(found) else len(answer)
            out.append(_amount_intent(kind, answer[m.end() : end]))
        else:
            out.append(Intent(kind))
    return out


# ---- resolving an intent to a legal action -------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What resolving needs of the decision: the legal actions sized, the public state, the unit, snapping."""

    actions: tuple[LegalAction, ...]
    public: PublicState
    sizing: Sizing
    unit: str  # "chips" | "bb"
    snap: bool

    def fmt(self, chips: float) -> str:
        """An amount in chips, written in the table's unit."""
        x = chips / self.public.big_blind if self.unit == "bb" else chips
        return format_amount(x)

    @property
    def tolerance(self) -> float:
        """Chips within which an amount counts as exact (bb amounts are written to two decimals)."""
        return 0.005 * self.public.big_blind if self.unit == "bb" else 1e-6


def format_amount(x: float) -> str:
    """``300``, ``2.5``, ``0.33``: whole numbers without decimals, others to two decimals."""
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _ok(action: LegalAction, text: str, message: str, snapped: bool = False) -> Parsed:
    return Parsed(action.action, None, message, snapped, text)


def _fail(kind: str, text: str, message: str) -> Parsed:
    return Parsed(None, kind, message, False, text)


def sized_actions(table: Table) -> list[LegalAction]:
    """The bets and raises (push/fold: a push), smallest first."""
    push_fold = table.sizing.betting == "push_fold"
    return [a for a in table.actions if a.action >= 2 or (push_fold and a.kind == "all-in")]


def legal_summary(table: Table) -> str:
    """The legal actions in a few words (``fold, call 4, raise to 8..200``)."""
    sized = sized_actions(table)
    parts = [a.kind if a.kind != "call" else f"call {table.fmt(a.added)}" for a in table.actions if a not in sized]
    if sized:
        verb = "bet" if max(table.public.bets) == 0 else "raise to"
        if table.sizing.bet_sizing == "chips" and len(sized) > 2:
            parts.append(f"{verb} {table.fmt(sized[0].to)}..{table.fmt(sized[-1].to)}")
        else:
            parts += [f"{verb} {table.fmt(a.to)}" + (" (all-in)" if a.kind == "all-in" else "") for a in sized]
    return ", ".join(parts)


def resolve(intent: Intent, table: Table, text: str) -> Parsed:
    """The legal action ``intent`` names at ``table``, or the failure."""
    by_kind = {a.kind: a for a in table.actions}
    pub = table.public
    push_fold = table.sizing.betting == "push_fold"
    kind = intent.kind
    if kind == "check/call":
        kind = "call" if "call" in by_kind else "check"
    if kind == "fold":
        if "fold" in by_kind:
            return _ok(by_kind["fold"], text, "fold")
        return _fail("illegal", text, "folding is not offered when checking is free: check instead")
    if kind == "check":
        if "check" in by_kind:
            return _ok(by_kind["check"], text, "check")
        owed = table.fmt(pub.to_call)
        return _fail("illegal", text, f"you cannot check: there is {owed} to call (call {owed} or fold)")
    if kind == "call":
        if "call" in by_kind:
            return _ok(by_kind["call"], text, f"call {table.fmt(by_kind['call'].added)}")
        if push_fold and pub.to_call > 0 and max(pub.bets) > pub.big_blind and "all-in" in by_kind:
            return _ok(by_kind["all-in"], text, "call the all-in (all-in)")
        if "check" in by_kind:
            if table.snap:
                return _ok(by_kind["check"], text, "nothing to call: read as check", snapped=True)
            return _fail("illegal", text, "there is nothing to call: check (or bet)")
        return _fail("illegal", text, f"call is not legal here; legal: {legal_summary(table)}")
    sized = sized_actions(table)
    if kind == "all-in":
        for a in sized:
            if a.kind == "all-in":
                return _ok(a, text, f"all-in ({'bet' if max(pub.bets) == 0 else 'raise'} to {table.fmt(a.to)})")
        call = by_kind.get("call")
        if call is not None and call.added >= pub.stacks[pub.observer]:
            return _ok(call, text, f"call {table.fmt(call.added)} (all-in)")
        if sized and table.snap:
            top = sized[-1]
            return _ok(top, text, f"all-in is not a legal size here: read as the largest raise, to {table.fmt(top.to)}", snapped=True)
        return _fail("illegal", text, f"you cannot move all-in here; legal: {legal_summary(table)}")
    # bet or raise
    if not sized:
        return _fail("illegal", text, f"you cannot bet or raise here; legal: {legal_summary(table)}")
    verb = "bet" if max(pub.bets) == 0 else "raise to"
    low, high = sized[0].to, sized[-1].to
    if intent.mode == "min":
        return _ok(sized[0], text, f"{verb} {table.fmt(low)} (the minimum)")
    if intent.mode == "max":
        return _ok(sized[-1], text, f"{verb} {table.fmt(high)} (the maximum)")
    if intent.mode is None:
        if len({a.to for a in sized}) == 1:
            return _ok(sized[0], text, f"{verb} {table.fmt(low)} (the only size)")
        return _fail("no_amount", text, f"say how much: {verb} X, with X from {table.fmt(low)} to {table.fmt(high)}")
    me = pub.observer
    faced = pub.bets[me] + pub.to_call
    amount = float(intent.amount)
    if intent.mode == "pot":
        if not math.isfinite(amount) or amount <= 0:
            return _fail("out_of_range", text, "a pot fraction must be a positive number")
        target = pot_fraction_to(table.sizing, pub, Fraction(intent.amount))  # type: ignore[arg-type]
        if target > high + table.tolerance and table.snap:
            return _ok(sized[-1], text, f"{format_amount(amount)} pot is past the largest raise: {verb} {table.fmt(high)}", snapped=True)
    else:
        unit = intent.unit or table.unit
        scale = pub.big_blind if unit == "bb" and not push_fold else 1.0
        if intent.mode == "x":
            target = amount * (faced if faced > 0 else pub.big_blind)
        elif intent.mode == "by":
            target = faced + amount * scale
        else:
            target = amount * scale
        if not math.isfinite(amount) or amount <= 0:
            return _fail("out_of_range", text, f"the amount must be a positive number, got {format_amount(amount) if math.isfinite(amount) else amount}")
    return _match(target, sized, table, text, verb)


def _match(target: float, sized: list[LegalAction], table: Table, text: str, verb: str) -> Parsed:
    tol = table.tolerance
    pub = table.public
    low, high = sized[0].to, sized[-1].to
    if pub.can_raise:  # the rules' raise-to range: a size inside it snaps to a legal size (abstract sizes are a few)
        low, high = min(low, pub.min_raise_to), max(high, pub.max_raise_to)
    nearest = min(sized, key=lambda a: (abs(a.to - target), a.to))
    if abs(nearest.to - target) <= tol:
        return _ok(nearest, text, f"{verb} {table.fmt(nearest.to)}" + (" (all-in)" if nearest.kind == "all-in" else ""))
    if not low - tol <= target <= high + tol:
        return _fail("out_of_range", text, f"{verb} {table.fmt(target)} is outside the legal range {table.fmt(low)} to "
                     f"{table.fmt(high)} ({verb} X is the street total); legal: {legal_summary(table)}")
    if table.snap:
        return _ok(nearest, text, f"{verb} {table.fmt(target)} is not a legal size: snapped to {table.fmt(nearest.to)}", snapped=True)
    return _fail("illegal", text, f"{verb} {table.fmt(target)} is not a legal size; legal: {legal_summary(table)}")


def parse_reply(reply: object, table: Table) -> Parsed:
    """The legal action ``reply`` names at ``table``; never raises (a non-string is unparsable)."""
    if reply is None or (isinstance(reply, str) and not reply.strip()):
        return _fail("empty", "", "the reply is empty; answer with one action, e.g. Final Answer: call")
    if not isinstance(reply, str):
        return _fail("unparsable", "", f"the reply must be text, got {type(reply).__name__}")
    try:
        answer = answer_text(reply)
    except (ValueError, RecursionError):  # defensive: the grammar is regular, this should not happen
        answer = ""
    shown = answer if len(answer) <= 80 else answer[:77] + "..."
    if not answer.strip():
        finals = list(_FINAL.finditer(reply))
        rest = reply[finals[-1].end() :] if finals else reply
        if not rest.strip():
            return _fail("empty", answer, "the final answer is empty; answer with one action, e.g. Final Answer: call")
        return _fail("unparsable", answer, f"no action found; answer with one of: {legal_summary(table)}")
    if _BARE.match(answer):
        return _fail("unparsable", answer, f"{shown!r} is a number, not an action: say call, bet X or raise to X")
    found = intents(answer)
    if not found:
        return _fail("unparsable", answer, f"no action found in {shown!r}; answer with one of: {legal_summary(table)}")
    results = [resolve(i, table, answer) for i in dict.fromkeys(found)]
    chosen = {r.action for r in results}
    if len(results) > 1 and (len(chosen) > 1 or None in chosen):
        return _fail("ambiguous", answer, f"{shown!r} names more than one action; give exactly one")
    return results[0]
