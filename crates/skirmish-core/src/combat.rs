//! One blow, struck and felt: the arithmetic the battle engine and the live
//! tracker share, so a strike resolves the same way in a simulated battle
//! and at the table (a test feeds both the same dice and compares every
//! field).
//!
//! A blow is a strike roll under the striking rules
//! ([`Striking`](crate::fighter::Striking)) and the
//! damage it does: the hit's margin (SR + roll - DR, or the relative
//! degree), plus the attacker's offensive damage factor, minus the
//! defender's defensive factor (docs/rules.md §3.1), plus the amazing-strike
//! extra. The damage model ([`crate::damage`]) then turns that damage into
//! a wound or lost hit points.
//!
//! ```
//! use skirmish_core::combat::{full_contact_blow, opposed_blow, OpposedSide};
//! use skirmish_core::fighter::FullContactRules;
//! use skirmish_core::striking::opposed::Stance;
//!
//! // Cardiff (SR 9) strikes the goblin (DR 6) and rolls -1: a hit by 2.
//! let blow = full_contact_blow(9, 6, -1, None, false, &FullContactRules::default(), 0, 0)?;
//! assert!(blow.landed);
//! assert_eq!(blow.damage, 2);
//!
//! // FUDGE: Good (+1) in all-out offense (+1) rolling 0 against Fair (0)
//! // rolling 0 wins by 2: +1 damage for the stance and +1 offense.
//! let attacker = OpposedSide { stance: Stance::AllOutOffense, ..OpposedSide::new(1, 0) };
//! let blow = opposed_blow(attacker, OpposedSide::new(0, 0), 1, 0);
//! assert_eq!((blow.degree, blow.damage), (2, 4));
//! # Ok::<(), skirmish_core::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::fighter::{AmazingDefenseRule, AmazingStrikeRule, ExchangeRule, Fighter, FudgeRules, FullContactRules};
use crate::ladder::Level;
use crate::striking::full_contact::{self, Parry, RangedShot, StrikeOptions, StrikeOutcome};
use crate::striking::opposed::{Aim, CombatKind, Modifier, RangedOutcome, Stance, TargetSize};
use crate::timing::TimingSystem;

/// A Full Contact blow: the strike and the damage it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FullContactBlow {
    /// The Strike Rating rolled with (wound penalty included; before range).
    pub strike_rating: i32,
    /// The Defense Rating struck at (wound penalty included).
    pub defense_rating: i32,
    /// The Strike roll (4dF).
    pub roll: i32,
    /// What the strike did.
    pub outcome: StrikeOutcome,
    /// Whether it landed.
    pub landed: bool,
    /// The damage it does if it landed: the margin (a guaranteed hit counts
    /// as a hit by 1; an amazing strike adds the rules' extra), plus
    /// `offense`, minus `defense_factor`; doubled by an amazing strike
    /// under [`AmazingStrikeRule::DoubleDamage`].
    pub damage: i32,
    /// What its amazing result does under the rules, if anything.
    pub effect: Option<AmazingEffect>,
}

/// What an amazing result does (docs/rules.md §2.1.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum AmazingEffect {
    /// An amazing strike does double damage.
    DoubleDamage,
    /// An amazing defense disarms the attacker: its next action is lost.
    Disarm,
    /// An amazing defense knocks the attacker down: `penalty` off its
    /// Defense Rating until its next action.
    KnockDown {
        /// The Defense Rating penalty.
        penalty: i32,
    },
}

impl AmazingEffect {
    /// In words: `"double damage"`, `"disarmed"`, `"knocked down"`.
    pub const fn name(self) -> &'static str {
        match self {
            AmazingEffect::DoubleDamage => "double damage",
            AmazingEffect::Disarm => "disarmed",
            AmazingEffect::KnockDown { .. } => "knocked down",
        }
    }
}

