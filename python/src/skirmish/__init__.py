"""skirmish: tabletop-RPG combat timing and striking, for notebooks.

The rules and the battle engine are Rust (``skirmish-core``,
``skirmish-sim``); this package is their Python face:

- :class:`Scenario`: who fights whom under which rules, from a built-in
  name, a TOML/JSON file or text, or a dict;
- :func:`battle`: one battle with its report and trace;
- :func:`sweep`: a grid of field values x battles per cell, run in Rust
  with the GIL released, as a :class:`SweepResult` (pandas, polars, Arrow,
  a plot); :mod:`skirmish.dask` spreads one over a cluster;
- :func:`balance`: where a side's win rate crosses a target (how many orcs
  make the fight even?) as one field varies, as a :class:`BalanceResult`;
- :func:`exact`: a small fight's exact outcome (each side's win, a draw, a
  fight that never ends) as fractions, no battles sampled
  (:class:`ExactResult`);
- exact odds and tables: :func:`odds`, :func:`strike`, :func:`distribution`,
  :func:`weapons`, :func:`armor_table` and the timing analysis;
- :class:`Encounter`: the live tracker a GM drives at the table (every
  timing system, strikes with typed or rolled dice, undo, snapshots, odds
  from here), with results as frozen native records (:mod:`skirmish.tracker`);
- errors: every exception is a :class:`SkirmishError` and also the builtin
  you would expect (``ValueError``, ``LookupError``, ``OSError``); a bad
  argument to any call (a negative count, a float for an int, a lone
  surrogate in a name) raises the documented class naming the argument
  (:class:`ArgumentTypeError`, also a ``TypeError``, for a wrong type).

>>> import skirmish
>>> skirmish.odds(9, 6).hit
Fraction(76, 81)
"""

from __future__ import annotations

from . import _core
from ._battle import BattleReport, battle
from ._core import (
    ArgumentTypeError,
    BattleFailedError,
    BattleSetupError,
    CheckpointError,
    CheckpointIOError,
    CheckpointMismatchError,
    FieldPathError,
    InternalError,
    InvalidSweepError,
    InvalidValueError,
    OutOfRangeError,
    RulesError,
    RulesOverflowError,
    ScenarioError,
    ScenarioInvalidError,
    ScenarioReadError,
    ScenarioSchemaError,
    ScenarioSyntaxError,
    ScriptedRollError,
    ScriptExhaustedError,
    SkirmishError,
    SweepCancelledError,
    SweepEditError,
    SweepError,
    SweepOverflowError,
    ThreadPoolError,
    UnknownNameError,
    UnknownScenarioError,
)
from ._core import (
    BalanceBattleError,
    BalanceError,
    BalanceInterruptedError,
    InvalidBalanceError,
    NoCrossingError,
    NotNumericFieldError,
)
from ._core import ExactError, ExactTooBigError, ExactUnsupportedError
from ._core import (
    BadSnapshotError,
    InvalidInputError,
    NotFoundError,
    NothingToUndoError,
    NotNowError,
    TrackerError,
)
from ._rules import (
    ContinuousActions,
    FirstActionOrder,
    GraduatedActions,
    ParryOdds,
    Rating,
    RoundAttacks,
    StrikeOdds,
    StrikeOutcome,
    actions_per_phase,
    armor,
    armor_table,
    attacks_per_round,
    continuous_actions,
    defense_rating,
    distribution,
    distribution_frame,
    first_action_order,
    graduated_actions,
    initiative_distribution,
    odds,
    odds_table,
    parry_odds,
    ready_time_distribution,
    strike,
    strike_rating,
    weapon,
    weapons,
)
from ._scenario import BUILTIN, Scenario, ScenarioLike, value_text
from ._balance import BalanceResult, balance
from ._exact import ExactResult, exact
from ._sweep import SweepResult, sweep
from .tracker import (
    ActingLine,
    CombatantState,
    Encounter,
    EncounterView,
    LogEntry,
    Moment,
    NewRound,
    OddsFromHere,
    Over,
    LoneFighterReport,
    LoneFoe,
    ScoutReport,
    SheetLine,
    ShotReport,
    StoryReport,
    StrikeReport,
    StrikeResult,
    Turn,
)

