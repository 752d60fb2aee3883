"""The viewer's frames, decision-log replays, play table and JSON endpoints, without a browser
(tests/test_viewer_browser.py drives the page)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent_zoo.tournament import run_tournament
from agent_zoo.tournament_config import TournamentConfig
from agent_zoo.viewer import Library, PlayTable
from agent_zoo.viewer.__main__ import main
from agent_zoo.viewer.server import Viewer, ViewerServer
from poker_envs import nolimit_holdem_v0, phh
from tests.llm_stub import StubServer
from wrappers.hand_history import HandHistoryRecorder

# A heads-up hand worked by hand. PHH heads-up: p1 is the big blind, p2 the button and small blind; blinds 1/2.
WORKED = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
players = ["Alice", "Bob"]
actions = ["d dh p1 AhKh", "d dh p2 7c7d", "p2 cbr 6", "p1 cc", "d db Kd7s2c", "p1 cbr 6", "p2 cbr 20", "p1 cc",
           "d db 3h", "p1 cc", "p2 cbr 30", "p1 cc", "d db 9d", "p1 cc", "p2 cc", "p1 sm AhKh", "p2 sm 7c7d"]
"""
FLOP, TURN, RIVER = ["Kd", "7s", "2c"], ["Kd", "7s", "2c", "3h"], ["Kd", "7s", "2c", "3h", "9d"]
# (text, pot, board) of every frame: the pot counted by hand, chip by chip
WORKED_FRAMES = [
    ("Cards dealt, blinds posted", 3, []), ("Bob raises to 6", 8, []), ("Alice calls 4", 12, []),
    ("Flop: Kd 7s 2c", 12, FLOP), ("Alice bets 6", 18, FLOP), ("Bob raises to 20", 38, FLOP),
    ("Alice calls 14", 52, FLOP), ("Turn: 3h", 52, TURN), ("Alice checks", 52, TURN), ("Bob bets 30", 82, TURN),
    ("Alice calls 30", 112, TURN), ("River: 9d", 112, RIVER), ("Alice checks", 112, RIVER), ("Bob checks", 112, RIVER),
    ("Showdown: Alice -56, Bob +56", 112, RIVER),
]


def worked_file(folder: Path) -> Path:
    path = folder / "worked.phh"
    path.write_text(WORKED)
    return path


def test_a_hand_worked_by_hand_frame_by_frame(tmp_path: Path) -> None:
    replay = Library.load([worked_file(tmp_path)]).replay(0)
    assert replay["names"] == ["Alice", "Bob"] and replay["notes"] == []
    assert [(f["text"], f["pot"], f["board"]) for f in replay["frames"]] == WORKED_FRAMES
    first, raise_, end = replay["frames"][0], replay["frames"][1], replay["frames"][-1]
    assert [(s["stack"], s["bet"]) for s in first["seats"]] == [(198, 2), (199, 1)]
    assert [(s["stack"], s["bet"]) for s in raise_["seats"]] == [(198, 2), (194, 6)] and raise_["actor"] == 1
    assert first["seats"][1]["button"] and not first["seats"][0]["button"]
    assert [s["won"] for s in end["seats"]] == [-56, 56] and [s["stack"] for s in end["seats"]] == [144, 256]
    assert [s["hand"] for s in end["seats"]] == ["pair of kings", "three of a kind, sevens"] and end["over"]


def test_unknown_cards_stay_face_down(tmp_path: Path) -> None:
    path = tmp_path / "hidden.phh"
    path.write_text(WORKED.replace("d dh p1 AhKh", "d dh p1 ????").replace('"p1 sm AhKh", ', ""))
    replay = Library.load([path]).replay(0)
    assert all(f["seats"][0]["cards"] == [None, None] for f in replay["frames"])
    assert all(f["seats"][1]["cards"] == ["7c", "7d"] for f in replay["frames"])
    assert replay["notes"]  # the drawn cards decided the showdown: said so


def test_recorded_hands_replay_with_the_rules_pots_and_results(tmp_path: Path) -> None:
    """Hands an environment recorded (multi-way, random play): before each action a frame shows the pot the rules
    had when the action was taken, and the last frame the recorded result."""
    path = tmp_path / "games.phhs"
    env = HandHistoryRecorder(nolimit_holdem_v0.env(num_players=4), path=path)
    rng = np.random.default_rng(3)
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    library = Library.load([path])
    assert len(library.entries) == 6
    for k, hand in enumerate(env.hands):
        pots: list[int] = []
        phh.replay(hand, on_action=lambda step, seat, state, kind, to, seen=pots: seen.append(state.pot()))
        frames = library.replay(k)["frames"]
        acting = [i for i, f in enumerate(frames) if f["actor"] is not None]
        assert [frames[i - 1]["pot"] for i in acting] == pots
        assert [frames[i - 1]["to_act"] for i in acting] == [frames[i]["actor"] for i in acting]
        recorded = [b - a for a, b in zip(hand.starting_stacks, hand.finishing_stacks)]
        assert [s["won"] for s in frames[-1]["seats"]] == recorded and frames[-1]["over"]


