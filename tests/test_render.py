"""Pictures of the tables (``render_mode="rgb_array"``, ``poker_envs.render``): every catalog game draws frames of one
shape through whole hands; what is drawn follows the rules (board and hole cards counted from the layout and read
back from the pixels, hand-worked results); frames change with the state; the layout never overlaps; without
Pillow the error names the extra; the Gymnasium view feeds RecordVideo and HumanRendering; the GIF command."""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import poker_envs  # noqa: F401  (registers the Gymnasium ids)
from poker_envs import catalog, nolimit_holdem_v0, threshold_v0
from poker_envs.core.cards import cards_from_str
from poker_envs.render import draw, gif
from poker_envs.render.frames import table_frame, table_view
from poker_envs.render.layout import CHIP_R, HEIGHT, MAX_SEATS, WIDTH, drawn_layout, table_layout
from poker_envs.render.table import CardView, SeatView, TableView, seated

FRAME = (HEIGHT, WIDTH, 3)
CASES = [(g.key, n) for g in catalog.GAMES for n in sorted({g.players[0], min(g.players[1], 6)})]


def make(key: str, players: int, **kwargs: Any) -> Any:
    entry = catalog.game(key)
    seats = {} if entry.players[0] == entry.players[1] else {"num_players": players}
    return importlib.import_module(entry.module_path).env(**seats, **kwargs)


def play_hand(env: Any, seed: int, policy: str = "random") -> list[np.ndarray]:
    """Frames after the reset and after every action of one hand; "random" legal actions or "call" (id 1, which every
    game has: check/call, Kuhn's bet, push/fold's all-in) to reach a showdown."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    frames = [env.render()]
    for _ in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(1 if policy == "call" and 1 in legal else int(rng.choice(legal)))
        frames.append(env.render())
    return frames


@pytest.mark.parametrize(("key", "players"), CASES, ids=[f"{k}-{n}" for k, n in CASES])
def test_every_game_draws_frames_of_one_shape_through_a_hand(key: str, players: int) -> None:
    env = make(key, players, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    for seed in (0, 1):
        frames = play_hand(env, seed)
        assert len(frames) >= 2
        for frame in frames:
            assert isinstance(frame, np.ndarray) and frame.shape == FRAME and frame.dtype == np.uint8
        assert any(not np.array_equal(a, b) for a, b in zip(frames, frames[1:]))  # the hand is seen to move


@pytest.mark.parametrize("key", catalog.keys())
def test_pettingzoos_render_test_passes_in_every_mode(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's ``render_test``: each mode of ``metadata["render_modes"]`` returns what it should ("human" None
    after printing, "ansi" a str, "rgb_array" an (H, W, 3) uint8 array) through a few steps."""
    from pettingzoo.test.render_test import render_test

    module = importlib.import_module(catalog.game(key).module_path)
    render_test(lambda render_mode: module.env(render_mode=render_mode))
    assert capsys.readouterr().out  # "human" printed the tables


def test_the_threshold_games_parallel_form_draws_too() -> None:
    penv = threshold_v0.parallel_env(num_players=4, render_mode="rgb_array")
    assert penv.render() is None  # before reset there is no table
    penv.reset(seed=0)
    before = penv.render()
    penv.step({a: 1 for a in penv.agents})
    after = penv.render()
    assert before.shape == after.shape == FRAME and not np.array_equal(before, after)


