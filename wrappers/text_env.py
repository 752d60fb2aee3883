"""One seat of a hold'em-family table as a Gymnasium text environment, for training language models.

The observation is the prompt a language model reads (``poker_envs.text.TextTable``: the hand so far, the
public state, the legal actions) and the action is the model's reply text; the other seats are played by
zoo agents or any Agent. The same table as JSON is in ``info["state"]``. Rewards are in big blinds.

A reply that does not parse to a legal action (``info["failure"]`` names why, one of
``poker_envs.text.FAILURE_KINDS``) does not move the game: the next observation is the reprompt (the
parser's message and the same decision), with reward ``-invalid_penalty``. After ``max_reprompts``
reprompts in a row at one decision, the next failed reply plays the fallback (check when free, else
fold), again with ``-invalid_penalty`` added. ``info`` counts the episode's ``invalid_replies``,
``reprompts`` and ``fallbacks``. With the default ``invalid_penalty=0`` the episode's rewards add up
to the learner's result at the table, exactly as in the array view (``wrappers.single_agent``).

``summary`` chooses how the prompt shows the session's earlier hands: ``"results"`` (the net results of the last
ones, from the observation), ``"hands"`` (every finished hand's actions: the prompt grows with the session) or
``"hud"`` (each opponent's tracker statistics, ``poker_envs.text.tracker``, and the last ``summary_hands``
hands); the last two read the finished hands that :class:`SessionHands` records.

Built on :class:`~wrappers.single_agent.SingleAgentEnv` (the opponents' turns, seat rotation, sessions,
hands the learner never acts in: ``info["skipped_hands"]`` / ``["skipped_reward"]`` at reset, as there).
"""

from __future__ import annotations

import copy
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from poker_envs import catalog
from poker_envs.aec import warn_no_render_mode
from poker_envs.text import TextTable
from poker_envs.text.records import keeps_records, last_hand_record
from poker_envs.text.tracker import HandRecord
from poker_envs.text.views import Template
from wrappers.single_agent import OpponentSpec, SeatSpec, SingleAgentEnv, make_aec

MAX_PROMPT_CHARS = 16_384  # observation_space.max_length: a 10-seat session prompt with its hand so far fits
MAX_REPLY_CHARS = 16_384  # action_space.max_length: what sample() draws; step() parses a reply of any length
TEXT_GAMES = tuple(catalog.keys(text_views=True))  # the games the text views speak (the hold'em family, push/fold)


class FreeText(spaces.Text):
    """A ``Text`` space that holds any string of its lengths: prompts and replies are free text (card suits,
    any language a model answers in), so no character is refused. ``sample()`` draws printable ASCII."""

    def __init__(self, max_length: int, min_length: int = 0) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=string.printable)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


@dataclass(frozen=True)
class ReplyRules:
    """What a failed reply costs."""

    max_reprompts: int = 2  # reprompts in a row at one decision before the fallback plays
    invalid_penalty: float = 0.0  # big blinds taken from the reward of every step whose reply failed (>= 0)

    def __post_init__(self) -> None:
        if isinstance(self.max_reprompts, bool) or not isinstance(self.max_reprompts, int) or self.max_reprompts < 0:
            raise ValueError(f"max_reprompts must be an int >= 0, not {self.max_reprompts!r}")
        penalty = self.invalid_penalty
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not np.isfinite(penalty) or penalty < 0:
            raise ValueError(f"invalid_penalty must be a finite number of big blinds >= 0, not {penalty!r}")