def test_an_action_the_rules_refuse_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(WORKED.replace('"p2 cbr 30"', '"p2 cbr 1"'))
    library = Library.load([path])  # listed; the error comes with the replay
    with pytest.raises(phh.PHHError, match=r"action 10 'p2 cbr 1'"):
        library.replay(0)


def test_paths_that_are_not_hands_are_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="no such file or folder"):
        Library.load([tmp_path / "missing.phh"])
    with pytest.raises(ValueError, match=r"reads PHH hand histories \(.phh, .phhs\) and decision logs"):
        Library.load([tmp_path / "notes.txt"])
    (tmp_path / "log.jsonl").write_text('{"block": 0}\n')
    with pytest.raises(ValueError, match=r"log.jsonl:1: not a decision"):
        Library.load([tmp_path / "log.jsonl"])
    library = Library.load([tmp_path])  # in a folder such a file is skipped and said so
    assert library.entries == [] and "log.jsonl:1" in library.skipped[0]


# ---- decision logs ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def decisions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The decision logs of a heads-up tournament of two language models (a scripted stub server)."""
    folder = tmp_path_factory.mktemp("decisions")
    with StubServer() as stub:
        run_tournament(TournamentConfig(game="nolimit", agents=[f"llm:a@{stub.url}", f"llm:b@{stub.url}"], hands=8,
                                        players=2, seed=5, block_deals=2, tables=4, progress=False, log_dir=folder))
    yield folder


def log_lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for f in sorted(folder.glob("*.jsonl")) for line in f.read_text().splitlines()]


def test_decision_logs_replay_with_every_reply_and_both_hands(decisions: Path) -> None:
    lines = log_lines(decisions)
    library = Library.load([decisions])
    assert len(library.entries) == 8 and {e["kind"] for e in library.listing()} == {"log"}  # two agents, one hand each
    replies = 0
    for k in range(len(library.entries)):
        frames = library.replay(k)["frames"]
        logged = [f for f in frames if "reply" in f]
        replies += len(logged)
        for frame in logged:
            assert frame["reply"]["replies"] and frame["seats"][frame["actor"]]["name"] in ("llm:a", "llm:b")
        deciders = {f["actor"] for f in logged}  # a seat that made a decision logged its cards; the others are hidden
        assert all((None not in s["cards"]) == (i in deciders) for f in frames for i, s in enumerate(f["seats"]))
    assert replies == len(lines)


def test_a_log_the_rules_contradict_is_named(decisions: Path, tmp_path: Path) -> None:
    lines = [json.dumps(line) for line in log_lines(decisions)[:1]]
    doctored = json.loads(lines[0])
    doctored["state"]["pot"] += 1
    (tmp_path / "agent0_block00000.jsonl").write_text(json.dumps(doctored) + "\n")
    library = Library.load([tmp_path])
    with pytest.raises(ValueError, match=r"agent0_block00000.jsonl:1: the pot was \d+ chips when it was taken"):
        library.replay(0)


def test_a_log_in_big_blinds_is_shown_as_logged(tmp_path: Path) -> None:
    with StubServer() as stub:
        run_tournament(TournamentConfig(game="push_fold", agents=[f"llm:a@{stub.url}", "push_fold"], hands=4,
                                        players=2, seed=1, block_deals=2, tables=2, progress=False, log_dir=tmp_path))
    lines = log_lines(tmp_path)
    library = Library.load([tmp_path])
    frames = [f for k in range(len(library.entries)) for f in library.replay(k)["frames"]]
    assert len(frames) == len(lines) and [f["pot"] for f in frames] == [line["state"]["pot"] for line in lines]
    assert "not replayed through the rules" in library.replay(0)["notes"][0]


# ---- the play table -----------------------------------------------------------------------------------------


def test_against_a_folder_every_hand_pays_the_blind_it_folds() -> None:
    """The fold agent folds whenever it may: when the person raises from the button it folds its big blind (+1 bb),
    and when it has the button it folds its small blind before the person acts (+0.5 bb)."""
    table = PlayTable("nolimit", "fold", seed=2)
    expected = 0.0
    for _ in range(6):
        if table.over:
            assert table.log == ["fold: fold"] and table.won == 0.5
        else:
            raise_ = next(a["id"] for a in table.view()["legal"] if a["kind"] == "raise")
            table.act(raise_)
            assert table.over and table.won == 1.0 and table.log[1] == "fold: fold"
        expected += table.won
        assert table.view()["total"] == expected
        table.new_hand()
    assert table.hands == 6