def test_a_frame_is_a_new_array_each_time() -> None:
    env = make("nolimit", 2, render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    first[:] = 0  # the caller owns it: nothing cached is touched
    second = env.render()
    assert second.flags.writeable and second.any() and not np.shares_memory(first, second)


# ---- what is drawn follows the rules -------------------------------------------------------------------------
def _filled(frame: np.ndarray, empty: np.ndarray, rect: tuple[int, int, int, int]) -> float:
    """Share of the pixels of ``rect`` that differ from the empty table."""
    x0, y0, x1, y1 = rect
    return float(np.any(frame[y0:y1, x0:x1] != empty[y0:y1, x0:x1], axis=2).mean())


def _card_pixels(frame: np.ndarray, rect: tuple[int, int, int, int]) -> float:
    """Share of the pixels of ``rect`` in the card face's colour."""
    x0, y0, x1, y1 = rect
    return float(np.all(frame[y0:y1, x0:x1] == draw.CARD, axis=2).mean())


@pytest.mark.parametrize("key", ["nolimit", "limit", "shortdeck", "potlimit", "omaha", "push_fold", "leduc", "kuhn"])
def test_the_cards_drawn_are_the_cards_the_rules_dealt(key: str) -> None:
    """Played to a showdown: as many board places are filled as the rules dealt (hold'em's board after the river,
    Leduc's public card, none in Kuhn), each seat shows its hole cards; each of those rectangles is mostly card
    face in the frame, and the board places past the dealt cards stay as on the empty table."""
    players = catalog.game(key).players[0]
    env = make(key, players, render_mode="rgb_array")
    frames = play_hand(env, seed=3, policy="call")
    state = env.unwrapped.state
    view = table_view(state, env.possible_agents)
    drawn = drawn_layout(view)
    board = list(getattr(state, "board", [])) or ([state.public] if getattr(state, "public", -1) >= 0 else [])
    board_size = {"leduc": 1, "kuhn": 0, "push_fold": 5}.get(key, state.game.board_after[-1] if hasattr(state, "game") else 0)
    assert len(drawn.board) == len(board) == board_size  # a showdown: the whole board is out
    empty = draw._background(drawn.layout)
    frame = frames[-1]
    for rect in drawn.board:
        assert _card_pixels(frame, rect) > 0.5
    for rect in drawn.layout.board[len(drawn.board):]:
        assert _filled(frame, empty, rect) == 0.0
    hole = getattr(state, "hole", None) or [[c] for c in getattr(state, "private", getattr(state, "cards", []))]
    for seat, rects in enumerate(drawn.hole):
        assert len(rects) == len(hole[seat]) > 0
        assert all(_card_pixels(frame, r) > 0.2 for r in rects)  # overlapping Omaha cards show a strip of each


def test_the_flop_shows_three_cards() -> None:
    env = nolimit_holdem_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=0, options={"button": 0})
    env.step(1)  # the small blind calls
    env.step(1)  # the big blind checks: the flop is dealt
    state = env.unwrapped.state
    drawn = drawn_layout(table_view(state, env.possible_agents))
    assert len(state.board) == len(drawn.board) == 3
    frame = env.render()
    assert all(_card_pixels(frame, r) > 0.5 for r in drawn.board)
    assert all(_card_pixels(frame, r) == 0.0 for r in drawn.layout.board[3:])


def test_a_bet_changes_the_pixels_of_the_bettors_chip() -> None:
    env = nolimit_holdem_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=0, options={"button": 0})
    seat = env.possible_agents.index(env.agent_selection)  # first to act pre-flop: the button, no chips in yet
    before = env.render()
    assert drawn_layout(table_view(env.unwrapped.state, env.possible_agents)).bets[seat] is None
    env.step(3)  # a pot-sized raise
    after = env.render()
    chip = drawn_layout(table_view(env.unwrapped.state, env.possible_agents)).bets[seat]
    assert chip is not None
    x0, y0, x1, y1 = chip
    assert not np.array_equal(before[y0:y1, x0:x1], after[y0:y1, x0:x1])
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    assert tuple(after[cy, cx]) == draw.CHIP  # the chip's middle


def test_a_folded_hand_is_dimmed_and_a_fold_ends_the_hand_as_worked_by_hand() -> None:
    """Heads-up, button 0 posts the small blind (1) and folds: player_1 wins the pot of 3, results -1 and +1."""
    env = nolimit_holdem_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("AsAh"), cards_from_str("KdKc")],
                               "board": cards_from_str("2c7d9hJsQd")})
    env.step(0)
    view = table_view(env.unwrapped.state, env.possible_agents)
    assert view.result == "player_1 wins 3" and view.pot == "Pot 3" and view.status == "Hand over"
    assert [(s.result, s.stack, s.folded, s.won) for s in view.seats] == [("-1", "199", True, False), ("+1", "201", False, True)]
    assert [c.rank + c.suit for c in view.seats[0].cards] == ["As", "Ah"] and view.board == ()
    frame = env.render()
    drawn = drawn_layout(view)
    assert all(_card_pixels(frame, r) == 0.0 for r in drawn.hole[0])  # dimmed: no pixel of a bright card face
    assert all(_card_pixels(frame, r) > 0.3 for r in drawn.hole[1])


def test_a_showdown_names_the_hands_as_worked_by_hand() -> None:
    env = nolimit_holdem_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("AsAh"), cards_from_str("KdKc")],
                               "board": cards_from_str("2c7d9hJsQd")})
    play_rest = [1] * 8  # call, then check every street
    for action in play_rest:
        if not env.agents or env.terminations[env.agent_selection]:
            break
        env.step(action)
    view = table_view(env.unwrapped.state, env.possible_agents)
    assert view.result == "player_0 wins 4 (pair of aces)"
    assert [(s.note, s.result) for s in view.seats] == [("pair of aces", "+2"), ("pair of kings", "-2")]
    assert [c.rank + c.suit for c in view.board] == ["2c", "7d", "9h", "Js", "Qd"]


