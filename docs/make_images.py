"""Make the pictures in README.md, docs/render.md and docs/opening_rules.md.

    python docs/make_images.py            # plays the game again (about a minute), then draws
    python docs/make_images.py --redraw   # draws from the recorded game docs/img/renju_game.txt

Two 15x15 renju games between built-in policies, each recorded as a move
list in renju notation: ``renju_game.txt`` (black ``alphabeta``, white
``mcts``, seeds 0 and 1), drawn as ``renju.gif``, one frame per move; and
``board_game.txt``, alpha-beta against itself up to the first position
after move 20 where black is to move and has a forbidden point, drawn with
move numbers as ``board.png`` and, in the play window
(headless) with the mouse over a point, as ``gui.png``. ``tictactoe.png``
is a won tic-tac-toe game; ``notebook.svg`` is the board of the notebook
example in docs/render.md. ``opening_soosorv8.png`` and ``opening_swap2.png``
(docs/opening_rules.md) show the phases of two opening rules, one board per
phase (the centre of the 15x15 board, the offered fifth moves as numbered
hollow stones), each with its step in words above it.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the window is drawn in memory

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from boardgame_envs import gomoku_v0, render  # noqa: E402
from boardgame_envs.games.mnk import MNKGame  # noqa: E402
from boardgame_envs.games.notation import point_name  # noqa: E402
from boardgame_envs.games.opening_game import OpeningRuleGame  # noqa: E402
from boardgame_envs.policies.registry import make_policy  # noqa: E402

GAME = MNKGame(15, 5, "renju")
GIF_PLAYERS = ("alphabeta", "mcts")
BOARD_PLAYERS = ("alphabeta", "alphabeta")
NOTEBOOK_MOVES = "e7 a9 e6 i9 c5 a1 d5 i1"  # docs/render.md: black to move, e5 a double-three
# The phases of two opening rules: (rule, base rule, [(actions so far, the step in words)]).
OPENING_PHASES = {
    "opening_soosorv8.png": ("soosorv8", "renju", [
        ("h8 h9 i9", "1-3 first player: one of\nthe 26 openings (Kagetsu)"),
        ("h8 h9 i9 keep j10 offers=2", "4 second player: keep\n5-6 white: the 4th stone, offers=2"),
        ("h8 h9 i9 keep j10 offers=2 keep g9 j8", "7 black: keep\n8 black offers two fifth moves"),
        ("h8 h9 i9 keep j10 offers=2 keep g9 j8 j8 k9", "9 white takes one (j8)\nand plays the 6th: normal play"),
    ]),
    "opening_swap2.png": ("swap2", "freestyle", [
        ("h8 i9 g10", "first player: two black\nstones and one white"),
        ("h8 i9 g10 more g8 h10", "second player: more (not black\nor white), a white and a black"),
        ("h8 i9 g10 more g8 h10 white f9", "first player takes white\nand plays the 6th: normal play"),
    ]),
}  # fmt: skip
PHASE_CELL, PHASE_SPAN = 28, 4  # pixels between lines; points shown each side of the centre


def showcase(state) -> bool:
    """A position worth a picture: black to move after move 20, with a forbidden point to avoid."""
    return state.num_moves >= 20 and state.to_move == 1 and bool(state.forbidden().any())


def play_game(players: tuple[str, str], stop=None) -> list[int]:
    """The moves of a game between two policy specs (seeds 0 and 1), until it ends or ``stop(state)``."""
    env = gomoku_v0.env(board_size=15, rule="renju")
    env.reset(seed=0)
    policies = dict(zip(env.possible_agents, (make_policy(p, seed=i) for i, p in enumerate(players))))
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if stop is not None and stop(env.unwrapped.game_state):
            break
        env.step(None if terminated or truncated else int(policies[agent].act(env)))
    return list(env.unwrapped.moves)


def recorded(path: Path, replay: bool, players: tuple[str, str], stop=None) -> list[int]:
    if replay:
        return render.animation.parse_moves(path.read_text(), GAME.size)
    moves = play_game(players, stop)
    path.write_text(" ".join(point_name(a, GAME.size) for a in moves) + "\n")
    return moves


def opening_phases(path: Path, rule: str, base: str, phases: list[tuple[str, str]]) -> None:
    """One picture of an opening rule's phases: a board per phase (its centre), the step in words above it."""
    game = OpeningRuleGame(MNKGame(15, 5, base), rule)
    span, cell = PHASE_SPAN, PHASE_CELL
    margin = round(cell * 0.7)  # the renderer's margin without coordinates (render/scene.py)
    centre = margin + 7 * cell
    box = (centre - (span + 0.5) * cell, centre - (span + 0.5) * cell, centre + (span + 0.5) * cell,
           centre + (span + 0.5) * cell)  # fmt: skip
    font = ImageFont.load_default(15)
    caption, gap = 44, 10
    side = round(box[2] - box[0])
    picture = Image.new("RGB", (len(phases) * (side + gap) + gap, side + caption + 2 * gap), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    for i, (actions, words) in enumerate(phases):
        state = game.state_after(actions.split())
        board = render.Board.of(state, state.opening_stones() if state.in_opening else None)
        panel = Image.fromarray(board.rgb(cell=cell, coordinates=False, status=False)).crop(tuple(map(round, box)))
        x = gap + i * (side + gap)
        picture.paste(panel, (x, caption + gap))
        draw.multiline_text((x + 2, gap // 2), words, fill=(40, 40, 40), font=font, spacing=3)
    picture.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "img"))
    parser.add_argument("--redraw", action="store_true", help="draw from the recorded game instead of playing it")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    moves = recorded(out / "renju_game.txt", args.redraw, GIF_PLAYERS)
    render.animate(moves, GAME, out / "renju.gif", cell=24, seconds_per_move=0.7, hold_end=4)
    shown = recorded(out / "board_game.txt", args.redraw, BOARD_PLAYERS, stop=showcase)
    board = render.Board.from_moves(GAME, shown)
    board.save(out / "board.png", move_numbers=True)
    render.Board.from_moves(MNKGame(3, 3), [4, 0, 2, 6, 3, 1, 5]).save(out / "tictactoe.png", cell=90)
    notebook = render.animation.parse_moves(NOTEBOOK_MOVES, 9)
    render.Board.from_moves(MNKGame(9, 5, "renju"), notebook).save(out / "notebook.svg")
    for name, (rule, base, phases) in OPENING_PHASES.items():
        opening_phases(out / name, rule, base, phases)

    import functools

    from boardgame_envs.ui.gui import PlayWindow

    gui = PlayWindow(functools.partial(gomoku_v0.raw_env, 15, 5, "renju"), make_policy(BOARD_PLAYERS[1], seed=1))
    try:
        for action in shown:  # the session plays both sides here: the picture shows a position, not a game
            gui.session.play(action)
        # The mouse over the first point (reading order) after the last stone where black may play.
        gui.hover = next((a for a in range(shown[-1], GAME.num_actions) if gui.state.illegal_reason(a) is None), None)
        gui.draw()
        gui.window.save(str(out / "gui.png"))
    finally:
        gui.close()
    for path in sorted(out.iterdir()):
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
