"""The public API: everything exported is documented and exercised by a test."""

from __future__ import annotations

import inspect
import pathlib
import re

import skirmish
import skirmish.dask

TESTS = pathlib.Path(__file__).resolve().parent


def _test_sources() -> str:
    return "\n".join(p.read_text() for p in TESTS.glob("test_*.py") if p.name != "test_api.py")


def test_every_public_name_is_documented_and_tested() -> None:
    sources = _test_sources()
    missing_doc, untested = [], []
    names = [(skirmish, n) for n in skirmish.__all__] + [(skirmish.dask, n) for n in skirmish.dask.__all__]
    for module, name in names:
        obj = getattr(module, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not (obj.__doc__ or "").strip():
            missing_doc.append(name)
        if not re.search(rf"\b{re.escape(name)}\b", sources):
            untested.append(name)
    assert not missing_doc, f"no docstring: {missing_doc}"
    assert not untested, f"not used by any test: {untested}"


def test_every_public_method_is_tested() -> None:
    sources = _test_sources()
    untested = []
    for cls in (skirmish.Scenario, skirmish.SweepResult, skirmish.BattleReport):
        for name, member in vars(cls).items():
            if name.startswith("__") or (name.startswith("_") and name != "_repr_html_"):
                continue
            if callable(member) or isinstance(member, (property, classmethod, staticmethod)):
                if not re.search(rf"\.{re.escape(name)}\b", sources):
                    untested.append(f"{cls.__name__}.{name}")
    assert not untested, f"not used by any test: {untested}"


def test_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", skirmish.__version__)
