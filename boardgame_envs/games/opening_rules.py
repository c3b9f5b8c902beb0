"""Tournament opening rules of renju and gomoku, as data: the steps a game walks before normal play.

Free renju and free gomoku are wins for the first player, so tournaments
start with an opening rule: a short procedure of stones laid within zones,
colour swaps and fifth-move offers that decides the first moves and who plays
which colour. :class:`~boardgame_envs.games.opening_game.OpeningRuleGame`
plays these steps; this module states them, each from its public text:

* **Soosõrv-N** (``soosorv1`` .. ``soosorv8``; Soosõrv-8 is the rule of the
  Renju World Championships since 2017). Source: the Soosõrv rule as the RIF
  certified it (2011) and renju.net's rules pages print it (also the
  Wikipedia article "Soosõrv opening rule"). The first player lays one of the
  26 canonical openings; the other may swap; white lays the 4th stone anywhere
  and declares 1..N fifth-move offers; the other may swap; black lays that
  many fifth-move offers, no two symmetric; white chooses one and plays the
  6th stone.
* **Taraguchi-N** (``taraguchi1`` .. ``taraguchi10``; Taraguchi-10 is the rule
  of the European championships). Source: the Taraguchi and Taraguchi-N rules
  of the RIF (renju.net; Wikipedia "Taraguchi opening rule"). Black lays the
  1st stone at the centre, the other player may swap; white lays the 2nd
  within the central 3x3, the other may swap; black the 3rd within 5x5, swap;
  white the 4th within 7x7. Then black either takes choice 1 (the other
  player, white, may swap: the player then holding black lays the 5th
  within the central 9x9, the other may swap, and white plays the 6th
  anywhere) or choice 2 (black offers N fifth stones anywhere, no two
  symmetric; white chooses one and plays the 6th). So after each of the first
  five stones the player who did not lay it may take it over; black's
  decision after the 4th is one of ``swap`` (choice 1, swapping),
  ``keep`` (choice 1, not swapping) or ``offers=N`` (choice 2).
* **RIF** (``rif``, the RIF's rule of 1996-2008). Source: the RIF opening rule
  (Wikipedia "RIF opening rule"). The first player lays one of the 26
  openings; the other may swap; white lays the 4th anywhere; black offers two
  fifth moves, not symmetric; white chooses one and plays the 6th.
* **Swap2** (``swap2``, gomoku: freestyle or standard; Gomocup's and most
  gomoku sites' rule). Source: the Swap2 rule as Gomocup and the gomoku
  federations publish it. The first player lays two black stones and one
  white anywhere; the second player takes black, takes white, or lays one
  more white and one more black stone and lets the first player choose the
  colour.

Fifth-move offers are "not symmetric" in the sense the renju texts give it (a
fifth move must differ from the others "in all respects"): two offers ``a``
and ``b`` are symmetric when the position with black at ``a`` is an image of
the position with black at ``b`` under one of the board's 8 symmetries. In
the 4-stone positions of these rules that is the same as a symmetry of the
position mapping ``a`` onto ``b`` (a symmetry that moves a black stone onto
an offer would have to be a quarter turn, and no quarter turn leaves two
white stones where they are).

The 26 canonical openings (``boardgame_envs/data/openings/rif26.txt``) are
exactly the 3-stone positions with black at the centre, white within the
central 3x3 and black within the central 5x5, up to the board's symmetries;
so "lays one of the 26 openings" is played as three stones in those zones,
and every symmetric image of an opening counts as that opening (the tests
check the two descriptions against each other).

Every stone of these rules is laid in the order of colours of a normal game
(black, white, black, ...), so the board of the opening is a position of the
base game; at most three stones of one colour are laid before normal play,
which is why an opening rule needs ``win_length >= 4`` (no five, and under
renju no forbidden point, can arise within it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from boardgame_envs.games.lines import BLACK, EMPTY

# Step kinds: a stone laid, or one of the decisions.
STONE, SWAP, DECLARE, CHOICE, SWAP2, COLOUR, OFFER, CHOOSE = (
    "stone", "swap", "declare", "choice", "swap2", "colour", "offer", "choose",
)  # fmt: skip
PLAY = "play"  # the phase after the opening: the base game's normal play
COLOUR_DECISIONS = (SWAP, CHOICE, SWAP2, COLOUR)  # the steps that can change who plays which colour
# Who takes a step: a seat, or whoever holds a colour at that moment.
FIRST, SECOND, HOLDS_BLACK, HOLDS_WHITE = "first", "second", "black", "white"
END = -1  # a step's successor: normal play begins

MAX_SOOSORV, MAX_TARAGUCHI = 8, 10
GOMOKU_RULES, RENJU_RULES = ("freestyle", "standard"), ("renju",)
DEFAULTS = {"renju": "soosorv8", "freestyle": "swap2", "standard": "swap2"}


@dataclass(frozen=True)
class Step:
    """One step of an opening rule: who acts, and what they do.

    ``zone`` (stones only): the stone lies within the central
    ``(2 * zone + 1)``-square, or anywhere when None. ``branches`` send a
    decision to a step other than the next one (``END``: normal play);
    ``last`` ends the opening after this step whatever was decided.
    """

    kind: str
    actor: str
    zone: int | None = None
    branches: tuple[tuple[str, int], ...] = ()
    last: bool = False

    def next_step(self, index: int, decision: str | None = None) -> int:
        """The step after this one (at ``index``) once ``decision`` (or a stone) is taken; ``END``: play."""
        for name, target in self.branches:
            if name == decision:
                return target
        return END if self.last else index + 1


@dataclass(frozen=True)
class OpeningRule:
    """An opening rule: its steps, its decision vocabulary and the base rules it is played under.

    ``offers`` is the number of fifth-move offers: the most a player may
    declare (``declares``, Soosõrv) or the fixed number (Taraguchi-N, RIF).
    """

    name: str
    family: str  # "soosorv", "taraguchi", "rif", "swap2"
    steps: tuple[Step, ...]
    decisions: tuple[str, ...]  # the names of the actions after the board points, in order
    base_rules: tuple[str, ...]  # MNKGame rules it is played under
    offers: int = 0
    declares: bool = False
    odd_board: bool = True  # its zones are central squares: the board needs a centre point
    min_size: int = 5  # the largest zone, 9x9 for Taraguchi

    def allowed(self, step: Step) -> tuple[str, ...]:
        """The decisions a decision step offers, in the rule's order (none for stone, offer and choose steps)."""
        if step.kind == SWAP:
            return ("swap", "keep")
        if step.kind == DECLARE:
            return tuple(f"offers={k}" for k in range(1, self.offers + 1))
        if step.kind == CHOICE:
            return ("swap", "keep", f"offers={self.offers}")
        if step.kind == SWAP2:
            return ("black", "white", "more")
        if step.kind == COLOUR:
            return ("black", "white")
        return ()

    def colour_choice_ahead(self, index: int) -> bool:
        """Whether a colour decision (a swap, Swap2's choice) lies between step ``index`` and normal play.

        Along the default path: in every rule here, a stone followed by such a
        decision is followed by the other player's (the stone may be taken
        over), which is what the built-in policies need to know.
        """
        step = self.steps[index]
        j = step.next_step(index)
        while j != END:
            if self.steps[j].kind in COLOUR_DECISIONS:
                return True
            j = self.steps[j].next_step(j)
        return False

    @property
    def phases(self) -> tuple[str, ...]:
        """The step kinds of the rule in order of first appearance, then ``"play"`` (the phase one-hot's order)."""
        kinds = []
        for step in self.steps:
            if step.kind not in kinds:
                kinds.append(step.kind)
        return (*kinds, PLAY)


