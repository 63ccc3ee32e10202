"""The live encounter tracker: what a GM drives at the table, from Python.

:class:`Encounter` wraps ``skirmish_core::tracker::Encounter``: combatants
and groups, the moments of any timing system, declarations, strikes with
dice typed in from the table or rolled, wounds, effects, undo/redo,
snapshot/restore and the odds of each side from here. Every rule is the
Rust core's; this module resolves names and hands the calls on. Results
are the core's records as frozen native classes (``skirmish._core``: made
in Rust, with getters, ``==``, ``hash``, ``repr``, pickling) that
``match`` well::

    match encounter.next():
        case NewRound(round=r):
            ...
        case Moment(display=tick, lines=lines):
            ...
        case Over():
            ...

Combatants are named by id (``int``, as returned by ``add_*``) or by name
(``str``, case-insensitive). A refused operation raises a
:class:`TrackerError` (:class:`NotFoundError`, :class:`NotNowError`,
:class:`NothingToUndoError`, :class:`InvalidInputError`,
:class:`BadSnapshotError`) and changes nothing.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional, Union

from . import _args, _core
from ._core import (
    ActingLine,
    CombatantState,
    EncounterView,
    ExpiredEffect,
    FreeAction,
    LogEntry,
    Moment,
    NewRound,
    OddsFromHere,
    Over,
    Part,
    SheetLine,
    SideOdds,
    LoneFighterReport,
    LoneFoe,
    ScoutReport,
    ShotReport,
    StoryReport,
    StrikeReport,
    StrikeResult,
)
from ._frames import pandas
from ._scenario import ScenarioLike, as_scenario

__all__ = [
    "ActingLine",
    "CombatantState",
    "Encounter",
    "EncounterView",
    "ExpiredEffect",
    "FreeAction",
    "LogEntry",
    "Moment",
    "NewRound",
    "OddsFromHere",
    "Over",
    "Part",
    "SheetLine",
    "SideOdds",
    "LoneFighterReport",
    "LoneFoe",
    "ScoutReport",
    "ShotReport",
    "StoryReport",
    "StrikeReport",
    "StrikeResult",
    "Turn",
    "Who",
]

#: A combatant: its id, or its name (case-insensitive).
Who = Union[int, str]

#: Whether a combatant is in the fight (:attr:`CombatantState.status`).
Status = Literal["standing", "down", "removed"]

#: What :meth:`Encounter.next` returns.
Turn = Union[NewRound, Moment, Over]


# --- tables and HTML of a view (called by EncounterView's methods) -----------


def _sheet_rows(sheet: Sequence[SheetLine]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for entry in sheet:
        base = {"tick": entry.tick, "round": entry.round, "display": entry.display, "pass": entry.pass_}
        for line in entry.lines:
            rows.append({**base, "name": line.label, "members": len(line.members), "action": line.action, "effect": ""})
        for effect in entry.effects:
            rows.append({**base, "name": "", "members": 0, "action": "", "effect": effect})
    return rows


_SHEET_COLUMNS = ["tick", "round", "display", "pass", "name", "members", "action", "effect"]
_COMBATANT_COLUMNS = ["id", "name", "side", "group", "status", "hidden", "wound", "hit_points", "penalty"]


def _combatant_rows(view: EncounterView) -> list[dict[str, Any]]:
    return [{c: getattr(s, c) for c in _COMBATANT_COLUMNS} for s in view.combatants]


def _html_table(columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> str:
    def cell(v: Any) -> str:
        return "" if v is None else html.escape(str(v))

    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(r.get(c))}</td>" for c in columns) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _sheet_frame(view: EncounterView) -> Any:
    """:meth:`EncounterView.sheet_frame`: one row per acting line or effect running out."""
    return pandas().DataFrame(_sheet_rows(view.sheet), columns=_SHEET_COLUMNS)


def _combatants_frame(view: EncounterView) -> Any:
    """:meth:`EncounterView.combatants_frame`: one row per combatant."""
    return pandas().DataFrame(_combatant_rows(view), columns=_COMBATANT_COLUMNS)


def _view_html(view: EncounterView) -> str:
    """:meth:`EncounterView._repr_html_`: the tick sheet and the combatants as tables."""
    title = (
        f"<p><b>{html.escape(view.system)}</b>, round {view.round}, tick {view.now}"
        f"{' (over)' if view.over else ''}, {view.view_for}'s view</p>"
    )
    return (
        title
        + "<p>Tick sheet</p>"
        + _html_table(_SHEET_COLUMNS, _sheet_rows(view.sheet))
        + "<p>Combatants</p>"
        + _html_table(_COMBATANT_COLUMNS, _combatant_rows(view))
    )


class Encounter:
    """A live encounter: the GM's tracker for one fight, under any timing system.

    >>> e = Encounter("continuous", seed=7)
    >>> roland = e.add_combatant("Roland", time_taken=2, speed_bonus=1)
    >>> orc = e.add_combatant("Orc #1", time_taken=3)
    >>> e.set_initiative(roland, roll=-1)
    >>> e.set_initiative("Orc #1", total=3)
    >>> e.next()
    NewRound(round=1, ...)

    ``striking`` is ``"full-contact"`` (default) or ``"fudge-opposed"``, or
    the rules as a mapping (``{"system": "full_contact", "amazing": True}``);
    ``damage`` is ``"fudge-wounds"`` (default) or ``"hit-points"``, or a
    mapping (``{"model": "hit_points", ...}``).
    """

    __slots__ = ("_core",)

    def __init__(
        self,
        system: str = "continuous",
        *,
        seed: int = 0,
        striking: Union[str, Mapping[str, Any], None] = None,
        damage: Union[str, Mapping[str, Any], None] = None,
    ) -> None:
        self._core = _core.Encounter(system, seed, striking, damage)

    @classmethod
    def _wrap(cls, core: _core.Encounter) -> Encounter:
        e = cls.__new__(cls)
        e._core = core
        return e

    @classmethod
    def from_scenario(cls, scenario: ScenarioLike, *, seed: int = 0) -> Encounter:
        """The encounter a scenario starts: its timing, striking and damage
        rules, every group of every side added as fighters (a group of
        several is one line). The scenario's ``[battle]`` rules do not carry over."""
        return cls._wrap(_core.Encounter.from_scenario(as_scenario(scenario)._core, seed))

    @classmethod
    def restore(cls, snapshot: str) -> Encounter:
        """An encounter from :meth:`snapshot`: it continues exactly as the saved one would."""
        return cls._wrap(_core.Encounter.restore(snapshot))

    def snapshot(self) -> str:
        """The whole encounter as JSON text (generator state and undo history included)."""
        return self._core.snapshot()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Encounter.restore, (self.snapshot(),))

    def __eq__(self, other: object) -> bool:
        """Equal when their snapshots are: the same state, dice, log and
        newest 20 undo steps (older undo steps, which a snapshot does not
        keep, do not count: a pickled or restored encounter equals its
        original)."""
        if not isinstance(other, Encounter):
            return NotImplemented
        return self._core.same_as(other._core)

    __hash__ = None  # type: ignore[assignment]

    # --- reading ------------------------------------------------------

    @property
    def system(self) -> str:
        """The timing system's name (``"continuous"``, ``"tick-system"``, ...)."""
        return self._core.system()

    @property
    def rules(self) -> dict[str, Any]:
        """The striking and damage rules, as the core writes them."""
        return self._core.rules()

    @property
    def round(self) -> int:
        """The round (0 before the first)."""
        return self._core.round()

    @property
    def now(self) -> int:
        """The absolute tick of the last moment."""
        return self._core.now()

    def id_of(self, who: Who) -> int:
        """The id of a combatant given by id or name."""
        if isinstance(who, bool) or not isinstance(who, (int, str)):
            raise _args.wrong_type("combatant", "an id (int) or a name (str)", who)
        if isinstance(who, int):
            return who
        if not who.isascii():  # the check costs more than the lookup: only where it can fail
            _args.check_plain(who, "combatant", "tracker")
        return self._core.find(who)

    def find(self, name: str) -> int:
        """The id of the combatant named ``name`` (case-insensitive); :class:`NotFoundError` otherwise."""
        return self._core.find(name)

    def combatants(self) -> list[CombatantState]:
        """Every combatant, in the order added (as the GM's view shows them)."""
        return list(self.view().combatants)

    def view(self, players: bool = False) -> EncounterView:
        """What a screen shows: the GM's, or with ``players=True`` the
        players' (hidden combatants left out; of foes only what the players see)."""
        return self._core.view(players)

    @property
    def sheet(self) -> tuple[SheetLine, ...]:
        """The tick sheet: everything pending, by moment, in order."""
        return self._core.tick_sheet()

    def sheet_frame(self, players: bool = False) -> Any:
        """The tick sheet as a pandas DataFrame (see :meth:`EncounterView.sheet_frame`)."""
        return self.view(players).sheet_frame()

    def awaiting(self) -> list[str]:
        """Names of the lines that landed and have not declared what follows."""
        return self._core.awaiting()

    def declaration(self, who: Who) -> dict[str, Any]:
        """The combatant's current declaration: ``{"label": ..., "declaration": {...}}``."""
        return self._core.declaration(self.id_of(who))

    def penalty(self, who: Who) -> int:
        """The combatant's wound penalty now."""
        return self._core.penalty(self.id_of(who))

    def defense_bonus(self, who: Who) -> int:
        """Tick System: the bonus to the combatant's defensive rolls (+4 while prepared)."""
        return self._core.defense_bonus(self.id_of(who))

    def log(self) -> list[LogEntry]:
        """The log entries kept (the newest 2,000), oldest first."""
        return self._core.log()

    @property
    def log_len(self) -> int:
        """How many log entries were ever written (pass it to :meth:`log_since`)."""
        return self._core.log_len()

    def log_since(self, n: int) -> list[LogEntry]:
        """The log entries numbered ``n`` and on."""
        return self._core.log_since(n)

    # --- combatants ---------------------------------------------------

    def add_combatant(
        self,
        name: str,
        action: Optional[Mapping[str, Any]] = None,
        *,
        label: str = "",
        side: Optional[str] = None,
        hidden: bool = False,
        timing: Optional[Mapping[str, Any]] = None,
        **declaration: Any,
    ) -> int:
        """Adds a timing-only combatant; returns its id. Its first action is
        ``action`` and/or keyword fields of a declaration (``time_taken=3,
        speed_bonus=1``, ``ready_time=7``); ``timing`` holds Tick System and
        Action Blocks traits (``initiative_bonus``, ``interval``, ``reflexes``, ``combat_sense``)."""
        return self._core.add_combatant(name, action, label, side, hidden, timing, declaration)

    def add_group(
        self,
        name: str,
        count: int,
        action: Optional[Mapping[str, Any]] = None,
        *,
        label: str = "",
        side: Optional[str] = None,
        hidden: bool = False,
        timing: Optional[Mapping[str, Any]] = None,
        **declaration: Any,
    ) -> list[int]:
        """Adds ``count`` identical timing-only combatants "name 1", "name 2", ...:
        one line, one initiative; returns their ids."""
        return self._core.add_group(name, count, action, label, side, hidden, timing, declaration)

    def add_fighter(self, side: str, profile: Optional[Mapping[str, Any]] = None, **fields: Any) -> list[int]:
        """Adds a fighter with combat stats on ``side``: a profile as a
        scenario's group writes it (``name``, ``count``, ``strike_rating``,
        ``defense_rating``, ``weapon``, ``armor``, ...), as a mapping and/or
        keyword fields. A ``count`` above 1 is a group. Returns the ids."""
        return self._core.add_fighter(side, profile, fields)

    def down(self, who: Who) -> None:
        """Marks the combatant down (it has already acted at this moment)."""
        self._core.down(self.id_of(who))

    def remove(self, who: Who) -> None:
        """Removes the combatant (fled, or added by mistake)."""
        self._core.remove(self.id_of(who))

    def hide(self, who: Who) -> None:
        """Hides the combatant from the players' view."""
        self._core.hide(self.id_of(who))

    def reveal(self, who: Who) -> None:
        """Shows a hidden combatant to the players."""
        self._core.reveal(self.id_of(who))

    def set_party(self, side: Optional[str]) -> None:
        """The players' side (shown in full in the players' view); ``None``: nobody's."""
        self._core.set_party(side)

    # --- timing -------------------------------------------------------

    def next(self) -> Turn:
        """What happens next: :class:`NewRound`, :class:`Moment` or :class:`Over`."""
        return self._core.next()

    def set_tactics(self, who: Who, **tactics: Any) -> None:
        """Changes the fighter's (its line's) FUDGE 4.31-4.32 tactics from its next blow on, undoably:
        ``stance`` (``"normal"``, ``"all_out_offense"``, ``"all_out_defense"``), ``shield``
        (``None``, ``"small"``, ``"medium"``, ``"large"`` or a mapping ``{"size", "trained",
        "in_shield_wall"}``), ``aim`` (``"anywhere"``, ``"small_part_needing_good"``,
        ``"small_part_needing_great"``) and ``position`` (``"even"``, ``"worse"``,
        ``"much_worse"``) and ``posture`` (FUDGE 4.32: -2..2, or a mixed strategy
        ``{"2": 0.5, "0": 0.5}``; not with a stance); what is not given returns to its default.

        >>> e = Encounter("continuous", seed=1, striking="fudge-opposed")
        >>> knight = e.add_fighter("party", name="Knight", skill="Good", shield="large")[0]
        >>> e.set_tactics(knight, stance="all_out_offense", shield="medium")
        >>> e.log()[-1].text
        'Knight: stance all_out_offense, shield medium, aim anywhere, position even, posture +0'
        """
        self._core.set_tactics(self.id_of(who), None, tactics)

    def set_initiative(self, who: Who, *, roll: Optional[int] = None, total: Optional[int] = None) -> None:
        """Sets the combatant's (its line's) initiative: a ``roll`` typed in, or the ``total``."""
        self._core.set_initiative(self.id_of(who), roll, total)

    def declare(
        self,
        who: Who,
        label: str = "",
        action: Optional[Mapping[str, Any]] = None,
        *,
        roll: Optional[int] = None,
        **declaration: Any,
    ) -> Optional[int]:
        """Declares the combatant's next action (``time_taken=3``,
        ``ready_time=7``, ...; ``roll`` a Relativity roll typed in); returns
        the absolute tick it lands on, if scheduled."""
        return self._core.declare(self.id_of(who), label, action, roll, declaration)

    def cancel(self, who: Who) -> bool:
        """Cancels the combatant's next action; whether anything was pending."""
        return self._core.cancel(self.id_of(who))

    def disrupt(self, who: Who) -> bool:
        """The combatant's disruptible action (a spell) is lost; whether it was."""
        return self._core.disrupt(self.id_of(who))

    def delay(self, who: Who, ticks: int) -> int:
        """Moves the combatant's next action ``ticks`` later; returns its new tick."""
        return self._core.delay(self.id_of(who), ticks)

    def hold(self, who: Who) -> list[str]:
        """Action Blocks: holds to the end of the block; returns the block's new order."""
        return self._core.hold(self.id_of(who))

    def free_action(self, who: Who, ticks: Optional[int] = None, defending: bool = True) -> FreeAction:
        """Tick System: a free action now (defending by default)."""
        return self._core.free_action(self.id_of(who), ticks, defending)

    def interrupt(self, who: Who, concentration_kept: bool) -> bool:
        """Tick System: something tries to stop a non-combat action; whether it was lost."""
        return self._core.interrupt(self.id_of(who), concentration_kept)

    def take_held_turn(self, who: Who) -> ActingLine:
        """Tick System: a prepared combatant takes its held turn now."""
        return self._core.take_held_turn(self.id_of(who))

    def add_effect(
        self,
        name: str,
        target: Optional[Who] = None,
        *,
        ticks: Optional[int] = None,
        rounds: Optional[int] = None,
    ) -> int:
        """Adds an effect lasting ``ticks`` or ``rounds``; returns its id."""
        return self._core.add_effect(name, None if target is None else self.id_of(target), ticks, rounds)

    def end_effect(self, effect: int) -> bool:
        """Ends an effect early; whether it was still active."""
        return self._core.end_effect(effect)

    # --- strikes and wounds -------------------------------------------

    def strike(
        self,
        attacker: Who,
        target: Who,
        roll: Optional[int] = None,
        defense: Optional[int] = None,
        *,
        parry: bool = False,
        range: Union[Mapping[str, int], tuple[int, int, int], None] = None,
        point_blank: bool = False,
        modifier: int = 0,
        postures: Optional[tuple[Optional[int], Optional[int]]] = None,
    ) -> StrikeReport:
        """``attacker`` strikes ``target`` under the encounter's striking
        rules; ``roll`` (the attacker's 4dF) and ``defense`` (FUDGE's
        opposed roll, or Full Contact's parry roll) typed in, or ``None`` to
        roll. ``range`` is ``(short_range, range_strength, distance)`` or a
        mapping of those; ``modifier`` the GM's (extra foes, a blessing).
        ``postures``: FUDGE 4.32, the attacker's and the defender's posture
        for this exchange (-2..=2; ``None``: the fighter's own)."""
        return self._core.strike(
            self.id_of(attacker), self.id_of(target), roll, defense, parry, range, point_blank, modifier, postures
        )

    def lone_fighter(
        self,
        lone: Who,
        foes: Sequence[Who],
        roll: Optional[int] = None,
        *,
        rolls: Optional[Sequence[Optional[int]]] = None,
        group_roll: bool = False,
        group: Optional[int] = None,
        ignore: Sequence[Who] = (),
        strike: Sequence[Who] = (),
        modifier: int = 0,
    ) -> LoneFighterReport:
        """FUDGE 4.34, one against many: ``lone`` fights ``foes`` (one to six)
        for a round. He rolls once (``roll``, his 4dF, or ``None`` to roll)
        and his result meets each foe's (``rolls``, one per foe, or the GM's
        one 2dF for all with ``group_roll``, typed as ``group``); every foe
        who beats him wounds him; he wounds one foe only if he beat or tied
        them all (tying the best, only one two levels below him): the one
        his blow hurts most, or ``strike`` (several with the rules'
        ``sweeping_blow``). ``ignore``: foes he lets try his armor. Undoable.

        >>> e = Encounter("continuous", seed=1, striking="fudge-opposed")
        >>> paco = e.add_fighter("party", name="Paco", skill="Fair")[0]
        >>> thugs = [e.add_fighter("thugs", name=f"thug {i}", skill="Fair")[0] for i in (1, 2, 3)]
        >>> r = e.lone_fighter(paco, thugs, roll=4, rolls=[2, 1, -1])
        >>> [f.damage for f in r.foes]
        [None, None, 3]
        """
        return self._core.lone_fighter(
            self.id_of(lone),
            [self.id_of(f) for f in foes],
            roll,
            rolls,
            group_roll,
            group,
            [self.id_of(f) for f in ignore],
            [self.id_of(f) for f in strike],
            modifier,
        )

    def shoot(
        self,
        shooter: Who,
        target: Who,
        roll: Optional[int] = None,
        dodge: Optional[int] = None,
        *,
        difficulty: int = 0,
        unaware: bool = False,
        dodge_skill: Optional[int] = None,
        propelled: Optional[int] = None,
    ) -> ShotReport:
        """FUDGE 4.4, ranged combat: ``shooter`` shoots at ``target``. The
        result must reach the GM's ``difficulty`` (a ladder value: distance,
        light, cover) and, unless the target is ``unaware``, beat its dodge
        (its combat skill, or ``dodge_skill``; ``propelled`` 2 or 3 off it for
        a bow or a gun). ``roll`` and ``dodge``: the 4dF, or ``None`` to roll.
        A hit does its margin plus the damage factors. Undoable."""
        return self._core.shoot(
            self.id_of(shooter), self.id_of(target), roll, dodge, difficulty, unaware, dodge_skill, propelled
        )

    def exchange_fire(
        self,
        first: Who,
        second: Who,
        difficulties: tuple[int, int],
        rolls: tuple[Optional[int], Optional[int]] = (None, None),
    ) -> tuple[ShotReport, ShotReport]:
        """FUDGE 4.4: the two shoot at each other instead of dodging, at
        once; each needs only its Difficulty Level (``difficulties``: the
        first's to hit the second, the second's to hit the first), and both
        may hit. ``rolls``: their 4dF, or ``None`` to roll. Undoable.

        >>> e = Encounter("continuous", seed=1, striking="fudge-opposed")
        >>> will = e.add_fighter("outlaws", name="Will Scarlet", skill="Mediocre")[0]
        >>> dicken = e.add_fighter("sheriff", name="Dicken", skill="Fair")[0]
        >>> [r.hit for r in e.exchange_fire(will, dicken, (-1, 1), (0, 0))]
        [True, False]
        """
        return self._core.exchange_fire(self.id_of(first), self.id_of(second), difficulties, rolls)

    def story_element(
        self, who: Who, modifier: int = 0, *, median: bool = False, rolls: Sequence[int] = ()
    ) -> StoryReport:
        """FUDGE 4.21, a story element: the combatant rolls its combat skill
        with the GM's ``modifier`` (-3..3) once, or with ``median`` three
        times keeping the median; ``rolls`` the table's 4dF (none to roll).
        It judges nothing: the result is the GM's to tell. Undoable.

        >>> e = Encounter("continuous", seed=1, striking="fudge-opposed")
        >>> gunner = e.add_fighter("party", name="Gunner", skill="Good")[0]
        >>> e.story_element(gunner, 2, median=True, rolls=[-2, 0, -1]).text
        'Gunner rolls a story element at Superb: Good, Superb, Great; the median is Great'
        """
        return self._core.story_element(self.id_of(who), modifier, median, list(rolls))

    def scout(self, who: Who, foe: Who, roll: Optional[int] = None) -> ScoutReport:
        """FUDGE 4.31, scouting: ``who``, in all-out defense, came out of an
        exchange with ``foe`` unhit and rolls its Perception or Tactics (its
        profile's ``scouting``) with its wound penalty against Fair;
        ``roll`` the table's 4dF (none to roll; an NPC whose result is its
        trait level rolls none). On a success ``foe`` is at -1 ("foe
        scouted" in its breakdowns) in its exchanges of the next round, or
        of its next moment under Continuous, the Tick System and Action
        Blocks. Undoable.

        >>> e = Encounter("simple-rounds", seed=1, striking="fudge-opposed")
        >>> scout = e.add_fighter("pair", name="Scout", stance="all_out_defense", scouting="Good")[0]
        >>> ogre = e.add_fighter("foe", name="Ogre", skill="Great")[0]
        >>> e.scout(scout, ogre, roll=1).text
        'Scout defended unhit and rolls Perception/Tactics Great vs Fair: scouts, Ogre at -1 next'
        """
        return self._core.scout(self.id_of(who), self.id_of(foe), roll)

    def scouted(self, who: Who) -> bool:
        """Whether the combatant is at scouting's -1 in an exchange now (FUDGE 4.31)."""
        return self._core.scouted(self.id_of(who))

    def set_damage(
        self,
        who: Who,
        *,
        wounds: Optional[Mapping[str, Any]] = None,
        hit_points: Optional[int] = None,
    ) -> None:
        """The GM sets the combatant's wound boxes (``{"hurt": 1, ...}``) or hit points left."""
        self._core.set_damage(self.id_of(who), wounds, hit_points)

    def heal(self, who: Who) -> None:
        """Heals every wound of the combatant (it stays down if it is)."""
        self._core.heal(self.id_of(who))

    # --- undo, odds ---------------------------------------------------

    def undo(self) -> None:
        """Undoes the last operation (a :meth:`next` included); :class:`NothingToUndoError` if none."""
        self._core.undo()

    def redo(self) -> None:
        """Does the last undone operation again, exactly (the same rolls)."""
        self._core.redo()

    @property
    def undo_depth(self) -> int:
        """How many operations can be undone."""
        return self._core.undo_depth()

    @property
    def redo_depth(self) -> int:
        """How many undone operations can be redone."""
        return self._core.redo_depth()

    @property
    def undo_limit(self) -> int:
        """How many undo steps are kept (100 unless set)."""
        return self._core.undo_limit()

    def set_undo_limit(self, limit: int) -> None:
        """Keeps at most ``limit`` undo steps (0 to 10,000)."""
        self._core.set_undo_limit(limit)

    def odds_from_here(self, battles: int = 10_000, *, seed: int = 0, exact: bool = True) -> OddsFromHere:
        """Each side's chance of winning from here (GIL released).

        Exact when the exact engine models the fight as it stands (docs/rules.md
        §7: Simultaneous Combat between exchanges, Simple Rounds between rounds;
        Full Contact, or a FUDGE duel; nothing pending that its state does not
        hold) and it fits the default budget: ``method`` is ``"exact"``, no
        battle is fought, and each rate comes with its
        :class:`~fractions.Fraction` (``SideOdds.fraction``, ``draw_fraction``,
        ``timeout_fraction``). Otherwise the rest of the battle is fought
        ``battles`` times by the battle engine's rules (the same encounter and
        seed give the same odds): ``method`` is ``"sampled"`` and ``reason``
        says why it is not exact. ``exact=False`` always samples (a bounded
        time). A decided fight gives its outcome (``method`` ``"decided"``)."""
        return self._core.odds_from_here(battles, seed, exact)

    # --- display ------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Encounter {self.system}, round {self.round}, tick {self.now}, {len(self.combatants())} combatants>"

    def _repr_html_(self) -> str:
        return self.view()._repr_html_()
