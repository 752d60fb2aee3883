"""The game catalog is the one list: registries, command lines and the README table agree with it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import gymnasium
import pettingzoo
import pytest

import poker_envs  # noqa: F401  (registers with PettingZoo and Gymnasium)
from agent_zoo import tournament
from agent_zoo.cfr import __main__ as cfr_cli
from poker_envs import catalog
from poker_envs.games.base import Game
from poker_envs.registration import AEC_ENVS, GYMNASIUM_ENVS, PARALLEL_ENVS

ROOT = Path(__file__).resolve().parents[1]


def readme_environment_rows() -> list[list[str]]:
    """Cells of the README's environment table (the one whose header starts with ``| module |``)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| module |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_readme_environment_table_is_the_catalog() -> None:
    rows = readme_environment_rows()
    assert [ticked(r[0]) for r in rows] == [[g.env_module] for g in catalog.GAMES]
    for row, entry in zip(rows, catalog.GAMES, strict=True):
        module, key, gym_id, players, _actions, encoders = row
        assert ticked(key) == [entry.key]
        assert ticked(gym_id) == [entry.gymnasium_id]
        low, high = entry.players
        assert players == (str(low) if low == high else f"{low}–{high}"), entry.key
        names = [t for t in ticked(encoders) if re.fullmatch(r"[a-z_0-9]+", t)]
        assert sorted(names) == sorted(entry.encoders), entry.key


@pytest.mark.parametrize("entry", catalog.GAMES, ids=lambda e: e.key)
def test_entry_matches_its_env_module_and_rules(entry: catalog.GameEntry) -> None:
    module = importlib.import_module(entry.module_path)
    assert entry.encoders[0] == "default"
    assert sorted(module.available_encoders()) == sorted(entry.encoders)
    assert hasattr(module, "parallel_env") == entry.parallel
    env = module.raw_env(**dict(entry.heads_up))
    rules = entry.rules()
    assert isinstance(rules, Game)
    # The rules factory's defaults are the environment's defaults.
    assert type(env.game) is type(rules) and env.game.name == rules.name
    assert env.game.num_distinct_actions == rules.num_distinct_actions
    assert entry.players[0] <= rules.num_players <= entry.players[1]
    for name in entry.encoders:
        module.raw_env(obs_encoder=name, **dict(entry.heads_up))
    assert entry.pettingzoo_id == f"poker_envs/{entry.env_module.removesuffix('_v0')}-v0"
    assert entry.reward_unit in ("chips", "bb")


def test_registries_are_built_from_the_catalog() -> None:
    assert list(AEC_ENVS) == [g.pettingzoo_id for g in catalog.GAMES]
    assert list(PARALLEL_ENVS) == [g.pettingzoo_id for g in catalog.GAMES if g.parallel]
    assert list(GYMNASIUM_ENVS) == [g.gymnasium_id for g in catalog.GAMES]
    for g in catalog.GAMES:
        assert g.pettingzoo_id in pettingzoo.aec_registry
        assert g.gymnasium_id in gymnasium.registry
    for field in ("key", "env_module", "pettingzoo_id", "gymnasium_id"):
        values = [getattr(g, field) for g in catalog.GAMES]
        assert len(set(values)) == len(values), field


def test_command_lines_offer_the_catalog_games() -> None:
    assert tournament.build_env("leduc").metadata["name"] == "leduc_holdem_v0"
    with pytest.raises(SystemExit):
        tournament.main(["--game", "chess", "--agents", "random", "random"])
    assert cfr_cli.parse_args(["--game", "leduc", "--iterations", "1"]).game == "leduc"
    with pytest.raises(SystemExit):  # no-limit hold'em is too big for the tabular CFR CLI
        cfr_cli.parse_args(["--game", "nolimit", "--iterations", "1"])
    game, encoder = cfr_cli.game_and_encoder("kuhn")
    assert game.name == "kuhn_poker" and encoder.game is game


def test_lookups_name_the_argument_and_the_known_games() -> None:
    assert catalog.game("kuhn").env_module == "kuhn_poker_v0"
    assert catalog.by_env_module("poker_envs.threshold_v0").key == "threshold"
    assert catalog.keys("cfr") == ["leduc", "kuhn"]
    with pytest.raises(ValueError, match=r"game 'chess' is unknown; known games: nolimit, limit, shortdeck, potlimit, omaha, push_fold, leduc"):
        catalog.game("chess")
    with pytest.raises(ValueError, match=r"--game 'limit' is unknown; known games: leduc, kuhn$"):
        catalog.game("limit", argument="--game", solver="cfr")
    with pytest.raises(ValueError, match="solver 'dqn' is unknown; known solvers: cfr, rnad, jax_ppo, lbr"):
        catalog.keys("dqn")
    with pytest.raises(ValueError, match="env 'chess_v0' is not a catalogued environment module; known: nolimit_holdem_v0"):
        catalog.by_env_module("chess_v0")


