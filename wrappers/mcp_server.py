"""A poker table served over the Model Context Protocol (MCP), so LLM agents and trainers that speak MCP can play.

One server holds one :class:`~wrappers.mcp_table.SharedTable`: the first seats are for clients (several clients,
each with its own seat and token), the last ones are played by zoo agents (``--opponents``, one spec per seat).
Tools (every one but ``table_info`` takes the ``token`` that ``join_table`` gave):

=====================  ==========================================================================================
``table_info``         the game, seats, which seats are the clients' and the zoo's, the unit, the action words
``join_table``         take a free client seat: ``{"token", "seat", "status", ...}`` (the state below)
``get_state``          ``{"seat", "status", "hand", "to_act", "waiting_for", "view", "result"?}``: ``status`` is
                       ``waiting_for_players``, ``your_turn``, ``other_turn`` or ``hand_over``; ``view`` the JSON
                       view of the table for the seat (``poker_envs.text.STATE_SCHEMA``); ``result`` every seat's
                       reward in big blinds once the hand is over
``legal_actions``      the seat's legal actions now (id, action word, amount, street total, text)
``act``                ``action`` (fold, check, call, bet, raise, all-in) and, for bet / raise, ``amount``: the
                       street total (raise *to*), in the view's unit; returns the state after the zoo's replies
``wait_for_turn``      wait (up to ``timeout_s``) until it is the seat's turn or the hand is over
``next_hand``          ask for the next hand: dealt once every client seat has asked
``leave_table``        free the seat
=====================  ==========================================================================================

A refusal (unknown token, not your turn, an unknown word, an illegal size, a malformed argument) is an MCP tool
error (``isError``) whose text names what is wrong and what is allowed; nothing is ever played in its place.

Run: ``python -m wrappers.mcp_server --game nolimit --seats 3 --opponents heuristic`` (stdio: an MCP client
launches it) or ``... --transport http --port 8765`` (streamable HTTP at ``http://127.0.0.1:8765/mcp``).
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import anyio
import anyio.to_thread

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(f"wrappers.mcp_server needs the MCP SDK: pip install 'poker-envs[server]' ({exc})") from exc

from wrappers.mcp_table import ACTION_WORDS, SharedTable, TableError
from wrappers.text_env import TEXT_GAMES

MAX_WAIT_S = 300.0  # the longest wait_for_turn
POLL_S = 0.02  # how often wait_for_turn looks at the table
INSTRUCTIONS = ("A poker table. Call join_table once to get a seat and a token, then loop: wait_for_turn; when status "
                "is your_turn, read the view (or legal_actions) and call act; when status is hand_over, read result "
                "and call next_hand. Amounts of bet and raise are the street total (raise to X) in the view's unit.")


def make_server(table: SharedTable) -> MCPServer:
    """The MCP server whose tools play ``table`` (run it with ``.run()`` or mount its ``streamable_http_app()``)."""
    server = MCPServer("poker-envs", instructions=INSTRUCTIONS, log_level="WARNING")

    def checked(call: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        """``call(*args)``, a TableError made the tool error the client reads."""
        try:
            return call(*args)
        except TableError as exc:
            raise ToolError(str(exc)) from None

    @server.tool()
    def table_info() -> dict[str, Any]:
        """The table: game, seats, the clients' seats and the zoo agents', the unit of amounts, the action words."""
        return {"game": table.game, "seats": table.num_seats, "client_seats": list(table.client_seats),
                "zoo_seats": {str(s): spec for s, spec in zip(sorted(table.agents), table.opponents)},
                "unit": table.views_unit(), "action_words": list(ACTION_WORDS)}

    @server.tool()
    def join_table() -> dict[str, Any]:
        """Take a free client seat. Returns its token (pass it to every other tool) and the state for the seat."""
        return checked(table.join)

    @server.tool()
    def get_state(token: str) -> dict[str, Any]:
        """The table for your seat: status (waiting_for_players, your_turn, other_turn, hand_over), the JSON view,
        and the result (every seat's reward in big blinds) once the hand is over."""
        return checked(table.state, token)

    @server.tool()
    def legal_actions(token: str) -> dict[str, Any]:
        """Your legal actions now (empty unless it is your turn): action word, amount, street total, text."""
        return checked(table.legal_actions, token)

    @server.tool()
    def act(token: str, action: str, amount: float | None = None) -> dict[str, Any]:
        """Play an action: fold, check, call, bet, raise or all-in. bet and raise take amount, the street total
        after the action (raise to X) in the view's unit; the others take none. Returns the state after it."""
        return checked(table.act, token, action, amount)

    @server.tool()
    async def wait_for_turn(token: str, timeout_s: float = 30.0) -> dict[str, Any]:
        """Wait until it is your turn or the hand is over, at most timeout_s seconds (0 < timeout_s <= 300).
        Returns the state; timed_out is true when the wait ended without either."""
        if not 0 < timeout_s <= MAX_WAIT_S:
            raise ToolError(f"timeout_s must be in (0, {MAX_WAIT_S:g}] seconds, not {timeout_s!r}")
        deadline = time.monotonic() + timeout_s
        while True:  # read in a worker thread: the table's lock may be held while zoo agents act
            state = await anyio.to_thread.run_sync(checked, table.state, token)
            if state["status"] in ("your_turn", "hand_over"):
                return {**state, "timed_out": False}
            if time.monotonic() >= deadline:
                return {**state, "timed_out": True}
            await anyio.sleep(POLL_S)

    @server.tool()
    def next_hand(token: str) -> dict[str, Any]:
        """Ask for the next hand once this one is over; it is dealt when every client seat has asked."""
        return checked(table.next_hand, token)

    @server.tool()
    def leave_table(token: str) -> dict[str, Any]:
        """Give up your seat (the token stops working); the next join_table takes it."""
        return checked(table.leave, token)

    return server


# Command line ------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m wrappers.mcp_server",
        description="Serve a poker table to MCP clients (LLM agents, trainers): the first seats are the clients', "
                    "the last ones zoo agents'.",
        epilog="examples:\n  python -m wrappers.mcp_server --game nolimit --opponents heuristic\n"
               "  python -m wrappers.mcp_server --seats 3 --opponents --transport http --port 8765",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default="nolimit", help=f"one of {', '.join(TEXT_GAMES)} (default nolimit)")
    parser.add_argument("--seats", type=int, default=2, help="seats at the table (default 2)")
    parser.add_argument("--opponents", nargs="*", default=["heuristic"], metavar="SPEC",
                        help="zoo agent specs, one per zoo seat (the last seats); the other seats are the clients'. "
                             "Default: one heuristic; --opponents with no spec: every seat is a client's")
    parser.add_argument("--transport", default="stdio", choices=["stdio", "http"],
                        help="stdio (the client launches the server) or http (streamable HTTP at /mcp); default stdio")
    parser.add_argument("--host", default="127.0.0.1", help="with http: the address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="with http: the port (default 8000; 0 picks a free one, printed)")
    parser.add_argument("--amounts", default="chips", choices=["chips", "bb"], help="unit of the view and of amounts (default chips)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals and the zoo agents (default: fresh entropy)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    parser.error = lambda message: parser.exit(2, f"{parser.prog}: error: {message}\n")  # type: ignore[method-assign]  # one line
    args = parser.parse_args(argv)
    try:
        if not 0 <= args.port <= 65535:
            raise ValueError(f"--port must be in 0..65535, not {args.port}")
        server = make_server(SharedTable(args.game, args.seats, args.opponents, seed=args.seed, amounts=args.amounts))
    except (ValueError, TypeError, KeyError, ImportError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    if args.transport == "stdio":
        server.run("stdio")  # stdout is the protocol's: nothing else is printed
        return
    import uvicorn

    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(128)  # listening before the line below: a client that reads it can connect at once
    except OSError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    host, port = sock.getsockname()[:2]
    print(f"serving {args.game} ({args.seats} seats, clients {list(range(args.seats - len(args.opponents)))}) "
          f"on http://{host}:{port}/mcp", flush=True)
    app = server.streamable_http_app(host=args.host)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


if __name__ == "__main__":
    main(sys.argv[1:])
