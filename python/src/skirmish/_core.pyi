# Stubs of the compiled module skirmish._core (bindings/python), checked
# against the binary by mypy.stubtest in python/tests/test_typing.py.
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "BUILTIN",
    "BattleFailedError",
    "BattleSetupError",
    "CheckpointError",
    "CheckpointIOError",
    "CheckpointMismatchError",
    "FieldPathError",
    "InternalError",
    "InvalidSweepError",
    "InvalidValueError",
    "MAX_BATTLES",
    "MAX_THREADS",
    "OutOfRangeError",
    "RulesError",
    "RulesOverflowError",
    "Scenario",
    "ScenarioError",
    "ScenarioInvalidError",
    "ScenarioReadError",
    "ScenarioSchemaError",
    "ScenarioSyntaxError",
    "ScriptExhaustedError",
    "ScriptedRollError",
    "SkirmishError",
    "SweepCancelledError",
    "SweepEditError",
    "SweepError",
    "SweepOverflowError",
    "SweepTable",
    "ThreadPoolError",
    "UnknownNameError",
    "UnknownScenarioError",
    "__version__",
    "_example_error",
    "_panic",
    "actions_per_phase",
    "armor_table",
    "attacks_per_round",
    "continuous_actions",
    "defense_rating",
    "dice_distribution",
    "find_armor",
    "find_weapon",
    "first_action_order",
    "graduated_actions",
    "initiative_distribution",
    "ready_time_distribution",
    "resolve_strike",
    "run_battle",
    "run_sweep",
    "strike_odds",
    "strike_rating",
    "weapon_table",
]
__version__: str
BUILTIN: list[str]
MAX_THREADS: int
MAX_BATTLES: int

# --- errors ---------------------------------------------------------------

class SkirmishError(Exception): ...

class InternalError(SkirmishError, RuntimeError):
    detail: Optional[str]

class ScenarioError(SkirmishError, ValueError):
    kind: Optional[str]
    origin: Optional[str]
    line: Optional[int]
    column: Optional[int]
    path: Optional[str]
    message: Optional[str]

class ScenarioReadError(OSError, ScenarioError): ...
class ScenarioSyntaxError(ScenarioError): ...
class ScenarioSchemaError(ScenarioError): ...
class ScenarioInvalidError(ScenarioError): ...
class FieldPathError(ScenarioError, LookupError): ...
class UnknownScenarioError(ScenarioError, LookupError): ...

class RulesError(SkirmishError, ValueError):
    field: Optional[str]

class OutOfRangeError(RulesError):
    value: Optional[int]
    min: Optional[int]
    max: Optional[int]

class InvalidValueError(RulesError):
    problem: Optional[str]

class UnknownNameError(RulesError, LookupError):
    kind: Optional[str]
    name: Optional[str]
    suggestions: Optional[list[str]]

class ScriptedRollError(RulesError):
    dice: Optional[str]
    position: Optional[int]
    value: Optional[int]
    min: Optional[int]
    max: Optional[int]

class ScriptExhaustedError(RulesError):
    dice: Optional[str]
    used: Optional[int]

class RulesOverflowError(RulesError, OverflowError):
    problem: Optional[str]

class BattleSetupError(SkirmishError, ValueError):
    message: Optional[str]

class SweepError(SkirmishError): ...

class InvalidSweepError(SweepError, ValueError):
    message: Optional[str]

class SweepEditError(SweepError, ValueError):
    cell: Optional[int]
    values: Optional[list[tuple[str, str]]]
    path: Optional[str]
    value: Optional[str]

class BattleFailedError(SweepError, RuntimeError):
    cell: Optional[int]
    values: Optional[list[tuple[str, str]]]
    index: Optional[int]

class SweepOverflowError(SweepError, OverflowError):
    cell: Optional[int]
    column: Optional[str]

class SweepCancelledError(SweepError, RuntimeError):
    cells_done: Optional[int]
    cells_total: Optional[int]

class CheckpointError(SweepError, ValueError):
    path: Optional[str]
    line: Optional[int]
    message: Optional[str]

class CheckpointMismatchError(CheckpointError):
    expected: Optional[str]
    found: Optional[str]