def test_in_a_session_every_agent_keeps_its_place_and_the_eliminated_show_as_out() -> None:
    """A tournament where players bust: each frame has a place per agent of the episode, in env seat order; the
    seats out of play hold their agent's name and "out"."""
    env = nolimit_holdem_v0.env(num_players=4, starting_stack=12, hands_per_episode=30, render_mode="rgb_array")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[-1]) if 5 in legal else int(rng.choice(legal)))  # all-in whenever allowed: players bust
        raw = env.unwrapped
        if not env.agents or len(raw._table.seats) == 4:
            continue
        view = seated(table_view(raw.state, raw._agents_at), raw._table.seats, raw.possible_agents)
        assert [s.name for s in view.seats] == raw.possible_agents
        out = [a for a in raw.possible_agents if a not in raw._agents_at]
        assert out and all(view.seats[raw.possible_agents.index(a)].note == "out" for a in out)
        assert np.array_equal(env.render(), draw.draw_table(view))
        checked += 1
    assert checked > 0


def test_seated_refuses_places_that_do_not_fit() -> None:
    view = TableView("t", "s", (SeatView("a"), SeatView("b")))
    with pytest.raises(ValueError, match="places"):
        seated(view, [0, 0], ["a", "b", "c"])
    with pytest.raises(ValueError, match="places"):
        seated(view, [0, 3], ["a", "b", "c"])
    assert seated(view, [0, 1], ["a", "b"]) is view


def test_the_layout_keeps_every_piece_apart() -> None:
    """For 2 to 10 seats: panels, bet chips with their amounts, dealer buttons, the board and the pot never overlap,
    and all lie between the title bar and the action bar."""
    def meet(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for n in range(2, MAX_SEATS + 1):
        layout = table_layout(n, 4, 5)
        px, py = layout.pot
        pieces: dict[str, tuple[int, ...]] = {"pot": (px - 70, py - 10, px + 70, py + 10)}
        for s, spot in enumerate(layout.seats):
            x, y = spot.bet
            pieces[f"panel {s}"] = spot.panel
            pieces[f"chip {s}"] = (x - CHIP_R, y - CHIP_R, x + CHIP_R + 1, y + CHIP_R + 1)
            label = (y - CHIP_R - 17, y - CHIP_R) if spot.label_above else (y + CHIP_R + 1, y + CHIP_R + 17)
            pieces[f"amount {s}"] = (x - 20, label[0], x + 20, label[1])
            bx, by = spot.button
            pieces[f"button {s}"] = (bx - CHIP_R - 2, by - CHIP_R - 2, bx + CHIP_R + 3, by + CHIP_R + 3)
            assert all(spot.panel[0] <= c[0] and c[2] <= spot.panel[2] for c in spot.cards)
        pieces["board"] = (layout.board[0][0], layout.board[0][1], layout.board[-1][2], layout.board[-1][3])
        names = list(pieces)
        for i, a in enumerate(names):
            left, top, right, bottom = pieces[a]
            assert 0 <= left and right <= WIDTH and layout.header[3] <= top and bottom <= layout.footer[1], (n, a)
            for b in names[i + 1 :]:
                assert not meet(pieces[a], pieces[b]), (n, a, b)


def test_a_view_refuses_more_cards_than_its_places() -> None:
    with pytest.raises(ValueError, match="board"):
        TableView("t", "s", (), board=(CardView("A", "s"),), board_size=0)
    with pytest.raises(ValueError, match="player_0"):
        TableView("t", "s", (SeatView("player_0", cards=(CardView("A", "s"), CardView("K", "s"))),), hole_size=1)


def test_an_unknown_state_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="no picture is known for a str"):
        table_frame("not a state", ["player_0"])


# ---- Pillow is optional ---------------------------------------------------------------------------------------
def test_without_pillow_rgb_array_names_the_extra_and_text_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    env = make("leduc", 2, render_mode="rgb_array")
    env.reset(seed=0)
    env.render()  # pieces cached: the error must come all the same
    for name in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r'pip install "poker-envs\[render\]"'):
        env.render()
    text = make("leduc", 2, render_mode="ansi")
    text.reset(seed=0)
    assert "Leduc" in text.render()


# ---- the Gymnasium view ---------------------------------------------------------------------------------------
def test_the_gymnasium_view_passes_rgb_array_through_and_passes_the_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("poker_envs/NoLimitHoldem-v0", opponent="random", num_players=3, render_mode="rgb_array")
    assert env.render_mode == "rgb_array" and "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=0)
    frame = env.render()  # through Gymnasium's passive checker
    assert frame.shape == FRAME and frame.dtype == np.uint8
    check_env(env.unwrapped)  # the render check included