def soosorv(n: int) -> OpeningRule:
    """Soosõrv-N: the 26 openings, swap, 4th stone and 1..N offers declared, swap, offers, choice."""
    steps = (
        Step(STONE, FIRST, 0), Step(STONE, FIRST, 1), Step(STONE, FIRST, 2),  # one of the 26 openings
        Step(SWAP, SECOND),
        Step(STONE, HOLDS_WHITE),  # the 4th stone, anywhere
        Step(DECLARE, HOLDS_WHITE),
        Step(SWAP, HOLDS_BLACK),
        Step(OFFER, HOLDS_BLACK),  # as many as declared
        Step(CHOOSE, HOLDS_WHITE, last=True),  # then white plays the 6th: normal play
    )  # fmt: skip
    decisions = ("swap", "keep", *(f"offers={k}" for k in range(1, n + 1)))
    return OpeningRule(f"soosorv{n}", "soosorv", steps, decisions, RENJU_RULES, offers=n, declares=True)


def taraguchi(n: int) -> OpeningRule:
    """Taraguchi-N: stones in growing central squares with a swap after each, then choice 1 or N offers."""
    steps = (
        Step(STONE, HOLDS_BLACK, 0), Step(SWAP, HOLDS_WHITE),  # 0, 1
        Step(STONE, HOLDS_WHITE, 1), Step(SWAP, HOLDS_BLACK),  # 2, 3
        Step(STONE, HOLDS_BLACK, 2), Step(SWAP, HOLDS_WHITE),  # 4, 5
        Step(STONE, HOLDS_WHITE, 3),  # 6
        Step(CHOICE, HOLDS_BLACK, branches=((f"offers={n}", 10),)),  # 7: swap / keep go on to 8 (choice 1)
        Step(STONE, HOLDS_BLACK, 4), Step(SWAP, HOLDS_WHITE, last=True),  # 8, 9: then white's 6th, anywhere
        Step(OFFER, HOLDS_BLACK), Step(CHOOSE, HOLDS_WHITE, last=True),  # 10, 11 (choice 2)
    )  # fmt: skip
    decisions = ("swap", "keep", f"offers={n}")
    return OpeningRule(f"taraguchi{n}", "taraguchi", steps, decisions, RENJU_RULES, offers=n, min_size=9)


