"""One seat of any poker AEC environment as a Gymnasium ``Env``; the other seats are played by given agents.

This is the bridge to single-agent RL libraries (Stable-Baselines3, sb3-contrib's MaskablePPO, ...):
``reset``/``step`` see only the learner's decisions, the opponents act in between with their own
seeded generator. One episode is one episode of the AEC environment: one hand, or a session of hands
(``hands_per_episode``; opponents eliminated from it leave, the learner's episode ends with its own
termination). The legal-action mask is returned in ``info["action_mask"]``
and by ``action_masks()`` (the method MaskablePPO calls). For the hold'em family the public betting
state (``poker_envs.encoders.public``) is in ``info["public"]`` (and in the dict with ``obs_mode="dict"``);
the ``"observation"`` mode's observation stays the encoder's array alone.

Hands in which the learner never has to decide (everyone else folds first, or the hand is decided
before its turn) are played through inside ``reset``/``step``: a Gymnasium episode must start at a
decision. Their results are reported in ``info["skipped_hands"]`` and ``info["skipped_reward"]``
so evaluations can add them back; they never enter the learner's reward.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from agent_zoo.agent import ActFn, Agent, CallableAgent, Observation  # CallableAgent: re-exported
from poker_envs import catalog
from poker_envs.aec import RENDER_FPS, RENDER_MODES, PokerAECEnv, action_id

OpponentSpec = Agent | ActFn | str
SeatSpec = int | Literal["rotate", "random"]

MAX_SKIPPED_HANDS = 10_000  # a learner that never gets a decision in this many hands means a broken setup


def as_agent(spec: OpponentSpec, game_env: AECEnv | None = None) -> Agent:
    """An Agent from an Agent, a callable ``(obs, rng) -> action``, or a zoo registry name like ``"random"``."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        from agent_zoo.registry import make_agent  # lazy: the registry imports optional agents lazily too

        return make_agent(spec, game_env)
    if callable(spec):
        return CallableAgent(spec)
    raise TypeError(f"opponent must be an Agent, a callable (obs, rng) -> action or a registry name, not {type(spec).__name__}")


def make_aec(env: str | AECEnv | Callable[..., AECEnv], **env_config: Any) -> AECEnv:
    """Build an AEC env from a catalog key (``"leduc"``), a module name (``"leduc_holdem_v0"``), a factory,
    or pass an instance through.

    Names build ``raw_env`` (illegal actions raise instead of ending the hand with a penalty).
    """
    if isinstance(env, AECEnv):
        if env_config:
            raise ValueError(f"env is already built; configuration {sorted(env_config)} cannot be applied to it")
        return env
    if isinstance(env, str):
        if env in catalog.keys():
            env = catalog.game(env, argument="env").env_module
        module_name = env if env.startswith("poker_envs.") else f"poker_envs.{env}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            raise ValueError(f"env {env!r}: no environment module {module_name} ({exc})") from exc
        return module.raw_env(**env_config)
    if callable(env):
        return env(**env_config)
    raise TypeError(f"env must be a module name, an AECEnv or a factory, not {type(env).__name__}")


