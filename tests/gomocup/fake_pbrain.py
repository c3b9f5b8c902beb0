"""A tiny Gomocup brain for the tests, which misbehaves on purpose.

``python fake_pbrain.py MODE [ARG]``. It plays the first empty point (row by row) unless
MODE says otherwise:

* ``good``: plays well-formed moves; ``RESTART`` -> ``OK``;
* ``garbage``: answers ``hello there`` instead of a move;
* ``silent``: never answers a move; ``error``: answers ``ERROR no idea``;
* ``crash``: writes ``boom`` to stderr and exits with status 3 instead of a move;
* ``fixed X,Y``: always answers ``X,Y`` (off the board, occupied, forbidden...);
* ``slow SECONDS``: sleeps, then answers;
* ``busy SECONDS``: computes for that many seconds of its own CPU time, then answers (an engine that thinks
  past its node budget);
* ``refuse``: ``ERROR`` to ``START``; ``exit``: exits on ``START``; ``mute``: never answers ``START``;
* ``norestart``: ``UNKNOWN`` to ``RESTART``;
* ``extra``: writes an unasked ``OK`` line right after each move;
* ``flood``: answers its first move, then prints ``MESSAGE spam`` forever instead of the next;
  ``blank``: the same with empty lines; ``trickle``: a ``MESSAGE`` line every 10 ms forever;
* ``huge``: answers a point whose x has 4,301 digits; ``longline``: a 200 kB line without a break;
* ``race MS``: like Rapfi, drops the first command word read within MS ms after its move
  answer and then reads the argument as a command (``ERROR Unknown command: 10,3``);
  ``racesilent MS``: like Rapfi under load, drops every word read within MS ms after its move
  answer (a whole ``TURN x,y``), and says nothing;
* ``stubborn``: ignores SIGTERM and ``END`` and never answers a move (SIGKILL ends it);
* ``escape``: its ``ABOUT`` name and its ``MESSAGE`` lines hold terminal escape sequences;
* ``lazyrestart SECONDS``: waits that long before it answers ``RESTART``;
* ``random``: plays a random empty point (a different game every run);
* ``echoerror``: after its first move, meets ``INFO time_left N`` with ``ERROR Unknown command: N``
  every 10 ms, forever (each one echoes a line we sent just after its move answer);
* ``swap2 C3,C5``: answers ``SWAP2BOARD`` as the Gomocup extension asks: the first three empty
  points on an empty board; after 3 stones ``C3`` (``swap``: SWAP, ``stay``: the first empty point,
  ``more``: the first two); after 5 stones ``C5`` (``swap`` or ``stay``); it records the stone lines
  it was sent (with or without a field) as stones. Other modes answer ``UNKNOWN`` to ``SWAP2BOARD``.

With ``FAKE_PBRAIN_PIDS`` set to a folder, it writes an empty file named after its pid
there; with ``FAKE_PBRAIN_CHILD=1`` it first starts ``sleep 300`` (inheriting its pipes,
as ``sleep 300 &`` in a launcher would) and records that pid too, so a test can check
that nothing is left.

It imports nothing from the package, so it starts in a few milliseconds.
"""

import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else ""
size = 0
stones = set()
moves_made = 0
answered_at = -1.0

folder = os.environ.get("FAKE_PBRAIN_PIDS")
pids = [os.getpid()]
if os.environ.get("FAKE_PBRAIN_CHILD") == "1":
    pids.append(subprocess.Popen(["sleep", "300"]).pid)
