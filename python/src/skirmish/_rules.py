"""Exact odds, dice distributions, the weapon and armor tables, and the
exact timing analysis: counted, never sampled (``fractions.Fraction``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from . import _args, _core, _frames


@dataclass(frozen=True)
class StrikeOutcome:
    """What one Full Contact strike did: ``name`` (``"hit"``, ``"miss"``,
    ``"amazing strike"``, ``"amazing defense"``, ``"guaranteed hit"``,
    ``"fumble"``, ``"out of reach"``) and its margin, SR + roll - DR."""

    name: str
    margin: int
    is_hit: bool

    def __str__(self) -> str:
        return f"{self.name} (margin {self.margin:+d})"


@dataclass(frozen=True)
class StrikeOdds:
    """The exact odds of a Full Contact strike, over the 81 equally likely
    4dF rolls (each a :class:`~fractions.Fraction`; ``hit + miss == 1``)."""

    hit: Fraction
    miss: Fraction
    amazing_strike: Fraction
    amazing_defense: Fraction
    guaranteed_hit: Fraction
    fumble: Fraction
    out_of_reach: Fraction
    #: ``{roll: outcome}`` for the nine rolls -4..4.
    by_roll: dict[int, StrikeOutcome]
    #: The lowest roll that hits, or None.
    lowest_hitting_roll: Optional[int]
    #: How many of the 81 rolls hit (``hit == hits / 81``).
    hits: int


def _fraction(pair: tuple[int, int]) -> Fraction:
    return Fraction(pair[0], pair[1])


RangeArg = Optional[tuple[int, int, int]]


def odds(
    strike_rating: int,
    defense_rating: int,
    *,
    amazing: bool = False,
    guaranteed: bool = False,
    point_blank: bool = False,
    range: RangeArg = None,
) -> StrikeOdds:
    """The exact odds that Strike Rating ``strike_rating`` + 4dF beats
    Defense Rating ``defense_rating`` (Full Contact), with the optional
    rules ``amazing`` (strikes and defenses), ``guaranteed`` (successes and
    fumbles) and ``point_blank``; ``range=(short_range, range_strength,
    distance)`` for a ranged shot.

    >>> odds(9, 6).hit
    Fraction(76, 81)
    """
    d = _core.strike_odds(strike_rating, defense_rating, amazing, guaranteed, point_blank, range)
    by_roll = {roll: StrikeOutcome(*o) for roll, o in zip(range_(-4, 5), d["by_roll"])}
    return StrikeOdds(
        hit=_fraction(d["hit"]),
        miss=_fraction(d["miss"]),
        amazing_strike=_fraction(d["amazing_strike"]),
        amazing_defense=_fraction(d["amazing_defense"]),
        guaranteed_hit=_fraction(d["guaranteed_hit"]),
        fumble=_fraction(d["fumble"]),
        out_of_reach=_fraction(d["out_of_reach"]),
        by_roll=by_roll,
        lowest_hitting_roll=d["lowest_hitting_roll"],
        hits=d["hit"][0],
    )


range_ = range  # `range` is a keyword argument above


@dataclass(frozen=True)
class ParryOdds:
    """The exact odds of a parried Full Contact strike over both 4dF rolls,
    the attack's then the parry's (each a :class:`~fractions.Fraction` out
    of 6561; ``lands + blocked == lands_unparried``)."""

    #: The parry beats the attack's SR + roll.
    parried: Fraction
    #: The blow would have landed and the parry knocks it aside.
    blocked: Fraction
    #: The blow hits the DR and the parry fails.
    lands: Fraction
    #: The blow would land with no parry.
    lands_unparried: Fraction
    #: ``{attack roll: the parry's chance against that total}``, -4..4.
    by_attack_roll: dict[int, Fraction]


def parry_odds(
    strike_rating: int,
    parry_strike_rating: int,
    defense_rating: int,
    *,
    amazing: bool = False,
    guaranteed: bool = False,
) -> ParryOdds:
    """The exact odds of an attack at ``strike_rating`` on a defender of
    ``defense_rating`` who parries at ``parry_strike_rating`` (Full
    Contact "Parrying": a Strike roll against the attack's SR + roll; ties
    fail), with the optional rules counted for both rolls.

    The guard's naginata (SR 7) at Brooklyn (DR 7), her knife parrying at
    SR 6; against a +2 thrust (total 9) only her +4 parries:

    >>> parry_odds(7, 6, 7).by_attack_roll[2]
    Fraction(1, 81)
    """
    d = _core.parry_odds(strike_rating, parry_strike_rating, defense_rating, amazing, guaranteed)
    return ParryOdds(
        parried=_fraction(d["parried"]),
        blocked=_fraction(d["blocked"]),
        lands=_fraction(d["lands"]),
        lands_unparried=_fraction(d["lands_unparried"]),
        by_attack_roll={roll: _fraction(p) for roll, p in zip(range_(-4, 5), d["by_attack_roll"])},
    )


def odds_table(
    strike_ratings: Any = range_(3, 13),
    defense_ratings: Any = range_(3, 13),
    *,
    amazing: bool = False,
    guaranteed: bool = False,
) -> Any:
    """The chance to hit for every SR (rows) x DR (columns), as a pandas
    DataFrame of floats (exact counts out of 81, divided)."""
    pd = _frames.pandas()
    srs, drs = _args.items(strike_ratings, "strike_ratings"), _args.items(defense_ratings, "defense_ratings")
    data = [
        [_core.strike_odds(sr, dr, amazing, guaranteed, False, None)["hit"][0] / 81 for dr in drs] for sr in srs
    ]
    frame = pd.DataFrame(data, index=pd.Index(srs, name="SR"), columns=pd.Index(drs, name="DR"))
    return frame


def strike(
    strike_rating: int,
    defense_rating: int,
    roll: int,
    *,
    amazing: bool = False,
    guaranteed: bool = False,
    point_blank: bool = False,
    range: RangeArg = None,
) -> StrikeOutcome:
    """One Full Contact strike with the Strike roll the table rolled
    (-4..4; anything else is an :class:`OutOfRangeError` naming
    ``strike_roll``).

    >>> strike(9, 6, -1)
    StrikeOutcome(name='hit', margin=2, is_hit=True)
    """
    return StrikeOutcome(
        *_core.resolve_strike(strike_rating, defense_rating, roll, amazing, guaranteed, point_blank, range)
    )


@dataclass(frozen=True)
class Rating:
    """A Strike or Defense Rating and its breakdown as the text writes it."""

    total: int
    breakdown: str
    #: Defense Ratings only: the surprised/unaware rating.
    unaware_total: Optional[int] = None
    unaware_breakdown: Optional[str] = None

    def __int__(self) -> int:
        return self.total

    def __str__(self) -> str:
        return self.breakdown


def strike_rating(
    *,
    skill: int = 0,
    attributes: Optional[dict[str, int]] = None,
    weapon: int = 0,
    magic: int = 0,
    other: Optional[dict[str, int]] = None,
) -> Rating:
    """A Strike Rating: 5 + skill + half of each attribute's level + weapon
    quality + magic + other bonuses (ladder levels as numbers: Great = 2).

    >>> strike_rating(skill=2, attributes={"strength": 3}, weapon=1).breakdown
    '5 base + 2 skill + 1 strength + 1 weapon = 9'
    """
    total, text = _core.strike_rating(
        skill, _args.mapping_items(attributes, "attributes"), weapon, magic, _args.mapping_items(other, "other")
    )
    return Rating(total, text)


def defense_rating(
    *,
    skill: int = 0,
    attributes: Optional[dict[str, int]] = None,
    armor: int = 0,
    shield: int = 0,
    coverage: int = 0,
    magic: int = 0,
    other: Optional[dict[str, int]] = None,
) -> Rating:
    """A Defense Rating: 3 + armor, shield, coverage and other bonuses, with
    its unaware variant."""
    total, text, unaware_total, unaware_text = _core.defense_rating(
        skill,
        _args.mapping_items(attributes, "attributes"),
        armor,
        shield,
        coverage,
        magic,
        _args.mapping_items(other, "other"),
    )
    return Rating(total, text, unaware_total, unaware_text)


def _distribution_frame(lowest: int, counts: list[int], name: str) -> Any:
    pd = _frames.pandas()
    total = sum(counts)
    values = list(range_(lowest, lowest + len(counts)))
    return pd.DataFrame(
        {
            name: values,
            "count": counts,
            "probability": [c / total for c in counts],
            "at_least": [sum(counts[i:]) / total for i in range_(len(counts))],
        }
    )


def distribution(count: int = 4, sides: Optional[int] = None) -> dict[int, Fraction]:
    """The exact distribution of ``count`` Fudge dice (``sides=None``, so
    ``distribution()`` is 4dF) or of ``count``d``sides``: ``{total: probability}``."""
    lowest, counts = _core.dice_distribution(count, sides)
    total = sum(counts)
    return {lowest + i: Fraction(c, total) for i, c in enumerate(counts)}


def distribution_frame(count: int = 4, sides: Optional[int] = None) -> Any:
    """:func:`distribution` as a pandas DataFrame: ``total``, ``count`` (of
    the equally likely rolls), ``probability`` and ``at_least``."""
    lowest, counts = _core.dice_distribution(count, sides)
    return _distribution_frame(lowest, counts, "total")


def weapons(genre: Optional[str] = None) -> Any:
    """The weapon speed table (57 rows, or one genre's: ``"fantasy"``,
    ``"oriental"``, ``"modern"``, ``"sci-fi"``) as a pandas DataFrame."""
    return _frames.pandas().DataFrame(_core.weapon_table(genre))


def weapon(name: str) -> dict[str, Any]:
    """One weapon row by a forgiving name (``"long sword"``); an unknown
    name is an :class:`UnknownNameError` with suggestions."""
    cols = _core.find_weapon(name)
    return {k: v[0] for k, v in cols.items()}


def armor_table() -> Any:
    """The armor table as a pandas DataFrame."""
    return _frames.pandas().DataFrame(_core.armor_table())


def armor(name: str) -> dict[str, Any]:
    """One armor row by a forgiving name (``"plate"``)."""
    n, bonus, situational = _core.find_armor(name)
    return {"name": n, "defense_rating_bonus": bonus, "situational": situational}


# --- exact timing analysis -------------------------------------------------


def initiative_distribution(time_taken: int, speed_bonus: int = 0) -> dict[int, Fraction]:
    """The landing tick of a first action, ``4dF + 5 + TT - speed bonus``
    (at least 1): ``{tick: probability}``."""
    lowest, counts = _core.initiative_distribution(time_taken, speed_bonus)
    return {lowest + i: Fraction(c, sum(counts)) for i, c in enumerate(counts)}


def ready_time_distribution(time_taken: int, speed_bonus: int = 0) -> dict[int, Fraction]:
    """A Ready Time, ``2dF + TT - speed bonus`` (at least 1): ``{ticks: probability}``."""
    lowest, counts = _core.ready_time_distribution(time_taken, speed_bonus)
    return {lowest + i: Fraction(c, sum(counts)) for i, c in enumerate(counts)}


@dataclass(frozen=True)
class FirstActionOrder:
    """Who lands a first action first, over all 81 x 81 initiative rolls."""

    a_first: Fraction
    same_tick: Fraction
    b_first: Fraction


def first_action_order(a: tuple[int, int], b: tuple[int, int]) -> FirstActionOrder:
    """``a`` and ``b`` are ``(time_taken, speed_bonus)``."""
    x, y, z = _core.first_action_order(a, b)
    return FirstActionOrder(_fraction(x), _fraction(y), _fraction(z))


def actions_per_phase(reflexes: int, combat_sense: int) -> dict[int, Fraction]:
    """FUZION actions per phase, ``max(1, floor((REF + Combat Sense + 1d6) / 5))``.

    Combat Sense is a level of skill, 0 for none: a negative one raises
    ``OutOfRangeError`` (field ``combat_sense``). REF is taken as given.
    """
    lowest, counts = _core.actions_per_phase(reflexes, combat_sense)
    return {lowest + i: Fraction(c, sum(counts)) for i, c in enumerate(counts)}


@dataclass(frozen=True)
class RoundAttacks:
    """Attacks round by round over one cycle of a Rate of Fire."""

    rate_of_fire: str
    extra_per_round: int
    per_round: list[int]
    per_cycle: int
    mean: Fraction


def attacks_per_round(rate_of_fire: str, extra_per_round: int = 0) -> RoundAttacks:
    """Attacks per round of a Rate of Fire such as ``"4/3"`` in Simple Rounds."""
    d = _core.attacks_per_round(rate_of_fire, extra_per_round)
    return RoundAttacks(d["rate_of_fire"], d["extra_per_round"], d["per_round"], d["per_cycle"], _fraction(d["mean"]))


@dataclass(frozen=True)
class ContinuousActions:
    """Expected actions in ticks ``1..=ticks`` of Continuous combat."""

    ticks: int
    #: ``landing[t - 1]``: the probability an action lands on tick ``t``.
    landing: list[Fraction]
    expected_actions: Fraction


def continuous_actions(time_taken: int, speed_bonus: int = 0, ticks: int = 20) -> ContinuousActions:
    """The exact expected actions of one combatant in Continuous combat."""
    d = _core.continuous_actions(time_taken, speed_bonus, ticks)
    return ContinuousActions(d["ticks"], [_fraction(p) for p in d["landing"]], _fraction(d["expected_actions"]))


@dataclass(frozen=True)
class GraduatedActions:
    """How many of a round's allowed actions land inside a Graduated Round."""

    actions_allowed: int
    ticks_per_round: int
    #: ``{actions landed: probability}``.
    landed: dict[int, Fraction]
    mean: Fraction


def graduated_actions(
    time_taken: int, speed_bonus: int = 0, actions_allowed: int = 1, ticks_per_round: int = 20
) -> GraduatedActions:
    """The exact distribution of actions landed in a Graduated Round when
    those past its end are lost."""
    d = _core.graduated_actions(time_taken, speed_bonus, actions_allowed, ticks_per_round)
    lowest, counts = d["landed"]
    landed = {lowest + i: Fraction(c, sum(counts)) for i, c in enumerate(counts)}
    return GraduatedActions(d["actions_allowed"], d["ticks_per_round"], landed, _fraction(d["mean"]))
