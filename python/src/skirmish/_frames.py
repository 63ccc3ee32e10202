"""Lazy imports of the optional DataFrame, Arrow, plotting and progress libraries."""

from __future__ import annotations

import importlib
import importlib.metadata
import re
from types import ModuleType
from typing import Any


def optional(module: str, extra: str) -> ModuleType:
    """Imports ``module``, or says how to install it: the requirements of
    the ``extra`` of ``skirmish`` that provides it, as ``pip`` takes them.

    (``pip install 'skirmish[extra]'`` would look for a package named
    skirmish on PyPI, which is not this one: skirmish installs from its
    source, ``./python``.)
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        wanted = " ".join(f"'{r}'" for r in extra_requirements(extra, module.split(".")[0]))
        raise ImportError(
            f"this needs {module.split('.')[0]}, which skirmish's optional extra {extra!r} installs: "
            f"python -m pip install {wanted} (or, from a skirmish checkout, "
            f"python -m pip install './python[{extra}]')"
        ) from e


def extra_requirements(extra: str, fallback: str) -> list[str]:
    """The requirements of ``skirmish``'s optional ``extra`` (``pandas>=1.5``),
    read from the installed package's metadata; ``[fallback]`` if the
    metadata is not there (a source tree on ``sys.path``)."""
    marker = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    try:
        requires = importlib.metadata.requires("skirmish") or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    found = [r.split(";")[0].strip() for r in requires if ";" in r and marker.search(r.split(";", 1)[1])]
    return found or [fallback]


def pandas() -> Any:
    """The pandas module (extra ``pandas``)."""
    return optional("pandas", "pandas")


def polars() -> Any:
    """The polars module (extra ``polars``)."""
    return optional("polars", "polars")


def pyarrow() -> Any:
    """The pyarrow module (extra ``arrow``)."""
    return optional("pyarrow", "arrow")


def pyplot() -> Any:
    """matplotlib.pyplot (extra ``plot``)."""
    return optional("matplotlib.pyplot", "plot")


def tqdm_auto() -> Any | None:
    """``tqdm.auto.tqdm``, or None without tqdm (progress is then silent)."""
    try:
        return importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        return None
