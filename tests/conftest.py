import multiprocessing
import os
import signal
import sys
from pathlib import Path

# Let tests import the shared helpers beside this file (tests/ascii_boards.py, tests/baseline_scripts.py,
# which loads a baseline script from its file: baselines/ is not on sys.path).
sys.path.insert(0, str(Path(__file__).parent))

# A game the suite was not written for, put in the catalog for the whole run before any test module reads the
# catalog, as a game shipped in the package would be: tests/test_a_new_game.py runs the every-game tests so.
if os.environ.get("BOARDGAME_ENVS_TESTS_NEW_GAME"):
    from conformance.temporary import add_for_the_run

    add_for_the_run(os.environ["BOARDGAME_ENVS_TESTS_NEW_GAME"])

# Windows (render_mode="human", the play window) open in memory only: no screen, no sound.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# The Ctrl-C tests deliver SIGINT as a terminal does. A suite started in the background (`nohup`, `&` in a
# script, some CI runners) inherits SIGINT ignored, which Python keeps and every child inherits across exec;
# give this process the handler a terminal session has, so those tests test Ctrl-C, not how pytest was started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# SB3 makes an empty log folder, /tmp/SB3-<date>, for every model whose logger it sets up itself: the suite's
# models would leave hundreds. Send them into one folder that is removed when the suite ends.
if "SB3_LOGDIR" not in os.environ:
    import atexit
    import shutil
    import tempfile

    _sb3_logs = tempfile.mkdtemp(prefix="boardgame-envs-tests-sb3-logs-")
    os.environ["SB3_LOGDIR"] = _sb3_logs
    atexit.register(shutil.rmtree, _sb3_logs, ignore_errors=True)

# Importing TorchRL sets multiprocessing's start method to "spawn" for the whole process (torchrl/__init__.py does
# it on import). The tests that import it (tests/envs/test_library_wrappers.py, tests/test_examples.py) would leave
# every later test's worker pool (arena, ladder, gomocup) spawning fresh interpreters that import the package again,
# several CPU-seconds a pool, and under another start method than the same test gets when run alone. Each test
# starts with the start method the session began with.
_START_METHOD = multiprocessing.get_start_method(allow_none=True)


def pytest_runtest_teardown(item, nextitem):
    if multiprocessing.get_start_method(allow_none=True) != _START_METHOD:
        multiprocessing.set_start_method(_START_METHOD, force=True)
