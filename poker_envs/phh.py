"""Poker Hand History (PHH) files: read, write and replay them through the hold'em rules.

PHH (the open format of the University of Toronto Computer Poker Research Group, arXiv 2312.11753)
is TOML: one hand per ``.phh`` file, or many hands in a ``.phhs`` file where each hand is a table
(``[1]``, ``[2]``, ...). ``load`` turns either into ``Hand`` objects, ``dump`` writes them back and
``replay`` plays a hold'em hand through ``poker_envs.games.holdem`` and returns each player's chip
result.

This module is the one name to import: the format lives in ``poker_envs.phh_format`` and the replay
in ``poker_envs.phh_replay`` (which reads the format; the format never imports the replay).
"""

from __future__ import annotations

from poker_envs.phh_format import (
    VARIANTS,
    Hand,
    Number,
    PHHError,
    append,
    count_tables,
    dump,
    dumps,
    dumps_many,
    find_files,
    format_cards,
    hand_from_dict,
    hand_to_dict,
    iter_hands,
    load,
    load_hand,
    loads,
    parse_cards,
)
from poker_envs.phh_replay import REPLAY_VARIANTS, ReplayResult, replay

__all__ = [
    "Hand", "Number", "PHHError", "REPLAY_VARIANTS", "ReplayResult", "VARIANTS", "append", "count_tables", "dump",
    "dumps", "dumps_many", "find_files", "format_cards", "hand_from_dict", "hand_to_dict", "iter_hands", "load",
    "load_hand", "loads", "parse_cards", "replay",
]
