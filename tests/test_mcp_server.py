"""The MCP server (wrappers.mcp_server) driven by the MCP SDK's own client: over stdio (the server spawned as a
subprocess), over streamable HTTP (a subprocess on a free 127.0.0.1 port) and in-process; full hands with
hand-worked results, two clients at one table, and every refusal as a tool error that changes nothing."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

# the [server] extra, installed by make test: a hard import, never a skip
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from wrappers.mcp_server import main, make_server
from wrappers.mcp_table import SharedTable, TableError

ROOT = Path(__file__).resolve().parents[1]
LIMIT_S = 60  # every test's client work ends within this, or fails
ENV = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()} | {"OPENBLAS_NUM_THREADS": "1"}


def run(body: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(LIMIT_S):
            await body()

    anyio.run(bounded)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool call that must succeed: its structured result."""
    result = await client.call_tool(tool, arguments, read_timeout_seconds=LIMIT_S)
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content  # the text content is the same JSON
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """A tool call that must be refused: the error's text (one message, no traceback)."""
    result = await client.call_tool(tool, arguments, read_timeout_seconds=LIMIT_S)
    assert result.is_error
    text = result.content[0].text
    assert "Traceback" not in text
    return text


def stdio_server(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "wrappers.mcp_server", *args], cwd=str(ROOT), env=ENV)


