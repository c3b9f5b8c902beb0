"""Moved to baselines/studies/sb3_maskable_ppo.py; this stub runs it from there until the next release."""

from moved import run_moved  # baselines/moved.py, beside this stub

run_moved(globals(), "studies/sb3_maskable_ppo.py")
