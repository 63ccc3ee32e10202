"""Scenarios: from a built-in name, a TOML/JSON file or text, or a dict."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Union

from . import _args, _core

#: The built-in scenarios; the first, the goblin ambush, is the default.
BUILTIN: tuple[str, ...] = tuple(_core.BUILTIN)

#: What :class:`Scenario` accepts: a built-in name, a path to a ``.toml`` or
#: ``.json`` file, TOML or JSON text, a dict (the JSON form), or a Scenario.
ScenarioLike = Union["Scenario", _core.Scenario, str, "os.PathLike[str]", Mapping[str, Any], None]


def value_text(value: object, field: str = "value", door: _args.Door = "scenario") -> str:
    """The text a sweep axis or :meth:`Scenario.with_field` passes to Rust.

    A ``str`` is passed as it is and read as the CLI's ``--vary`` reads it
    (JSON if it parses as JSON, else plain text: ``"tick-system"``,
    ``"Sword, Long"``; ``"12"`` is the number 12, ``'"12"'`` the text);
    any other value (``int``, ``float``, ``bool``, ``None``, a list or a
    dict, NumPy scalars) is written as JSON.

    A value JSON cannot carry raises, naming ``field``: another type is an
    :class:`ArgumentTypeError`; NaN, an infinity, a lone surrogate or a
    value nested more than 64 levels deep is the error of ``door``
    (:class:`ScenarioSyntaxError` for a scenario, :class:`InvalidSweepError`
    for a sweep's axis).
    """
    if isinstance(value, str):
        _args.check_plain(value, field, door)
        return value
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        value = item()
    return _args.json_text(value, field, door)


class Scenario:
    """Who fights whom, under which timing, striking and damage rules.

    ``Scenario()`` is the built-in goblin ambush; ``Scenario(x)`` accepts a
    built-in name (:data:`BUILTIN`), a path to a ``.toml``/``.json`` file,
    TOML or JSON text, a dict in the JSON form (:meth:`to_dict`), or another
    Scenario. Scenarios are immutable: :meth:`with_field` returns a copy.
    They compare by content, hash, and pickle.
    """

    __slots__ = ("_core",)
    _core: _core.Scenario

    def __init__(self, source: ScenarioLike = None) -> None:
        if source is None:
            core = _core.Scenario.builtin(BUILTIN[0])
        elif isinstance(source, Scenario):
            core = source._core
        elif isinstance(source, _core.Scenario):
            core = source
        elif isinstance(source, Mapping):
            core = _core.Scenario.from_json(_args.json_text(dict(source), "source", "scenario"), "<dict>")
        elif isinstance(source, os.PathLike):
            core = _core.Scenario.from_file(source)
        elif isinstance(source, str):
            core = _from_str(source)
        else:
            raise _args.wrong_type(
                "source", "a built-in name, a path, TOML or JSON text, a dict or a Scenario", source
            )
        object.__setattr__(self, "_core", core)

    # --- constructors -------------------------------------------------
    @classmethod
    def builtin(cls, name: str = BUILTIN[0]) -> Scenario:
        """A built-in scenario by name (:data:`BUILTIN`)."""
        return cls(_core.Scenario.builtin(name))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Scenario:
        """A scenario from a ``.toml`` or ``.json`` file."""
        return cls(_core.Scenario.from_file(path))

    @classmethod
    def from_toml(cls, text: str, origin: str = "<string>") -> Scenario:
        """A scenario from TOML text (``origin`` names it in errors)."""
        return cls(_core.Scenario.from_toml(text, origin))

    @classmethod
    def from_json(cls, text: str, origin: str = "<string>") -> Scenario:
        """A scenario from JSON text (``origin`` names it in errors)."""
        return cls(_core.Scenario.from_json(text, origin))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scenario:
        """A scenario from its dict form (as :meth:`to_dict` gives)."""
        return cls(data)

    # --- reading ------------------------------------------------------
    @property
    def name(self) -> str:
        """Its name."""
        return self._core.name

    @property
    def sides(self) -> list[str]:
        """The side names, in order (they name the win-rate columns)."""
        return self._core.sides

    @property
    def fingerprint(self) -> str:
        """16 hex digits identifying the content (sweeps record it)."""
        return self._core.fingerprint()

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a dict (its JSON form; ``Scenario(d)`` reads it back)."""
        result: dict[str, Any] = json.loads(self._core.to_json())
        return result

    def to_json(self) -> str:
        """The scenario as JSON text."""
        return self._core.to_json()

    def to_toml(self) -> str:
        """The scenario as TOML text."""
        return self._core.to_toml()

    def get(self, path: str) -> Any:
        """The value of the field at ``path`` (a sweep field path such as
        ``"timing"``, ``"damage.max_hp"`` or
        ``"sides.party.groups.Cardiff.weapon"``), as a Python value."""
        return json.loads(self._core.get_json(path))

    # --- changing -----------------------------------------------------
    def with_field(self, path: str, value: object) -> Scenario:
        """A copy with the field at ``path`` set to ``value`` (validated).

        ``value`` is read as a sweep axis value is (see :func:`value_text`).
        """
        return Scenario(self._core.with_field(path, value_text(value, "value", "scenario")))

    def with_fields(self, fields: Mapping[str, object]) -> Scenario:
        """A copy with several fields set, in order."""
        s = self
        for path, value in _args.mapping_items(fields, "fields"):
            s = s.with_field(path, value)
        return s

    # --- protocol -----------------------------------------------------
    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Scenario is immutable: use with_field()")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scenario) and self._core == other._core

    def __hash__(self) -> int:
        return hash(self._core)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (Scenario.from_json, (self._core.to_json(), "<pickle>"))

    def __repr__(self) -> str:
        return f"Scenario({self.name!r}: {' vs '.join(self.sides)})"


def _from_str(source: str) -> _core.Scenario:
    if source in BUILTIN:
        return _core.Scenario.builtin(source)
    stripped = source.lstrip()
    if stripped.startswith("{"):
        return _core.Scenario.from_json(source, "<string>")
    if "\n" in source or "=" in source:
        return _core.Scenario.from_toml(source, "<string>")
    if os.path.splitext(source)[1].lower() in (".toml", ".json") or os.path.exists(source):
        return _core.Scenario.from_file(source)
    # Neither text nor a file: a mistyped built-in name, with suggestions.
    return _core.Scenario.builtin(source)


def as_scenario(source: ScenarioLike) -> Scenario:
    """``source`` as a :class:`Scenario` (itself if it is one)."""
    return source if isinstance(source, Scenario) else Scenario(source)