/// What `outcome`'s amazing result does under `rules` (docs/rules.md
/// §2.1.8): the one home of that choice. An amazing strike does double
/// damage under [`AmazingStrikeRule::DoubleDamage`] (the flat extra is no
/// effect of its own: it is in the damage); an amazing defense disarms or
/// knocks down the attacker under its rule. `None` for anything else, or
/// with the amazing rule off (no outcome is amazing then).
///
/// ```
/// use skirmish_core::combat::{amazing_effect, AmazingEffect};
/// use skirmish_core::fighter::{AmazingDefenseRule, FullContactRules};
/// use skirmish_core::striking::full_contact::StrikeOutcome;
/// let rules = FullContactRules { amazing: true, amazing_defense: AmazingDefenseRule::KnockDown, ..FullContactRules::default() };
/// let effect = amazing_effect(StrikeOutcome::AmazingDefense { margin: -3 }, &rules);
/// assert_eq!(effect, Some(AmazingEffect::KnockDown { penalty: 2 }));
/// assert_eq!(amazing_effect(StrikeOutcome::Miss { margin: -2 }, &rules), None);
/// ```
pub const fn amazing_effect(outcome: StrikeOutcome, rules: &FullContactRules) -> Option<AmazingEffect> {
    match (outcome, rules.amazing_strike, rules.amazing_defense) {
        (StrikeOutcome::AmazingStrike { .. }, AmazingStrikeRule::DoubleDamage, _) => Some(AmazingEffect::DoubleDamage),
        (StrikeOutcome::AmazingDefense { .. }, _, AmazingDefenseRule::Disarm) => Some(AmazingEffect::Disarm),
        (StrikeOutcome::AmazingDefense { .. }, _, AmazingDefenseRule::KnockDown) => Some(AmazingEffect::KnockDown {
            penalty: rules.knock_down_penalty,
        }),
        _ => None,
    }
}

/// The [`StrikeOptions`] a battle's or an encounter's Full Contact rules
/// turn on, with the optional point-blank rule for this shot.
pub const fn strike_options(rules: &FullContactRules, point_blank: bool) -> StrikeOptions {
    StrikeOptions {
        guaranteed_success_and_fumble: rules.guaranteed,
        amazing: rules.amazing,
        point_blank,
    }
}

/// A Full Contact blow: `strike_rating` + `roll` against `defense_rating`
/// (both with their wound penalties already added), at range if `shot` is
/// given (with the optional point-blank rule if `point_blank`), under
/// `rules`; the damage adds the attacker's `offense` (and `rules.point_blank_damage`
/// on a point-blank shot, the amazing strike's extra on one) and takes off the
/// defender's `defense_factor`.
///
/// # Errors
/// [`crate::Error::OutOfRange`] (field `strike_roll`) for a roll outside -4..=4.
#[inline]
#[expect(
    clippy::too_many_arguments,
    reason = "the blow's own numbers, the same in the battle loop and the tracker; a struct would only rename them"
)]
pub fn full_contact_blow(
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    shot: Option<RangedShot>,
    point_blank: bool,
    rules: &FullContactRules,
    offense: i32,
    defense_factor: i32,
) -> Result<FullContactBlow> {
    let options = strike_options(rules, point_blank);
    let outcome = match shot {
        Some(shot) => full_contact::resolve_at_range(strike_rating, defense_rating, roll, shot, options)?,
        None => full_contact::resolve(strike_rating, defense_rating, roll, options)?,
    };
    let effect = amazing_effect(outcome, rules);
    let amazing = matches!(outcome, StrikeOutcome::AmazingStrike { .. });
    let amazing = if amazing && rules.amazing_strike.is_flat() {
        rules.amazing_strike_damage
    } else {
        0
    };
    // Full Contact "Point-Blank Range": "a (small) damage bonus if they hit".
    let close = if point_blank && shot.is_some_and(RangedShot::is_point_blank) {
        rules.point_blank_damage
    } else {
        0
    };
    let extra = amazing.saturating_add(close);
    let mut damage = damage_of(damage_margin(outcome, extra), offense, defense_factor);
    if matches!(effect, Some(AmazingEffect::DoubleDamage)) {
        damage = damage.saturating_mul(2);
    }
    Ok(FullContactBlow {
        strike_rating,
        defense_rating,
        roll,
        outcome,
        landed: outcome.is_hit(),
        damage,
        effect,
    })
}

/// A parry made against a blow ("Parrying"; docs/rules.md §2.1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ParriedBlow {
    /// The parry: both totals and the parry's own outcome as a strike.
    pub parry: Parry,
    /// The parry knocked aside a blow that would have landed: it does
    /// nothing. A parry against a blow that misses anyway blocks nothing.
    pub blocked: bool,
}

