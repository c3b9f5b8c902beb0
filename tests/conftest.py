import os
import sys
from pathlib import Path

# Let tests import the shared helpers beside this file (tests/ascii_boards.py, tests/baseline_scripts.py,
# which loads a baseline script from its file: baselines/ is not on sys.path).
sys.path.insert(0, str(Path(__file__).parent))

# Windows (render_mode="human", the play window) open in memory only: no screen, no sound.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
