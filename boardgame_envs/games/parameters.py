"""A catalog game's parameters (sizes, rules) for any game: declared by its entry, checked, handed to its factory.

An entry with a factory may declare ``parameters``, each a :class:`Parameter`
with its default and the values it may take (``{"rows": Parameter(2, (2, 3, 4))}``),
and may fix ``arguments`` for the factory (``{"rows": 3, "columns": 3}``): a
*variant*, one entry per size, each with its own name everywhere. The factory is
called with the entry's arguments and the chosen parameters by keyword, and with
``name=`` the entry's name when it takes one, so that one class serves several
entries. The game keeps each argument and parameter as an attribute of the same
name (``game.rows``), which is how an env is told which game to build
(:meth:`~boardgame_envs.games.catalog.GameInfo.env_kwargs`). The m,n,k entries keep
their own fields (``sizes``, ``rules``) and take none of these.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

RESERVED = ("name", "board_size", "win_length", "rule", "opening_rule", "render_mode", "game")


@dataclass(frozen=True)
class Parameter:
    """One parameter of a catalog game: its default and every value it may take (the default among them)."""

    default: Any
    choices: tuple[Any, ...]
    help: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.choices, tuple) or not self.choices:
            raise ValueError(f"choices must be a non-empty tuple of values, got {self.choices!r}")
        if self.default not in self.choices:
            raise ValueError(f"the default {self.default!r} is not among the choices {self.choices!r}")


def check_declared(parameters: Mapping[str, Any], arguments: Mapping[str, Any]) -> str | None:
    """Why an entry's ``parameters`` and ``arguments`` cannot work (in words), or None."""
    if not isinstance(parameters, Mapping) or not isinstance(arguments, Mapping):
        return "parameters and arguments must be dicts keyed by the factory's keyword arguments"
    for key, value in parameters.items():
        if not isinstance(value, Parameter):
            return f"parameter {key!r} must be a Parameter(default, choices), got {value!r}"
    for key in (*parameters, *arguments):
        if not isinstance(key, str) or not key.isidentifier() or key in RESERVED:
            return f"{key!r} cannot name an argument (an identifier other than {', '.join(RESERVED)})"
    both = sorted(set(parameters) & set(arguments))
    if both:
        return f"{', '.join(both)} cannot be both a parameter and a fixed argument"
    return None


def describe(parameters: Mapping[str, Parameter]) -> str:
    """``rows (2, 3, 4; default 2), columns (...)``, for errors and help."""
    return ", ".join(f"{key} ({', '.join(map(repr, p.choices))}; default {p.default!r})" for key, p in parameters.items())


def choose(entry: str, parameters: Mapping[str, Parameter], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter's value: ``given`` where given (and not None), else the default; ``ValueError`` naming the
    entry for a parameter it does not declare or a value outside the choices."""
    unknown = [key for key in given if key not in parameters]
    if unknown:
        takes = f"its parameters: {describe(parameters)}" if parameters else "it takes no parameters"
        raise ValueError(f"{entry} takes no {', '.join(unknown)}; {takes}")
    chosen = {}
    for key, parameter in parameters.items():
        value = given.get(key)
        value = parameter.default if value is None else value
        if isinstance(value, bool) != isinstance(parameter.default, bool) or value not in parameter.choices:
            raise ValueError(f"{entry}: {key} must be one of {', '.join(map(repr, parameter.choices))}, got {value!r}")
        chosen[key] = value
    return chosen


def given(parameters: Any) -> dict[str, Any]:
    """A caller's ``parameters=`` as a dict (None: none given); ``TypeError`` for anything but a dict keyed by names
    (the values are checked against the entry's choices by :func:`choose`)."""
    if parameters is None:
        return {}
    if not isinstance(parameters, Mapping) or not all(isinstance(key, str) for key in parameters):
        raise TypeError(f"parameters must be a dict of a game's parameters by name, e.g. {{'rows': 3}}, got {parameters!r:.80}")
    return dict(parameters)


def assignments(words: Any, what: str = "--param") -> dict[str, str]:
    """``["rows=3", "columns=2"]`` -> ``{"rows": "3", "columns": "2"}``, as the command line's ``--param`` and a
    record's ``parameters:`` line spell them (the values still text); ``ValueError`` naming ``what`` for a word
    that is not KEY=VALUE or a key given twice."""
    out: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"{what} takes KEY=VALUE (e.g. rows=3), got {word!r:.60}")
        if key in out:
            raise ValueError(f"{what} {key} given twice")
        out[key] = value
    return out


def takes_name(factory: Callable[..., Any]) -> bool:
    """Whether ``factory`` takes a ``name`` keyword (one class serving several entries)."""
    try:
        return "name" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False


def build(factory: Callable[..., Any], entry: str, arguments: Mapping[str, Any], chosen: Mapping[str, Any]) -> Any:
    """The factory's game for an entry's fixed arguments and chosen parameters (and its name, if it takes one)."""
    named = {"name": entry} if takes_name(factory) else {}
    return factory(**arguments, **chosen, **named)


def read_back(game: Any, names: Any) -> dict[str, Any]:
    """The game's own values of ``names`` (its attributes of those names); a missing one is ``AttributeError``."""
    return {key: getattr(game, key) for key in names}