def test_raise_amounts_are_checked_against_the_legal_sizes() -> None:
    table = PlayTable("nolimit", "fold", seed=0, env_config={"bet_sizing": "chips"})
    while table.over:  # a hand where the person acts first (the fold agent folds the others at once)
        table.new_hand()
    view = table.view()
    assert view["sizes"] == {"min": 4.0, "max": 199.0, "kind": "raise"} and {a["kind"] for a in view["legal"]} == {
        "fold", "call", "all_in"}
    with pytest.raises(ValueError, match=r"amount 3 is not a legal bet or raise-to size here; legal sizes: 4, 5, 6"):
        table.act(amount=3)
    with pytest.raises(ValueError, match=r"action 999 is not legal here; legal actions: 0 \(fold\), 1 \(call 1\)"):
        table.act(999)
    table.act(amount=7)
    assert table.log[0] == "you: raise to 7" and table.over and table.won == 1.0


def test_a_game_without_a_betting_table_shows_what_the_seat_knows() -> None:
    table = PlayTable("kuhn", "random", seed=1)
    while table.over:
        table.new_hand()
    view = table.view()
    assert view["table"] is None and view["info"].startswith("your view: ")
    assert sorted(a["label"] for a in view["legal"]) == ["bet", "pass"]


def test_the_play_table_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        PlayTable("nolimit", "nosuch")
    with pytest.raises(ValueError, match="heads-up"):
        PlayTable("nolimit", "random", env_config={"num_players": 3})
    with pytest.raises(ValueError, match="game 'chess' is unknown"):
        PlayTable("chess", "random")


# ---- the JSON endpoints ---------------------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ViewerServer]:
    viewer = Viewer(Library.load([worked_file(tmp_path)]), {"game": "nolimit", "agent": "fold", "seed": 2})
    srv = ViewerServer(viewer, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def call(srv: ViewerServer, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=data, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, payload, kind = response.status, response.read(), response.headers["Content-Type"]
    except urllib.error.HTTPError as err:
        status, payload, kind = err.code, err.read(), err.headers["Content-Type"]
    return status, json.loads(payload) if kind == "application/json" else payload.decode()


def test_the_hands_endpoints(server: ViewerServer) -> None:
    status, listing = call(server, "/api/hands")
    assert status == 200 and listing["skipped"] == [] and len(listing["hands"]) == 1
    assert listing["hands"][0]["title"] == "worked.phh · Alice, Bob" and listing["hands"][0]["kind"] == "phh"
    assert listing["hands"][0]["source"].endswith("worked.phh")
    status, replay = call(server, "/api/hands/0")
    assert status == 200 and [f["pot"] for f in replay["frames"]] == [pot for _, pot, _ in WORKED_FRAMES]
    assert call(server, "/api/hands/5") == (404, {"error": "hand id 5 is not one of 0..0"})
    assert call(server, "/api/hands/x")[0] == 404 and call(server, "/api/nothing")[0] == 404


def test_the_page_and_its_files_are_served(server: ViewerServer) -> None:
    status, page = call(server, "/")
    assert status == 200 and '<script src="/static/viewer.js">' in page and "viewer.css" in page
    assert call(server, "/static/viewer.js")[0] == 200 and call(server, "/static/viewer.css")[0] == 200
    assert call(server, "/static/secret.py")[0] == 404 and call(server, "/static/../server.py")[0] == 404


def test_the_play_endpoints(server: ViewerServer) -> None:
    status, view = call(server, "/api/play")
    assert status == 200 and view["agent"] == "fold" and view["total"] == 0
    while view["over"]:
        view = call(server, "/api/play/deal", {})[1]
    status, error = call(server, "/api/play/act", {"action": 42})
    assert status == 400 and error["error"].startswith("action 42 is not legal here; legal actions: 0 (fold)")
    assert call(server, "/api/play/act", {"action": 1, "amount": 4})[0] == 400
    assert call(server, "/api/play/act", {"amount": "all"}) == (400, {"error": "amount must be a number of chips, got 'all'"})
    assert call(server, "/api/play/act", b"[1]") == (400, {"error": "the request body must be a JSON object, got list"})
    assert call(server, "/api/play/act", b"{")[0] == 400
    status, view = call(server, "/api/play/act", {"action": 0})  # the person folds the small blind
    assert status == 200 and view["over"] and view["won"] == -0.5 and view["total"] == -0.5 and view["hands"] == 1
    assert call(server, "/api/play/act", {"action": 0}) == (400, {"error": "the hand is over: deal the next one"})
    status, error = call(server, "/api/play/new", {"agent": "nosuch"})
    assert status == 400 and "unknown agent 'nosuch'" in error["error"]
    status, view = call(server, "/api/play/new", {"game": "kuhn", "agent": "random", "seed": 3})
    assert status == 200 and view["game"] == "kuhn" and view["hands"] == 0 and view["info"]
    assert call(server, "/api/play/new", {"colour": "red"})[0] == 400


def test_the_command_line_refuses_bad_files_and_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path / "missing.phh"), "--port", "0"])
    assert exit_.value.code == 2 and "missing.phh: no such file or folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main([str(worked_file(tmp_path)), "--agent", "nosuch", "--port", "0"])
    assert exit_.value.code == 2 and "unknown agent 'nosuch'" in capsys.readouterr().err
