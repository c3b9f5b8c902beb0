"""Moved to baselines/studies/alphazero_threats_cost.py; this stub runs it from there until the next release."""

from moved import run_moved  # baselines/moved.py, beside this stub

run_moved(globals(), "studies/alphazero_threats_cost.py")
