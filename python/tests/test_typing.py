"""The stubs match the compiled module (mypy.stubtest), the package is
typed, and the examples type-check with mypy --strict and run."""

from __future__ import annotations

import os
import pathlib
import runpy
import subprocess
import sys
import tempfile

import pytest

import skirmish

PYTHON_DIR = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = sorted((PYTHON_DIR / "examples").glob("*.py"))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    cache = os.environ.get("MYPY_CACHE_DIR", os.path.join(tempfile.gettempdir(), "skirmish-mypy-cache"))
    env = dict(os.environ, MYPY_CACHE_DIR=cache)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=PYTHON_DIR, env=env)


def test_installed_package_ships_stubs_and_py_typed() -> None:
    pkg = pathlib.Path(skirmish.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "_core.pyi").exists()


def test_stubtest_against_the_binary(tmp_path: pathlib.Path) -> None:
    out = _run("-m", "mypy.stubtest", "skirmish._core", "--mypy-config-file", str(tmp_path / "none.ini"))
    assert out.returncode == 0, out.stdout + out.stderr


def test_generated_stubs_are_up_to_date() -> None:
    # The record classes' stubs are written from their Rust field types
    # (_core._stubs()); the file in the tree must be what they write now.
    out = _run(str(PYTHON_DIR.parent / "scripts" / "python-stubs"), "--check")
    assert out.returncode == 0, out.stdout + out.stderr
    installed = (pathlib.Path(skirmish.__file__).parent / "_core.pyi").read_text(encoding="utf-8")
    assert skirmish._core._stubs() in installed


def test_examples_type_check_strict() -> None:
    assert EXAMPLES, "no examples"
    out = _run("-m", "mypy", "--strict", "--python-version", "3.10", *map(str, EXAMPLES))
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_package_type_checks_strict() -> None:
    pkg = pathlib.Path(skirmish.__file__).parent
    out = _run("-m", "mypy", "--strict", "--python-version", "3.10", "-p", "skirmish")
    assert out.returncode == 0, out.stdout + out.stderr + str(pkg)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_examples_run(example: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(example), run_name="__main__")
    assert capsys.readouterr().out.strip()