def rif() -> OpeningRule:
    """The RIF rule (1996): the 26 openings, swap, 4th stone anywhere, two offers, choice."""
    steps = (
        Step(STONE, FIRST, 0), Step(STONE, FIRST, 1), Step(STONE, FIRST, 2),
        Step(SWAP, SECOND),
        Step(STONE, HOLDS_WHITE),
        Step(OFFER, HOLDS_BLACK),
        Step(CHOOSE, HOLDS_WHITE, last=True),
    )  # fmt: skip
    return OpeningRule("rif", "rif", steps, ("swap", "keep"), RENJU_RULES, offers=2)


def swap2() -> OpeningRule:
    """Swap2: three stones by the first player; the second takes a colour or lays two more and lets it choose."""
    steps = (
        Step(STONE, FIRST), Step(STONE, FIRST), Step(STONE, FIRST),  # black, white, black: anywhere
        Step(SWAP2, SECOND, branches=(("black", END), ("white", END))),
        Step(STONE, SECOND), Step(STONE, SECOND),  # white, black
        Step(COLOUR, FIRST, last=True),
    )  # fmt: skip
    return OpeningRule("swap2", "swap2", steps, ("black", "white", "more"), GOMOKU_RULES, odd_board=False)


RULE_NAMES = (
    *(f"soosorv{n}" for n in range(1, MAX_SOOSORV + 1)),
    *(f"taraguchi{n}" for n in range(1, MAX_TARAGUCHI + 1)),
    "rif", "swap2",
)  # fmt: skip
_NAME = re.compile(r"^(soosorv|taraguchi)(\d+)$")


def valid_names() -> str:
    """The opening rules in words, for error messages."""
    return f"soosorv1..soosorv{MAX_SOOSORV}, taraguchi1..taraguchi{MAX_TARAGUCHI}, rif (renju); swap2 (gomoku)"