@pytest.fixture
def http_url() -> Iterator[str]:
    """A server on a free 127.0.0.1 port (--port 0): 3 seats, seats 0 and 1 the clients', seat 2 the heuristic."""
    process = subprocess.Popen([sys.executable, "-m", "wrappers.mcp_server", "--transport", "http", "--port", "0", "--seats", "3",
                                "--opponents", "heuristic", "--seed", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT, env=ENV)
    try:
        ready, _, _ = select.select([process.stdout], [], [], LIMIT_S)
        assert ready, "the server printed no address"
        line = process.stdout.readline()
        assert line.startswith("serving nolimit (3 seats, clients [0, 1]) on http://127.0.0.1:"), line + process.stderr.read()
        yield line.split(" on ")[1].strip()
    finally:
        process.terminate()
        process.wait(10)


def min_raise(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return min((a for a in legal if a["action"] in ("bet", "raise")), key=lambda a: a["to"])


# Full hands ------------------------------------------------------------------------------------------------------
def test_stdio_hands_against_the_fold_agent_have_hand_worked_results() -> None:
    """Heads-up 1/2 blinds against the fold agent: as BTN/SB a min raise wins the big blind (+1 bb); as BB the
    small blind folds before our turn (+0.5 bb). The button moves each hand, so two hands see both."""

    async def body() -> None:
        async with Client(stdio_server("--game", "nolimit", "--seats", "2", "--opponents", "fold", "--seed", "3"),
                          read_timeout_seconds=LIMIT_S) as client:
            info = await call(client, "table_info")
            assert info == {"game": "nolimit", "seats": 2, "client_seats": [0], "zoo_seats": {"1": "fold"}, "unit": "chips",
                            "action_words": ["fold", "check", "call", "bet", "raise", "all-in"]}
            assert "unknown token" in await refused(client, "legal_actions", token="not-a-token")
            token = (await call(client, "join_table"))["token"]
            positions = []
            for hand in range(2):
                state = await call(client, "wait_for_turn", token=token, timeout_s=10)
                assert state["hand"] == hand and not state["timed_out"]
                position = state["view"]["seats"][0]["position"]
                positions.append(position)
                if position == "BTN/SB":
                    assert state["status"] == "your_turn"
                    legal = (await call(client, "legal_actions", token=token))["legal_actions"]
                    assert legal == state["view"]["legal_actions"]
                    raise_to = min_raise(legal)["to"]
                    assert raise_to == 4  # the big blind (2) plus a raise of the big blind
                    state = await call(client, "act", token=token, action="raise", amount=raise_to)
                    assert state["played"] == "raise to 4"
                    assert state["view"]["actions"][-2:] == [
                        {"street": "preflop", "seat": 0, "action": "raise", "amount": 4, "added": 3, "all_in": False},
                        {"street": "preflop", "seat": 1, "action": "fold", "amount": 2, "added": 0, "all_in": False}]
                    expected = 1.0
                else:
                    assert position == "BB"
                    assert state["view"]["actions"] == [
                        {"street": "preflop", "seat": 1, "action": "fold", "amount": 1, "added": 0, "all_in": False}]
                    expected = 0.5
                assert state["status"] == "hand_over"
                assert state["result"] == {"rewards_bb": {"0": expected, "1": -expected}, "your_reward_bb": expected}
                await call(client, "next_hand", token=token)
            assert sorted(positions) == ["BB", "BTN/SB"]

    run(body)


def test_http_two_clients_play_a_hand_to_its_end_at_one_table(http_url: str) -> None:
    """Two clients hold seats 0 and 1 of a 3-seat table (seat 2 the heuristic agent); each waits for its turn and
    calls or checks; both see the same zero-sum result, and a fold lost exactly what the seat put in."""
    results: dict[int, dict[str, Any]] = {}

    async def player(client: Client, token: str, seat: int) -> None:
        while True:
            state = await call(client, "wait_for_turn", token=token, timeout_s=20)
            assert not state["timed_out"] and state["seat"] == seat
            if state["status"] == "hand_over":
                results[seat] = state
                return
            words = [a["action"] for a in state["view"]["legal_actions"]]
            await call(client, "act", token=token, action="call" if "call" in words else "check")

    async def body() -> None:
        async with Client(http_url, read_timeout_seconds=LIMIT_S) as first, Client(http_url, read_timeout_seconds=LIMIT_S) as second:
            one = await call(first, "join_table")
            assert (one["seat"], one["status"], one["waiting_for"], one["view"]) == (0, "waiting_for_players", [1], None)
            two = await call(second, "join_table")
            assert two["seat"] == 1 and two["hand"] == 0
            assert "the table is full" in await refused(second, "join_table")
            to_act = two["to_act"]
            assert to_act in (0, 1)  # the zoo seat acts at once: the turn is a client's
            waiting = (first, one["token"]) if to_act == 1 else (second, two["token"])  # its act is refused
            text = await refused(waiting[0], "act", token=waiting[1], action="fold")
            assert f"it is seat {to_act}'s turn, not yours (seat {1 - to_act})" in text
            assert (await call(second, "get_state", token=two["token"]))["view"] == two["view"]  # nothing was played
            async with anyio.create_task_group() as group:
                group.start_soon(player, first, one["token"], 0)
                group.start_soon(player, second, two["token"], 1)
            assert results[0]["result"]["rewards_bb"] == results[1]["result"]["rewards_bb"]
            rewards = results[0]["result"]["rewards_bb"]
            assert abs(sum(rewards.values())) < 1e-9
            view = results[0]["view"]
            for seat in view["seats"]:
                if seat["folded"]:
                    assert rewards[str(seat["seat"])] == -seat["contributed"] / view["big_blind"]
            for seat in (0, 1):
                assert results[seat]["result"]["your_reward_bb"] == rewards[str(seat)]
            first_ask = await call(first, "next_hand", token=one["token"])
            assert first_ask["status"] == "waiting_for_players" and first_ask["waiting_for"] == [1]
            second_ask = await call(second, "next_hand", token=two["token"])
            assert second_ask["hand"] == 1 and second_ask["status"] in ("your_turn", "other_turn", "hand_over")

    run(body)


# Refusals --------------------------------------------------------------------------------------------------------
def test_every_refusal_names_the_problem_and_plays_nothing() -> None:
    """In process (the SDK's in-memory client): bad tokens, words, amounts and turns are tool errors naming what is
    allowed, and the table is as it was after each."""

    async def body() -> None:
        table = SharedTable("nolimit", 2, ["fold"], seed=3)
        async with Client(make_server(table), read_timeout_seconds=LIMIT_S) as client:
            assert "unknown token" in await refused(client, "get_state", token="nope")
            token = (await call(client, "join_table"))["token"]
            state = await call(client, "get_state", token=token)
            while state["status"] != "your_turn":  # as BB the fold agent folds first: deal until we are BTN/SB
                await call(client, "next_hand", token=token)
                state = await call(client, "get_state", token=token)
            assert state["view"]["to_call"] == 1
            assert "the hand is still being played" in await refused(client, "next_hand", token=token)
            legal = "legal now: fold, call, raise to 4, raise to 6, raise to 10, all-in"
            cases = [
                ({"action": "shove it"}, "unknown action 'shove it': use one of fold, check, call, bet, raise, all-in"),
                ({"action": "check"}, "you cannot check: there is 1 to call"),
                ({"action": "raise", "amount": 5}, "raise to 5 is not a legal size"),
                ({"action": "raise", "amount": 1000}, "is outside the legal range"),
                ({"action": "raise", "amount": -4}, "amount must be a positive number (the street total in chips), not -4"),
                ({"action": "fold", "amount": 3}, "fold takes no amount (only bet and raise do"),
                ({"action": "raise"}, "say how much: raise to X, with X from 4 to 200"),
                ({"amount": 4}, "action\n  Field required"),  # malformed: the SDK's validation names the argument
                ({"action": ["raise"]}, "action\n  Input should be a valid string"),
            ]
            for arguments, expected in cases:
                text = await refused(client, "act", token=token, **arguments)
                assert expected in text, (arguments, text)
                if "amount" in arguments and arguments.get("action") == "raise" and arguments["amount"] in (5, 1000):
                    assert legal in text
                assert await call(client, "get_state", token=token) == state  # nothing was played
            assert "timeout_s must be in (0, 300]" in await refused(client, "wait_for_turn", token=token, timeout_s=0)
            done = await call(client, "act", token=token, action="call")
            assert done["played"] == "call 1" and done["status"] in ("your_turn", "hand_over")
            left = await call(client, "leave_table", token=token)
            assert left == {"seat": 0, "left": True}
            assert "unknown token" in await refused(client, "act", token=token, action="fold")

    run(body)


def test_acting_after_the_hand_and_a_wait_that_times_out() -> None:
    async def body() -> None:
        async with Client(make_server(SharedTable("limit", 3, [], seed=1)), read_timeout_seconds=LIMIT_S) as client:
            tokens = [(await call(client, "join_table"))["token"] for _ in range(2)]
            state = await call(client, "wait_for_turn", token=tokens[0], timeout_s=0.1)  # seat 2 not joined yet
            assert state["timed_out"] and state["status"] == "waiting_for_players" and state["waiting_for"] == [2]
            assert "no hand is in play: waiting for client seats [2]" in await refused(client, "act", token=tokens[0], action="call")
            assert "no hand has been dealt yet" in await refused(client, "next_hand", token=tokens[0])
            tokens.append((await call(client, "join_table"))["token"])
            while True:  # everyone folds when they may: the hand ends preflop
                states = [await call(client, "get_state", token=t) for t in tokens]
                if states[0]["status"] == "hand_over":
                    break
                seat = states[0]["to_act"]
                await call(client, "act", token=tokens[seat], action="fold")
            assert "the hand is over: next_hand asks for the next one" in await refused(client, "act", token=tokens[0], action="fold")
            rewards = states[0]["result"]["rewards_bb"]
            assert sorted(rewards.values()) == [-0.5, 0.0, 0.5]  # the small blind folded to the big blind

    run(body)


def your_turn(table: SharedTable) -> tuple[str, dict[str, Any]]:
    """A seat at ``table`` (heads-up, one client) and the state of the first hand where it has a decision."""
    token = table.join()["token"]
    state = table.state(token)
    while state["status"] != "your_turn":
        state = table.next_hand(token)
    return token, state


def test_units_and_sizes_of_other_games() -> None:
    """Fixed-limit: a raise takes no amount (one size: the big blind's 2 chips more, to 4). Amounts in big blinds
    (--amounts bb): 2.5 is no legal size, 3 is (raise to 3 bb = 6 chips). Push/fold: all-in, in big blinds."""
    table = SharedTable("limit", 2, ["random"], seed=2)
    token, state = your_turn(table)
    assert state["view"]["seats"][state["seat"]]["position"] == "BTN/SB" and state["view"]["to_call"] == 1
    assert state["view"]["legal_actions"][-1]["to"] == 4  # the big blind of 2, raised by one small bet (2)
    assert table.act(token, "raise")["played"] == "raise to 4 (the only size)"

    table = SharedTable("nolimit", 2, ["random"], seed=2, amounts="bb")
    token, state = your_turn(table)
    assert table.views_unit() == "big blinds" and state["view"]["unit"] == "big blinds"
    sizes = [a["to"] for a in state["view"]["legal_actions"] if a["action"] == "raise"]
    assert 3.0 in sizes and 2.5 not in sizes
    with pytest.raises(TableError, match="raise to 2.5 is not a legal size"):
        table.act(token, "raise", 2.5)
    after = table.act(token, "raise", 3)
    mine = [a for a in after["view"]["actions"] if a["seat"] == state["seat"]]
    assert mine[0]["action"] == "raise" and mine[0]["amount"] == 3.0

    table = SharedTable("push_fold", 2, ["random"], seed=2)
    token, state = your_turn(table)
    assert table.views_unit() == "big blinds" and [a["action"] for a in state["view"]["legal_actions"]] == ["fold", "all-in"]
    with pytest.raises(TableError, match="all-in takes no amount"):
        table.act(token, "all-in", 10)
    done = table.act(token, "all-in")
    assert done["status"] == "hand_over" and abs(sum(done["result"]["rewards_bb"].values())) < 1e-9


def test_same_seed_same_deals() -> None:
    def deal(seed: int) -> list[str]:
        table = SharedTable("nolimit", 2, ["random"], seed=seed)
        token = table.join()["token"]
        return table.state(token)["view"]["hole_cards"]

    assert deal(11) == deal(11)
    assert len({tuple(deal(s)) for s in range(6)}) > 1


# Command line ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "message"), [
    (["--game", "kuhn"], "game 'kuhn' is not a game the text views speak"),
    (["--seats", "2", "--opponents", "random", "random"], "opponents must be a list of at most 1 zoo agent specs"),
    (["--opponents", "nonsense"], "nonsense"),
    (["--port", "70000"], "--port must be in 0..65535"),
])
def test_command_line_errors_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m wrappers.mcp_server: error: ") and message in err and err.count("\n") == 1