/// `blow` parried with a parry of `parry_strike_rating` (wound penalty
/// included) rolling `parry_roll`: a Strike roll against the attack's
/// final value, `attack_strike_rating` (after range) + the blow's roll,
/// under `rules` (a parry is a Strike roll, so the optional rules count).
/// The one home of the parry for the battle engine and the tracker.
///
/// ```
/// use skirmish_core::combat::{full_contact_blow, parry_blow};
/// use skirmish_core::fighter::FullContactRules;
/// let rules = FullContactRules::default();
/// // The guard's naginata (SR 7) thrusts at Brooklyn (DR 7) and rolls +2: 9 > 7.
/// let thrust = full_contact_blow(7, 7, 2, None, false, &rules, 0, 0)?;
/// assert!(thrust.landed);
/// // Her knife (SR 6) parries with +4 = 10 > 9: knocked aside.
/// assert!(parry_blow(&thrust, 7, 6, 4, &rules)?.blocked);
/// // The second thrust, +2 again, meets a parry of +1 = 7: it scores.
/// assert!(!parry_blow(&thrust, 7, 6, 1, &rules)?.blocked);
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`crate::Error::OutOfRange`] (field `parry_roll`) for a roll outside -4..=4.
#[inline]
pub fn parry_blow(
    blow: &FullContactBlow,
    attack_strike_rating: i32,
    parry_strike_rating: i32,
    parry_roll: i32,
    rules: &FullContactRules,
) -> Result<ParriedBlow> {
    let parry = full_contact::parry(
        attack_strike_rating,
        blow.roll,
        parry_strike_rating,
        parry_roll,
        strike_options(rules, false),
    )?;
    Ok(ParriedBlow {
        parry,
        blocked: blow.landed && parry.parried(),
    })
}

/// What a parry costs the parrier under a timing system (docs/rules.md
/// §2.1.4): the text leaves it to the timing system ("it may also cost the
/// character an action for the round, or something like that").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParryCost {
    /// Nothing: the Tick System, where defending is a free action.
    Free,
    /// The parrier's next pending action is lost, as a disrupted one is
    /// (under Continuous and Graduated Rounds it declares again from
    /// now); a fighter with no pending action to spend cannot parry.
    NextAction,
}

/// The cost of a parry under `system`: free under the Tick System (its
/// defending is a free action), the parrier's next action under every
/// other system. The one home of that decision: battles ask it, and the
/// Tick System's own defending costs could replace its answer there.
///
/// ```
/// use skirmish_core::combat::{parry_cost, ParryCost};
/// use skirmish_core::timing::TimingSystem;
/// assert_eq!(parry_cost(&TimingSystem::SimpleRounds), ParryCost::NextAction);
/// assert_eq!(parry_cost(&TimingSystem::tick_system()), ParryCost::Free);
/// ```
pub const fn parry_cost(system: &TimingSystem) -> ParryCost {
    match system {
        TimingSystem::TickSystem(_) => ParryCost::Free,
        TimingSystem::Simultaneous
        | TimingSystem::SimpleRounds
        | TimingSystem::GraduatedRounds(_)
        | TimingSystem::Continuous(_)
        | TimingSystem::ActionBlocks(_) => ParryCost::NextAction,
    }
}

/// The margin a Full Contact strike's damage counts from, with `extra`
/// added on an amazing strike: the margin, except that a guaranteed hit
/// (a +4 that hits only by the optional rule, at a margin of 0 or less)
/// lands as the least hit, margin 1. The rule exists so that the
/// "impossible" hit happens (Full Contact; docs/rules.md §3.1); a hit that could
/// never do damage would not be one.
#[inline]
pub fn damage_margin(outcome: StrikeOutcome, extra: i32) -> i32 {
    let margin = match outcome {
        StrikeOutcome::GuaranteedHit { .. } => 1,
        _ => i32::try_from(outcome.margin()).unwrap_or(i32::MIN),
    };
    margin.saturating_add(extra)
}

/// The damage of a hit by `margin`: plus the attacker's offensive factor,
/// minus the defender's defensive factor (docs/rules.md §3.1). Saturates rather
/// than overflows.
#[inline]
pub const fn damage_of(margin: i32, offense: i32, defense_factor: i32) -> i32 {
    margin.saturating_add(offense).saturating_sub(defense_factor)
}