class CheckpointIOError(SweepError, OSError):
    path: Optional[str]

class ThreadPoolError(SweepError, OSError): ...

def _example_error(kind: str) -> BaseException: ...
def _panic(message: str) -> None: ...

# --- scenarios ------------------------------------------------------------

@final
class Scenario:
    @staticmethod
    def builtin(name: str) -> Scenario: ...
    @staticmethod
    def from_toml(text: str, origin: str = "<string>") -> Scenario: ...
    @staticmethod
    def from_json(text: str, origin: str = "<string>") -> Scenario: ...
    @staticmethod
    def from_file(path: Union[str, Any]) -> Scenario: ...
    @property
    def name(self) -> str: ...
    @property
    def sides(self) -> list[str]: ...
    def fingerprint(self) -> str: ...
    def to_json(self) -> str: ...
    def to_toml(self) -> str: ...
    def get_json(self, path: str) -> str: ...
    def with_field(self, path: str, value: str) -> Scenario: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

# --- battles and sweeps -----------------------------------------------------

def run_battle(scenario: Scenario, seed: int, index: int = 0, trace: bool = True) -> str: ...

@final
class SweepTable:
    @property
    def axes(self) -> list[str]: ...
    @property
    def sides(self) -> list[str]: ...
    @property
    def seed(self) -> int: ...
    @property
    def scenario_fingerprint(self) -> str: ...
    @property
    def battles(self) -> int: ...
    def header(self) -> list[str]: ...
    def to_csv(self) -> str: ...
    def to_json(self) -> str: ...
    def summary_text(self) -> str: ...
    def columns(self) -> list[tuple[str, Union[npt.NDArray[np.uint64], npt.NDArray[np.float64], list[str]]]]: ...
    def __len__(self) -> int: ...

def run_sweep(
    scenario: Scenario,
    axes: Sequence[tuple[str, Sequence[str]]],
    battles: int,
    seed: int,
    threads: Optional[int] = None,
    checkpoint: Optional[str] = None,
    resume: bool = False,
    progress: Optional[Callable[[int, int, int, int], object]] = None,
    dry_run: bool = False,
    force: bool = False,
) -> Optional[SweepTable]: ...

# --- striking, dice, tables, timing ----------------------------------------

def strike_odds(
    strike_rating: int,
    defense_rating: int,
    amazing: bool = False,
    guaranteed: bool = False,
    point_blank: bool = False,
    range: Optional[tuple[int, int, int]] = None,
) -> dict[str, Any]: ...
def resolve_strike(
    strike_rating: int,
    defense_rating: int,
    roll: int,
    amazing: bool = False,
    guaranteed: bool = False,
    point_blank: bool = False,
    range: Optional[tuple[int, int, int]] = None,
) -> tuple[str, int, bool]: ...
def strike_rating(
    skill: int = 0,
    attributes: Sequence[tuple[str, int]] = ...,
    weapon: int = 0,
    magic: int = 0,
    other: Sequence[tuple[str, int]] = ...,
) -> tuple[int, str]: ...
def defense_rating(
    skill: int = 0,
    attributes: Sequence[tuple[str, int]] = ...,
    armor: int = 0,
    shield: int = 0,
    coverage: int = 0,
    magic: int = 0,
    other: Sequence[tuple[str, int]] = ...,
) -> tuple[int, str, int, str]: ...
def dice_distribution(count: int = 4, sides: Optional[int] = None) -> tuple[int, list[int]]: ...
def weapon_table(genre: Optional[str] = None) -> dict[str, list[Any]]: ...
def find_weapon(name: str) -> dict[str, list[Any]]: ...
def armor_table() -> dict[str, list[Any]]: ...
def find_armor(name: str) -> tuple[str, int, bool]: ...
def initiative_distribution(time_taken: int, speed_bonus: int = 0) -> tuple[int, list[int]]: ...
def ready_time_distribution(time_taken: int, speed_bonus: int = 0) -> tuple[int, list[int]]: ...
def first_action_order(
    a: tuple[int, int], b: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]: ...