if folder:
    for pid in pids:
        open(os.path.join(folder, str(pid)), "w").close()
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move():
    global moves_made, answered_at
    if mode == "garbage":
        return say("hello there")
    if mode in ("silent", "stubborn"):
        return None
    if mode == "error":
        return say("ERROR no idea")
    if mode == "crash":
        sys.stderr.write("boom\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "fixed":
        return say(arg)
    if mode == "huge":
        return say("7" * 4301 + ",3")
    if mode == "longline":
        sys.stdout.write("1" * 200_000)
        sys.stdout.flush()
        time.sleep(60)
    if mode in ("flood", "blank", "trickle") and moves_made >= 1:
        while True:
            say({"flood": "MESSAGE spam", "blank": "", "trickle": "MESSAGE still thinking"}[mode])
            if mode == "trickle":
                time.sleep(0.01)
    if mode == "slow":
        time.sleep(float(arg))
    if mode == "busy":
        until = time.process_time() + float(arg)
        while time.process_time() < until:
            pass
    say("MESSAGE \x1b[2J\x1b]2;owned\x07thinking" if mode == "escape" else "MESSAGE thinking")
    if mode == "random":
        import random

        x, y = random.SystemRandom().choice([(x, y) for y in range(size) for x in range(size) if (x, y) not in stones])
        stones.add((x, y))
        moves_made += 1
        return say(f"{x},{y}")
    for y in range(size):
        for x in range(size):
            if (x, y) not in stones:
                stones.add((x, y))
                moves_made += 1
                say(f"{x},{y}\nOK" if mode == "extra" else f"{x},{y}")
                answered_at = time.monotonic()
                return None
    return None


def tokens():
    """Commands as Rapfi reads them (``cin >> cmd``): one word at a time, with the time it was read."""
    for line in sys.stdin:
        for word in line.split():
            yield word, time.monotonic()


def lines():
    """``(command, argument)`` per line; in ``race`` mode a dropped command's argument comes as a command."""
    if mode not in ("race", "racesilent"):
        for line in sys.stdin:
            words = line.strip().split(" ", 1)
            yield words[0].upper(), words[1] if len(words) > 1 else "", line
        return
    words = tokens()
    takes_argument = {"START", "TURN", "TAKEBACK", "RECTSTART"}
    global answered_at
    for word, at in words:
        if answered_at >= 0 and (at - answered_at) * 1000 < float(arg) and word.upper() != "END":
            if mode == "race":
                answered_at = -1.0  # "thinking" cleared now: its argument comes next as a command
            continue  # "thinking" still set: this word is lost
        command = word.upper()
        argument = ""
        if command in takes_argument:
            argument = next(words)[0]
        elif command == "INFO":
            argument = next(words)[0] + " " + next(words)[0]
        yield command, argument, word


def empty_points(count):
    return [(x, y) for y in range(size) for x in range(size) if (x, y) not in stones][:count]


def swap2_answer(sent):
    """The answer to SWAP2BOARD with the stones ``sent`` (already on the board): see the module docstring."""
    after3, after5 = arg.split(",")
    if not sent:
        points = empty_points(3)
    elif (after3 if len(sent) == 3 else after5) == "swap":
        return say("SWAP")
    else:
        points = empty_points(2 if len(sent) == 3 and after3 == "more" else 1)
    stones.update(points)
    say(" ".join(f"{x},{y}" for x, y in points))


board = False
swap2_stones = None  # collecting SWAP2BOARD's stones
for command, argument, line in lines():
    if swap2_stones is not None:
        if command == "DONE":
            sent, swap2_stones = swap2_stones, None
            stones.clear()
            stones.update(sent)
            swap2_answer(sent)
        else:
            x, y = line.strip().split(",")[:2]
            swap2_stones.append((int(x), int(y)))
    elif board:
        if command == "DONE":
            board = False
            move()
        elif mode == "race" and command.count(",") != 2:
            say(f"ERROR Unknown command: {line}")
        else:
            x, y, _ = line.strip().split(",")
            stones.add((int(x), int(y)))
    elif command == "START":
        if mode == "refuse":
            say("ERROR unsupported size")
        elif mode == "exit":
            sys.exit(0)
        elif mode != "mute":
            size = int(argument)
            stones.clear()
            say("OK")
    elif command == "RESTART":
        if mode == "lazyrestart":
            time.sleep(float(arg))
        stones.clear()
        moves_made = 0
        say("UNKNOWN RESTART" if mode == "norestart" else "OK")
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        x, y = argument.split(",")
        stones.add((int(x), int(y)))
        move()
    elif command == "TAKEBACK":
        x, y = argument.split(",")
        stones.discard((int(x), int(y)))
        say("OK")
    elif command == "BOARD":
        stones.clear()
        board = True
    elif command == "SWAP2BOARD":
        if mode == "swap2":
            swap2_stones = []
        else:
            say("UNKNOWN SWAP2BOARD")
    elif command == "ABOUT":
        name = "fake\x1b[31m\x07" if mode == "escape" else "fake"
        say(f'name="{name}", version="1.0", author="tests", country="n/a"')
    elif command == "INFO":
        if mode == "echoerror" and moves_made >= 1 and argument.startswith("time_left"):
            while True:
                say(f"ERROR Unknown command: {argument.split()[-1]}")
                time.sleep(0.01)
    elif command == "END":
        if mode != "stubborn":
            break
    elif mode == "race":
        say(f"ERROR Unknown command: {line.strip()}")
