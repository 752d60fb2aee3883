"""The one AEC adapter: turns any rules module (a ``Game``) into a PettingZoo ``AECEnv``.

Environment modules only validate their configuration, build a ``Game`` and an encoder, and
choose how a hand starts (``_new_state``); all bookkeeping of agents, rewards and terminations
lives here, written once.

A game that is over before anybody decides anything (hold'em where every live player is all-in on
the blinds or antes: the board is dealt out at reset) is still played as an episode: PettingZoo
wants no agent terminated right after reset. Each agent in seat order gets one turn whose only
legal action is ``PASS`` (id 1, check); after the last one the results are paid and every agent is
terminated, so each has seen ``last()`` before its termination.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, Protocol

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from poker_envs.encoders.base import Encoder
from poker_envs.encoders.history import HistoryLayout, encode_history
from poker_envs.encoders.public import TablePosition, encode_public
from poker_envs.games.base import TERMINAL, Game, GameState, play_chance
from poker_envs.parallel import turn_based_parallel
from poker_envs.session import Session

RenderFn = Callable[[GameState], str]
PASS = 1  # the one legal action of a turn in a game decided without decisions (hold'em: check)


class ActionMap(Protocol):
    """Environment action ids that are not the rules' own (an env that keeps another library's ids): the
    adapter masks, checks and plays through it. ``pass_action`` is the env id of the rules' ``PASS`` (check)."""

    num_actions: int
    pass_action: int

    def mask(self, state: GameState) -> np.ndarray:
        """The int8 mask over env ids of the player to act at ``state``."""

    def rules_action(self, state: GameState, action: int) -> int:
        """The rules' id of env id ``action`` at ``state``; ValueError naming it and the legal env ids if illegal."""


def show_text(text: str, render_mode: str) -> str | None:
    """Text rendering shared by every env: "human" prints it, "ansi" returns it."""
    if render_mode == "human":
        print(text)
        return None
    return text


NO_RENDER_MODE = "You are calling render method without specifying any render mode."


def warn_no_render_mode() -> None:
    """``render()`` of an env built without ``render_mode``: Gymnasium's and PettingZoo's warning, same text."""
    logger.warn(NO_RENDER_MODE)


def warn_unknown_options(options: dict[str, Any], known: tuple[str, ...], env_name: str) -> None:
    """Reset options this environment does not use are reported, not silently dropped.

    (A warning rather than an error: ``pettingzoo.test.api_test`` resets with ``{"options": 1}``.)
    """
    unknown = sorted(set(options) - set(known))
    if unknown:
        warnings.warn(f"{env_name}: reset options {unknown} are not used; known options: {list(known)}", stacklevel=3)