/// The damage of a FUDGE shot (4.4), `None` on a miss: its relative degree
/// (over the dodge, or over the Difficulty Level when the target did not
/// dodge) plus the shooter's offensive factor minus the target's defensive
/// one, as a melee blow's (docs/rules.md §3.1). Battles and the tracker
/// land their shots by it.
///
/// ```
/// use skirmish_core::combat::shot_damage;
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{Missile, RangedAttack, RangedDefense, ResultSource};
///
/// // A Good archer, unaware target, Difficulty Level Poor: a 0 beats it by 3.
/// let shot = RangedAttack {
///     skill: Level::GOOD,
///     source: ResultSource::Roll,
///     difficulty_level: Level::POOR,
///     missile: Missile::Thrown,
///     defense: RangedDefense::Unaware,
/// };
/// let out = shot.resolve(&mut ScriptedRolls::new([0]))?;
/// assert_eq!(shot_damage(&out, 1, 2), Some(2));
/// # Ok::<(), skirmish_core::Error>(())
/// ```
#[inline]
pub fn shot_damage(outcome: &RangedOutcome, offense: i32, defense_factor: i32) -> Option<i32> {
    outcome
        .hit
        .then(|| damage_of(outcome.relative_degree, offense, defense_factor))
}

/// One side of a FUDGE opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpposedSide {
    /// The combat skill as a ladder value, for this round (plus-levels
    /// already counted).
    pub skill: i32,
    /// The wound penalty (0, -1 Hurt, -2 Very Hurt).
    pub penalty: i32,
    /// FUDGE 4.34: the penalty for attackers beyond the first engaging
    /// this fighter ([`FudgeRules::outnumbered`]).
    pub outnumbered: i32,
    /// FUDGE 4.31's modifiers against this foe: position, aim, one's own
    /// large shield, the foe's shield ([`Matchup::modifier`]).
    pub modifier: i32,
    /// The least result that hits this foe ([`Matchup::minimum`]: by Scale,
    /// raised by aiming).
    pub minimum: i32,
    /// FUDGE 4.32's posture this exchange, as its offense modifier
    /// (-2..=2): added to the side's result on offense, taken off it on
    /// defense. 0 for a fighter without postures.
    pub posture: i32,
    /// The roll (4dF, or a side's group 2dF).
    pub roll: i32,
    /// FUDGE 4.31's stance: +1 or +2 to the result, and what the round
    /// does with a tie, the damage and the harm (see [`opposed_blow`]).
    pub stance: Stance,
}

impl OpposedSide {
    /// A side with this skill and roll and nothing else: unhurt, alone,
    /// no modifier, the minimum Poor, a normal stance.
    #[inline]
    pub const fn new(skill: i32, roll: i32) -> OpposedSide {
        OpposedSide {
            skill,
            penalty: 0,
            outnumbered: 0,
            roll,
            stance: Stance::Normal,
            modifier: 0,
            minimum: Level::POOR.value(),
            posture: 0,
        }
    }

    /// The result before the posture: skill + stance + penalty -
    /// outnumbered + modifier + roll (FUDGE 4.32's one roll that serves
    /// offense and defense).
    #[inline]
    pub const fn total(&self) -> i32 {
        self.skill
            .saturating_add(self.stance.skill_bonus())
            .saturating_add(self.penalty)
            .saturating_sub(self.outnumbered)
            .saturating_add(self.modifier)
            .saturating_add(self.roll)
    }
}

/// What a fighter brings to every FUDGE exchange, whoever the foe: the
/// standing modifiers of FUDGE 4.31 and its Scale, summed once per fighter
/// so the battle loop pairs two of them with an addition
/// ([`modifier_against`](Self::modifier_against),
/// [`minimum_against`](Self::minimum_against)). [`matchup`] gives the same
/// numbers with their breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Bearing {
    /// What counts against the fighter himself: position, aiming, his own
    /// large shield.
    pub own: i32,
    /// What his trained shield takes off a foe's result in melee (0 or
    /// negative).
    pub shield: i32,
    /// His Scale.
    pub scale: i32,
    /// His called shot, which raises his minimum to hit.
    pub aim: Aim,
}

impl Bearing {
    /// `fighter`'s bearing.
    pub const fn of(fighter: &Fighter) -> Bearing {
        let (own_shield, shield) = match fighter.shield {
            Some(s) => (s.penalty_to_user(), s.penalty_to_opponent(CombatKind::Melee)),
            None => (0, 0),
        };
        Bearing {
            own: fighter.position.penalty() + own_shield + fighter.aim.penalty(),
            shield,
            scale: fighter.scale,
            aim: fighter.aim,
        }
    }

