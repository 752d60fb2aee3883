"""A local language model against the zoo: a duplicate no-limit tournament through the tournament API.

    ollama pull qwen2.5:7b && ollama serve                         # or vLLM / llama.cpp's server, see docs/llm.md
    python examples/llm_vs_zoo.py --model qwen2.5:7b               # Ollama at http://127.0.0.1:11434/v1
    python examples/llm_vs_zoo.py --model Qwen/Qwen2.5-7B-Instruct --base-url http://127.0.0.1:8000/v1  # vLLM

The model plays as ``llm:MODEL@BASE_URL`` (``agent_zoo.llm``) against the heuristic, random and fold agents
at a 6-max table, every deal under every seat rotation. ``--out DIR`` keeps the result files, the checkpoint
and the model's decision log (one JSON line per decision: prompt, replies, action, latency, tokens);
``--resume DIR`` continues an interrupted run without replaying its finished deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agent_zoo import cli
from agent_zoo.tournament import TournamentConfig, TournamentResult, run_tournament

OPPONENTS = ("heuristic", "random", "fold")


def main(argv: Sequence[str] | None = None) -> TournamentResult:
    p = cli.parser("examples/llm_vs_zoo.py", __doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="model name the server knows (qwen2.5:7b for Ollama)")
    p.add_argument("--base-url", default="http://127.0.0.1:11434/v1", help="the server's OpenAI-compatible endpoint")
    p.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE",
                   help="llm options appended to the spec (temperature=0.7 max_reprompts=1 concurrency=8; docs/llm.md)")
    p.add_argument("--players", type=int, default=6, help="seats at the table")
    p.add_argument("--hands", type=int, default=60, help="hands, a multiple of --players (each deal once per rotation)")
    p.add_argument("--tables", type=int, default=16, help="tables in lockstep: the model's requests in flight at once")
    cli.add_seed(p, what="the deals, line-ups and the seeds sent to the server")
    cli.add_out(p, None, "tournament_nolimit.json/.csv/.png, the checkpoint and decisions/ (the decision log)")
    p.add_argument("--resume", metavar="DIR", default=None, help="continue the interrupted run whose --out was DIR")
    cli.add_progress(p)
    args = p.parse_args(argv)
    spec = ",".join([f"llm:{args.model}@{args.base_url}", *args.option])
    out = args.resume or args.out
    try:
        result = run_tournament(TournamentConfig(
            game="nolimit", agents=[spec, *OPPONENTS], hands=args.hands, players=args.players, seed=args.seed, tables=args.tables,
            block_deals=max(1, 64 // args.players), progress=not args.no_progress,
            checkpoint=None if out is None else Path(out) / "tournament_nolimit.checkpoint.jsonl",
            resume=args.resume is not None, log_dir=None if out is None else Path(out) / "decisions"))
    except (ValueError, RuntimeError) as exc:
        p.exit(2, f"{p.prog}: error: {exc}\n")
    print(result.table())
    if out is not None:
        stem = cli.out_dir(out) / "tournament_nolimit"
        cli.emit_json(result.to_dict(), str(stem.with_suffix(".json")))
    return result


if __name__ == "__main__":
    main()
