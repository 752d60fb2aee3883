"""The documentation: every python block runs as written, the site builds in strict mode, the layout tables match the
encoders, no internal file names."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doc_blocks import Block, all_blocks, page_blocks
from tests.doc_blocks import pages as doc_pages

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = re.compile(r"<!-- layout: (.*?) -->")
SOURCE_FILE_NAME = re.compile(r"[0-9]{3}_[0-9a-f]{16}|seeds/")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".txt", ".cfg", ".ini", ".json", ".csv", ""}


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          cwd=config.parent, capture_output=True, text=True)  # fmt: skip


@pytest.mark.slow
def test_site_builds_in_strict_mode(tmp_path: Path) -> None:
    """A broken link, a missing ``::: module`` or a docstring that names a parameter the signature lacks fails here."""
    import mkdocstrings_handlers.python  # noqa: F401  (the [docs] extra, installed by make test)
    done = mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr[-3000:]
    home = (tmp_path / "site" / "index.html").read_text()
    assert "The agent zoo" in home  # the README is the home page
    for page in ("games/leduc.html", "api/poker_envs.html", "references.html", "results/cfr.html"):
        assert (tmp_path / "site" / page).is_file()
    api = (tmp_path / "site" / "api" / "poker_envs.html").read_text()
    assert "poker_envs.catalog" in api and "GameEntry" in api  # rendered from the docstrings
    # Code is coloured by Pygments at build time (no highlight.js from a CDN), inside one box (css/extra.css);
    # signatures are wrapped (mkdocstrings formats them with Ruff, from the [docs] extra).
    start = (tmp_path / "site" / "getting-started.html").read_text()
    assert '<div class="highlight"><pre><span></span><code><span class="kn">import</span>' in start
    assert "highlight.js" not in start and "hljs" not in start
    css = (tmp_path / "site" / "css" / "extra.css").read_text()
    assert ".rst-content .highlight .kn {" in css and ".rst-content div.highlight pre code {" in css
    assert "Formatting signatures requires" not in done.stderr
    assert '<div class="doc-signature highlight"><pre><span></span><code><span class="nf">GameEntry</span><span class="p">(</span>\n' in api


def test_strict_build_catches_a_drifted_docstring(tmp_path: Path) -> None:
    """The same settings turn a docstring naming a parameter the signature does not have into a failure."""
    import mkdocstrings_handlers.python  # noqa: F401  (the [docs] extra, installed by make test)
    (tmp_path / "docs").mkdir()
    (tmp_path / "pkg_drift").mkdir()
    (tmp_path / "pkg_drift" / "__init__.py").write_text(
        '"""A package."""\n\n\ndef f(a: int) -> int:\n    """Add one.\n\n    Args:\n        b: renamed since.\n    """\n    return a + 1\n'
    )
    (tmp_path / "docs" / "index.md").write_text("# x\n\n::: pkg_drift\n")
    config = (ROOT / "mkdocs.yml").read_text()
    plugins = config[config.index("\nplugins:") : config.index("\nnav:")]
    (tmp_path / "mkdocs.yml").write_text(f"site_name: x\ndocs_dir: docs\n{plugins}")
    done = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and "does not appear in the function signature" in done.stderr


def test_every_page_is_in_the_nav() -> None:
    import yaml
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())

    def pages(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [p for item in node for p in pages(item)]
        if isinstance(node, dict):
            return [p for value in node.values() for p in pages(value)]
        return []

    listed = set(pages(config["nav"]))
    docs = ROOT / "docs"
    present = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md")} - {
        p.relative_to(docs).as_posix() for p in (docs / "results" / "clustering").glob("*.md")  # sections of clustering.md
    }
    # Markdown that commands write next to their results (e.g. `cnn evaluate`'s table.md) is git-ignored:
    # it is not a page, and a user who ran those commands must still pass this test.
    ignored = subprocess.run(
        ["git", "check-ignore", "--stdin"], input="\n".join(f"docs/{p}" for p in sorted(present)),
        capture_output=True, text=True, cwd=ROOT,
    ).stdout.split()
    present -= {p.removeprefix("docs/") for p in ignored}
    assert present == listed
    for page in listed:
        assert (docs / page).is_file(), page


def _bounds(cell: str, n: int) -> tuple[int, int]:
    """``"3 .. 54"`` -> (3, 54); ``"108+n .. 107+6n"`` evaluated with n; ``"7, 8, 9"`` / ``"11-15"`` -> (7, 9) / (11, 15)."""
    cell = cell.strip().strip("`")

    def value(expr: str) -> int:
        expr = re.sub(r"(\d)n", r"\1*n", expr.replace(" ", ""))
        assert re.fullmatch(r"[0-9n+*-]+", expr), f"not an index expression: {expr!r}"
        return int(eval(expr, {"__builtins__": {}}, {"n": n}))  # digits, n, + - * only (checked above)

    if ".." in cell:
        first, last = cell.split("..")
        return value(first), value(last)
    if "n" in cell:
        return value(cell), value(cell)
    numbers = [int(x) for x in re.findall(r"\d+", cell)]
    assert numbers, f"no index in {cell!r}"
    return min(numbers), max(numbers)


def layout_tables() -> list[tuple[str, dict[str, str], list[str]]]:
    """(page, marker fields, first-column cells) for every ``<!-- layout: ... -->`` table in docs/."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        lines = page.read_text().splitlines()
        for i, line in enumerate(lines):
            match = LAYOUT.search(line)
            if not match:
                continue
            fields = dict(item.split("=", 1) for item in match.group(1).split())
            rows = []
            for row in lines[i + 3 :]:  # marker, header, separator
                if not row.startswith("|"):
                    break
                rows.append(row.split("|")[1])
            found.append((page.relative_to(ROOT).as_posix(), fields, rows))
    return found


