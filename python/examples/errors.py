"""Errors are typed: each is a SkirmishError and the builtin you expect,
and carries the structured fields."""

from __future__ import annotations

import skirmish


def describe(path: str, value: object) -> str:
    ambush = skirmish.Scenario()
    try:
        ambush.with_field(path, value)
    except skirmish.FieldPathError as e:
        return f"no field {e.path!r}: {e}"
    except skirmish.ScenarioError as e:
        return f"{e.kind} error at {e.path}: {e.message}"
    return "ok"


def main() -> None:
    print(describe("sides.party.groups.Cardif.weapon", "Dagger"))
    print(describe("sides.party.groups.Cardiff.weapon", "Swrd"))
    print(describe("sides.party.groups.Cardiff.count", 2))
    try:
        skirmish.strike(9, 6, roll=7)
    except skirmish.OutOfRangeError as e:
        assert isinstance(e, ValueError)
        print(f"{e.field} must be within {e.min}..{e.max}, not {e.value}")
    try:
        skirmish.weapon("long swrod")
    except LookupError as e:
        assert isinstance(e, skirmish.UnknownNameError)
        print(f"did you mean: {', '.join(e.suggestions or [])}")


if __name__ == "__main__":
    main()
