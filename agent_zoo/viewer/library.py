"""The hands the viewer serves: PHH hand histories and decision logs, listed at start, replayed on request.

``Library.load(paths)`` reads ``.phh`` / ``.phhs`` files (``poker_envs.phh``: files written by hand, published
collections, or the hand histories ``wrappers.hand_history.HandHistoryRecorder`` records from an
environment), ``.jsonl`` decision logs (``agent_zoo.viewer.logs``) and folders of them. A PHH hand is
replayed with ``poker_envs.phh.replay`` (the rules validate every action and settle the pots) and walked
again move by move for its frames (``agent_zoo.viewer.frames``); cards the file does not give are drawn
by the replay and stay face down.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_zoo.viewer.frames import moves_of, walk
from agent_zoo.viewer.logs import group_hands, hand_title, log_replay, read_log
from poker_envs import phh

PHH_SUFFIXES = (".phh", ".phhs")
LOG_SUFFIX = ".jsonl"


def phh_replay(hand: phh.Hand, seed: int = 0) -> dict[str, Any]:
    """A PHH hand as ``names``, ``frames`` and ``notes``; a ``PHHError`` names an action the rules refuse."""
    result = phh.replay(hand, seed=seed)
    state = result.state
    names = hand.player_names()
    frames = walk(state.game, state.button, state.hole, state.board, moves_of(state), names, result.cards_known,
                  result.scale, results=list(result.results))
    notes = []
    if not result.exact:
        notes.append("Cards the file does not give were drawn at random and decided the showdown: the result shown "
                     "is a possible one, not the recorded one.")
    off = result.mismatch()
    if off:
        notes.append("The file's finishing stacks differ from the replay's for " + ", ".join(names[i] for i in off) + ".")
    return {"names": names, "frames": frames, "notes": notes, "focus": 0}


def phh_title(hand: phh.Hand, label: str) -> str:
    """A hand's name in the list: where it is, its event or number, and the players."""
    extra = [str(hand.fields["event"])] if "event" in hand.fields else []
    number = hand.fields.get("hand")
    if number is not None and not label.endswith(f"[{number}]"):
        extra.append(f"hand {number}")
    return " · ".join([label, *extra, ", ".join(hand.player_names())])


@dataclass
class Entry:
    """One hand of the library."""

    title: str
    source: str  # the file (and table) it comes from
    kind: str  # "phh" or "log"
    build: Callable[[], dict[str, Any]]  # its replay (names, frames, notes)


@dataclass
class Library:
    """Hands by id (their place in ``entries``); ``skipped`` says which files in the folders were not hands."""

    entries: list[Entry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    _cache: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, paths: Iterable[str | os.PathLike[str]]) -> Library:
        """The hands of ``paths`` (files or folders, in the order given; decision logs after the hand histories,
        each hand once however many agents logged it); a ValueError names a path that is missing or a file
        that cannot be read."""
        library = cls()
        lines: list[dict[str, Any]] = []
        for path in map(Path, paths):
            if path.is_dir():
                lines += library.add_folder(path)
            elif path.is_file():
                lines += library.add_file(path, path.name)
            else:
                raise ValueError(f"{path}: no such file or folder")
        for group in group_hands(lines):
            library.entries.append(Entry(hand_title(group), group[0]["_where"], "log", lambda g=group: log_replay(g)))
        return library

    def add_folder(self, folder: Path) -> list[dict[str, Any]]:
        """Every PHH hand under ``folder``; returns the decisions of its decision logs (other JSONL files, such as
        a tournament's checkpoint, are listed in ``skipped``)."""
        for path in phh.find_files(folder):
            self.add_file(path, str(path.relative_to(folder)))
        lines = []
        for path in sorted(folder.rglob(f"*{LOG_SUFFIX}")):
            try:
                lines += read_log(path)
            except ValueError as err:
                self.skipped.append(str(err))
        return lines

    def add_file(self, path: Path, label: str) -> list[dict[str, Any]]:
        """The hands of a PHH file (added), or the decisions of a decision log (returned)."""
        suffix = path.suffix.lower()
        if suffix == LOG_SUFFIX:
            return read_log(path)
        if suffix not in PHH_SUFFIXES:
            raise ValueError(f"{path}: the viewer reads PHH hand histories (.phh, .phhs) and decision logs (.jsonl)")
        for k, hand in enumerate(phh.load(path)):
            name = f"{label}[{k + 1}]" if suffix == ".phhs" else label
            self.entries.append(Entry(phh_title(hand, name), hand.source, "phh", lambda h=hand: phh_replay(h)))
        return []

    def listing(self) -> list[dict[str, Any]]:
        """The JSON list of hands: id, title, source, kind."""
        return [{"id": i, "title": e.title, "source": e.source, "kind": e.kind} for i, e in enumerate(self.entries)]

    def replay(self, hand_id: int) -> dict[str, Any]:
        """The replay of hand ``hand_id`` (computed once): title, source, kind, names, frames, notes and ``focus``,
        the seat the page draws at the bottom (a decision log's logging agent)."""
        if not 0 <= hand_id < len(self.entries):
            raise KeyError(f"hand id {hand_id} is not one of 0..{len(self.entries) - 1}")
        if hand_id not in self._cache:
            entry = self.entries[hand_id]
            self._cache[hand_id] = {"id": hand_id, "title": entry.title, "source": entry.source, "kind": entry.kind,
                                    **entry.build()}
        return self._cache[hand_id]