    /// The modifier to this fighter's result against `foe`: his own, plus
    /// the foe's shield.
    #[inline]
    pub const fn modifier_against(&self, foe: &Bearing) -> i32 {
        self.own.saturating_add(foe.shield)
    }

    /// The least result with which this fighter hits `foe`: `equal_scale`
    /// (the rules' minimum) at an equal Scale, else the one of the Scale
    /// difference ([`TargetSize::by_scale`], the text's minimums beside
    /// its Poor) moved by as much as the rules' minimum is above or below
    /// Poor (a stricter GM is stricter at every Scale); at least the aim's
    /// (Good).
    #[inline]
    pub const fn minimum_against(&self, foe: &Bearing, equal_scale: i32) -> i32 {
        let by_scale = match TargetSize::by_scale(self.scale.saturating_sub(foe.scale)) {
            Some(size) => size
                .minimum_to_hit()
                .value()
                .saturating_add(equal_scale.saturating_sub(Level::POOR.value())),
            None => equal_scale,
        };
        match self.aim.minimum_to_hit() {
            Some(aimed) if aimed.value() > by_scale => aimed.value(),
            _ => by_scale,
        }
    }
}

/// What one fighter brings against one foe in a FUDGE exchange before any
/// roll: the modifiers of FUDGE 4.31 that do not change from blow to blow
/// (position, aim, shields) and the least result that hits the foe.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Matchup {
    /// The non-zero modifiers, each with its reason, in the order
    /// [`MeleeModifiers::effective_skill`](crate::striking::opposed::MeleeModifiers::effective_skill)
    /// applies them.
    pub modifiers: Vec<Modifier>,
    /// Their sum ([`Bearing::modifier_against`]).
    pub modifier: i32,
    /// The least result that hits the foe ([`Bearing::minimum_against`]):
    /// the rules' minimum at an equal Scale, else the one for the Scale
    /// difference ([`TargetSize::by_scale`]); at least Good when aiming
    /// (4.31).
    pub minimum: i32,
}

/// `me` against `foe` under `rules` (FUDGE 4.22, 4.31; docs/rules.md
/// §2.2.3), with the breakdown the tracker shows; a battle pairs
/// [`Bearing`]s for the same numbers.
///
/// ```
/// use skirmish_core::combat::matchup;
/// use skirmish_core::fighter::{FighterProfile, FudgeRules, Striking};
/// use skirmish_core::striking::opposed::{Position, Shield, ShieldSize};
/// use skirmish_core::timing::TimingSystem;
///
/// let rules = FudgeRules::default();
/// let fudge = Striking::FudgeOpposed(rules);
/// let mut knight = FighterProfile::new("Knight");
/// knight.shield = Some(Shield::new(ShieldSize::Medium));
/// let mut troll = FighterProfile::new("Troll");
/// troll.scale = 3;
/// troll.position = Position::Worse;
/// let (k, t) = (knight.resolve(&TimingSystem::continuous(), &fudge)?, troll.resolve(&TimingSystem::continuous(), &fudge)?);
/// // The troll: -1 position, -1 the knight's shield; it needs Fair (0) to
/// // hit a foe 3 Scales smaller.
/// let m = matchup(&t, &k, &rules);
/// assert_eq!((m.modifier, m.minimum, m.modifiers.len()), (-2, 0, 2));
/// // The knight hits the bigger troll with any result.
/// assert_eq!(matchup(&k, &t, &rules).minimum, -3);
/// # Ok::<(), skirmish_core::Error>(())
/// ```
pub fn matchup(me: &Fighter, foe: &Fighter, rules: &FudgeRules) -> Matchup {
    let (mine, theirs) = (Bearing::of(me), Bearing::of(foe));
    // Position, aim and shields are a few points each: no overflow from 0.
    let modifiers = me
        .melee_modifiers()
        .effective_skill(Level::new(0), &foe.melee_modifiers())
        .map_or_else(|_| Vec::new(), |s| s.modifiers);
    Matchup {
        modifiers,
        modifier: mine.modifier_against(&theirs),
        minimum: mine.minimum_against(&theirs, rules.minimum_to_hit.value()),
    }
}

