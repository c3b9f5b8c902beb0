"""docs/make_images.py --redraw remakes the pictures of README.md, docs/render.md and docs/opening_rules.md."""

from __future__ import annotations

import re
import runpy
import shutil
import sys
from pathlib import Path

import numpy as np
from PIL import Image

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_redraw_makes_every_picture_the_docs_show(tmp_path, monkeypatch):
    for record in ("renju_game.txt", "board_game.txt"):
        shutil.copy(DOCS / "img" / record, tmp_path / record)
    monkeypatch.setattr(sys, "argv", ["make_images.py", "--redraw", "--out", str(tmp_path)])
    runpy.run_path(str(DOCS / "make_images.py"), run_name="__main__")
    pages = [(DOCS.parent / page).read_text() for page in ("README.md", "docs/render.md", "docs/opening_rules.md")]
    shown = {name for text in pages for name in re.findall(r"img/([\w.]+)", text)}
    assert shown and shown <= {p.name for p in tmp_path.iterdir()}
    assert (tmp_path / "renju.gif").stat().st_size < 300_000
    with Image.open(tmp_path / "renju.gif") as gif:
        moves = (tmp_path / "renju_game.txt").read_text().split()
        assert gif.n_frames == len(moves) + 1
    # The committed pictures are the ones this command makes (pixels: up to font
    # rendering differences between Pillow versions).
    assert (tmp_path / "notebook.svg").read_text() == (DOCS / "img" / "notebook.svg").read_text()
    for name in ("board.png", "opening_soosorv8.png", "opening_swap2.png"):
        made, committed = (np.asarray(Image.open(d / name).convert("RGB"), dtype=int) for d in (tmp_path, DOCS / "img"))
        assert made.shape == committed.shape and np.abs(made - committed).mean() < 1, name