def action_id(action: Any, agent: str, num_actions: int) -> int:
    """``action`` as an action id: a Python or numpy integer (or a 0-d integer array), never a bool, float or
    string (those are refused, not truncated or parsed: ``int(1.7)`` would silently play action 1)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(
            f"action of {agent} must be an integer action id in 0..{num_actions - 1}, "
            f"got {action!r} ({type(action).__name__})"
        )
    return int(action)


# Every environment renders: "ansi" returns the table as text, "human" prints that text (at every step, as
# PettingZoo's "human" mode renders), "rgb_array" returns a picture of it (an (H, W, 3) uint8 array drawn by
# poker_envs.render with Pillow, the ``render`` extra; a spectator's view: every dealt card face up).
RENDER_MODES = ["ansi", "human", "rgb_array"]
RENDER_FPS = 2  # frames per second of a video of the frames (one frame per action)


def aec_metadata(name: str) -> dict[str, Any]:
    """The ``metadata`` of environment ``name``'s ``raw_env``: its render modes and frame rate, and not
    parallelizable (turn-based: PettingZoo's ``aec_to_parallel`` cannot convert it; the module's
    ``parallel_env`` is the Parallel form)."""
    return {"name": name, "render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS, "is_parallelizable": False}


def render_table(text_fn: Callable[[GameState], str], state: GameState, names: Sequence[str], render_mode: str,
                 places: Sequence[int] | None = None, everyone: Sequence[str] = ()) -> str | np.ndarray | None:
    """What ``render()`` gives in ``render_mode``: the text (returned, or printed for "human") or the picture's
    frame ("rgb_array"); ``names[s]`` is the agent at rules seat ``s``, drawn at place ``places[s]`` of a table of
    ``everyone`` when given (``render.frames.table_frame``)."""
    if render_mode == "rgb_array":
        from poker_envs.render.frames import table_frame  # deferred: the pictures read every game's rules

        return table_frame(state, names, places, everyone)
    return show_text(text_fn(state), render_mode)


class PokerAECEnv(AECEnv):
    """A game of ``game`` per episode (or a session of hands); ``player_i`` is seat ``i``; rewards are returns
    times ``reward_scale``.

    Sessions (``poker_envs.session``): an environment whose ``_new_session`` returns a ``Session`` plays many
    hands per episode. Each hand is a fresh rules state of the seats still in play (``_seating`` maps its
    rules seats to environment seats); as a hand ends every agent in it gets its result as reward, seats
    eliminated are terminated (they step None and leave ``agents``, with the observation of their last
    hand), and the next hand starts within the same ``step``. With ``payouts`` the rewards are prize shares
    instead: an eliminated agent gets its place's prize as it terminates, the rest at the episode's end.
    """

    metadata: dict[str, Any] = aec_metadata("poker_aec")

    def __init__(
        self,
        game: Game,
        encoder: Encoder,
        render_fn: RenderFn,
        render_mode: str | None = None,
        reward_scale: float = 1.0,
        public_space: spaces.Box | None = None,
        history: tuple[HistoryLayout, spaces.Box] | None = None,
        action_map: ActionMap | None = None,
    ) -> None:
        """``public_space``: the Box of the public betting state (``encoders.public``); given, every observation
        dict has a ``"public"`` vector too (the hold'em family). ``history``: the layout and Box of the hand so
        far (``encoders.history``, the opt-in ``history=True``); given, observations have a ``"history"`` too.
        ``action_map``: env action ids other than the rules' (None: the rules' ids).
        ``game`` fixes the spaces: in a session it is the template every hand's game fits in."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} or None")
        self.game = game
        self.encoder = encoder
        self.render_mode = render_mode
        self._render_fn = render_fn
        self._reward_scale = float(reward_scale)
        self.action_map = action_map
        self._num_actions = game.num_distinct_actions if action_map is None else action_map.num_actions
        self._pass_action = PASS if action_map is None else action_map.pass_action
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        parts = {
            "observation": encoder.observation_space,
            "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
        }
        if public_space is not None:
            parts["public"] = public_space
        self._public = public_space is not None
        self.history_layout: HistoryLayout | None = None if history is None else history[0]  # None: no "history" key
        if history is not None:
            parts["history"] = history[1]
        self._recent: list[list[float]] = []  # net chips of every seat in the episode's finished hands, latest first
        obs_space = spaces.Dict(parts)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._no_mask = np.zeros(self._num_actions, dtype=np.int8)
        self._pass_mask = self._no_mask.copy()
        self._pass_mask[self._pass_action] = 1
        self._passes: list[int] = []  # rules seats still to pass in a game over before any decision
        self._penalties: dict[str, float] = {}  # illegal-move penalties of the hand, paid with its result
        self.state: GameState | None = None
        self.session: Session | None = None  # the episode's session; None for one hand per episode
        self._table = TablePosition.identity(game.num_players)  # rules seats -> environment seats, session position
        self._agents_at = self.possible_agents[:]  # agent of each rules seat of the hand being played
        self._rules_seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._carried = [0.0] * game.num_players  # session chips each seat won before the current hand
        self._final_obs: dict[str, dict[str, np.ndarray]] = {}  # last observation of eliminated agents
        self._decks: Sequence[Any] = ()  # a session's reset option "decks": the deck of each hand
        self.hands_done = 0  # hands finished (paid) in this episode
        self.last_hand: tuple[GameState, tuple[str, ...], TablePosition] | None = None  # the latest finished hand

    @property
    def reward_scale(self) -> float:
        """Rewards are the rules' ``returns()`` times this (hold'em in big blinds: 1 / big blind)."""
        return self._reward_scale

    # PettingZoo API ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _new_state(self, options: dict[str, Any]) -> GameState:
        """The initial state of a new hand; environments override to rotate the button, fix cards or play the
        session's next hand (``self.session``, ``self._table`` are set before it is called)."""
        warn_unknown_options(options, (), self.metadata["name"])
        return self.game.new_initial_state()

    def _new_session(self, options: dict[str, Any]) -> Session | None:
        """The session of a new episode (None: one hand); may read reset ``options``."""
        return None

    def _read_decks(self, options: dict[str, Any], known: tuple[str, ...]) -> None:
        """A session's reset options: unknown ones warned about, ``"decks"`` (one deck per hand) kept."""
        warn_unknown_options(options, known, self.metadata["name"])
        decks = options.get("decks", ())
        if isinstance(decks, str) or not isinstance(decks, Sequence):
            raise ValueError(f"reset option 'decks' must be a list of decks, one per hand, got {decks!r}")
        self._decks = decks

    def _hand_deck(self) -> Any:
        """The deck of the session's next hand from the ``"decks"`` option, None past its end (dealt at random)."""
        k = self.session.hand_number
        return self._decks[k] if k < len(self._decks) else None

    def _seating(self) -> TablePosition:
        """Environment seat of each rules seat of the session's next hand (hold'em: the seats in play in order)."""
        session = self.session
        return TablePosition(len(self.possible_agents), tuple(session.seated), session.hand_number, session.level)

    def _encoder_view(self, state: GameState, seat: int) -> tuple[Any, int]:
        """What the encoder reads for rules seat ``seat`` (hold'em after eliminations: a full-table view)."""
        return state, seat

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        self.session = self._new_session(options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._final_obs = {}
        self._skip_agent_selection = None
        self.hands_done = 0
        self.last_hand = None
        self._penalties = {}
        self._recent = []
        self._start_hand(options)
        self._after_move()

    def _start_hand(self, options: dict[str, Any]) -> None:
        session = self.session
        if session is not None:
            self._table = self._seating()
            self._agents_at = [self.possible_agents[s] for s in self._table.seats]
            self._rules_seat = {agent: i for i, agent in enumerate(self._agents_at)}
            self._carried = session.results[:]
        self.state = self._new_state(options)
        play_chance(self.state, self._rng)
        self._passes = list(range(len(self._agents_at))) if self.state.current_player() == TERMINAL else []

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._rules_seat.get(agent)
        if seat is None:
            return self._final_obs[agent]
        state = self.state
        if state.current_player() == seat:
            mask = state.legal_actions_mask(self._num_actions) if self.action_map is None else self.action_map.mask(state)
        elif self._passes and self._passes[0] == seat:
            mask = self._pass_mask.copy()
        else:
            mask = self._no_mask.copy()
        if self.session is None:
            encoded = self.encoder.encode(state, seat)
        else:
            view, player = self._encoder_view(state, seat)
            encoded = self.encoder.encode_in_session(view, player, self._carried[self._table.seats[seat]])
        obs = {"observation": encoded, "action_mask": mask}
        if self._public:
            obs["public"] = encode_public(state, seat, self._table)
        if self.history_layout is not None:
            obs["history"] = encode_history(state, seat, self.history_layout, self._table, self._recent)
        return obs

    def check_action(self, action: Any) -> int | None:
        """The action id ``step(action)`` plays, or None for the step of an agent whose hand is over.

        Raises ValueError for a step after every agent is done, a non-None action of a done agent (the
        PettingZoo convention: a done agent steps None) and None from an agent that must act; TypeError
        for anything but an integer id. (Legality is the rules' check, in ``state.apply``.)
        """
        if not self.agents:
            raise ValueError(f"step({action!r}) after the hand is over and every agent has stepped None; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"the hand of {agent} is over: its only allowed action is None, got action {action!r}")
            return None
        if action is None:
            raise ValueError(f"{agent} must act; action None is only for agents whose game is over")
        if action.__class__ is int:
            return action
        return action_id(action, agent, self._num_actions)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        a = self.check_action(action)
        if a is None:
            self._was_dead_step(None)
            return
        if self._passes and a != self._pass_action:
            raise ValueError(f"{agent}: the hand was decided without decisions; the only legal action is "
                             f"{self._pass_action} (pass)")
        self._move(agent, a)

    def _move(self, agent: str, action: int | None) -> None:
        """Play ``agent``'s ``action`` (None: the rules' ``forfeit``, a fold), or its pass in a hand decided
        without decisions, then select the next agent or pay the hand."""
        if self._passes:
            self._passes.pop(0)
        else:
            if action is None:
                self.state.forfeit()
            elif self.action_map is None:
                self.state.apply(action)
            else:
                self.state.apply(self.action_map.rules_action(self.state, action))
            play_chance(self.state, self._rng)
        self._cumulative_rewards[agent] = 0.0
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def is_legal(self, action: int) -> bool:
        """Whether action id ``action`` is legal for the agent to act (the mask ``observe`` gives it)."""
        if self._passes:
            return action == self._pass_action
        if self.action_map is not None:
            return 0 <= action < self._num_actions and bool(self.action_map.mask(self.state)[action])
        return 0 <= action < self._num_actions and action in self.state.legal_actions()

    def forfeit(self, penalty: float) -> None:
        """The agent to act made an illegal move: it folds (it loses what it has in the pot, as any fold,
        by the rules' ``forfeit``) and ``penalty`` is added to its reward when the hand is paid; the hand
        goes on for the others. ``infos[agent]["illegal_action"]`` is set. In a hand decided before any
        decision (nothing left to fold) the pass is played and only the penalty counts."""
        agent = self.agent_selection
        if not self.agents or self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent} has no move to forfeit: its hand is over")
        self._penalties[agent] = self._penalties.get(agent, 0.0) + float(penalty)
        self.infos[agent]["illegal_action"] = True
        self._move(agent, None)

    def render(self) -> str | np.ndarray | None:
        """The hand being played: its text ("ansi"; "human" prints it) or its picture ("rgb_array")."""
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        return render_table(self._render_fn, self.state, self._agents_at, self.render_mode, self._table.seats,
                            self.possible_agents)

    def close(self) -> None:
        pass

    # Bookkeeping --------------------------------------------------------------------------
    def _after_move(self) -> None:
        if not self._passes and self.state.current_player() == TERMINAL:
            self._end_hand()
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self._select_actor()

    def _select_actor(self) -> None:
        """The agent to pass (a hand decided without decisions) or to act."""
        seat = self._passes[0] if self._passes else self.state.current_player()
        self.agent_selection = self._agents_at[seat]

    def _end_hand(self) -> None:
        """Pay the hand; one hand per episode, or the session's last: every agent terminates, else the
        eliminated ones do and the next hand starts."""
        returns = self.state.returns()
        self.hands_done += 1
        self.last_hand = (self.state, tuple(self._agents_at), self._table)
        if self.history_layout is not None and self.history_layout.recent_hands:
            result = [0.0] * len(self.possible_agents)
            for s, env_seat in enumerate(self._table.seats):
                result[env_seat] = float(returns[s])
            self._recent = [result, *self._recent[: self.history_layout.recent_hands - 1]]
        session = self.session
        prizes = session is not None and bool(session.config.payouts)
        for agent in self.agents:
            self.rewards[agent] = 0.0
        if not prizes:
            scale = self._reward_scale
            for s, agent in enumerate(self._agents_at):
                self.rewards[agent] = float(returns[s]) * scale
        for agent, penalty in self._penalties.items():  # illegal moves of this hand, paid with its result
            self.rewards[agent] += penalty
        self._penalties = {}
        out: list[int] = []
        if session is not None:
            out = session.end_hand([float(r) for r in returns], self._table.seats)
            if prizes:
                for seat, prize in session.payouts_of_eliminated(out).items():
                    self.rewards[self.possible_agents[seat]] += prize
                if session.is_over():
                    for seat, prize in session.final_payouts().items():
                        self.rewards[self.possible_agents[seat]] += prize
        if session is None or session.is_over():
            for agent in self.agents:
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]  # every agent then steps None once, starting from the first seat
            return
        stay = session.config.eliminated == "stay"  # eliminated seats stay in agents, never to act, until the end
        for agent in (self.possible_agents[s] for s in out):
            self._final_obs[agent] = self.observe(agent)
            self.terminations[agent] = not stay
        self._accumulate_rewards()
        self._start_hand({})
        self._select_actor()  # the hand's rewards stay in ``rewards`` for this step
        self._deads_step_first()