def test_every_default_encoder_has_a_layout_table() -> None:
    """Every game's default encoder class (and every named encoder) has a layout table on some page."""
    from poker_envs import catalog

    def encoder_class(env_module: str, name: str) -> type:
        return importlib.import_module(f"poker_envs.{env_module}").available_encoders()[name]

    documented = {encoder_class(f["env"], f["encoder"]) for _, f, _ in layout_tables()}
    for entry in catalog.GAMES:
        for name in entry.encoders:
            assert encoder_class(entry.env_module, name) in documented, f"{entry.env_module}: no layout table of {name!r}"


@pytest.mark.parametrize("page,fields,rows", layout_tables(), ids=lambda v: v if isinstance(v, str) else None)
def test_layout_table_covers_the_observation(page: str, fields: dict[str, str], rows: list[str]) -> None:
    """The rows of a documented layout tile the encoder's observation exactly: no gap, no overlap, no excess."""
    fields = dict(fields)
    module = importlib.import_module(f"poker_envs.{fields.pop('env')}")
    encoder = fields.pop("encoder")
    kwargs = {k: int(v) for k, v in fields.items()}
    env = module.raw_env(obs_encoder=encoder, **kwargs)
    size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
    n = kwargs.get("num_players", 2)
    expected = 0
    for cell in rows:
        first, last = _bounds(cell, n)
        assert first == expected, f"{page} {encoder}: row {cell.strip()!r} starts at {first}, expected {expected}"
        assert last >= first
        expected = last + 1
    assert expected == size, f"{page} {encoder}: the table covers {expected} entries, the observation has {size}"


