"""Lazy imports of the optional DataFrame, Arrow, plotting and progress libraries."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def optional(module: str, extra: str) -> ModuleType:
    """Imports ``module``, or says which extra of ``skirmish`` installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"this needs {module.split('.')[0]}: pip install 'skirmish[{extra}]'"
        ) from e


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