class DealOptionAECEnv(PokerAECEnv):
    """A game whose ``new_initial_state(deal=...)`` fixes the cards: reset option ``deal`` (Kuhn, Leduc, the
    threshold game; what a deal lists is the rules module's)."""

    def _new_state(self, options: dict[str, Any]) -> GameState:
        warn_unknown_options(options, ("deal",), self.metadata["name"])
        return self.game.new_initial_state(deal=options.get("deal"))  # type: ignore[call-arg]


def check_two_players(num_players: int, game_title: str) -> None:
    """``num_players`` of a game for exactly two, taken for a signature like the other games': anything but 2 is
    a ValueError naming it."""
    if isinstance(num_players, bool) or num_players != 2:
        raise ValueError(f"num_players: {game_title} is played by exactly 2 players, got {num_players!r}")


# Wrapping as PettingZoo classic environments do, without the per-attribute cost ----------------------
# PettingZoo's wrappers forward every attribute through ``__getattr__``, one wrapper at a time; the
# attributes read on every step (``agent_selection``, ``terminations``, ...) then cost more than the game.
# These subclasses keep the classes and the behaviour of AssertOutOfBoundsWrapper and OrderEnforcingWrapper
# and only read those attributes from the raw environment in one hop; illegal moves are this module's own
# ForfeitIllegalWrapper (a fold plus a penalty, not PettingZoo's flat penalty).
def _from_raw(name: str, checked: bool = False) -> property:
    """A read-only attribute taken from ``self._raw``; ``checked``: refused before reset (OrderEnforcing's rule)."""
    if checked:

        def get(self: Any) -> Any:
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self._raw, name)

    else:

        def get(self: Any) -> Any:
            return getattr(self._raw, name)

    return property(get)