__version__: str = _core.__version__

#: Every exception class, root first.
ERRORS = (
    SkirmishError,
    InternalError,
    ArgumentTypeError,
    ScenarioError,
    ScenarioReadError,
    ScenarioSyntaxError,
    ScenarioSchemaError,
    ScenarioInvalidError,
    FieldPathError,
    UnknownScenarioError,
    RulesError,
    OutOfRangeError,
    InvalidValueError,
    UnknownNameError,
    ScriptedRollError,
    ScriptExhaustedError,
    RulesOverflowError,
    BattleSetupError,
    SweepError,
    InvalidSweepError,
    SweepEditError,
    BattleFailedError,
    SweepOverflowError,
    SweepCancelledError,
    CheckpointError,
    CheckpointMismatchError,
    CheckpointIOError,
    ThreadPoolError,
    BalanceError,
    InvalidBalanceError,
    NotNumericFieldError,
    NoCrossingError,
    BalanceBattleError,
    BalanceInterruptedError,
    ExactError,
    ExactUnsupportedError,
    ExactTooBigError,
    TrackerError,
    NotFoundError,
    NotNowError,
    NothingToUndoError,
    InvalidInputError,
    BadSnapshotError,
)

__all__ = [
    "BUILTIN",
    "ERRORS",
    "BattleReport",
    "ContinuousActions",
    "FirstActionOrder",
    "GraduatedActions",
    "ParryOdds",
    "Rating",
    "RoundAttacks",
    "Scenario",
    "ScenarioLike",
    "StrikeOdds",
    "StrikeOutcome",
    "SweepResult",
    "actions_per_phase",
    "armor",
    "armor_table",
    "attacks_per_round",
    "battle",
    "continuous_actions",
    "defense_rating",
    "distribution",
    "distribution_frame",
    "first_action_order",
    "graduated_actions",
    "initiative_distribution",
    "odds",
    "odds_table",
    "parry_odds",
    "ready_time_distribution",
    "strike",
    "strike_rating",
    "sweep",
    "value_text",
    "weapon",
    "weapons",
    "SkirmishError",
    "InternalError",
    "ArgumentTypeError",
    "ScenarioError",
    "ScenarioReadError",
    "ScenarioSyntaxError",
    "ScenarioSchemaError",
    "ScenarioInvalidError",
    "FieldPathError",
    "UnknownScenarioError",
    "RulesError",
    "OutOfRangeError",
    "InvalidValueError",
    "UnknownNameError",
    "ScriptedRollError",
    "ScriptExhaustedError",
    "RulesOverflowError",
    "BattleSetupError",
    "SweepError",
    "InvalidSweepError",
    "SweepEditError",
    "BattleFailedError",
    "SweepOverflowError",
    "SweepCancelledError",
    "CheckpointError",
    "CheckpointMismatchError",
    "CheckpointIOError",
    "ThreadPoolError",
    # balance searches
    "BalanceResult",
    "balance",
    "BalanceError",
    "InvalidBalanceError",
    "NotNumericFieldError",
    "NoCrossingError",
    "BalanceBattleError",
    "BalanceInterruptedError",
    # exact fights
    "ExactResult",
    "exact",
    "ExactError",
    "ExactUnsupportedError",
    "ExactTooBigError",
    # the live encounter (skirmish.tracker)
    "ActingLine",
    "CombatantState",
    "Encounter",
    "EncounterView",
    "LogEntry",
    "Moment",
    "NewRound",
    "OddsFromHere",
    "Over",
    "LoneFighterReport",
    "LoneFoe",
    "ScoutReport",
    "SheetLine",
    "ShotReport",
    "StoryReport",
    "StrikeReport",
    "StrikeResult",
    "Turn",
    "TrackerError",
    "NotFoundError",
    "NotNowError",
    "NothingToUndoError",
    "InvalidInputError",
    "BadSnapshotError",
]