class _FakeClip:
    """Stands in for moviepy's ImageSequenceClip: keeps what RecordVideo hands it."""

    made: list[_FakeClip] = []

    def __init__(self, frames: list[np.ndarray], fps: int) -> None:
        self.frames, self.fps = list(frames), fps
        _FakeClip.made.append(self)

    def write_videofile(self, path: str, logger: Any = None) -> None:
        Path(path).write_bytes(b"video")


def test_record_video_collects_one_frame_per_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RecordVideo (its moviepy writer replaced: only the encoding is not ours) captures the reset's frame and one
    per step, at the env's render_fps, and writes the episode's video on close."""
    from gymnasium.wrappers import RecordVideo

    moviepy = types.ModuleType("moviepy")
    clip_module = types.ModuleType("moviepy.video.io.ImageSequenceClip")
    clip_module.ImageSequenceClip = _FakeClip  # type: ignore[attr-defined]
    for name, module in [("moviepy", moviepy), ("moviepy.video", types.ModuleType("moviepy.video")),
                         ("moviepy.video.io", types.ModuleType("moviepy.video.io")),
                         ("moviepy.video.io.ImageSequenceClip", clip_module)]:
        monkeypatch.setitem(sys.modules, name, module)
    _FakeClip.made = []
    env = RecordVideo(gymnasium.make("poker_envs/LeducHoldem-v0", opponent="random", render_mode="rgb_array"),
                      str(tmp_path / "videos"), episode_trigger=lambda episode: True)
    _, info = env.reset(seed=0)
    steps, done = 0, False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        done = terminated or truncated
    env.close()
    (clip,) = _FakeClip.made
    assert clip.fps == env.metadata["render_fps"] == 2
    assert len(clip.frames) == steps + 1 and all(f.shape == FRAME for f in clip.frames)
    assert (tmp_path / "videos" / "rl-video-episode-0.mp4").read_bytes() == b"video"


def test_human_rendering_shows_the_frames_in_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium's HumanRendering puts the rgb_array frames in a pygame window (SDL's dummy driver here: no display)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = importlib.import_module("pygame")
    from gymnasium.wrappers import HumanRendering

    env = HumanRendering(gymnasium.make("poker_envs/KuhnPoker-v0", opponent="random", render_mode="rgb_array"))
    env.metadata = {**env.metadata, "render_fps": 1000}  # the wrapper's own copy: no waiting between frames
    _, info = env.reset(seed=0)
    assert env.window is not None and pygame.display.get_surface().get_size() == (WIDTH, HEIGHT)
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    assert np.array_equal(shown, env.env.render())
    env.close()


# ---- the GIF command ------------------------------------------------------------------------------------------
def test_the_gif_command_writes_the_hand_frame_by_frame(tmp_path: Path) -> None:
    from PIL import Image, ImageSequence

    out = tmp_path / "kuhn.gif"
    gif.main(["--game", "kuhn", "--seed", "3", "--out", str(out)])
    frames = gif.hand_frames("kuhn", 2, 3)
    decoded = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(Image.open(out))]
    assert len(decoded) == len(frames) >= 3
    for a, b in zip(frames, decoded):  # one shared palette of 48 colours: text edges move a little, the rest not
        assert np.mean(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 24) < 0.005
    durations = [f.info["duration"] for f in ImageSequence.Iterator(Image.open(out))]
    assert durations == [gif.FRAME_MS] * (len(frames) - 1) + [gif.LAST_MS]
    assert all(np.array_equal(a, b) for a, b in zip(frames, gif.hand_frames("kuhn", 2, 3)))  # the seed fixes the hand


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "kuhn"], "give --game and --out"),
    (["--game", "leduc", "--players", "3", "--out", "x.gif"], "players: Leduc hold'em seats 2 to 2, got 3"),
    (["--gallery", "d", "--game", "kuhn"], "--gallery writes every game"),
    (["--game", "kuhn", "--out", "x.gif", "--frame-ms", "0"], "must be positive"),
])
def test_the_gif_command_refuses_bad_arguments_by_name(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        gif.main(argv)
    assert message in capsys.readouterr().err


def test_the_gallery_lists_every_catalog_game_once() -> None:
    assert sorted(g.key for g in gif.GALLERY) == sorted(catalog.keys())
    for g in gif.GALLERY:
        low, high = catalog.game(g.key).players
        assert low <= g.players <= high