class _OneHop:
    _raw: AECEnv
    agent_selection = _from_raw("agent_selection")
    agents = _from_raw("agents")
    possible_agents = _from_raw("possible_agents")
    rewards = _from_raw("rewards")
    terminations = _from_raw("terminations")
    truncations = _from_raw("truncations")
    infos = _from_raw("infos")
    _cumulative_rewards = _from_raw("_cumulative_rewards")


class ForfeitIllegalWrapper(_OneHop, wrappers.BaseWrapper):
    """An illegal move forfeits the mover's hand (a fold: it loses what it has in the pot) and costs
    ``illegal_reward`` more, paid with the hand's result; the hand goes on for the others.

    It replaces PettingZoo's ``TerminateIllegalWrapper``, which ends the game at once with ``illegal_reward``
    for the mover whatever it had put in: there an illegal move could cost less than folding.
    ``infos[agent]["illegal_action"]`` is set and a warning names the move.
    """

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        if not isinstance(self._raw, PokerAECEnv):
            raise TypeError(f"ForfeitIllegalWrapper wraps poker_envs environments, not {type(self._raw).__name__}")
        self.illegal_reward = float(illegal_reward)

    def __str__(self) -> str:
        return str(self.env)  # the environment's name, as TerminateIllegalWrapper prints

    def step(self, action: Any) -> None:
        raw = self._raw
        if action is not None and raw.agents and not (raw.terminations[raw.agent_selection] or raw.truncations[raw.agent_selection]):
            a = raw.check_action(action)
            if a is not None and not raw.is_legal(a):
                agent = raw.agent_selection
                legal = np.flatnonzero(raw.observe(agent)["action_mask"]).tolist()
                warnings.warn(
                    f"{agent} made an illegal move {a} (legal: {legal}): it forfeits its hand as a fold, "
                    f"and {self.illegal_reward} more",
                    stacklevel=2,
                )
                raw.forfeit(self.illegal_reward)
                return
        self.env.step(action)


