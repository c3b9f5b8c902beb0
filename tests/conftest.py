import sys
from pathlib import Path

# Let tests import the shared drawing helpers (tests/ascii_boards.py).
sys.path.insert(0, str(Path(__file__).parent))
