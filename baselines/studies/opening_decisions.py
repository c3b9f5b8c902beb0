"""What each player decided in the openings of games played under an opening rule, from their SGF records.

    python baselines/studies/opening_decisions.py DIR [DIR ...]

The records are those ``boardgame-envs arena ... --opening-rule NAME --save-games DIR``
writes (every action of the opening kept: stones, decisions, offers). Each
opening is replayed through the rules, and every decision (``swap``, ``keep``,
``offers=K``, Swap2's ``black``, ``white``, ``more``) is counted for the player
who took it, by the phase it was taken in, beside the seat the player had, the
colour it ended up with and how its games ended. A markdown table per player
goes to stdout (``baselines/results/alphazero_swap2.md`` shows one).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from boardgame_envs.arena.records import GameRecord, load
from boardgame_envs.games.lines import BLACK


@dataclass
class Player:
    """One player's openings over a set of games."""

    games: int = 0
    first: int = 0  # games as the first player
    black: int = 0  # games it ended the opening holding black
    wins: Counter = field(default_factory=Counter)  # by colour: "black", "white"
    losses: Counter = field(default_factory=Counter)
    draws: int = 0
    decisions: Counter = field(default_factory=Counter)  # (phase, decision) -> count


def tally(records: Iterable[GameRecord]) -> dict[str, Player]:
    """Each player's decisions, seats, colours and results over ``records`` (games under an opening rule)."""
    players: dict[str, Player] = {}
    for record in records:
        if not record.opening_rule:
            raise ValueError(f"a game without an opening rule ({record.black} vs {record.white}): nothing to tally")
        if not record.finished:
            raise ValueError(f"a game with no result ({record.black} vs {record.white}): it has no score to tally")
        game = record.game_object()
        black_seat = record.black_seat
        name_of = {black_seat: record.black, 3 - black_seat: record.white}
        for seat, name in name_of.items():
            player = players.setdefault(name, Player())
            player.games += 1
            player.first += seat == 1
            colour = "black" if seat == black_seat else "white"
            player.black += colour == "black"
            if record.winner == 0:
                player.draws += 1
            elif (record.winner == BLACK) == (colour == "black"):
                player.wins[colour] += 1
            else:
                player.losses[colour] += 1
        state = game.new_state()
        for action in record.moves[: record.opening_moves]:
            if action >= game.points:
                players[name_of[state.to_move]].decisions[(state.phase, game.action_name(action))] += 1
            state.play(action)
    return players


def table(players: dict[str, Player]) -> str:
    """The tally as a markdown table, a row a player."""
    head = ("| player | games | first player | held black | decisions (phase: decision count) | won as black | "
            "won as white | lost as black | lost as white | draws |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|---|"]
    for name, p in players.items():
        taken = ", ".join(f"{phase}: {decision} {count}" for (phase, decision), count in sorted(p.decisions.items()))
        lines.append(f"| {name} | {p.games} | {p.first} | {p.black} | {taken or '-'} | {p.wins['black']} | "
                     f"{p.wins['white']} | {p.losses['black']} | {p.losses['white']} | {p.draws} |")  # fmt: skip
    return "\n".join(lines)


def read(folders: Iterable[str]) -> list[GameRecord]:
    """The SGF records in ``folders``, in name order."""
    records = []
    for folder in folders:
        files = sorted(Path(folder).glob("*.sgf"))
        if not files:
            raise ValueError(f"no .sgf records in {folder}")
        records.extend(load(f) for f in files)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="folders of SGF records (arena --save-games)")
    args = parser.parse_args(argv)
    try:
        print(table(tally(read(args.folders))))
    except ValueError as exc:
        print(f"opening_decisions: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

