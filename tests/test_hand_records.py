"""Hands as the table saw them (poker_envs.text.records / tracker) for agents that keep them (Agent.hand_records):
seats renumbered by player, statistics following players across seats, the runner's seating and records bound
to the hands' outcomes, and a language model's session prompts in a duplicate tournament.

Known truths used: a hand played with the seats swapped is the same hand (its statistics, renumbered back, equal
the original's, worked by hand in tests/test_tracker.py); a record's net results are the rewards the runner
counted; the other seatings of a duplicate deal share its board, so none may be shown before it is played.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from agent_zoo.agent import Agent
from agent_zoo.llm import make_llm_agent
from agent_zoo.runner import HandSpec, play_aec, play_vector
from agent_zoo.tournament import TournamentConfig, run_tournament
from poker_envs import nolimit_holdem_v0, vector
from poker_envs.text import TextTable
from poker_envs.text.tracker import HandRecord, player_stats, reseat, session_stats
from tests.llm_stub import StubServer
from tests.test_tracker import SESSION_B


def mirrored(record: HandRecord) -> HandRecord:
    """A heads-up hand with its two seats swapped."""
    return record._replace(dealt=tuple(sorted(1 - s for s in record.dealt)),
                           actions=tuple(e._replace(seat=1 - e.seat) for e in record.actions),
                           net=tuple(reversed(record.net[:2])), players=tuple(reversed(record.players)))


def test_statistics_follow_players_across_seats() -> None:
    """SESSION_B (heads-up, worked by hand) with player 7 at seat 0 and 9 at seat 1, then the same hands played
    with the two players in each other's seats: the statistics per player are those of the seats they had."""
    named = [h._replace(net=(0.0, 0.0), players=(7, 9)) for h in SESSION_B]
    by_seat = session_stats(named)
    swapped = [named[0], mirrored(named[1]), mirrored(named[2])]
    for hands in (named, swapped):
        stats = player_stats(hands)
        assert vars(stats[7]) == vars(by_seat[0]) and vars(stats[9]) == vars(by_seat[1])
    # renumbered to the seating (7, 9), a swapped hand is the original again; to (9, 7) the mirror
    for original, played in zip(named, swapped, strict=True):
        assert reseat(played, (7, 9)) == original
        assert reseat(played, (9, 7)) == mirrored(original)
    # a player not at the table now, or one sitting twice: no seat to name the hand by
    assert reseat(named[0], (7, 8)) is None and reseat(named[0], (7, 7)) is None
    with pytest.raises(ValueError, match="names no players"):
        player_stats(SESSION_B)


def test_prompt_shows_each_players_statistics_at_its_current_seat() -> None:
    env = nolimit_holdem_v0.raw_env(history=True)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    me = int(env.agent_selection.split("_")[1])
    hud = TextTable.for_env(env, summary="hud", summary_hands=1)
    named = [h._replace(net=(0.0, 0.0), players=(7, 9)) for h in SESSION_B]
    played = [named[0], mirrored(named[1]), mirrored(named[2])]
    stats = session_stats(named)  # seat 0 is player 7 throughout
    # the opponent is player 9 or 7, whichever sits in the other seat now
    for players in ((7, 9), (9, 7)) if me == 0 else ((9, 7), (7, 9)):
        text = hud.prompt(obs, played, players)
        opponent = players[1 - me]
        hud_part = text.split("Opponents this session")[1]
        line = next(x for x in hud_part.splitlines() if x.startswith(f"- seat {1 - me} ("))
        # the two seats of SESSION_B differ in 3-bets (seat 0: 0 of 1, seat 1: 1 of 2) and postflop (2/0, 1/1)
        st = stats[0 if opponent == 7 else 1]
        assert st.three_bet_opportunities == (1 if opponent == 7 else 2)
        assert f"3B {round(100 * st.three_bet / st.three_bet_opportunities)}% ({st.three_bet}/{st.three_bet_opportunities})" in line
        assert f"({st.aggressive}/{st.calls})" in line
        assert f"- seat {me} (" not in hud_part
        # the last hand shown is hand 3 renumbered to the current seats: its first action is its opener's
        last = reseat(played[2], players)
        shown = text.split("Last 1 hand (oldest first):\n")[1].splitlines()[0]
        assert last is not None and shown.startswith("- hand 3: ") and f"Preflop: seat {last.actions[0].seat} " in shown
    with pytest.raises(ValueError, match="2 seats"):
        hud.prompt(obs, played, (7,))
    with pytest.raises(ValueError, match="names no players"):
        hud.prompt(obs, SESSION_B, (7, 9))


