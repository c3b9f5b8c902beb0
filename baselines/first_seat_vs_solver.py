"""Moved to baselines/studies/first_seat_vs_solver.py; this stub runs it from there until the next release."""

from moved import run_moved  # baselines/moved.py, beside this stub

run_moved(globals(), "studies/first_seat_vs_solver.py")