class SessionHands(BaseWrapper):
    """AEC wrapper keeping every finished hand of the episode (one hand, or a session) as a public
    :class:`~poker_envs.text.tracker.HandRecord` in ``hands``, oldest first; a reset starts a new list.

    Needs a hold'em-family environment of poker_envs built with ``history=True`` (its public action log).
    A hand longer than the history's action rows (``MAX_ACTION_ROWS``) has no complete log: it is counted in
    ``incomplete``, not kept.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        if not keeps_records(env):
            raise ValueError(f"SessionHands needs a hold'em-family environment built with history=True, got {type(env.unwrapped).__name__}")
        self.hands: list[HandRecord] = []
        self.incomplete = 0  # finished hands whose action log was too long to keep
        self._seen = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self.hands, self.incomplete, self._seen = [], 0, 0
        self._record_new()

    def step(self, action: Any) -> None:
        self.env.step(action)
        self._record_new()

    def _record_new(self) -> None:
        """Keep the hand the environment finished since the last call (at most one per step)."""
        raw = self.env.unwrapped
        if raw.hands_done == self._seen:
            return
        self._seen = raw.hands_done
        record = last_hand_record(raw)
        if record is None:
            self.incomplete += 1
        else:
            self.hands.append(record)


class TextPokerEnv(gymnasium.Env):
    """The learner plays ``seat`` of ``game`` by text; ``opponents`` play the other seats.

    Args:
        game: a catalog key of a game the text views speak (``TEXT_GAMES``: the hold'em family and push/fold).
        opponents: as in SingleAgentEnv: one agent for every other seat, a sequence (one per other seat) or a
            mapping seat -> agent; each an Agent, a callable ``(obs, rng) -> action`` or a zoo spec
            (``"heuristic"``, ``"random"``, ``"cfr:..."``; ``agent_zoo.registry.make_agent`` builds it).
        seat: the learner's seat: an int, ``"rotate"`` or ``"random"``.
        max_reprompts: reprompts in a row at one decision before the fallback plays (:class:`ReplyRules`).
        invalid_penalty: big blinds (>= 0) taken from the reward of every step whose reply failed.
        amounts: how the prompt states amounts, ``"chips"`` or ``"bb"`` (``poker_envs.text.TextTable.for_env``).
        list_actions: whether the prompt lists the legal actions.
        template: the text view's prompt template (a ``str.format`` template or a callable of the state JSON), None for its default.
        snap: whether a bet size between the legal sizes snaps to the nearest one (the parser says so).
        summary: the session's earlier hands in the prompt: ``"results"`` (net results), ``"hands"`` (every
            finished hand's actions) or ``"hud"`` (each opponent's tracker statistics and the last hands).
        summary_hands: with ``summary="hud"``, how many last hands are shown in full (default 2).
        render_mode: None or ``"ansi"`` (``render()`` returns the current prompt).
        env_config: the game's configuration (``num_players=6``, ``hands_per_episode=20``, ...); rewards are
            in big blinds, so ``reward_unit`` other than ``"big_blinds"`` is refused.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str = "nolimit",
        opponents: OpponentSpec | Sequence[OpponentSpec] | Mapping[int, OpponentSpec] = "heuristic",
        seat: SeatSpec = 0,
        max_reprompts: int = 2,
        invalid_penalty: float = 0.0,
        amounts: Literal["chips", "bb"] = "chips",
        list_actions: bool = True,
        template: Template = None,
        snap: bool = True,
        summary: Literal["results", "hands", "hud"] = "results",
        summary_hands: int = 2,
        render_mode: str | None = None,
        **env_config: Any,
    ) -> None:
        if game not in TEXT_GAMES:
            known = catalog.keys()
            what = "a game of poker_envs.catalog" if game not in known else "a game the text views speak"
            raise ValueError(f"game {game!r} is not {what}; choose one of {list(TEXT_GAMES)}")
        if env_config.get("reward_unit", "big_blinds") != "big_blinds":
            raise ValueError(f"reward_unit must be 'big_blinds' (text env rewards are in big blinds), not {env_config['reward_unit']!r}")
        if "history" in env_config:
            raise ValueError("history is always on in the text env (the prompt shows the hand so far); do not pass it")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = ReplyRules(max_reprompts, invalid_penalty)
        self.game = game
        self.render_mode = render_mode
        if summary == "results":
            self.table_env = SingleAgentEnv(game, opponents=opponents, seat=seat, illegal_action="raise", history=True, **env_config)
            self.session_hands: SessionHands | None = None
        else:
            self.session_hands = SessionHands(make_aec(game, history=True, **env_config))
            self.table_env = SingleAgentEnv(self.session_hands, opponents=opponents, seat=seat, illegal_action="raise")
        self.text = TextTable.for_env(self.table_env.aec, amounts=amounts, list_actions=list_actions, template=template, snap=snap,
                                      summary=summary, summary_hands=summary_hands)
        self.observation_space = FreeText(max_length=MAX_PROMPT_CHARS, min_length=1)
        self.action_space = FreeText(max_length=MAX_REPLY_CHARS)
        self._observation: dict[str, Any] | None = None  # the learner's AEC observation at its decision
        self._prompt = ""
        self._done = True
        self._streak = 0  # failed replies in a row at this decision
        self._table_info: dict[str, Any] = {}  # the array view's info of the last reset/step
        self._counts = {"invalid_replies": 0, "reprompts": 0, "fallbacks": 0, "decisions": 0}

    # Gymnasium API ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        _, info = self.table_env.reset(seed=seed, options=options)
        self._table_info = info
        self._counts = dict.fromkeys(self._counts, 0)
        self._done = False
        self._new_decision()
        return self._prompt, self._info(info, reward=0.0)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() called after the episode ended; call reset() first")
        if not isinstance(action, str):
            raise TypeError(f"action must be the reply text (str), not {type(action).__name__}")
        parsed = self.text.parse(action, self._observation)
        extra: dict[str, Any] = {"reply": parsed}
        if parsed.action is not None:
            return self._play(int(parsed.action), 0.0, extra)
        self._counts["invalid_replies"] += 1
        penalty = -float(self.rules.invalid_penalty) if self.rules.invalid_penalty else 0.0
        if self._streak < self.rules.max_reprompts:  # the same decision again, with the parser's message
            self._streak += 1
            self._counts["reprompts"] += 1
            self._prompt = self._fit(self.text.reprompt(parsed, self._observation, self._hands()))
            info = {k: copy.deepcopy(v) for k, v in self._table_info.items() if k in ("action_mask", "seat", "public")}
            return self._prompt, penalty, False, False, self._info(info, reward=penalty, **extra)
        return self._fallback(penalty, extra)

    def play_fallback(self) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Play the open decision's fallback (check when free, else fold) without a reply, as ``step`` does after
        too many failed replies (counted as a fallback): for a client that gives up the hand."""
        if self._done:
            raise RuntimeError("play_fallback() called after the episode ended; call reset() first")
        return self._fallback(0.0, {})

    def _fallback(self, penalty: float, extra: dict[str, Any]) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._counts["fallbacks"] += 1
        return self._play(int(self.text.fallback(self._observation)), penalty, {**extra, "fallback": True})

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        return self._prompt

    def close(self) -> None:
        self.table_env.close()

    # Internals -------------------------------------------------------------------------------
    def _play(self, action: int, penalty: float, extra: dict[str, Any]) -> tuple[str, float, bool, bool, dict[str, Any]]:
        _, reward, terminated, truncated, info = self.table_env.step(action)
        reward += penalty
        self._table_info = info
        extra["action"] = action
        self._done = terminated or truncated
        if self._done:
            self._observation = self._learner_observation()
            self._prompt = self._fit(self.text.prompt(self._observation, self._hands()))
            info["hand_rewards"] = self._hand_rewards()
        else:
            self._new_decision()
        return self._prompt, float(reward), terminated, truncated, self._info(info, reward=reward, **extra)

    def _new_decision(self) -> None:
        self._observation = self._learner_observation()
        self._prompt = self._fit(self.text.prompt(self._observation, self._hands()))
        self._streak = 0
        self._counts["decisions"] += 1

    def _learner_observation(self) -> dict[str, Any]:
        env = self.table_env
        return env.aec.observe(env.possible_agents[env.seat])

    def _hand_rewards(self) -> dict[str, float]:
        """Every seat's reward (big blinds) of the hand that just ended: the zero-sum result of the last hand."""
        rewards = self.table_env.aec.rewards
        return {agent: float(rewards.get(agent, 0.0)) for agent in self.table_env.possible_agents}

    def _hands(self) -> list[HandRecord]:
        """The episode's finished hands, for the summaries that show them."""
        return [] if self.session_hands is None else list(self.session_hands.hands)

    def _fit(self, prompt: str) -> str:
        if len(prompt) > MAX_PROMPT_CHARS:
            hint = " (summary='hands' grows with the session; summary='hud' does not)" if self.text.summary == "hands" else ""
            raise RuntimeError(f"prompt of {len(prompt)} characters is over MAX_PROMPT_CHARS={MAX_PROMPT_CHARS}{hint}")
        return prompt

    def _info(self, base: dict[str, Any], reward: float, **extra: Any) -> dict[str, Any]:
        info = dict(base)
        reply = extra.pop("reply", None)
        if reply is not None:
            info["failure"] = reply.failure
            info["message"] = reply.message
            info["snapped"] = bool(reply.snapped)
        info.update(extra)
        info["state"] = self.text.state_json(self._observation)
        info["reprompt"] = self._streak > 0 and not self._done and reply is not None and reply.action is None
        info["reward_bb"] = float(reward)
        info.update(self._counts)
        return info