class Keeper(Agent):
    """Plays uniformly among legal actions and keeps what the runner shows it."""

    hand_records = True

    def __init__(self) -> None:
        self.seatings: list[tuple[int, int, tuple[int, ...]]] = []
        self.records: list[tuple[int, int, HandRecord]] = []

    def act(self, observation, rng):  # type: ignore[no-untyped-def]
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    def seated(self, hand: int, seat: int, players: tuple[int, ...]) -> None:
        self.seatings.append((hand, seat, players))

    def end_hand(self, hand: int, seat: int, record: HandRecord) -> None:
        self.records.append((hand, seat, record))


@pytest.mark.parametrize("hands_per_episode", [1, 3])
def test_runner_shows_seating_and_records_that_match_the_outcomes(hands_per_episode: int) -> None:
    kw = {"history": True, "hands_per_episode": hands_per_episode, "rebuy": True} if hands_per_episode > 1 else {"history": True}
    make = lambda: nolimit_holdem_v0.raw_env(**kw)  # noqa: E731
    agents = [Keeper(), Keeper()]
    seq = np.random.SeedSequence(4)
    specs = [HandSpec((k % 2, 1 - k % 2), s, seed=k) for k, s in enumerate(seq.spawn(12))]
    outcomes = play_aec(make, agents, specs, tables=3)
    scale = make().reward_scale
    for who, agent in enumerate(agents):
        assert sorted(agent.seatings) == sorted((k, spec.seats.index(who), spec.seats) for k, spec in enumerate(specs))
        by_hand: dict[int, list[HandRecord]] = {}
        for k, seat, record in agent.records:
            assert record.players == specs[k].seats and specs[k].seats[seat] == who and seat in record.dealt
            by_hand.setdefault(k, []).append(record)
        assert sorted(by_hand) == list(range(len(specs)))  # every hand, each once per hand of its episode
        for k, records in by_hand.items():
            assert len(records) == outcomes[k].hands == hands_per_episode
            seat = specs[k].seats.index(who)
            assert sum(r.net[seat] for r in records) * scale == pytest.approx(outcomes[k].rewards[seat])
            assert all(abs(sum(r.net)) < 1e-9 for r in records)


def test_agents_keeping_hands_need_history_and_the_aec_runner() -> None:
    spec = [HandSpec((0, 1), np.random.SeedSequence(0))]
    with pytest.raises(ValueError, match="history=True"):
        play_aec(lambda: nolimit_holdem_v0.raw_env(), [Keeper(), Keeper()], spec)
    engine = vector.make("nolimit_holdem", num_envs=1, public=True)
    with pytest.raises(ValueError, match="play_aec"):
        play_vector(engine, [Keeper(), Keeper()], spec, np.zeros((1, 9), dtype=np.int64))


def test_llm_session_holds_back_the_other_seatings_of_a_deal() -> None:
    env = nolimit_holdem_v0.raw_env(history=True)
    agent = make_llm_agent("m@http://127.0.0.1:1,summary=hud", env)
    assert agent.hand_records and agent.table.summary == "hud"
    assert not make_llm_agent("m@http://127.0.0.1:1", env).hand_records
    rec = SESSION_B[0]._replace(net=(0.0, 0.0), players=(0, 1))
    agent.begin_block(None, [{"deal": 0, "rotation": 0}, {"deal": 0, "rotation": 1}, {"deal": 1, "rotation": 0}])
    for hand, players in ((0, (0, 1)), (1, (1, 0)), (2, (0, 1))):
        agent.seated(hand, players.index(0), players)
    agent.end_hand(0, 0, rec)
    assert agent.session_view(0) == ((rec,), (0, 1))  # an episode's own earlier hands (a session) are shown
    assert agent.session_view(1) == ((), (1, 0))  # the same deal seated the other way round: held back
    assert agent.session_view(2) == ((rec,), (0, 1))
    agent.begin_block(None, [])
    assert agent.session_view(0) == ((), ())


def test_llm_hud_prompts_in_a_duplicate_tournament(tmp_path) -> None:
    """Heads-up against the heuristic, 6 deals in one block, the tracker summary: prompts summarize the agent's
    finished hands of other deals (at most the block's other 5 deals, two seatings each), the opponent's
    statistics over every one of them at the opponent's seat, never the agent's own."""
    with StubServer() as server:
        run_tournament(TournamentConfig(game="nolimit", agents=[f"llm:m@{server.url},summary=hud,transport=http", "heuristic"],
                                        hands=12, seed=3, block_deals=6, tables=2, progress=False, log_dir=tmp_path))
    lines = [json.loads(x) for x in (tmp_path / "agent0_block00000.jsonl").read_text().splitlines()]
    assert len(lines) > 12
    shown = 0
    for line in lines:
        prompt, me = line["prompt"], line["seat"]
        if "Opponents this session" not in prompt:
            continue
        shown += 1
        n = int(prompt.split("Opponents this session (")[1].split(" hand")[0])
        assert 1 <= n <= 10
        assert f"- seat {1 - me} ({n} hand" in prompt and f"- seat {me} (" not in prompt.split("Opponents this session")[1]
    assert shown > len(lines) // 2