SNIFFING = re.compile(r"""\.name\.(startswith|endswith)\(|__name__\s*(==|!=|in)|game_name\([^)]*\)\.(startswith|endswith)""")


def test_no_game_identity_from_name_strings() -> None:
    """Identity decisions use the catalog, isinstance on the rules' classes or config fields."""
    offenders = []
    for package in ("poker_envs", "agent_zoo", "wrappers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if SNIFFING.search(line) and "__name__ == \"__main__\"" not in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_agent_game_checks_read_the_rules_classes() -> None:
    from agent_zoo.registry import make_agent

    limit = tournament.build_env("limit", {"obs_encoder": "flat107"})
    assert make_agent("heuristic", limit).name == "heuristic"
    assert make_agent("rule:A", limit).name == "rule:A"
    with pytest.raises(ValueError, match="agent 'heuristic' plays the hold'em family \\(nolimit, limit, shortdeck, potlimit, "
                                         "omaha\\) only, not kuhn_poker"):
        make_agent("heuristic", tournament.build_env("kuhn"))
    assert make_agent("heuristic", tournament.build_env("omaha")).name == "heuristic"  # the family, as it says
    with pytest.raises(ValueError, match="agent 'rule:A' plays limit_holdem only, not nolimit_holdem"):
        make_agent("rule:A", tournament.build_env("nolimit", {"obs_encoder": "flat107"}))
    with pytest.raises(ValueError, match="agent 'push_fold' plays push_fold only, not threshold"):
        make_agent("push_fold", tournament.build_env("threshold"))


# Literals that name two or more games without being a list of what games support, with the reason.
NOT_GAME_LISTS = {
    "agent_zoo/registry.py": "agent specs, some named after the one game they play (push_fold, threshold)",
    "agent_zoo/showcase.py": "its own line-ups keyed by catalog key; which games it plays comes from the catalog",
    "poker_envs/text/schema.py": "the betting kinds of the JSON schema ('push_fold' is one of them)",
    "benchmarks/omaha_speed.py": "the rows this benchmark times",
    "benchmarks/jax_ppo_speed.py": "the rows this benchmark times by default",
}


def game_name_literals(path: Path) -> list[tuple[int, list[str]]]:
    """(line, names) of every tuple, list, set or dict-keys literal in ``path`` with two or more game names, at least
    one of them other than a betting structure's name ("nolimit", "limit" and "potlimit" are both)."""
    import ast

    from poker_envs.games.holdem import BETTING

    names = set()
    for g in catalog.GAMES:
        names |= {g.key, g.env_module, g.vector_name, g.pettingzoo_id, g.gymnasium_id}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        elements = node.keys if isinstance(node, ast.Dict) else node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else []
        games = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in names]
        if len(games) >= 2 and set(games) - set(BETTING):
            found.append((node.lineno, games))
    return found


def test_no_list_of_games_outside_the_catalog(tmp_path: Path) -> None:
    """Which games a tool, engine, view or agent takes is read from the catalog (``catalog.keys(...)`` filters,
    the entries' fields): a literal listing games anywhere else in the package, the zoo, the wrappers, examples or
    benchmarks fails here, unless ``NOT_GAME_LISTS`` says why it is not such a list."""
    restated = []
    for folder in ("poker_envs", "agent_zoo", "wrappers", "examples", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "poker_envs/catalog.py" or rel in NOT_GAME_LISTS:
                continue
            restated += [f"{rel}:{line}: {games}" for line, games in game_name_literals(path)]
    assert not restated, "lists of games outside poker_envs/catalog.py:\n" + "\n".join(restated)
    planted = tmp_path / "planted.py"  # the scan finds planted lists (so that an empty result means something)
    planted.write_text('GAMES = ("leduc", "kuhn")\nENGINES = {"nolimit_holdem": 1, "omaha": 2}\nBETTING = ("nolimit", "limit")\n')
    assert [g for _, g in game_name_literals(planted)] == [["leduc", "kuhn"], ["nolimit_holdem", "omaha"]]
