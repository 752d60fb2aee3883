"""Hold'em for the ``verifiers`` library: a language model plays one seat through one tool, ``take_action``.

``load_environment(...)`` returns a ``verifiers`` multi-turn environment (what ``vf.load_environment``,
``vf-eval`` and trainers built on ``verifiers`` call). Each dataset row is one hand: a seed (the deal, the
opponents' draws) and the model's seat; zoo agents (``agent_zoo.registry`` specs) play the other seats of a
2-10 seat table. The model sees the table as :class:`~wrappers.text_env.TextPokerEnv` writes it and answers
each decision with a tool call ``take_action(action, amount?)``:

* ``action``: ``fold``, ``check``, ``call``, ``bet``, ``raise`` or ``all-in``;
* ``amount``: for ``bet`` and ``raise`` only, the seat's total bet this street after the action (raise *to*),
  in the table's unit (chips by default, big blinds with ``amounts="bb"``).

The tool's answer is what happened and the next decision (the opponents' actions in between), or the hand's
end and result. A call that does not name a legal action (malformed JSON, an unknown tool or argument, an
illegal action or size) is answered with an error naming what is wrong and what is allowed; the decision
stays open and nothing is played for the model. A reply without a tool call is answered with a reminder.

Reward: the chips the seat won in the hand, in big blinds (``TextPokerEnv``'s rewards, which add up to the
rules' result of the hand). Hands of a seed in which the seat never has a decision are played through before
the rollout starts and not counted (``state["poker"]["skipped_hands"]``). A rollout that ends before the hand
does (``max_turns`` reached) forfeits it: the rest of the hand is played by checking when free, else folding,
and its result is the reward (``state["poker"]["forfeited"]``, metric ``forfeited``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

try:
    import verifiers as vf
    from datasets import Dataset
except ImportError as exc:  # the extra is optional
    raise ImportError(f"wrappers.verifiers_env needs the verifiers library: pip install 'poker-envs[verifiers]' ({exc})") from exc

from wrappers.text_env import TEXT_GAMES, TextPokerEnv

TOOL_NAME = "take_action"
ACTIONS = ("fold", "check", "call", "bet", "raise", "all-in")
SIZED = ("bet", "raise")  # the actions that take an amount
DEFAULT_MAX_TURNS = 40  # model turns per rollout: a no-limit hand rarely needs more than a dozen decisions
_NEVER_FALL_BACK = 10**9  # TextPokerEnv's reprompts before it plays a fallback: never, the rollout's turns bound it
_SPLIT = "\n@@ACTIONS@@\n"  # between the hand and the legal actions in the table's text; never shown to the model
_TEMPLATE = "{amounts_text}\n\n{hand_text}" + _SPLIT + "{actions_text}"

TAKE_ACTION_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": "Play your action at the current decision. Returns what happened and your next decision, "
                       "or the end of the hand.",
        "parameters": {
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": list(ACTIONS), "description": "the action to play"},
                "amount": {"type": "number", "description": "bet and raise only: your total bet this street after "
                           "the action (raise to), in the table's unit"},
            },
            "required": ["action"],
            "additionalProperties": False,
        },
    },
}


class ToolCallError(ValueError):
    """A tool call that names no legal action; its message is what the model reads."""


def system_prompt(unit: str) -> str:
    """The instructions: the tool and its arguments."""
    return ("You are playing poker at a table with other players. Each turn you get the table and the legal actions. "
            f"Act only by calling the tool {TOOL_NAME}(action, amount): action is one of {', '.join(ACTIONS)}; amount "
            f"is for bet and raise only, your total bet this street after the action (raise to), in {unit}. One call "
            "per decision; the tool answers with what happened and your next decision, until the hand is over. "
            "Your score is the chips you win, in big blinds.")


def reply_text(args: Any) -> str:
    """The reply the text table's parser reads for the tool's arguments (``{"action": "raise", "amount": 14}`` ->
    ``"raise to 14"``); raises :class:`ToolCallError` when they are not one action."""
    if not isinstance(args, dict):
        raise ToolCallError(f"the arguments must be a JSON object like {{\"action\": \"call\"}}, got {type(args).__name__}")
    unknown = sorted(set(args) - {"action", "amount"})
    if unknown:
        raise ToolCallError(f"unknown argument(s) {unknown}; {TOOL_NAME} takes action and, for bet and raise, amount")
    action = args.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise ToolCallError(f"action must be one of {list(ACTIONS)}, got {action!r}")
    amount = args.get("amount")
    if amount is None:
        return action  # a bet or raise without amount: the parser answers "say how much" unless one size is legal
    if action not in SIZED:
        raise ToolCallError(f"amount is only for bet and raise; {action} takes no amount (got amount={amount!r})")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not math.isfinite(amount) or amount <= 0:
        raise ToolCallError(f"amount must be a positive number (the total bet this street after the action), got {amount!r}")
    written = str(amount) if isinstance(amount, int) else repr(float(amount))
    return f"bet {written}" if action == "bet" else f"raise to {written}"


class HoldemToolEnv(vf.MultiTurnEnv):
    """One hand per rollout: the model's seat of a ``TextPokerEnv`` table, played through ``take_action``.

    ``table`` holds the ``TextPokerEnv`` arguments shared by every rollout (game, opponents, amounts, the game's
    configuration); each dataset row's ``info`` gives ``seed`` and ``seat``.
    """

    def __init__(self, table: Mapping[str, Any], max_turns: int = DEFAULT_MAX_TURNS, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, oai_tools=[TAKE_ACTION_TOOL], **kwargs)
        self.table = dict(table)

    async def setup_state(self, state: vf.State) -> vf.State:
        """Deal the row's hand and add the first decision to the prompt."""
        info = state["info"]
        env = TextPokerEnv(seat=int(info["seat"]), max_reprompts=_NEVER_FALL_BACK, snap=False, template=_TEMPLATE,
                           **self.table)
        prompt, table_info = env.reset(seed=int(info["seed"]))
        state["table"] = env  # this rollout's table and its last info (not JSON: never in the outputs)
        state["poker"] = {"seat": int(info["seat"]), "seed": int(info["seed"]), "reward_bb": 0.0, "hand_over": False,
                          "forfeited": False, "tool_errors": 0, "actions": [], "skipped_hands": table_info["skipped_hands"]}
        state["prompt"] = [*state["prompt"], {"role": "user", "content": _decision_text(prompt)}]
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        """Play the last message's tool calls in order; each gets its answer or its error."""
        calls = messages[-1].get("tool_calls") if isinstance(messages, list) and messages else None
        if not calls:
            return [{"role": "user", "content": f"No action was played: act by calling the tool {TOOL_NAME}."}]
        out: list[dict[str, Any]] = []
        for call in calls:
            try:
                content = self._play(call, state)
            except ToolCallError as e:
                state["poker"]["tool_errors"] += 1
                content = f"Error: {e}. Nothing was played; the decision is still yours."
            out.append({"role": "tool", "content": content, "tool_call_id": call.get("id", "")})
        if state["poker"]["hand_over"]:
            state["final_env_response"] = out
        return out

    def _play(self, call: Mapping[str, Any], state: vf.State) -> str:
        """One tool call: the answer text, or ToolCallError."""
        function = call.get("function") or {}
        name = function.get("name")
        if name != TOOL_NAME:
            raise ToolCallError(f"unknown tool {name!r}; the only tool is {TOOL_NAME}")
        if state["poker"]["hand_over"]:
            raise ToolCallError("the hand is over; no more actions")
        try:
            args = json.loads(function.get("arguments") or "")
        except (json.JSONDecodeError, TypeError) as e:
            raise ToolCallError(f"the arguments are not valid JSON ({e})") from None
        env: TextPokerEnv = state["table"]
        prompt, reward, terminated, truncated, info = env.step(reply_text(args))
        if info["failure"] is not None:
            raise ToolCallError(f"{info['failure']}: {info['message']}")
        poker = state["poker"]
        poker["actions"].append(info["message"])
        poker["reward_bb"] += reward
        if not (terminated or truncated):
            return f"You played: {info['message']}.\n\n{_decision_text(prompt)}"
        poker["hand_over"] = True
        return f"You played: {info['message']}.\n\n{_end_text(prompt, poker['reward_bb'])}"

    @vf.cleanup
    async def finish_hand(self, state: vf.State) -> None:
        """A hand the rollout left unfinished is forfeited (check when free, else fold); the table is closed."""
        env: TextPokerEnv | None = state.get("table")
        poker = state.get("poker")
        if env is None or poker is None:
            return
        if not poker["hand_over"]:
            poker["forfeited"] = True
            while not poker["hand_over"]:
                _, reward, terminated, truncated, _ = env.play_fallback()
                poker["reward_bb"] += reward
                poker["hand_over"] = terminated or truncated
        env.close()
        state["table"] = None