/// A FUDGE opposed blow: each side's result and what it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpposedBlow {
    /// The attacker's (offense) result.
    pub attack: i32,
    /// The defender's (defense) result.
    pub defense: i32,
    /// The relative degree, attack - defense.
    pub degree: i32,
    /// The defender's offense and the attacker's defense, for his answer
    /// ([`counter_blow`]): the same results as `defense` and `attack` but
    /// for postures (FUDGE 4.32), under which each fighter's offense meets
    /// the other's defense and both may hit.
    pub answer: (i32, i32),
    /// Whether the attacker hit: won (by 1 or more, or by a tie against an
    /// all-out attacker) with at least the minimum result to hit, and not
    /// in all-out defense.
    pub landed: bool,
    /// The damage if it landed: the degree plus the stances' bonus plus
    /// `offense` minus `defense_factor`.
    pub damage: i32,
    /// The stances it was fought in: the attacker's, the defender's.
    pub stances: (Stance, Stance),
    /// The least results that hit: the attacker's, the defender's.
    pub minimums: (i32, i32),
}

impl OpposedBlow {
    /// Whether the attacker won the round (by 1 or more, or by a tie
    /// against an all-out attacker), whether or not his blow landed.
    #[inline]
    pub const fn attacker_won(&self) -> bool {
        wins(self.degree, self.stances.0, self.stances.1)
    }

    /// The attacker's relative degree as FUDGE 4.34 compares it: the
    /// degree, but a tie that FUDGE 4.31 gives to one side (against an
    /// all-out attacker) counts as a win by 1 for it and a loss by 1 for
    /// the other.
    #[inline]
    pub const fn attacker_degree(&self) -> i32 {
        tie_broken(self.degree, self.stances.0, self.stances.1)
    }

    /// The defender's relative degree in his answer, as
    /// [`attacker_degree`](Self::attacker_degree) counts it.
    #[inline]
    pub const fn defender_degree(&self) -> i32 {
        tie_broken(
            self.answer.0.saturating_sub(self.answer.1),
            self.stances.1,
            self.stances.0,
        )
    }
}

/// `degree`, with a tie FUDGE 4.31 gives to a side counted as a win by 1
/// (for `mine`) or a loss by 1.
#[inline]
const fn tie_broken(degree: i32, mine: Stance, theirs: Stance) -> i32 {
    if degree != 0 {
        degree
    } else if wins(0, mine, theirs) {
        1
    } else if wins(0, theirs, mine) {
        -1
    } else {
        0
    }
}

/// Whether the side with this relative degree and stance wins the round
/// against a foe in `theirs` (FUDGE 4.31: an all-out attacker who ties
/// loses, unless both attacked all-out).
#[inline]
const fn wins(degree: i32, mine: Stance, theirs: Stance) -> bool {
    degree >= 1 || (degree == 0 && matches!(theirs, Stance::AllOutOffense) && !matches!(mine, Stance::AllOutOffense))
}

/// The winner's damage bonus (FUDGE 4.31): +1 for his own all-out attack,
/// +2 against an all-out attacker.
#[inline]
const fn stance_bonus(mine: Stance, theirs: Stance) -> i32 {
    matches!(mine, Stance::AllOutOffense) as i32 + 2 * matches!(theirs, Stance::AllOutOffense) as i32
}

/// The defender's answer to an opposed blow in a two-way exchange (FUDGE
/// 4.22; docs/rules.md §2.2.2): when the defender won the roll by 1 or more
/// and his result reaches the minimum to hit, he hurts the attacker, by the
/// relative degree plus his `offense` minus the attacker's
/// `defense_factor`. `None` when the defender does no harm: he did not win,
/// fell short of the minimum, or the rules play one-way strikes
/// ([`ExchangeRule::OneWay`]).
///
/// With [`opposed_blow`] this is the arithmetic of FUDGE 4.22's round
/// ([`exchange`](crate::striking::opposed::exchange)) for two fighters in
/// any stance, not aiming, able to harm but for all-out defense: the form
/// the battle engine's hot loop and the tracker use, held to `exchange` by
/// a property test (`tests/it/opposed.rs`).
///
/// ```
/// use skirmish_core::combat::{counter_blow, opposed_blow, OpposedSide};
/// use skirmish_core::fighter::{ExchangeRule, FudgeRules};
///
/// // Fair (0) rolls -1; the Good (+1) defender rolls +1 and wins by 3.
/// let rules = FudgeRules::default();
/// let blow = opposed_blow(OpposedSide::new(0, -1), OpposedSide::new(1, 1), 0, 0);
/// assert!(!blow.landed);
/// // His sword (+1 offense) against the attacker's leather (1): damage 3.
/// assert_eq!(counter_blow(&blow, &rules, 1, 1), Some(3));
/// let one_way = FudgeRules { exchange: ExchangeRule::OneWay, ..rules };
/// assert_eq!(counter_blow(&blow, &one_way, 1, 1), None);
/// ```
#[inline]
pub fn counter_blow(blow: &OpposedBlow, rules: &FudgeRules, offense: i32, defense_factor: i32) -> Option<i32> {
    let (theirs, mine) = blow.stances;
    let (his_offense, their_defense) = blow.answer;
    let back = his_offense.saturating_sub(their_defense);
    let won_back = wins(back, mine, theirs) && !matches!(mine, Stance::AllOutDefense) && his_offense >= blow.minimums.1;
    (rules.exchange == ExchangeRule::TwoWay && won_back)
        .then(|| damage_of(back.saturating_add(stance_bonus(mine, theirs)), offense, defense_factor))
}

