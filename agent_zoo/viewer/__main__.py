"""Replay hands and play against a zoo agent in the browser: a local web server for one page.

    python -m agent_zoo.viewer out/play/play_nolimit.phhs out/tournament/decisions --port 8000

FILE: PHH hand histories (.phh, .phhs: written by hand, published collections, the hands an environment
recorded with wrappers.hand_history, the hands of the terminal play tool's --out), language-model decision logs
(.jsonl, written by a tournament's --out DIR under DIR/decisions) or folders of them. Open the address it prints: the
Replays tab steps through each hand street by street and action by action (every frame computed by the rules),
with the language model's replies beside its decisions; the Play tab deals heads-up hands of --game against
--agent, with your legal actions as buttons and your running total. The server listens on --host (default
this machine only) until Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agent_zoo import cli
from agent_zoo.viewer.library import Library
from agent_zoo.viewer.server import Viewer, ViewerServer
from agent_zoo.viewer.table import PlayTable
from poker_envs import catalog

EXAMPLES = (
    "hands.phhs --port 8000",
    "--game nolimit --agent heuristic --seed 1",
    "out/decisions --agent resolve:0.3",
)


def build_parser() -> argparse.ArgumentParser:
    """The command line (the zoo's dialect, see ``agent_zoo.cli``)."""
    parser = cli.parser("viewer", __doc__.split("\n\n")[0], epilog=cli.examples("viewer", *EXAMPLES))
    parser.add_argument("files", nargs="*", metavar="FILE", help="PHH files (.phh, .phhs), decision logs (.jsonl) or "
                        "folders of them, to replay")
    parser.add_argument("--port", type=cli.non_negative_int, default=8000, help="the port to listen on (0: a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0: every interface)")
    parser.add_argument("--game", default="nolimit", choices=catalog.keys(), help="the game of the Play tab")
    parser.add_argument("--agent", default="random", help="the agent spec you play against (see python -m "
                        "agent_zoo.tournament --help), e.g. heuristic, random, resolve:0.3")
    cli.add_seed(parser, default=None, what="the cards and the agent (default: fresh entropy)")
    cli.add_env_config(parser)
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    env_config = cli.env_config(parser, args.env_config)
    settings = {"game": args.game, "agent": args.agent, "seed": args.seed, "env_config": env_config}
    try:
        library = Library.load(args.files)
        table = PlayTable(**settings)  # built now, so a bad spec fails before the server starts
        viewer = Viewer(library, settings)
        viewer.table = table
        server = ViewerServer(viewer, args.host, args.port, verbose=args.verbose)
    except (ValueError, TypeError, OSError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    for note in library.skipped:
        print(f"skipped: {note}", file=sys.stderr)
    print(f"viewer: {len(library.entries)} hand(s) to replay; play {args.game} against {args.agent}; "
          f"open {server.url} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