class FastAssertOutOfBoundsWrapper(_OneHop, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        # Discrete action spaces are checked with one comparison for plain ints (gymnasium's
        # Discrete.contains builds numpy dtype info on every call); anything else takes the generic check.
        self._bounds: dict[Any, tuple[int, int]] = {}
        for agent in env.possible_agents:
            space = env.action_space(agent)
            if isinstance(space, spaces.Discrete):
                self._bounds[agent] = (int(space.start), int(space.start) + int(space.n))

    def step(self, action: Any) -> None:
        raw = self._raw
        if action.__class__ is int and raw.agents:
            bounds = self._bounds.get(raw.agent_selection)
            if bounds is not None and bounds[0] <= action < bounds[1] and not raw.terminations[raw.agent_selection]:
                wrappers.BaseWrapper.step(self, action)  # in bounds: what AssertOutOfBoundsWrapper does next
                return
        if isinstance(raw, PokerAECEnv):
            a = raw.check_action(action)  # clear errors for wrong types and steps after the end, before the asserts
            space = self.action_space(raw.agent_selection)
            if a is not None and not space.contains(a):  # one line naming the action, not PettingZoo's bare assert
                raise ValueError(f"action {a} is outside {raw.agent_selection}'s action space {space}; action ids are "
                                 f"0..{int(space.n) - 1} (the legal ones are in the observation's action_mask)")
        super().step(action)


class FastOrderEnforcingWrapper(_OneHop, wrappers.OrderEnforcingWrapper):
    agent_selection = _from_raw("agent_selection", checked=True)
    agents = _from_raw("agents", checked=True)
    rewards = _from_raw("rewards", checked=True)
    terminations = _from_raw("terminations", checked=True)
    truncations = _from_raw("truncations", checked=True)
    infos = _from_raw("infos", checked=True)

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def __str__(self) -> str:
        return str(self.env)  # the environment's name ("nolimit_holdem_v0"), as OrderEnforcingWrapper prints

    def step(self, action: Any) -> None:
        raw = self._raw
        if self._has_reset and not raw.agents and isinstance(raw, PokerAECEnv):
            raw.check_action(action)  # an error, as on the raw env (PettingZoo's wrapper only logs a warning)
        super().step(action)


def wrap_classic(raw: AECEnv, illegal_reward: float = -1.0) -> FastOrderEnforcingWrapper:
    """``raw`` wrapped as PettingZoo classic environments are, except for illegal moves: an illegal move
    folds the mover's hand and costs ``illegal_reward`` more (``ForfeitIllegalWrapper``); out-of-space
    actions assert, calls out of order are refused."""
    return FastOrderEnforcingWrapper(FastAssertOutOfBoundsWrapper(ForfeitIllegalWrapper(raw, illegal_reward)))


# An environment module's ``env`` and ``parallel_env``, made once from its ``raw_env`` ---------------------------
P = ParamSpec("P")


def _as_module_function(made: Callable[..., Any], name: str, like: Callable[..., Any], doc: str) -> None:
    """``made`` presented as the function ``name`` of ``like``'s module, taking ``like``'s arguments: ``help()``,
    ``inspect.signature`` and pickling by reference see ``<module>.<name>(<the arguments of like>)``."""
    made.__name__ = made.__qualname__ = name
    made.__module__ = like.__module__
    made.__doc__ = doc
    made.__signature__ = inspect.signature(like).replace(return_annotation=inspect.signature(made).return_annotation)  # type: ignore[attr-defined]


def classic_env(raw_env: Callable[P, PokerAECEnv], illegal_reward: float = -1.0) -> Callable[P, AECEnv]:
    """A module's ``env = classic_env(raw_env)``: ``raw_env(...)`` wrapped by ``wrap_classic`` (an illegal move
    forfeits the hand as a fold and costs ``illegal_reward`` more), taking exactly ``raw_env``'s arguments."""

    def env(*args: P.args, **kwargs: P.kwargs) -> AECEnv:
        return wrap_classic(raw_env(*args, **kwargs), illegal_reward=illegal_reward)

    doc = (f"``raw_env`` wrapped as PettingZoo classic environments are, but an illegal move forfeits the hand as a "
           f"fold, {illegal_reward:g} more (``aec.ForfeitIllegalWrapper``). Takes ``raw_env``'s arguments.")
    _as_module_function(env, "env", raw_env, doc)
    return env


def turn_based_env(env: Callable[P, AECEnv]) -> Callable[P, ParallelEnv]:
    """A module's ``parallel_env = turn_based_env(env)``: ``env(...)`` under PettingZoo's turn-based Parallel API
    (``poker_envs.parallel``), taking exactly ``env``'s arguments."""

    def parallel_env(*args: P.args, **kwargs: P.kwargs) -> ParallelEnv:
        return turn_based_parallel(env(*args, **kwargs))

    doc = ("``env(...)`` under PettingZoo's turn-based Parallel API (``poker_envs.parallel``): every live agent "
           "observes each step, only the agent to act (``infos[agent][\"active_agent\"]``) is played. Takes "
           "``raw_env``'s arguments.")
    _as_module_function(parallel_env, "parallel_env", env, doc)
    return parallel_env
