"""Every exception class: its place in the hierarchy, its builtin, its
fields, pickling; and no panic ever reaches Python."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import skirmish
from skirmish import _core

BUILTIN_OF = {
    "InternalError": RuntimeError,
    "ArgumentTypeError": TypeError,
    "ScenarioError": ValueError,
    "ScenarioReadError": OSError,
    "ScenarioSyntaxError": ValueError,
    "ScenarioSchemaError": ValueError,
    "ScenarioInvalidError": ValueError,
    "FieldPathError": LookupError,
    "UnknownScenarioError": LookupError,
    "RulesError": ValueError,
    "OutOfRangeError": ValueError,
    "InvalidValueError": ValueError,
    "UnknownNameError": LookupError,
    "ScriptedRollError": ValueError,
    "ScriptExhaustedError": ValueError,
    "RulesOverflowError": OverflowError,
    "BattleSetupError": ValueError,
    "InvalidSweepError": ValueError,
    "SweepEditError": ValueError,
    "BattleFailedError": RuntimeError,
    "SweepOverflowError": OverflowError,
    "SweepCancelledError": RuntimeError,
    "CheckpointError": ValueError,
    "CheckpointMismatchError": ValueError,
    "CheckpointIOError": OSError,
    "ThreadPoolError": OSError,
    "InvalidBalanceError": ValueError,
    "NotNumericFieldError": ValueError,
    "NoCrossingError": ValueError,
    "BalanceBattleError": RuntimeError,
    "BalanceInterruptedError": RuntimeError,
    "ExactUnsupportedError": NotImplementedError,
    "ExactTooBigError": RuntimeError,
    # the live encounter (test_tracker.py provokes each through a real call)
    "NotFoundError": LookupError,
    "NotNowError": RuntimeError,
    "NothingToUndoError": IndexError,
    "InvalidInputError": ValueError,
    "BadSnapshotError": ValueError,
}

FIELDS = {
    "InternalError": {"detail": "an example panic"},
    "ArgumentTypeError": {"field": "seed", "expected": "an int", "got": "float"},
    "ScenarioReadError": {"kind": "read", "origin": "ambush.toml", "line": 12, "column": 9},
    "ScenarioSyntaxError": {"kind": "syntax"},
    "ScenarioSchemaError": {"kind": "schema", "path": "sides[0].groups[1].count"},
    "ScenarioInvalidError": {"kind": "invalid", "message": "-3 is not a count (expected 1 or more)"},
    "FieldPathError": {"kind": "field_path"},
    "UnknownScenarioError": {"kind": "unknown_builtin"},
    "OutOfRangeError": {"field": "strike_roll", "value": 5, "min": -4, "max": 4},
    "InvalidValueError": {"field": "label", "problem": "must not be empty"},
    "UnknownNameError": {"kind": "weapon", "name": "Dagr", "suggestions": ["Dagger"]},
    "ScriptedRollError": {"dice": "4dF", "position": 2, "value": 7, "min": -4, "max": 4},
    "ScriptExhaustedError": {"dice": "4dF", "used": 3},
    "RulesOverflowError": {"field": "strike_rating"},
    "BattleSetupError": {"message": "no fighters"},
    "InvalidSweepError": {"message": "battles per cell must be 1 or more"},
    "SweepEditError": {"cell": 0, "values": [("timing", "continuous")], "path": "timing", "value": "continuous"},
    "BattleFailedError": {"cell": 1, "index": 7},
    "SweepOverflowError": {"cell": 2, "column": "total_ticks"},
    "SweepCancelledError": {"cells_done": 3, "cells_total": 6},
    "CheckpointError": {"path": "sweep.csv", "line": 4},
    "CheckpointMismatchError": {"expected": "timing,battles", "found": "striking,battles"},
    "CheckpointIOError": {"path": "sweep.csv"},
    "ThreadPoolError": {},
    "InvalidBalanceError": {"field": "target", "problem": "1.5 is not a win rate strictly between 0 and 1"},
    "NotNumericFieldError": {"field": "timing", "value": '"continuous"'},
    "NoCrossingError": {"field": "sides.goblinoids.groups.0.count", "side": "party", "target": 0.5},
    "BalanceBattleError": {"field": "sides.goblinoids.groups.0.count", "value": 4.0, "index": 7},
    "BalanceInterruptedError": {"points": ()},
    "ExactUnsupportedError": {"field": "timing", "what": "Continuous timing"},
    "ExactTooBigError": {"states": 200_001, "budget": 200_000, "fighters": None},
    "NotFoundError": {"kind": "not_found", "field": "combatant"},
    "NotNowError": {"kind": "not_now", "field": "combatant", "message": "Orc #1 is down"},
    "NothingToUndoError": {"kind": "nothing_to_undo", "field": None},
    "InvalidInputError": {"kind": "invalid_input", "field": "roll"},
    "BadSnapshotError": {"kind": "bad_snapshot", "field": "snapshot"},
}


def test_every_class_is_exported_and_rooted() -> None:
    names = {e.__name__ for e in skirmish.ERRORS}
    assert names == set(BUILTIN_OF) | {
        "SkirmishError",
        "SweepError",
        "BalanceError",
        "ExactError",
        "TrackerError",
    }
    for cls in skirmish.ERRORS:
        assert issubclass(cls, skirmish.SkirmishError)
        assert issubclass(cls, Exception)
        assert getattr(skirmish, cls.__name__) is cls is getattr(_core, cls.__name__)
        assert cls.__module__ == "skirmish._core" and cls.__doc__
    for name in ("InvalidSweepError", "SweepEditError", "CheckpointError", "CheckpointIOError"):
        assert issubclass(getattr(skirmish, name), skirmish.SweepError)


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_each_kind_maps_to_its_class_with_its_fields(name: str) -> None:
    err = _core._example_error(name)
    cls = getattr(skirmish, name)
    assert type(err) is cls
    assert isinstance(err, BUILTIN_OF[name]) and isinstance(err, skirmish.SkirmishError)
    for field, value in FIELDS[name].items():
        assert getattr(err, field) == value, field
    assert str(err)
    # Errors pickle (Dask sends them back from workers).
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls and str(back) == str(err)
    for field, value in FIELDS[name].items():
        assert getattr(back, field) == value


def test_errors_unpickle_through_tblib_too() -> None:
    # distributed installs tblib's exception pickling, which rebuilds an
    # exception with cls.__new__: the OSError classes must allow it.
    tblib = pytest.importorskip("tblib.pickling_support")
    tblib.install()
    for cls in skirmish.ERRORS:
        if cls in (
            skirmish.SkirmishError,
            skirmish.SweepError,
            skirmish.BalanceError,
            skirmish.ExactError,
            skirmish.ScenarioError,
            skirmish.RulesError,
            skirmish.TrackerError,
        ):
            continue
        err = _core._example_error(cls.__name__)
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is cls and str(back) == str(err)


def test_io_errors_carry_the_os_error_number() -> None:
    err = _core._example_error("CheckpointIOError")
    assert isinstance(err, OSError) and err.errno == 13


def test_sweep_errors_chain_their_cause() -> None:
    err = _core._example_error("SweepEditError")
    assert isinstance(err.__cause__, skirmish.ScenarioSchemaError)
    battle = _core._example_error("BattleFailedError")
    assert isinstance(battle.__cause__, skirmish.OutOfRangeError)
    assert battle.__cause__.field == "time_taken"


def test_a_panic_is_an_internal_error_that_except_exception_catches() -> None:
    try:
        _core._panic("boom")
    except Exception as e:  # a PanicException would escape this
        assert type(e) is skirmish.InternalError
        assert isinstance(e, RuntimeError)
        assert e.detail == "boom"
        assert "internal error" in str(e) and "boom" in str(e)
    else:
        pytest.fail("no exception")
    # The module still works afterwards.
    assert skirmish.odds(9, 6).hits == 76


def test_no_unknown_example() -> None:
    with pytest.raises(ValueError):
        _core._example_error("NoSuchError")


def test_bad_arguments_are_typed_errors_naming_the_field() -> None:
    with pytest.raises(skirmish.InvalidSweepError) as e:
        skirmish.sweep(battles=0, progress=False)
    assert "battles" in str(e.value)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.sweep(battles=-5, progress=False)
    with pytest.raises(skirmish.InvalidSweepError) as e2:
        skirmish.sweep(battles=10, threads=-1, progress=False)
    assert "threads" in str(e2.value)
    with pytest.raises(skirmish.InvalidSweepError) as e3:
        skirmish.sweep(battles=10, threads=5000, progress=False)
    assert "threads" in str(e3.value)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.sweep(battles=10, seed=-1, progress=False)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.sweep(axes={"timing": "continuous"}, battles=10, progress=False)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.sweep(axes={"timing": []}, battles=10, progress=False)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.sweep(axes={"timing": ["continuous", "continuous"]}, battles=10, progress=False)


def test_panic_output_does_not_kill_the_interpreter() -> None:
    code = "import skirmish._core as c\ntry:\n    c._panic('x')\nexcept Exception as e:\n    print(type(e).__name__)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "InternalError"
