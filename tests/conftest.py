import os
import sys
from pathlib import Path

# Let tests import the shared drawing helpers (tests/ascii_boards.py) and the
# baseline scripts (baselines/*.py, which import their neighbour report.py).
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "baselines"))

# Windows (render_mode="human", the play window) open in memory only: no screen, no sound.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