def opening_rule(spec: object, base_rule: str) -> OpeningRule:
    """The opening rule ``spec`` names, checked against the base game's ``base_rule``.

    ``spec`` is a name (``"soosorv8"``; case, ``õ``, ``-`` and ``_`` are
    forgiven: ``"Soosõrv-8"``), an :class:`OpeningRule`, or ``True`` for the
    base rule's default (:data:`DEFAULTS`: Soosõrv-8 under renju, Swap2 under
    freestyle and standard). Raises ``ValueError`` listing the valid names.
    """
    if spec is True:
        spec = DEFAULTS[base_rule]
    if isinstance(spec, OpeningRule):
        rule = spec
    elif isinstance(spec, str):
        key = spec.strip().lower().replace("õ", "o").replace("-", "").replace("_", "")
        match = _NAME.match(key)
        if key == "rif":
            rule = rif()
        elif key == "swap2":
            rule = swap2()
        elif match and match.group(1) == "soosorv" and 1 <= int(match.group(2)) <= MAX_SOOSORV:
            rule = soosorv(int(match.group(2)))
        elif match and match.group(1) == "taraguchi" and 1 <= int(match.group(2)) <= MAX_TARAGUCHI:
            rule = taraguchi(int(match.group(2)))
        else:
            raise ValueError(f"unknown opening rule {spec!r}; expected one of {valid_names()}, or True for the default")
    else:
        raise TypeError(f"an opening rule is a name ({valid_names()}) or True, got {spec!r}")
    if base_rule not in rule.base_rules:
        fits = "swap2" if base_rule in GOMOKU_RULES else valid_names().split(" (renju)")[0]
        raise ValueError(
            f"{rule.name} is an opening rule of {' and '.join(rule.base_rules)}, not of {base_rule}; "
            f"under {base_rule} use {fits}"
        )
    return rule


def check_board(rule: OpeningRule, size: int, win_length: int) -> None:
    """Raise ``ValueError`` unless ``rule`` can be played on a ``size`` board with ``win_length``."""
    if win_length < 4:
        raise ValueError(
            f"opening rules lay up to three stones of a colour before play, so they need win_length >= 4; "
            f"got {win_length}"
        )
    if rule.odd_board and size % 2 == 0:
        raise ValueError(f"{rule.name} lays stones in central squares: the board needs a centre point (odd size), "
                         f"got {size}x{size}")  # fmt: skip
    if size < rule.min_size:
        raise ValueError(f"{rule.name} needs a board of at least {rule.min_size}x{rule.min_size}, got {size}x{size}")
    # A class of symmetric fifth moves holds at most 8 points: with E empty points there are at least
    # ceil(E / 8) classes, enough for the offers whatever the position.
    classes = -(-(size * size - 4) // 8)
    if rule.offers > classes:
        raise ValueError(f"{rule.name}'s {rule.offers} fifth-move offers need a larger board than {size}x{size}")


def zone_mask(size: int, zone: int | None) -> np.ndarray:
    """Bool ``(size*size,)``: the central ``(2 * zone + 1)``-square (everything when ``zone`` is None)."""
    if zone is None:
        return np.ones(size * size, dtype=np.bool_)
    centre = size // 2
    rows = np.abs(np.arange(size) - centre) <= zone
    return np.logical_and.outer(rows, rows).reshape(-1)


def symmetric_twins(board: np.ndarray, offered: int, perms: np.ndarray) -> np.ndarray:
    """Bool ``(n*n,)``: the empty points ``a`` whose fifth move is symmetric to black's at ``offered``.

    ``a`` is marked when the position ``board`` + black at ``a`` is an image
    of ``board`` + black at ``offered`` under one of the symmetries ``perms``
    (``(8, n*n)``, ``perms[g][p]`` where point ``p`` goes): then some ``g``
    maps ``board`` onto the target but for one point ``c``, black in the target
    and empty in the image, and ``a`` is the point that ``g`` sends to ``c``.
    ``offered`` itself is marked.
    """
    target = board.copy()
    target[offered] = BLACK
    twins = np.zeros(board.size, dtype=np.bool_)
    for perm in perms:
        image = np.empty_like(board)
        image[perm] = board  # the stone at p moves to perm[p]
        differ = np.flatnonzero(image != target)
        if differ.size == 1 and image[differ[0]] == EMPTY:
            twins[np.flatnonzero(perm == differ[0])[0]] = True
    return twins
