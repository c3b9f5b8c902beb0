"""``boardgame-envs``: the command line. ``boardgame-envs -h`` lists the subcommands; each is a
function here that takes the parsed arguments. Games and their defaults come from the game
catalog, policies from the policy registry; a mistake is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardgame_envs.cliargs import (
    GAMES_ARG, JOBS_ARG, SEED_ARG, OneLineParser, PolicyList, add_engine_argument, add_game_arguments, add_opening_rule_argument, game_env_fn,
    parameters_of, policy_arg, save_games_help, say_interrupted, unknown_game,
)  # fmt: skip
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.policies.base import check_trained_on
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio import excerpt
from boardgame_envs.ui.escape import printable

# rate and arena take their positional arguments in opposite orders; an unknown game names the order.
RATE_ORDER = "rate takes POLICY, then GAME (e.g. boardgame-envs rate mcts tictactoe)"
ARENA_ORDER = "arena takes GAME, then two or more POLICY (e.g. boardgame-envs arena tictactoe mcts random)"


def check_fits(policy: Any, env: Any) -> None:
    """Refuse a policy on a game it cannot play (a network trained on another, the perfect player beyond
    small boards) before any move is played."""
    check_trained_on(policy.name, getattr(policy, "game", None), env.unwrapped.game)
    check = getattr(policy, "check_game", None)
    if callable(check):
        check(env.unwrapped.game)


def demo(args: argparse.Namespace) -> int:
    env = game_env_fn(args, render_mode="ansi")()
    env.reset(seed=args.seed)
    players = dict(zip(env.possible_agents, (make_policy(args.first, seed=args.seed), make_policy(args.second, seed=args.seed + 1))))
    for policy in players.values():
        check_fits(policy, env)
    print(" vs ".join(f"{agent} ({spec})" for agent, spec in zip(env.possible_agents, (args.first, args.second))))
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else players[agent].act(env))
    print(env.render())
    first, second = env.possible_agents
    state = env.unwrapped.game_state
    result = {1: f"{first} ({args.first}) wins", 2: f"{second} ({args.second}) wins"}.get(state.winner, "draw")
    print(f"{state.num_moves} moves: {result}")
    return 0


def arena(args: argparse.Namespace) -> int:
    from boardgame_envs.arena import (
        PolicyError, check_games_and_jobs, match, resolve_openings, round_robin, round_robin_table,
    )  # fmt: skip
    from boardgame_envs.games import opening_positions as openings

    check_games_and_jobs(args.games, args.jobs, args.backend)
    env_fn = game_env_fn(args)
    game = env_fn().unwrapped.game
    for name in args.policies:
        make_policy(name, seed=0)  # fail before any game is played
    if args.openings not in (None, "none") and args.opening_rule is not None:
        raise ValueError(f"--opening-rule {args.opening_rule} lays the opening of every game: leave out --openings")
    chosen = resolve_openings("default" if args.openings is None else args.openings, game)  # match()'s own default
    if chosen is not None:
        openings.for_game(chosen, game)  # a bad name or file, or another game's set, fails here, before any game
    try:
        if len(args.policies) == 2:
            a, b = args.policies
            result = match(env_fn, a, b, games=args.games, seed=args.seed, jobs=args.jobs, openings=chosen,
                           sprt=args.sprt, save_games=args.save_games, backend=args.backend)  # fmt: skip
            if result.interrupted:  # Ctrl-C: the games finished so far, then the usual line
                say_interrupted(f"interrupted after {result.games} of {args.games} games")
            print(result)
            if result.interrupted:
                return 130
            if result.not_saved:  # the summary above stands; the records are what failed
                print(f"boardgame-envs: {result.not_saved}", file=sys.stderr)
                return 1
        else:
            if args.sprt:
                raise ValueError("--sprt is for a match between two policies")
            pairs: list = []
            table = round_robin(env_fn, {p: p for p in args.policies}, games=args.games, seed=args.seed,
                                jobs=args.jobs, openings=chosen, pairs=pairs, save_games=args.save_games)  # fmt: skip
            print(round_robin_table(table, pairs))
            unsaved = [f"{r.name_a} vs {r.name_b}: {r.not_saved}" for r in pairs if r.not_saved]
            if unsaved:  # the table above stands; the records are what failed
                print(f"boardgame-envs: {'; '.join(unsaved)}", file=sys.stderr)
                return 1
    except PolicyError as exc:
        print(f"boardgame-envs: {exc}", file=sys.stderr)
        return 1
    return 0


def play(args: argparse.Namespace) -> int:
    from boardgame_envs.ui.terminal import play_terminal

    if args.gui:
        from boardgame_envs.ui.gui import check_display

        check_display()  # before anything is built: no window would show, and the game would wait on it
    env_fn = game_env_fn(args, raw=True, render_mode="ansi")
    opponent = make_policy(args.opponent, seed=args.seed)
    check_fits(opponent, env_fn())  # bad board arguments fail here too, with the env's message
    if args.gui and args.opening_rule is not None:
        raise ValueError("the window takes stones, not an opening rule's decisions (swap, offers=2, ...): "
                         "play under --opening-rule in the terminal (leave out --gui)")
    if args.gui:
        from boardgame_envs.ui.gui import play_window

        play_window(env_fn, opponent, human_first=args.color in ("black", "first"))
        return 0
    play_terminal(env_fn, opponent, human_first=args.color in ("black", "first"))
    return 0


def rate(args: argparse.Namespace) -> int:
    """``rate POLICY GAME``: a GAME word that is neither a game nor a ladder is refused first, naming the
    order (``arena`` takes the game first, and the two are easily swapped)."""
    from boardgame_envs.ladder import cli as ladder_cli
    from boardgame_envs.ladder.ladders import ladder_names

    names = ladder_names()  # the shipped ladders and those built here (boardgame-envs ladder build)
    if args.game not in GAMES and args.game not in names:
        raise ValueError(unknown_game(args.game, RATE_ORDER) + f"; ladders: {', '.join(names)}")
    return ladder_cli.run_rate(args)


def replay_record(args: argparse.Namespace) -> int:
    """A record (as ``arena --save-games`` writes: SGF, or a move-list record for a game SGF cannot hold): steps
    through it on a terminal, else prints a position."""
    from boardgame_envs.arena.records import load
    from boardgame_envs.ui.replay import frame, header, replay_terminal

    if args.param:
        raise ValueError(f"{args.file} is a record, which names its game and parameters: leave out --param")
    record = load(args.file)
    if args.gif:
        from boardgame_envs.games.mnk import MNKGame
        from boardgame_envs.render import animate
        from boardgame_envs.ui.replay import summary

        check_writable(args.gif)
        stones = record.stones()  # under an opening rule, its stones in the order laid
        game = record.game_object() if record.game else MNKGame(record.board_size, record.win_length, record.rule)
        animate(stones, game, args.gif)
        print(f"wrote {args.gif}: {len(stones) + 1} frames, {summary(record)}")
        return 0
    if args.moves is None and sys.stdin.isatty():
        replay_terminal(record)
        return 0
    print(header(record))
    print(frame(record, len(record.moves) if args.moves is None else args.moves))
    return 0


def replay(args: argparse.Namespace) -> int:
    """A game written as a move list (its own names, the first player first: "h8 i9 j10 ...", "d d c" in connect
    four): its final position, or an animation with --gif.

    A record (``.sgf``, or a move-list record as the arena saves for other games) goes to :func:`replay_record`.
    """
    from boardgame_envs.arena.records import is_record

    if str(args.file).lower().endswith(".sgf") or is_record(args.file):
        return replay_record(args)
    if args.moves is not None:
        raise ValueError("--moves steps through SGF records (arena --save-games); a move list shows its last position")

    from boardgame_envs.games.catalog import game_info
    from boardgame_envs.render import animate
    from boardgame_envs.ui.replay import move_list, read_move_list

    game = game_info(args.game).game(args.board_size, args.win_length, args.rule, **parameters_of(args.param))
    moves = read_move_list(args.file, game)  # bounded as a record is; bad moves quoted short
    text, status = move_list(game, moves)  # an illegal move: IllegalMoveError (a ValueError) naming it
    if args.gif:
        check_writable(args.gif)
        animate(moves, game, args.gif)
        print(f"wrote {args.gif}: {len(moves) + 1} frames, {status}")
        return 0
    print(text)  # the board, then the game and its result (whose move it is, for an unfinished list)
    return 0


def check_writable(path: str) -> None:
    """Refuse an output file whose folder does not exist, before any work (one line, not a traceback)."""
    from pathlib import Path

    folder = Path(path).expanduser().parent
    if not folder.is_dir():
        raise ValueError(f"cannot write {path}: there is no folder {folder}")


def accuracy(args: argparse.Namespace) -> int:
    """``accuracy POLICY connect_four``: the share of solved positions where POLICY's move keeps the value."""
    from boardgame_envs.ladder.accuracy import accuracy as measure

    result = measure(args.policy, args.game, seed=args.seed, limit=args.limit)
    print(result.line())
    print("\n".join(result.phase_lines()))
    print(f"  (a uniformly random player keeps it on {100 * result.expected_random:.1f}% of these positions, "
          "in expectation)")
    return 0