def _decision_text(prompt: str) -> str:
    """The table's text for a decision: the hand, then the legal actions."""
    return prompt.replace(_SPLIT, "\n\n")


def _end_text(prompt: str, reward_bb: float) -> str:
    """The hand's end: the result, then the hand as it ended."""
    won = "won" if reward_bb >= 0 else "lost"
    return f"The hand is over: you {won} {abs(reward_bb):g} big blinds.\n\n{prompt.split(_SPLIT)[0]}"


async def chips_won_bb(state: vf.State) -> float:
    """The reward: the chips the seat won in the hand, in big blinds."""
    return float(state["poker"]["reward_bb"])


async def tool_errors(state: vf.State) -> float:
    """Tool calls answered with an error (a metric, weight 0)."""
    return float(state["poker"]["tool_errors"])


async def forfeited(state: vf.State) -> float:
    """1 when the rollout ended before the hand did (a metric, weight 0)."""
    return float(state["poker"]["forfeited"])


def load_environment(
    num_players: int = 6,
    opponents: str | Sequence[str] = "heuristic",
    num_examples: int = 1000,
    seed: int = 0,
    seat: Literal["rotate"] | int = "rotate",
    game: str = "nolimit",
    amounts: Literal["chips", "bb"] = "chips",
    max_turns: int = DEFAULT_MAX_TURNS,
    **env_config: Any,
) -> HoldemToolEnv:
    """The hold'em tool environment: ``num_examples`` hands (seeds ``seed``, ``seed + 1``, ...) at a
    ``num_players``-seat table of ``game``, the model in seat ``seat`` (an int, or ``"rotate"``: row ``i`` plays
    seat ``i % num_players``), ``opponents`` (a zoo spec, or one per other seat) in the others.

    ``env_config`` goes to the game (``stack=...``, ``bet_sizing="chips"``: every chip size legal, ...).
    """
    if game not in TEXT_GAMES:
        raise ValueError(f"game must be one of {list(TEXT_GAMES)}, got {game!r}")
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= 10:
        raise ValueError(f"num_players must be an int from 2 to 10, got {num_players!r}")
    for name, value, low in (("num_examples", num_examples, 1), ("seed", seed, 0), ("max_turns", max_turns, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players):
        raise ValueError(f"seat must be 'rotate' or an int in 0..{num_players - 1}, got {seat!r}")
    if not isinstance(opponents, str):
        opponents = list(opponents)
    table = {"game": game, "opponents": opponents, "amounts": amounts, "num_players": num_players, **env_config}
    TextPokerEnv(seat=0, **table).close()  # a bad argument fails here, not in every rollout
    unit = "big blinds" if amounts == "bb" else "chips"
    rows = [{"prompt": [{"role": "system", "content": system_prompt(unit)}],
             "info": {"seed": seed + i, "seat": i % num_players if seat == "rotate" else seat},
             "answer": "", "task": "holdem"} for i in range(num_examples)]
    rubric = vf.Rubric(funcs=[chips_won_bb, tool_errors, forfeited], weights=[1.0, 0.0, 0.0])
    return HoldemToolEnv(table, max_turns=max_turns, dataset=Dataset.from_list(rows), rubric=rubric,
                         env_id="poker-envs-holdem")
