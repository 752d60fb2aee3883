"""The reply parser: a language model's free-text reply -> one legal action id, or a failure that says why.

The grammar (docs/llm.md, "Reply parser"): a reply longer than ``MAX_REPLY_CHARS`` is refused whole. The answer is
the text after the last ``Final Answer:`` (the rest of that line, or the next line when it is empty), else a JSON
object with an ``"action"`` key (among the last ``MAX_JSON_OBJECTS``), else the whole reply when it is one line;
prose on other lines is never read (no "ghost moves"). A list item (``- call 4``: an echo of the prompt's list) is
not an answer. The answer ends at the first sentence end (``.`` ``!`` ``?`` ``;`` ``(``) or ``because`` /
``since``; longer than ``MAX_ANSWER_CHARS`` it is refused. Words: ``fold``, ``check``, ``call``, ``bet X``,
``raise X``, ``raise to X``, ``raise by X``, ``all-in`` / ``all in`` / ``shove`` / ``jam`` / ``push``, ``min raise``,
``max``; amounts in the table's unit, or with ``bb`` / ``big blinds`` / ``chips`` (other units are refused),
``$`` and thousands separators, ``3x`` (times the bet faced), pot words (``pot``, ``half pot``, ``1/2 pot``,
``2/3 pot``, ``75% pot``, ``2 pots``). ``bet X`` and ``raise X`` are bet / raise *to* X (the seat's street total,
the convention of Kaggle's Game Arena); ``raise by X`` adds X to the bet faced. A negation (``don't fold``), an
alternative (``call or raise``), a range (``raise to 20-30``) or two different actions in the answer are
``"ambiguous"``, never a silent pick. Every regular expression here runs in time linear in its input.
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

FAILURE_KINDS = ("empty", "unparsable", "ambiguous", "illegal", "out_of_range", "no_amount", "server_shape")
# "server_shape" is the transport's (a reply without the fields the API defines); the parser never returns it.
MAX_REPLY_CHARS = 100_000  # a longer reply is refused whole ("unparsable"): never read from a window cut mid-word
MAX_ANSWER_CHARS = 500  # an answer (up to its sentence end) longer than this is refused ("unparsable")
MAX_JSON_OBJECTS = 8  # without Final Answer, the last this-many JSON objects are looked at for an "action" key


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
_DASHES = str.maketrans({**{c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"},
                         **{c: "'" for c in "\u2018\u2019\u02bc\uff07"}})
_MARKDOWN = re.compile(r"[*`~_#>|\[\]\\]")
_FINAL = re.compile(r"final\s{0,20}answer\s{0,20}[:=\-]*", re.IGNORECASE)
_JSON = re.compile(r"\{[^{}]{0,2000}\}")
_CUT = re.compile(r"(?:\.(?![\d.])|[!?;(\n]|\bbecause\b|\bsince\b|\bas i\b)")
_RAW_CUT = re.compile(r"\.(?![\d.])|[!?;(\n\r]")  # the sentence end in the raw text (before normalizing)
_FULLWIDTH = re.compile(r"[\uff01-\uff5e]")
_HALFWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022\u2023\u25e6]|\d{1,3}[.)])[ \t]+")
_NEGATION = re.compile(r"(?<![a-z])(?:not|no|never|nor|neither|don'?t|doesn'?t|won'?t|wouldn'?t|shouldn'?t|"
                       r"can'?t|cannot|isn'?t|instead|rather|avoid|without)(?![a-z])|n't(?![a-z])")
_ALTERNATIVE = re.compile(r"(?<![a-z])(?:or|either|between|maybe|perhaps)(?![a-z])")
_RANGE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:-|\.\.+|to(?![a-z])|and(?![a-z])|/(?!\s*\d+\s*%?\s*(?:of\s+)?"
                    r"(?:the\s+)?pots?(?![a-z])))\s*\$?\s*\.?\d+")
_LEAD = re.compile(  # what may come before the action word of an answer off the Final Answer line
    r"\s*(?:(?:(?:i|we)(?:'ll|'d|'m|'re| will| would| shall| am| are)?(?: going to| going| gonna)?|snap|let's|lets|"
    r"my (?:action|move|decision)(?: is)?|action|move|decision|(?:the\s+)?final\s*answer(?:\s+is)?|answer)"
    r"(?![a-z'])\s*[:=-]?\s*)?")
_BAD_UNIT = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:k\s*)?(?P<unit>(?:small\s*)?blinds?|sbs?|bucks?|dollars?|usd|"
                       r"euros?|eur|cents?|stacks?|units?|mbbs?|bets?|buy\s*-?\s*ins?|percent|%(?!\s*(?:of\s+)?"
                       r"(?:the\s+)?pots?(?![a-z])))(?![a-z])")


class Refused(ValueError):
    """The reply has no answer the grammar reads: ``kind`` (a failure kind) and a one-line message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