def pbrain(args: argparse.Namespace) -> int:
    from boardgame_envs.gomocup import serve, write_launcher

    if args.write_launcher:
        path = write_launcher(args.write_launcher, args.policy, seed=args.seed, name=args.name, force=args.force)
        print(f"wrote {path}: a brain for Gomocup managers; as a policy here: pbrain:{path}")
        return 0
    return serve(make_policy(args.policy, seed=args.seed), name=args.name)


DESCRIPTION = f"""Board games for reinforcement learning ({', '.join(GAMES)}): play them, match policies, rate a
policy on a calibrated ladder, train AlphaZero. 'boardgame-envs COMMAND -h' gives a command's arguments."""


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="boardgame-envs", description=DESCRIPTION)  # its subparsers: one-line errors too
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="play one game between two built-in policies and print it")
    add_game_arguments(d, default="gomoku")
    d.add_argument("--first", default="mcts", type=policy_arg, metavar="POLICY",
                   help="the policy that moves first (black): any spec, e.g. alphabeta:nodes=4000 (default mcts)")
    d.add_argument("--second", default="random", type=policy_arg, metavar="POLICY",
                   help="the policy that moves second (white) (default random)")
    d.add_argument("--seed", type=SEED_ARG, default=0, help="seeds both policies (the second gets SEED + 1; default 0)")
    add_opening_rule_argument(d)
    d.set_defaults(func=demo)
    p = sub.add_parser("play", help="play against a built-in policy in the terminal (or a window: --gui)")
    add_game_arguments(p)
    p.add_argument("--opponent", default="alphabeta", type=policy_arg, metavar="POLICY",
                   help="who you play: any policy spec, a checkpoint (.pt) or pretrained:NAME (default alphabeta)")
    p.add_argument("--color", default="black", choices=("black", "white", "first", "second"),
                   help="your colour: black or first moves first (default black)")
    p.add_argument("--seed", type=SEED_ARG, default=0, help="seeds the opponent's random choices (default 0)")
    p.add_argument("--gui", action="store_true", help="play in a window (needs the gui extra: pygame, and a display)")
    add_opening_rule_argument(p)
    add_engine_argument(p)
    p.set_defaults(func=play)
    a = sub.add_parser("arena", help="play policies against each other; two: a match table, more: Elo")
    add_game_arguments(a, order=ARENA_ORDER)
    a.add_argument("policies", nargs="+", metavar="POLICY", type=policy_arg, action=PolicyList,
                   help="two or more policy specs (e.g. random, mcts:simulations=200, alphabeta:depth=4, run/latest.pt)")
    a.add_argument("--games", type=GAMES_ARG, default=50,
                   help="games of the match (in a round robin: of each pair of policies), colours swapping; an even "
                   "number where the games start from openings in colour-swapped pairs (an odd one is refused) "
                   "(default 50)")
    a.add_argument("--jobs", type=JOBS_ARG, default=1,
                   help="games at a time; local: at most the cores (default 1)")
    a.add_argument("--seed", type=SEED_ARG, default=0, help="the match's seed: each game's seed comes from it (default 0)")
    a.add_argument("--openings", metavar="NAME|FILE", help="opening set (rif26, ...) or file, played in colour-swapped "
                   "pairs; default: rif26 on 15x15 renju, the balanced set on 15x15, 9x9 and 8x8 freestyle, "
                   "connect_four_2ply (the ladder's 49 starts) for connect four; 'none': empty board")
    a.add_argument("--sprt", metavar="ELO0,ELO1", help="stop early once an SPRT (alpha = beta = 0.05) decides")
    a.add_argument("--save-games", metavar="DIR", help=save_games_help() + "; a round robin names "
                   "them by pairing, in the table's order: pair-01-game-0001.sgf, ...")  # fmt: skip
    a.add_argument("--backend", default="local", choices=("local", "ray"), help="where the games run (default: local processes)")
    add_opening_rule_argument(a)
    add_engine_argument(a)
    a.set_defaults(func=arena)
    g = sub.add_parser("pbrain", help="run a policy as a Gomocup brain (pbrain-*) on stdin/stdout")
    g.add_argument("--policy", default="alphabeta", type=policy_arg, metavar="POLICY",
                   help="any policy spec (default: alphabeta, a fixed node budget)")
    g.add_argument("--seed", type=SEED_ARG, default=0)
    g.add_argument("--name", default=None, help="the name ABOUT reports")
    g.add_argument("--write-launcher", metavar="PATH", help="write an executable script that runs this brain, and exit")
    g.add_argument("--force", action="store_true", help="let --write-launcher replace an existing file")
    g.set_defaults(func=pbrain)
    from boardgame_envs.ladder import cli as ladder_cli  # imports nothing heavy

    rp = sub.add_parser("replay", help="step through a saved game (a record from arena --save-games, or a move list "
                        "h8 i9 ...) of any game; --gif writes an animation")
    rp.add_argument("file", help="a record (.sgf, or a move-list record: Enter/n next, p previous, a number jumps, "
                    "q quits) or a text file of moves as the game names them (h8, d, ...), the first player first, "
                    "separated by spaces")
    add_game_arguments(rp, default="renju")
    rp.add_argument("--moves", type=int, metavar="K", help="SGF: print the position after K moves and exit")
    rp.add_argument("--gif", metavar="OUT", help="write the game as an animation (.gif, .png, .webp; .mp4 with the video extra)")
    rp.set_defaults(func=replay)
    lad = sub.add_parser("ladder", help="print a game's calibrated ladder: levels, Elo, 95%% intervals; "
                         "'ladder build GAME' builds one for any game (boardgame-envs ladder build -h)")
    ladder_cli.add_ladder_arguments(lad)
    lad.set_defaults(func=ladder_with_networks)
    r = sub.add_parser("rate", help="place a policy on a game's ladder: Elo with a 95%% interval")
    ladder_cli.add_rate_arguments(r)
    r.set_defaults(func=rate)
    from boardgame_envs.ui import solve as solve_cli  # the solver's kernels load only when a position is solved

    so = sub.add_parser("solve", help="a connect-four position's exact value and every column's (win/draw/loss, "
                        "and in how many moves)")
    solve_cli.add_arguments(so)
    so.set_defaults(func=solve_cli.run)
    ac = sub.add_parser("accuracy", help="how often a policy's move keeps the game-theoretic value on solved "
                        "connect-four positions from real games, with a 95%% interval and a breakdown by phase")
    ac.add_argument("policy", metavar="POLICY", type=policy_arg, help="any policy spec (e.g. perfect, random, "
                    "pretrained:connect-four, level:connect_four/3)")
    ac.add_argument("game", choices=("connect_four",), help="the solved game (connect_four)")
    ac.add_argument("--seed", type=SEED_ARG, default=0, help="seeds the policy (default 0)")
    ac.add_argument("--limit", type=GAMES_ARG, metavar="N", help="only N positions, spread evenly over the set (a quick look)")
    ac.set_defaults(func=accuracy)
    # Listed for -h; main() hands `bench ...` to the benchmark runner before this parser sees it.
    sub.add_parser("bench", help="run a benchmark (boardgame-envs bench -h lists them)", add_help=False)
    from boardgame_envs.alphazero import cli as az_cli  # imports no torch

    t = sub.add_parser("train", help="train an AlphaZero network by self-play (needs the train extra)")
    az_cli.add_arguments(t)
    t.set_defaults(func=az_cli.run)
    return parser


