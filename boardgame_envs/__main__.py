"""``python -m boardgame_envs`` is ``boardgame-envs``."""

import sys

from boardgame_envs.cli import main

sys.exit(main())