def normalize(text: str) -> str:
    """Lower case ASCII-like text: fullwidth digits and odd spaces folded (NFKC), thousands separators dropped,
    dashes made ``-`` and curly apostrophes ``'``, markdown marks removed, emoji and other symbols made spaces."""
    text = _GROUPED.sub("", text)
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).lower()
    text = _GROUPED.sub("", text)
    text = _MARKDOWN.sub(" ", text)
    text = "".join(c if c.isascii() or c.isalnum() else " " for c in text)
    return re.sub(r"[ \t\r\f\v]+", " ", text)


def _json_answer(text: str) -> str | None:
    """``{"action": "raise", "amount": 300}`` (the last such object among the last ``MAX_JSON_OBJECTS``) as answer
    text, else None."""
    blobs = _JSON.findall(text)
    for blob in reversed(blobs[-MAX_JSON_OBJECTS:]):
        try:
            data = json.loads(blob)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        keys = {str(k).strip().lower(): v for k, v in data.items()}
        action = next((keys[k] for k in ("action", "move", "decision", "final_answer", "final answer") if k in keys), None)
        if action is None:
            continue
        if not isinstance(action, str):
            raise Refused("unparsable", f"the JSON answer's action must be a word, got {json.dumps(action)[:40]}")
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


def _answer_line(raw: str) -> str:
    """The raw answer up to its sentence end, refused when it is a list item (a prompt echo) or too long."""
    if _LIST_ITEM.match(raw):
        raise Refused("unparsable", "a list item (an echo of the prompt's list) is not a decision: "
                      "end your reply with Final Answer: <action>")
    m = _RAW_CUT.search(raw)
    line = raw[: m.start()] if m else raw
    if len(line) > MAX_ANSWER_CHARS:
        raise Refused("unparsable", f"the answer is longer than {MAX_ANSWER_CHARS} characters: give one action")
    return _cut(normalize(line))


def answer_text(reply: str) -> str:
    """The part of ``reply`` that names the action (normalized; see the module doc); raises ``Refused``."""
    return find_answer(reply)[0]


def find_answer(reply: str) -> tuple[str, bool]:
    """``answer_text`` and whether the answer is off the ``Final Answer:`` line (the next line, or a one-line reply
    without it): such an answer must start with the action (``_LEAD``), else it is prose; raises ``Refused``."""
    if len(reply) > MAX_REPLY_CHARS:
        raise Refused("unparsable", f"the reply has {len(reply)} characters, more than the {MAX_REPLY_CHARS} read: "
                      "answer in fewer words, ending with Final Answer: <action>")
    final = None
    for final in _FINAL.finditer(reply):
        pass
    if final is None and _FULLWIDTH.search(reply):  # ＦＩＮＡＬ ＡＮＳＷＥＲ： (fullwidth ASCII made ASCII, same length)
        reply = reply.translate(_HALFWIDTH)
        for final in _FINAL.finditer(reply):
            pass
    if final is not None:
        rest = reply[final.end() :]
        found = _json_answer(rest)
        if found is not None:
            return _cut(normalize(found)), False
        rest = rest.lstrip(" \t:*_`")
        if rest[:1] in ("\n", "\r"):  # the answer is on the next non-empty line
            return _answer_line(rest.lstrip(" \t\n\r:*_`")), True
        return _answer_line(rest), False
    found = _json_answer(reply)
    if found is not None:
        return _cut(normalize(found)), False
    body = reply.strip()
    if _LINE_BREAK.search(body):
        raise Refused("unparsable", "no Final Answer line: prose is never read as a decision; "
                      "end your reply with Final Answer: <action>")
    return _answer_line(body), True


# ---- the grammar -------------------------------------------------------------------------------------

