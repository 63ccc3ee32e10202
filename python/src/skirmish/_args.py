"""The pure-Python layer's own argument checks, in one place.

The compiled module converts every argument it takes itself
(``bindings/python/src/args.rs``); these helpers check what this package
reads before handing it on (a dict written as JSON, the items of a
mapping, a sequence) and raise the same classes, made by the compiled
module: a wrong type is :class:`ArgumentTypeError` (also a ``TypeError``),
a value of the right type that cannot be used (NaN, a lone surrogate, a
value nested too deep) the class of the call's door: ``"rules"``
(:class:`InvalidValueError`), ``"scenario"`` (:class:`ScenarioSyntaxError`),
``"sweep"`` (:class:`InvalidSweepError`), ``"balance"``
(:class:`InvalidBalanceError`), ``"tracker"``
(:class:`InvalidInputError`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from . import _core

Door = Literal["rules", "scenario", "sweep", "balance", "tracker"]

#: How deep a value written as JSON may nest (the Rust side reads JSON to
#: 128 levels, and the tracker's forms to 64).
MAX_DEPTH = 64


def wrong_type(field: str, expected: str, value: object) -> Exception:
    """:class:`ArgumentTypeError`: ``field`` is not ``expected`` but ``value``."""
    return _core._argument_type_error(field, expected, value)


def invalid(door: Door, field: str, problem: str) -> Exception:
    """The error ``door`` raises for ``field`` whose value is wrong for ``problem``."""
    return _core._invalid_argument(door, field, problem)


def _text_problem(s: str) -> str | None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"not valid text ({e})"
    return None


def check_plain(value: object, field: str, door: Door) -> None:
    """Raises unless ``value`` is plain data JSON can carry: a str (valid
    text), an int, a finite float, a bool, None, or a list, tuple or dict
    (str keys) of those, at most :data:`MAX_DEPTH` levels deep."""
    stack: list[tuple[object, str, int]] = [(value, field, 0)]
    while stack:
        v, where, depth = stack.pop()
        if v is None or isinstance(v, (bool, int)):
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                raise invalid(door, where, f"{v!r} is not a number JSON can carry (NaN and infinities are not)")
            continue
        if isinstance(v, str):
            problem = _text_problem(v)
            if problem:
                raise invalid(door, where, problem)
            continue
        if isinstance(v, (list, tuple, Mapping)):
            if depth >= MAX_DEPTH:
                raise invalid(door, where, f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(v, Mapping):
                for k, item in v.items():
                    if not isinstance(k, str):
                        raise wrong_type(f"{where} key {k!r}", "a str", k)
                    problem = _text_problem(k)
                    if problem:
                        raise invalid(door, f"{where} key {k!r}", problem)
                    stack.append((item, f"{where}.{k}", depth + 1))
            else:
                for i, item in enumerate(v):
                    stack.append((item, f"{where}[{i}]", depth + 1))
            continue
        raise wrong_type(where, "a str, an int, a float, a bool, None, or a list or dict of those", v)


def json_text(value: object, field: str, door: Door) -> str:
    """``value`` as compact JSON, checked by :func:`check_plain` first."""
    check_plain(value, field, door)
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def mapping_items(value: object, field: str) -> list[tuple[Any, Any]]:
    """The items of a mapping (``None``: none), or :class:`ArgumentTypeError`."""
    if value is None:
        return []
    if not isinstance(value, Mapping):
        raise wrong_type(field, "a mapping", value)
    return list(value.items())


def items(value: object, field: str) -> list[Any]:
    """The items of an iterable that is not a str, or :class:`ArgumentTypeError`."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise wrong_type(field, "an iterable of values", value)
    return list(value)
