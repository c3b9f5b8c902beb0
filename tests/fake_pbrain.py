"""A tiny Gomocup brain for the tests, which misbehaves on purpose.

``python fake_pbrain.py MODE [ARG]``. It plays the first empty point (row by row) unless
MODE says otherwise:

* ``good``: plays well-formed moves; ``RESTART`` -> ``OK``;
* ``garbage``: answers ``hello there`` instead of a move;
* ``silent``: never answers a move; ``error``: answers ``ERROR no idea``;
* ``crash``: writes ``boom`` to stderr and exits with status 3 instead of a move;
* ``fixed X,Y``: always answers ``X,Y`` (off the board, occupied, forbidden...);
* ``slow SECONDS``: sleeps, then answers;
* ``refuse``: ``ERROR`` to ``START``; ``exit``: exits on ``START``; ``mute``: never answers ``START``;
* ``norestart``: ``UNKNOWN`` to ``RESTART``;
* ``extra``: writes an unasked ``OK`` line right after each move.

It imports nothing from the package, so it starts in a few milliseconds.
"""

import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else ""
size = 0
stones = set()


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move():
    if mode == "garbage":
        return say("hello there")
    if mode == "silent":
        return None
    if mode == "error":
        return say("ERROR no idea")
    if mode == "crash":
        sys.stderr.write("boom\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "fixed":
        return say(arg)
    if mode == "slow":
        time.sleep(float(arg))
    say("MESSAGE thinking")
    for y in range(size):
        for x in range(size):
            if (x, y) not in stones:
                stones.add((x, y))
                return say(f"{x},{y}\nOK" if mode == "extra" else f"{x},{y}")
    return None


board = False
for line in sys.stdin:
    words = line.strip().split(" ", 1)
    command = words[0].upper()
    if board:
        if command == "DONE":
            board = False
            move()
        else:
            x, y, _ = line.strip().split(",")
            stones.add((int(x), int(y)))
    elif command == "START":
        if mode == "refuse":
            say("ERROR unsupported size")
        elif mode == "exit":
            sys.exit(0)
        elif mode != "mute":
            size = int(words[1])
            stones.clear()
            say("OK")
    elif command == "RESTART":
        stones.clear()
        say("UNKNOWN RESTART" if mode == "norestart" else "OK")
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        x, y = words[1].split(",")
        stones.add((int(x), int(y)))
        move()
    elif command == "BOARD":
        stones.clear()
        board = True
    elif command == "ABOUT":
        say('name="fake", version="1.0", author="tests", country="n/a"')
    elif command == "END":
        break