_VERBS = {
    "all-in": r"go\s+all\s*-?\s*in|all\s*-?\s*in|allin|shov(?:e|es|ed|ing)|jam(?:s|med|ming)?|push(?:es|ed|ing)?",
    "fold": r"fold(?:s|ed|ing)?",
    "check": r"check(?:s|ed|ing)?",
    "call": r"call(?:s|ed|ing)?",
    "raise": r"min\s*-?\s*raise|re\s*-?\s*rais(?:e|es|ed|ing)|rais(?:e|es|ed|ing)",
    "bet": r"bet(?:s|ting)?",
}
_VERB = re.compile("|".join(f"(?<![a-z])(?P<{k.replace('-', '_')}>{v})(?![a-z]|-[a-z])" for k, v in _VERBS.items()))
_NUMBER = r"(?P<neg>-\s*)?\$?\s*(?P<num>(?<![\d.])(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+(?![a-z]))?)(?:\s*(?P<k>k)(?![a-z]))?"
_UNIT = r"(?:\s*(?P<unit>bbs?|big\s*blinds?|chips?|x|times)(?![a-z]))?"
_AMOUNT = re.compile(_NUMBER + _UNIT)
_BARE = re.compile(r"^\s*" + _NUMBER + _UNIT + r"\s*$")
_POT_WORDS = (
    (r"(?<![\d.])(?P<a>\d+)\s*/\s*(?P<b>\d+)\s*(?:of\s+)?(?:the\s+)?pot", None),
    (r"(?<![\d.])(?P<pct>\d+(?:\.\d+)?)\s*%\s*(?:of\s+)?(?:the\s+)?pot", None),
    (r"(?<![\d.])(?P<mul>\d+(?:\.\d+)?)\s*(?:x|times)?\s*(?:the\s+)?pots?(?![a-z])", None),
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


def ambiguity(answer: str) -> str | None:
    """Why ``answer`` does not name one action (a negation, an alternative, a range), else None."""
    for pattern, what in ((_NEGATION, "a negation"), (_ALTERNATIVE, "an alternative"), (_RANGE, "a range")):
        m = pattern.search(answer)
        if m is not None:
            return f"{what} ({m.group(0).strip()!r})"
    return None


def parse_reply(reply: object, table: Table) -> Parsed:
    """The legal action ``reply`` names at ``table``; never raises (a non-string is unparsable)."""
    if reply is None or (isinstance(reply, str) and not reply.strip()):
        return _fail("empty", "", "the reply is empty; answer with one action, e.g. Final Answer: call")
    if not isinstance(reply, str):
        return _fail("unparsable", "", f"the reply must be text, got {type(reply).__name__}")
    try:
        answer, off_line = find_answer(reply)
    except Refused as refused:
        return _fail(refused.kind, "", refused.message)
    except (ValueError, RecursionError):  # defensive: the grammar is regular, this should not happen
        answer, off_line = "", True
    shown = answer if len(answer) <= 80 else answer[:77] + "..."
    if not answer.strip():
        final = None
        for final in _FINAL.finditer(reply):
            pass
        if final is not None and not reply[final.end() :].strip(" \t\n\r:*_`"):
            return _fail("empty", answer, "the final answer is empty; answer with one action, e.g. Final Answer: call")
        return _fail("unparsable", answer, f"no action found; answer with one of: {legal_summary(table)}")
    if _BARE.match(answer):
        return _fail("unparsable", answer, f"{shown!r} is a number, not an action: say call, bet X or raise to X")
    found = intents(answer)
    if not found:
        return _fail("unparsable", answer, f"no action found in {shown!r}; answer with one of: {legal_summary(table)}")
    why = ambiguity(answer)
    if why is not None:
        return _fail("ambiguous", answer, f"{shown!r} has {why}: give exactly one action, e.g. Final Answer: call")
    bad = _BAD_UNIT.search(answer)
    if bad is not None:
        return _fail("unparsable", answer, f"unknown unit {bad['unit']!r} in {shown!r}: give amounts in "
                     f"{'big blinds' if table.unit == 'bb' else 'chips'} (or X bb, X chips)")
    results = [resolve(i, table, answer) for i in dict.fromkeys(found)]
    chosen = {r.action for r in results}
    if len(results) > 1 and (len(chosen) > 1 or None in chosen):
        return _fail("ambiguous", answer, f"{shown!r} names more than one action; give exactly one")
    if off_line and answer not in _LETTERS and not _VERB.match(answer, _LEAD.match(answer).end()):
        return _fail("unparsable", answer, f"{shown!r} is prose, not an answer: end your reply with a line "
                     "Final Answer: <action>")
    return results[0]