def actions_per_phase(reflexes: int, combat_sense: int) -> tuple[int, list[int]]: ...
def attacks_per_round(rate_of_fire: str, extra_per_round: int = 0) -> dict[str, Any]: ...
def continuous_actions(time_taken: int, speed_bonus: int = 0, ticks: int = 20) -> dict[str, Any]: ...
def graduated_actions(
    time_taken: int, speed_bonus: int = 0, actions_allowed: int = 1, ticks_per_round: int = 20
) -> dict[str, Any]: ...

# --- the live encounter (bindings/python/src/tracker.rs) ------------------

__all__ += [
    "BadSnapshotError",
    "Encounter",
    "InvalidInputError",
    "NotFoundError",
    "NotNowError",
    "NothingToUndoError",
    "TrackerError",
]

class TrackerError(SkirmishError):
    kind: Optional[str]
    field: Optional[str]
    message: Optional[str]

class NotFoundError(TrackerError, LookupError): ...
class NotNowError(TrackerError, RuntimeError): ...
class NothingToUndoError(TrackerError, IndexError): ...
class InvalidInputError(TrackerError, RulesError):
    field: Optional[str]

class BadSnapshotError(TrackerError, ValueError): ...

@final
class Encounter:
    def __new__(
        cls,
        system: str,
        seed: int,
        striking: Optional[str] = None,
        damage: Optional[str] = None,
        rules: Optional[str] = None,
    ) -> Encounter: ...
    @staticmethod
    def from_scenario(scenario: Scenario, seed: int) -> Encounter: ...
    @staticmethod
    def restore(snapshot: str) -> Encounter: ...
    def snapshot(self) -> str: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def rules(self) -> str: ...
    def system(self) -> str: ...
    def round(self) -> int: ...
    def now(self) -> int: ...
    def add_combatant(self, spec: str) -> int: ...
    def add_group(self, name: str, count: int, spec: str) -> list[int]: ...
    def add_fighter(self, side: str, profile: str) -> list[int]: ...
    def combatants(self) -> str: ...
    def find(self, name: str) -> int: ...
    def next(self) -> str: ...
    def declare(self, combatant: int, label: str, action: str, roll: Optional[int] = None) -> Optional[int]: ...
    def declaration(self, combatant: int) -> str: ...
    def cancel(self, combatant: int) -> bool: ...
    def disrupt(self, combatant: int) -> bool: ...
    def delay(self, combatant: int, ticks: int) -> int: ...
    def hold(self, combatant: int) -> list[str]: ...
    def free_action(self, combatant: int, ticks: Optional[int] = None, defending: bool = True) -> str: ...
    def interrupt(self, combatant: int, concentration_kept: bool) -> bool: ...
    def take_held_turn(self, combatant: int) -> str: ...
    def defense_bonus(self, combatant: int) -> int: ...
    def set_initiative(self, combatant: int, roll: Optional[int] = None, total: Optional[int] = None) -> None: ...
    def down(self, combatant: int) -> None: ...
    def remove(self, combatant: int) -> None: ...
    def add_effect(
        self, name: str, target: Optional[int] = None, ticks: Optional[int] = None, rounds: Optional[int] = None
    ) -> int: ...
    def end_effect(self, effect: int) -> bool: ...
    def strike(
        self, attacker: int, target: int, options: str, attack: Optional[int] = None, defense: Optional[int] = None
    ) -> str: ...
    def set_damage(self, combatant: int, change: str) -> None: ...
    def penalty(self, combatant: int) -> int: ...
    def hide(self, combatant: int) -> None: ...
    def reveal(self, combatant: int) -> None: ...
    def set_party(self, side: Optional[str] = None) -> None: ...
    def view(self, players: bool = False) -> str: ...
    def tick_sheet(self) -> str: ...
    def awaiting(self) -> list[str]: ...
    def log(self) -> str: ...
    def log_len(self) -> int: ...
    def log_since(self, n: int) -> str: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    def undo_depth(self) -> int: ...
    def redo_depth(self) -> int: ...
    def undo_limit(self) -> int: ...
    def set_undo_limit(self, limit: int) -> None: ...
    def odds_from_here(self, battles: int, seed: int) -> str: ...
    def same_as(self, other: Encounter) -> bool: ...