/// A blow at a fighter who does not defend against it: FUDGE 4.34's
/// ignored foe, whom the well-armored lone fighter lets "try to get
/// through his armor" (docs/rules.md §2.2.6). It is an Unopposed action
/// whose Difficulty Level is the attacker's minimum result to hit: it lands
/// when the attacker's result (posture included) reaches it, by the result
/// minus it, with the stances' damage (an all-out attacker's +1), and never
/// in all-out defense. `defense` and the answer are the Difficulty Level;
/// nobody answers it.
///
/// ```
/// use skirmish_core::combat::{OpposedSide, unopposed_blow};
/// // A Mediocre (-1) goblin rolls +1: Fair against Poor, by 2.
/// let blow = unopposed_blow(OpposedSide::new(-1, 1), 0, 1);
/// assert!(blow.landed);
/// assert_eq!((blow.degree, blow.damage), (2, 1));
/// ```
#[inline]
pub fn unopposed_blow(attacker: OpposedSide, offense: i32, defense_factor: i32) -> OpposedBlow {
    let attack = attacker.total().saturating_add(attacker.posture);
    let level = attacker.minimum;
    let degree = attack.saturating_sub(level);
    let mine = attacker.stance;
    OpposedBlow {
        attack,
        defense: level,
        degree,
        landed: !matches!(mine, Stance::AllOutDefense) && attack >= level,
        damage: damage_of(
            degree.saturating_add(stance_bonus(mine, Stance::Normal)),
            offense,
            defense_factor,
        ),
        stances: (mine, Stance::Normal),
        minimums: (level, level),
        answer: (level, attack),
    }
}

/// A FUDGE opposed blow (FUDGE 4.3; docs/rules.md §5): the attacker hits
/// when its result beats the defender's by 1 or more and is at least its
/// minimum result (`attacker.minimum`: Poor against an equal-sized foe;
/// [`matchup`] finds it). The stances of
/// 4.31 count: +1 (all-out offense) or +2 (all-out defense) to the result;
/// an all-out attacker who ties loses the round, and the winner against an
/// all-out attacker does +2 damage, an all-out attacker who wins +1; in
/// all-out defense a fighter cannot harm. What a defender who wins does is
/// [`counter_blow`]'s to say.
#[inline]
pub fn opposed_blow(attacker: OpposedSide, defender: OpposedSide, offense: i32, defense_factor: i32) -> OpposedBlow {
    let (a, d) = (attacker.total(), defender.total());
    // FUDGE 4.32: the posture goes to offense, its opposite to defense.
    let attack = a.saturating_add(attacker.posture);
    let defense = d.saturating_sub(defender.posture);
    let degree = attack.saturating_sub(defense);
    let (mine, theirs) = (attacker.stance, defender.stance);
    OpposedBlow {
        attack,
        defense,
        degree,
        landed: wins(degree, mine, theirs) && !matches!(mine, Stance::AllOutDefense) && attack >= attacker.minimum,
        damage: damage_of(
            degree.saturating_add(stance_bonus(mine, theirs)),
            offense,
            defense_factor,
        ),
        stances: (mine, theirs),
        minimums: (attacker.minimum, defender.minimum),
        answer: (d.saturating_add(defender.posture), a.saturating_sub(attacker.posture)),
    }
}