def ladder_with_networks(args: argparse.Namespace) -> int:
    """``ladder``: the table, then the shipped networks rated on it (the ladder package knows nothing of them)."""
    from boardgame_envs.alphazero.pretrained import rated_on  # no torch
    from boardgame_envs.ladder import cli as ladder_cli
    from boardgame_envs.ladder.ladders import ladder_for

    status = ladder_cli.run_ladder(args)
    lines = rated_on(ladder_for(args.game, args.rule, args.board_size, parameters_of(args.param)).name,
                     markdown=args.markdown)  # fmt: skip
    if lines:
        print("\n" + "\n".join(lines))
    return status


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:  # the benchmark's own arguments, -h included, go to it untouched
        from boardgame_envs.bench.__main__ import main as bench_main

        return bench_main(argv[1:], prog="boardgame-envs bench")
    if argv[:2] == ["ladder", "build"]:  # building a ladder has arguments of its own (a GAME named build is none)
        from boardgame_envs.ladder.cli import build_main

        return build_main(argv[2:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the error's one line (or the help)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        say_interrupted()
        return 130
    except Exception as exc:
        kind = expected_error(exc)
        if kind is None:  # a bug: its traceback is what helps
            raise
        print(f"boardgame-envs: {kind}: {printable(one_line(exc))}", file=sys.stderr)
        return 2


def expected_error(exc: BaseException) -> str | None:
    """How to name ``exc`` on its one line when it is a failure the package expects (bad input, a file that
    cannot be read or written, an engine or a worker that failed), else None.

    The package's input errors are ``ValueError`` subclasses (PolicySpecError, IllegalMoveError,
    CheckpointError, LadderError, RecordError, ...); files fail with ``OSError``. Engine and worker
    errors are looked up only in modules already loaded: if a module is not loaded, it raised nothing.
    """
    if isinstance(exc, ValueError):
        return "error"
    for module, name, kind in (("boardgame_envs.gomocup.process", "EngineError", "engine error"),
                               ("boardgame_envs.arena.backends", "ArenaError", "error")):  # fmt: skip
        cls = getattr(sys.modules.get(module), name, None)
        if cls is not None and isinstance(exc, cls):
            return kind
    if isinstance(exc, OSError):
        return "error"
    return None


ERROR_LINE_CHARS = 2000  # the longest legitimate messages (a list of every policy kind) take under 1,000


def one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (an ``OSError`` as its reason and file name, without ``[Errno N]``)."""
    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    else:
        text = str(exc) or type(exc).__name__
    return excerpt(" ".join(text.split()), ERROR_LINE_CHARS)  # a message quoting a file's content stays a line


if __name__ == "__main__":
    sys.exit(main())