def test_no_internal_source_file_names_in_the_tree() -> None:
    """The source documents are cited by authors and title (docs/references.md), never by their file names."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix not in TEXT_SUFFIXES or not path.is_file() or name == "tests/test_docs.py":
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if SOURCE_FILE_NAME.search(line):
                offenders.append(f"{name}:{number}: {line.strip()[:100]}")
    assert offenders == []


# Internal work items a package user never sees: tickets, work sessions, who shared the machine.
INTERNAL_WORK_ITEM = re.compile(
    r"\b[Ii]ssues? #?\d|\b[Ss]ession \d|\b[Ss]essions \d+ (and|to|-) \d|\bengineers\b|\bthe lead\b|\b[Tt]he issue'?s?\b")


def test_no_internal_work_items_in_the_tree() -> None:
    """Docs, docstrings and tests speak to a reader of the package: dates, commits, protocols, not the project's
    internal tickets or work sessions."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix not in (".py", ".md") or not path.is_file() or name == "tests/test_docs.py":
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if INTERNAL_WORK_ITEM.search(line):
                offenders.append(f"{name}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_the_work_item_scan_would_see_them() -> None:
    for text in ("(issue #17)", "before issue 13", "session 5, 2026-11-24", "sessions 1 and 2", "eight engineers",
                 "run by the lead", "The issue's goal"):
        assert INTERNAL_WORK_ITEM.search(text), text
    for text in ("hands_per_episode sessions", "a session of 3 hands", "2026-11-24, commit f881764"):
        assert not INTERNAL_WORK_ITEM.search(text), text


def test_the_scan_would_see_a_file_name() -> None:
    assert SOURCE_FILE_NAME.search("see 003_2df18b6d102d04b2.txt, eq. 3")
    assert SOURCE_FILE_NAME.search("../shared/seeds/README.md")
    assert not SOURCE_FILE_NAME.search("Hirano & Tsuruoka, eq. 3")


def test_each_game_page_states_the_unit_of_its_rewards() -> None:
    """Rewards count in big blinds (hold'em family, push/fold) or chips (the rest): each game's page says which."""
    from poker_envs import catalog

    for entry in catalog.GAMES:
        holdem = entry.env_module.endswith("holdem_v0") and entry.key != "leduc"
        page = ROOT / "docs" / ("holdem.md" if holdem else f"games/{entry.key}.md")
        text = page.read_text()
        section = text[text.index("## Rewards") :].split("\n## ")[0]
        assert ("big blinds" in section) == (entry.reward_unit == "bb"), f"{page.name}: rewards of {entry.key} are in {entry.reward_unit}"
        if entry.reward_unit == "bb" and "obs_encoder" in text:
            assert "small blinds" in text, f"{page.name}: the seed encoders' unit (small blinds) is not stated"


def _runnable(block: Block) -> bool:
    return block.recipe is None and block.fragment is None


RUNNABLE_PAGES = [p.relative_to(ROOT).as_posix() for p in doc_pages() if any(map(_runnable, page_blocks(p)))]
FRAGMENTS = [b for b in all_blocks() if b.fragment is not None]


def run_python(args: list[str], cwd: Path, where: str) -> str:
    """``python ARGS`` in ``cwd`` with this checkout first on the path, as a reader runs a page's code; its stdout."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{where} failed (exit {done.returncode}):\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("page", RUNNABLE_PAGES)
def test_python_blocks_run_as_written(page: str, tmp_path: Path) -> None:
    """Every python block of the page that is neither a recipe (run by its own test) nor a marked fragment, in
    page order, each in a fresh interpreter. The blocks of a page share one working folder, as a reader working
    through the page does: a block may read what an earlier one wrote (``out/leduc_ppo.zip``)."""
    work, scripts = tmp_path / "work", tmp_path / "blocks"
    work.mkdir()
    scripts.mkdir()
    ran = []
    for block in filter(_runnable, page_blocks(ROOT / page)):
        script = scripts / f"line_{block.line}.py"
        script.write_text(block.code)
        run_python([str(script)], work, block.where)
        ran.append(block.where)
    assert ran
    if page == "README.md":
        # The shell command after the training block evaluates the model that block saved, as written but
        # with fewer hands.
        command = re.search(r"^python -m (agent_zoo\.tournament --game leduc --agents random sb3:(\S+) .*--hands \d+.*)$",
                            (ROOT / page).read_text(), re.M)  # fmt: skip
        assert command, "the README's evaluation command is gone"
        assert (work / command.group(2)).is_file(), f"no block saved {command.group(2)}"
        args = re.sub(r"--hands \d+", "--hands 50", command.group(1)).split() + ["--no-progress"]
        table = run_python(["-m", *args], work, "README.md's evaluation command")
        agent = f"sb3:{Path(command.group(2)).name}"
        assert re.search(rf"^[12]\s+{re.escape(agent)}\s+[+-]\d", table, re.M), table  # its row in the ranking


@pytest.mark.parametrize("block", FRAGMENTS, ids=[b.where for b in FRAGMENTS])
def test_fragments_are_valid_python(block: Block) -> None:
    """Blocks marked ``<!-- fragment: why -->`` do not run alone (an interface outline, a client of a server that
    is not running), but a reader copies them: each at least compiles."""
    compile(block.code, block.where, "exec")


def test_every_recipe_block_has_its_test() -> None:
    """The blocks marked ``<!-- recipe: NAME -->`` are skipped above because a test runs each by name: every
    name marked is asked for by some test, and every name asked for is marked (once)."""
    asked = set()
    for path in (ROOT / "tests").glob("*.py"):
        asked |= set(re.findall(r"recipe\(\s*[\"']([\w-]+)[\"']\s*\)", path.read_text()))
    marked = [b.recipe for b in all_blocks() if b.recipe is not None]
    assert len(marked) == len(set(marked)), marked
    assert set(marked) == asked


def test_the_block_reader_sees_markers_and_refuses_stray_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.doc_blocks as doc_blocks

    monkeypatch.setattr(doc_blocks, "ROOT", tmp_path)
    page = tmp_path / "page.md"
    page.write_text("x\n\n<!-- fragment: an outline -->\n\n```python\nclass A: ...\n```\n\n"
                    "<!-- recipe: two -->\n```python\nprint(2)\n```\n\n```python\nprint(3)\n```\n")  # fmt: skip
    blocks = page_blocks(page)
    assert [(b.line, b.fragment, b.recipe, b.code) for b in blocks] == [
        (5, "an outline", None, "class A: ...\n"), (10, None, "two", "print(2)\n"), (14, None, None, "print(3)\n")]
    page.write_text("<!-- fragment: why -->\ntext\n\n```python\nx = 1\n```\n")
    with pytest.raises(ValueError, match="no python block right below"):
        page_blocks(page)


# An absolute path of the machine that wrote a page (a home folder, a temporary folder, a workspace root); URLs
# and paths relative to the repository excepted.
MACHINE_PATH = re.compile(r"(?<![\w.:/~-])/(?:work|tmp|var|root|home|Users)/")


def test_no_page_names_a_machine_path() -> None:
    """The docs speak to any reader: the paths they name are relative to the repository (``runs/cnn/paper``,
    ``docs/results``, ``../shared/data``), never where one machine kept its files."""
    offenders = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*"))]:
        if path.suffix not in (".md", ".py", ".json", ".csv", ".jsonl", ".css") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_the_machine_path_scan_would_see_one() -> None:
    for text in ("--out /home/ana/runs/cnn", "(`/Users/ana/site`)", "in /var/folders/ab", "see /home/x/"):
        assert MACHINE_PATH.search(text), text
    for text in ("--out runs/cnn/paper", "https://example.org/home/x", "docs/results/home/x", "../shared/data/phh"):
        assert not MACHINE_PATH.search(text), text


SIGNED_ZERO = re.compile(r"(?<![\w.])[-+]0\.0+(?![\d])(?!e)")  # "-0.000", "+0.00": a rounded figure with a sign


def test_no_signed_zero_in_the_results_pages() -> None:
    """A table cell printed as -0.000 reads as a measured sign; an exact zero is 0.000, a tiny value gets the
    decimals (or the exponent) that show it."""
    offenders = []
    for path in sorted((ROOT / "docs" / "results").rglob("*.md")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SIGNED_ZERO.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_the_signed_zero_scan_would_see_one() -> None:
    for text in ("| -0.000 |", "NashConv -0.0000 ± 0.0002", "+0.00 BB"):
        assert SIGNED_ZERO.search(text), text
    for text in ("| 0.000 |", "-0.0003 ± 0.0005", "+0.0516", "-0.00e+00x", "10.000", "v1-0.0"):
        assert not SIGNED_ZERO.search(text), text