class SingleAgentEnv(gymnasium.Env):
    """The learner plays ``seat``; opponents play the other seats; one hand per episode.

    Args:
        env: the AEC environment (instance, factory, catalog key such as ``"leduc"`` or ``poker_envs`` module
            name such as ``"leduc_holdem_v0"``).
        opponents: one opponent for every other seat (the same object then plays each of them: fine for
            the zoo's stateless agents), or a sequence with one per other seat (in seat order), or a mapping
            seat -> opponent. Each is an Agent, a callable ``(obs, rng) -> action`` or a
            registry name (``"random"``, ``"cfr:leduc.npz"``, ...).
        seat: the learner's seat: an int (fixed), ``"rotate"`` (next seat every hand) or ``"random"``.
        obs_mode: ``"observation"`` gives the encoder's array only (the mask is in ``info`` and
            ``action_masks()``); ``"dict"`` gives the whole ``{"observation", "action_mask"}`` dict.
        illegal_action: ``"terminate"`` (default: the learner's hand is forfeited as a fold and, with one
            hand per episode, its episode ends: the reward is what it had in the pot lost, plus
            ``illegal_reward``, so an illegal move never costs less than folding; ``info["illegal_action"] =
            True``; the opponents play the hand out (in a session the next hand follows).
            Unmasked learners and ``check_env``'s random actions need it) or ``"raise"`` (ValueError naming
            the legal actions; use it with masked learners to catch a mask bug at once).
        render_mode: passed to the AEC env when it is built here; ``"ansi"`` returns its text, ``"human"``
            prints it, ``"rgb_array"`` returns a picture of the table (an RGB array; Pillow, the ``render``
            extra), what ``gymnasium.wrappers.RecordVideo`` and ``HumanRendering`` take. ``render()`` shows the
            table as the learner's turn finds it (the opponents' moves since its last step already made).
        env_config: configuration of the AEC env when it is built here (e.g. ``num_players=6``).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(
        self,
        env: str | AECEnv | Callable[..., AECEnv],
        opponents: OpponentSpec | Sequence[OpponentSpec] | Mapping[int, OpponentSpec] = "random",
        seat: SeatSpec = 0,
        obs_mode: Literal["observation", "dict"] = "observation",
        illegal_action: Literal["raise", "terminate"] = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **env_config: Any,
    ) -> None:
        if render_mode is not None:
            env_config["render_mode"] = render_mode
        self.aec = make_aec(env, **env_config)
        self.render_mode = getattr(self.aec, "render_mode", render_mode)
        self.possible_agents = list(self.aec.possible_agents)
        self.num_players = len(self.possible_agents)
        if obs_mode not in ("observation", "dict"):
            raise ValueError(f"obs_mode must be 'observation' or 'dict', not {obs_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}")
        if illegal_action == "terminate" and not isinstance(self.aec.unwrapped, PokerAECEnv):
            raise ValueError("illegal_action='terminate' forfeits hands of poker_envs environments; use 'raise' for this env")
        self.obs_mode = obs_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._seat_spec = self._check_seat(seat)
        self.opponents = self._build_opponents(opponents)
        first = self.possible_agents[0]
        dict_space = self.aec.observation_space(first)
        if any(self.aec.observation_space(a) != dict_space for a in self.possible_agents):
            raise ValueError("every seat of env must share one observation space for seats to rotate")
        self.observation_space = dict_space if obs_mode == "dict" else dict_space["observation"]
        self.action_space = self.aec.action_space(first)
        self._num_actions = int(self.action_space.n)
        self._rng = np.random.default_rng()
        self._hands = 0
        self.seat = self._seat_spec if isinstance(self._seat_spec, int) else 0
        self._last_obs: dict[str, np.ndarray] | None = None
        self._done = True

    # Configuration helpers ------------------------------------------------------------------
    def _check_seat(self, seat: SeatSpec) -> SeatSpec:
        if isinstance(seat, str):
            if seat not in ("rotate", "random"):
                raise ValueError(f"seat must be an int in 0..{self.num_players - 1}, 'rotate' or 'random', not {seat!r}")
            return seat
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be an int in 0..{self.num_players - 1}, 'rotate' or 'random', not {seat!r}")
        return int(seat)

    def _build_opponents(self, opponents: Any) -> dict[int, Agent] | list[Agent]:
        """seat -> Agent (the learner's seat is skipped at play time), or a list for the other seats in order."""
        n = self.num_players
        if isinstance(opponents, Mapping):
            unknown = [s for s in opponents if not isinstance(s, (int, np.integer)) or not 0 <= s < n]
            if unknown:
                raise ValueError(f"opponents mapping has keys {unknown} that are not seats 0..{n - 1}")
            missing = [s for s in range(n) if s not in opponents]
            fixed_seat = self._seat_spec if isinstance(self._seat_spec, int) else None
            if [s for s in missing if s != fixed_seat]:
                raise ValueError(f"opponents mapping has no agent for seats {missing}; give one per seat the learner does not hold")
            return {s: as_agent(a, self.aec) for s, a in opponents.items()}
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n - 1:
                raise ValueError(f"opponents sequence must have {n - 1} agents (one per other seat), got {len(opponents)}")
            return [as_agent(a, self.aec) for a in opponents]
        agent = as_agent(opponents, self.aec)
        return {s: agent for s in range(n)}

    def _opponent_at(self, seat: int) -> Agent:
        if isinstance(self.opponents, list):
            return self.opponents[seat - (seat > self.seat)]
        return self.opponents[seat]

    def set_opponents(self, opponents: OpponentSpec | Sequence[OpponentSpec] | Mapping[int, OpponentSpec]) -> None:
        """Swap the opponents (e.g. from the random agent to a CFR agent) between episodes."""
        self.opponents = self._build_opponents(opponents)

    # Gymnasium API ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:  # a seed fixes everything that follows, the seat rotation included
            self._rng = np.random.default_rng(seed)
            self._hands = 0
        skipped, skipped_reward = 0, 0.0
        while True:
            self._start_hand(options)
            reward = self._play_opponents()
            if not self._done:
                break
            skipped += 1
            skipped_reward += reward
            if skipped >= MAX_SKIPPED_HANDS:
                raise RuntimeError(f"the learner at seat {self.seat} got no decision in {skipped} hands in a row")
        info = self._info()
        info["skipped_hands"] = skipped
        info["skipped_reward"] = skipped_reward
        return self._obs(), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() called after the hand ended; call reset() first")
        learner = self.possible_agents[self.seat]
        action = action_id(action, learner, self._num_actions)  # a float or bool is an error, not truncated
        if not 0 <= action < self._num_actions:
            raise ValueError(f"action {action} of {learner} is not an action id of this env (0..{self._num_actions - 1})")
        if not self._last_obs["action_mask"][action]:
            legal = np.flatnonzero(self._last_obs["action_mask"]).tolist()
            if self.illegal_action == "raise":
                raise ValueError(f"action {action} is illegal for {learner} here; legal actions: {legal}")
            self.aec.unwrapped.forfeit(self.illegal_reward)  # a fold plus the penalty; the others play on
            reward = float(self.aec.rewards.get(learner, 0.0)) + self._play_opponents()
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), reward, self._done, False, info
        self.aec.step(action)
        reward = float(self.aec.rewards.get(learner, 0.0)) + self._play_opponents()
        return self._obs(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask of the learner's current decision (all False once the hand is over)."""
        return self._last_obs["action_mask"].astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The AEC env's render: text ("ansi"; "human" prints it) or the table's RGB frame ("rgb_array")."""
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # Internals -------------------------------------------------------------------------------
    def _start_hand(self, options: dict[str, Any] | None) -> None:
        if self._seat_spec == "rotate":
            self.seat = self._hands % self.num_players
        elif self._seat_spec == "random":
            self.seat = int(self._rng.integers(self.num_players))
        self._hands += 1
        self.aec.reset(seed=int(self._rng.integers(2**63)), options=options)
        for s in range(self.num_players):
            if s != self.seat:
                self._opponent_at(s).begin_hand(s)
        self._done = False

    def _play_opponents(self) -> float:
        """Let opponents act until the learner must decide or the hand ends; returns the learner's reward meanwhile."""
        aec, learner = self.aec, self.possible_agents[self.seat]
        reward = 0.0
        while True:
            agent = aec.agent_selection
            if not aec.agents or aec.terminations[learner] or aec.truncations[learner]:
                self._done = True  # the learner's episode is over (the hand's, or its session's)
                break
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)  # an opponent eliminated from a session leaves the table; play goes on
                continue
            if agent == learner:
                break
            seat = self.possible_agents.index(agent)
            action = self._opponent_at(seat).act(aec.observe(agent), self._rng)
            aec.step(action)
            reward += float(aec.rewards.get(learner, 0.0))
        self._last_obs = aec.observe(learner)
        if self._done:
            self._last_obs = {**self._last_obs, "action_mask": np.zeros(self._num_actions, dtype=np.int8)}
        return reward

    def _obs(self) -> Any:
        if self.obs_mode == "dict":
            return {k: np.array(v) for k, v in self._last_obs.items()}
        return np.array(self._last_obs["observation"])

    def _info(self) -> dict[str, Any]:
        info = {"action_mask": self._last_obs["action_mask"].copy(), "seat": self.seat}
        if "public" in self._last_obs:  # hold'em family: the public betting state (encoders.public.decode_public)
            info["public"] = self._last_obs["public"].copy()
        return info
