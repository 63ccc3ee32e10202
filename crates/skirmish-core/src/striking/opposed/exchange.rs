//! Simultaneous combat rounds (4.22) with the melee modifiers of 4.31, and
//! hit location by relative degree (4.35).

use serde::{Deserialize, Serialize};

use super::modifiers::{Aim, EffectiveSkill, MeleeModifiers, Stance};
use super::result::{ResultSource, relative_degree};
use crate::dice::RollSource;
use crate::error::{Error, Result};
use crate::ladder::Level;

/// The target's size relative to the attacker, which sets the least result
/// that can hit (4.22, "Scale").
///
/// The text gives a range for two of the cases ("a Mediocre or even Fair
/// result", "a Good or even a Great result"); each end is its own variant.
/// The GM may use any other [`Level`] instead: every API takes the minimum
/// as a `Level`, and [`minimum_to_hit`](Self::minimum_to_hit) is only the
/// table.
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::TargetSize;
/// assert_eq!(TargetSize::RoughlyEqual.minimum_to_hit(), Level::POOR);
/// assert_eq!(TargetSize::Larger.minimum_to_hit(), Level::TERRIBLE);
/// assert_eq!(TargetSize::VeryTiny.minimum_to_hit(), Level::GREAT);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetSize {
    /// A significantly bigger target (another Scale): "even a Terrible
    /// result will allow the small fighter to hit the larger".
    Larger,
    /// A (roughly) equal-sized opponent: Poor.
    #[default]
    RoughlyEqual,
    /// A significantly smaller target: Mediocre.
    Smaller,
    /// A significantly smaller target, the GM's stricter reading: Fair.
    MuchSmaller,
    /// An extremely small target such as a pixie: Good.
    Tiny,
    /// An extremely small target, the GM's stricter reading: Great.
    VeryTiny,
}

impl TargetSize {
    /// The least result that hits a target of this size.
    pub const fn minimum_to_hit(self) -> Level {
        match self {
            TargetSize::Larger => Level::TERRIBLE,
            TargetSize::RoughlyEqual => Level::POOR,
            TargetSize::Smaller => Level::MEDIOCRE,
            TargetSize::MuchSmaller => Level::FAIR,
            TargetSize::Tiny => Level::GOOD,
            TargetSize::VeryTiny => Level::GREAT,
        }
    }

    /// The size of a target whose Scale is `difference` steps below the
    /// attacker's (the attacker's Scale minus the target's): `None` at an
    /// equal Scale, where the rules' own minimum holds. The text says only
    /// "of a different Scale, at least" for the first step and names a
    /// pixie for the last; the steps between are ours (docs/rules.md
    /// §2.2.3): a larger target at any difference, smaller at 1-2 steps,
    /// much smaller at 3-5, tiny at 6-8, very tiny at 9 or more.
    ///
    /// ```
    /// use skirmish_core::striking::opposed::TargetSize;
    /// assert_eq!(TargetSize::by_scale(0), None);
    /// assert_eq!(TargetSize::by_scale(-3), Some(TargetSize::Larger));
    /// assert_eq!(TargetSize::by_scale(2), Some(TargetSize::Smaller));
    /// assert_eq!(TargetSize::by_scale(9), Some(TargetSize::VeryTiny));
    /// ```
    pub const fn by_scale(difference: i32) -> Option<TargetSize> {
        match difference {
            i32::MIN..=-1 => Some(TargetSize::Larger),
            0 => None,
            1..=2 => Some(TargetSize::Smaller),
            3..=5 => Some(TargetSize::MuchSmaller),
            6..=8 => Some(TargetSize::Tiny),
            _ => Some(TargetSize::VeryTiny),
        }
    }
}

/// The two sides of a one-on-one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundSide {
    /// The first fighter given.
    First,
    /// The second fighter given.
    Second,
}

impl RoundSide {
    /// The other side.
    pub const fn other(self) -> RoundSide {
        match self {
            RoundSide::First => RoundSide::Second,
            RoundSide::Second => RoundSide::First,
        }
    }
}

/// One fighter in a simultaneous combat round, after the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RolledCombatant {
    /// The rolled result.
    pub result: Level,
    /// The least result that hits the opponent (see [`TargetSize`]).
    pub minimum_to_hit: Level,
    /// A called shot at a small part (raises the minimum to Good).
    pub aim: Aim,
    /// All-out offense or defense.
    pub stance: Stance,
    /// `false` for a fighter who can only defend himself (with a shield,
    /// say): still an Opposed action, but "the defending character cannot
    /// hurt the other character even if he wins the combat round" (4.22).
    pub can_harm: bool,
    /// The roll was a critical result (FUDGE 3.6, outside this text; the
    /// caller decides). Only lets an all-out defender harm.
    pub critical: bool,
}

impl RolledCombatant {
    /// A fighter with this result, against an equal-sized foe (minimum
    /// Poor), not aiming, normal stance, able to harm.
    pub const fn new(result: Level) -> RolledCombatant {
        RolledCombatant {
            result,
            minimum_to_hit: Level::POOR,
            aim: Aim::Anywhere,
            stance: Stance::Normal,
            can_harm: true,
            critical: false,
        }
    }

    /// Whether this fighter may harm at all this round.
    const fn may_harm(&self) -> bool {
        self.can_harm && (self.critical || !matches!(self.stance, Stance::AllOutDefense))
    }
}

/// Why nobody was hurt in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StandOffReason {
    /// Relative degree 0 (and no all-out attacker to lose the tie).
    Tie,
    /// The winner's result was below the minimum needed to hit (for
    /// example both rolled worse than Poor).
    BelowMinimum,
    /// The winner could not harm: defending only, or all-out defense without
    /// a critical result.
    CannotHarm,
}

/// Where a called shot landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AimOutcome {
    /// No called shot.
    NotAimed,
    /// The part aimed for.
    AimedPart,
    /// A hit, "but not in the part aimed for" (Great needed, Good rolled).
    ElsewhereThanAimed,
}

/// A blow that landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hit {
    /// Who struck.
    pub winner: RoundSide,
    /// The winner's margin (winner's result minus loser's). 0 only when an
    /// all-out attacker tied and so lost.
    pub relative_degree: i32,
    /// Damage adjustment from 4.31: +1 for a winning all-out attack, +2
    /// against an all-out attacker who tied or lost (both may add up).
    pub damage_bonus: i32,
    /// Where a called shot went.
    pub aim: AimOutcome,
}

impl Hit {
    /// Whether the blow is good enough to pierce an eye (4.35; see
    /// [`can_pierce_eye`]).
    pub const fn can_pierce_eye(&self) -> bool {
        can_pierce_eye(self.relative_degree)
    }
}

/// What a simultaneous combat round came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ExchangeOutcome {
    /// Nobody is hurt.
    StandOff {
        /// Why.
        reason: StandOffReason,
    },
    /// One side hit the other; the winner now checks for damage.
    Hit(Hit),
}

/// One simultaneous combat round between two fighters (4.22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Exchange {
    /// First's result minus second's.
    pub relative_degree: i32,
    /// Stand-off or hit.
    pub outcome: ExchangeOutcome,
}

impl Exchange {
    /// The hit, if one landed.
    pub const fn hit(&self) -> Option<Hit> {
        match self.outcome {
            ExchangeOutcome::Hit(hit) => Some(hit),
            ExchangeOutcome::StandOff { .. } => None,
        }
    }

    /// Whether `side` was hit this round.
    pub const fn was_hit(&self, side: RoundSide) -> bool {
        match self.outcome {
            ExchangeOutcome::Hit(hit) => matches!(
                (hit.winner, side),
                (RoundSide::First, RoundSide::Second) | (RoundSide::Second, RoundSide::First)
            ),
            ExchangeOutcome::StandOff { .. } => false,
        }
    }
}

/// Resolves one simultaneous combat round from both rolled results (4.22,
/// with the stances and aiming of 4.31).
///
/// - Relative degree 0 is a stand-off, unless exactly one fighter attacked
///   all-out: "if an all-out attacker *ties* or loses the Opposed action, the
///   other fighter wins". (*Decision:* two all-out attackers who tie stand
///   off; each would make the other the winner, so neither is.)
/// - The winner hits only if his result reaches his minimum (Poor against an
///   equal foe; Good when aiming at a small part), and only if he may harm.
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{exchange, ExchangeOutcome, RolledCombatant, RoundSide, StandOffReason};
///
/// let e = exchange(&RolledCombatant::new(Level::GOOD), &RolledCombatant::new(Level::FAIR)).unwrap();
/// let hit = e.hit().unwrap();
/// assert_eq!((hit.winner, hit.relative_degree), (RoundSide::First, 1));
///
/// // Both worse than Poor: a stand-off.
/// let e = exchange(&RolledCombatant::new(Level::TERRIBLE), &RolledCombatant::new(Level::new(-5))).unwrap();
/// assert_eq!(e.outcome, ExchangeOutcome::StandOff { reason: StandOffReason::BelowMinimum });
/// ```
///
/// # Errors
/// [`Error::Overflow`] when the relative degree does not fit an `i32`.
pub fn exchange(first: &RolledCombatant, second: &RolledCombatant) -> Result<Exchange> {
    let degree = relative_degree(first.result, second.result)?;
    let done = |outcome| {
        Ok(Exchange {
            relative_degree: degree,
            outcome,
        })
    };
    let all_out = |f: &RolledCombatant| matches!(f.stance, Stance::AllOutOffense);
    let winner = match degree.cmp(&0) {
        std::cmp::Ordering::Greater => RoundSide::First,
        std::cmp::Ordering::Less => RoundSide::Second,
        std::cmp::Ordering::Equal => match (all_out(first), all_out(second)) {
            (true, false) => RoundSide::Second,
            (false, true) => RoundSide::First,
            _ => {
                return done(ExchangeOutcome::StandOff {
                    reason: StandOffReason::Tie,
                });
            }
        },
    };
    let (w, l) = match winner {
        RoundSide::First => (first, second),
        RoundSide::Second => (second, first),
    };
    if !w.may_harm() {
        return done(ExchangeOutcome::StandOff {
            reason: StandOffReason::CannotHarm,
        });
    }
    let needed = match w.aim.minimum_to_hit() {
        Some(aim) => w.minimum_to_hit.max(aim),
        None => w.minimum_to_hit,
    };
    if w.result < needed {
        return done(ExchangeOutcome::StandOff {
            reason: StandOffReason::BelowMinimum,
        });
    }
    let aim = match w.aim.minimum_for_part() {
        None => AimOutcome::NotAimed,
        Some(part) if w.result >= part.max(w.minimum_to_hit) => AimOutcome::AimedPart,
        Some(_) => AimOutcome::ElsewhereThanAimed,
    };
    // The winner's own all-out attack won (+1); the loser's all-out attack
    // tied or lost (+2).
    let damage_bonus = i32::from(all_out(w)) + 2 * i32::from(all_out(l));
    let relative_degree = degree
        .checked_abs()
        .ok_or_else(|| Error::overflow("relative_degree", format!("|{degree}|")))?;
    done(ExchangeOutcome::Hit(Hit {
        winner,
        relative_degree,
        damage_bonus,
        aim,
    }))
}

/// A melee combatant before the roll: skill, who rolls, and the round's
/// modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combatant {
    /// The combat skill (for a plus-level, [`CombatLevel::in_round`](crate::ladder::CombatLevel::in_round)).
    pub skill: Level,
    /// Who rolls (a roll, a table roll, the NPC rule, a known result).
    pub source: ResultSource,
    /// This round's melee modifiers.
    pub modifiers: MeleeModifiers,
    /// The least result that hits the opponent (see [`TargetSize`]).
    pub minimum_to_hit: Level,
    /// `false` for a fighter who can only defend (4.22).
    pub can_harm: bool,
}

impl Combatant {
    /// A combatant of `skill` who rolls 4dF from the roll source, with no
    /// modifiers, against an equal-sized foe.
    pub fn new(skill: Level) -> Combatant {
        Combatant {
            skill,
            source: ResultSource::Roll,
            modifiers: MeleeModifiers::default(),
            minimum_to_hit: Level::POOR,
            can_harm: true,
        }
    }

    /// The same combatant with another result source.
    pub fn with_source(self, source: ResultSource) -> Combatant {
        Combatant { source, ..self }
    }

    /// The same combatant with other modifiers.
    pub fn with_modifiers(self, modifiers: MeleeModifiers) -> Combatant {
        Combatant { modifiers, ..self }
    }
}

/// One combatant's side of a [`MeleeRound`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundResult {
    /// The skill after the modifiers.
    pub skill: EffectiveSkill,
    /// The rolled result.
    pub result: Level,
}

/// A whole simultaneous melee round: both sides' skills and results, and
/// the exchange.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MeleeRound {
    /// The first combatant's skill and result.
    pub first: RoundResult,
    /// The second combatant's skill and result.
    pub second: RoundResult,
    /// What came of it.
    pub exchange: Exchange,
}

/// Rolls and resolves one simultaneous melee round (4.22 with 4.31): each
/// side's effective skill against the other's modifiers, each side's
/// result (first, then second, from `rolls` where they roll), then
/// [`exchange`]. No critical results are judged here.
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::{CombatLevel, Level};
/// use skirmish_core::striking::opposed::{melee_round, Combatant, RoundSide};
///
/// // 4.36: Gus (Great) vs Ivan (Good+), round 2: Ivan rolls as Great.
/// let ivan: CombatLevel = "Good+".parse().unwrap();
/// let gus = Combatant::new(Level::GREAT);
/// let ivan = Combatant::new(ivan.in_round(2).unwrap());
/// let round = melee_round(&gus, &ivan, &mut ScriptedRolls::new([0, 1])).unwrap();
/// assert_eq!(round.second.result, Level::SUPERB);
/// assert_eq!(round.exchange.hit().unwrap().winner, RoundSide::Second);
/// ```
///
/// # Errors
/// A bad or exhausted roll (field `first.roll` / `second.roll`), or an
/// overflow.
pub fn melee_round(
    first: &Combatant,
    second: &Combatant,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<MeleeRound> {
    let (first_round, first_fighter) = roll_side(first, second, rolls, "first")?;
    let (second_round, second_fighter) = roll_side(second, first, rolls, "second")?;
    Ok(MeleeRound {
        first: first_round,
        second: second_round,
        exchange: exchange(&first_fighter, &second_fighter)?,
    })
}

/// One side of [`melee_round`]: effective skill, result, and the fighter.
fn roll_side(
    me: &Combatant,
    them: &Combatant,
    rolls: &mut (impl RollSource + ?Sized),
    name: &str,
) -> Result<(RoundResult, RolledCombatant)> {
    let skill = me
        .modifiers
        .effective_skill(me.skill, &them.modifiers)
        .map_err(|e| e.in_field(name))?;
    let result = me.source.result(skill.level, rolls).map_err(|e| e.in_field(name))?;
    let fighter = RolledCombatant {
        result,
        minimum_to_hit: me.minimum_to_hit,
        aim: me.modifiers.aim,
        stance: me.modifiers.stance,
        can_harm: me.can_harm,
        critical: false,
    };
    Ok((RoundResult { skill, result }, fighter))
}

/// The relative degree from which a blow may pierce an eye (4.35).
pub const PIERCE_EYE_DEGREE: i32 = 8;

/// 4.35 Hit location, the text's "simplest system": the better the relative
/// degree, the better the location of the blow, and "winning a battle by +8
/// will allow the attacker to pierce an eye, if desired".
///
/// That is all the text defines: no table of locations by degree. The GM
/// reads the relative degree (on [`Hit`], [`Strike`](super::Strike), ...)
/// for anything finer; this predicate is the one fixed point.
///
/// ```
/// use skirmish_core::striking::opposed::can_pierce_eye;
/// assert!(can_pierce_eye(8));
/// assert!(!can_pierce_eye(7));
/// ```
pub const fn can_pierce_eye(relative_degree: i32) -> bool {
    relative_degree >= PIERCE_EYE_DEGREE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;
    use crate::striking::opposed::{Shield, ShieldSize};

    fn hit(e: Exchange) -> Hit {
        e.hit().unwrap_or_else(|| panic!("expected a hit, got {e:?}"))
    }

    fn stand_off(e: Exchange) -> StandOffReason {
        match e.outcome {
            ExchangeOutcome::StandOff { reason } => reason,
            ExchangeOutcome::Hit(h) => panic!("expected a stand-off, got {h:?}"),
        }
    }

    #[test]
    fn ties_stand_off() {
        let e = exchange(&RolledCombatant::new(Level::GOOD), &RolledCombatant::new(Level::GOOD)).unwrap();
        assert_eq!(stand_off(e), StandOffReason::Tie);
        assert!(!e.was_hit(RoundSide::First) && !e.was_hit(RoundSide::Second));
    }

    #[test]
    fn minimum_to_hit() {
        // Poor wins against Terrible and is enough against an equal foe.
        let h = hit(exchange(
            &RolledCombatant::new(Level::POOR),
            &RolledCombatant::new(Level::TERRIBLE),
        )
        .unwrap());
        assert_eq!((h.winner, h.relative_degree), (RoundSide::First, 1));
        // Terrible wins against Terrible-1, but is below Poor.
        let e = exchange(
            &RolledCombatant::new(Level::new(-4)),
            &RolledCombatant::new(Level::TERRIBLE),
        )
        .unwrap();
        assert_eq!(stand_off(e), StandOffReason::BelowMinimum);
        // ... and is enough against a much larger foe.
        let small = RolledCombatant {
            minimum_to_hit: TargetSize::Larger.minimum_to_hit(),
            ..RolledCombatant::new(Level::TERRIBLE)
        };
        let giant = RolledCombatant::new(Level::new(-4));
        assert_eq!(hit(exchange(&small, &giant).unwrap()).winner, RoundSide::First);
        // A giant needs Mediocre against a human.
        let giant = RolledCombatant {
            minimum_to_hit: TargetSize::Smaller.minimum_to_hit(),
            ..RolledCombatant::new(Level::POOR)
        };
        let human = RolledCombatant::new(Level::TERRIBLE);
        assert_eq!(
            stand_off(exchange(&giant, &human).unwrap()),
            StandOffReason::BelowMinimum
        );
        // The GM may set any minimum.
        let pixie_hunter = RolledCombatant {
            minimum_to_hit: Level::SUPERB,
            ..RolledCombatant::new(Level::GREAT)
        };
        let pixie = RolledCombatant::new(Level::FAIR);
        assert_eq!(
            stand_off(exchange(&pixie_hunter, &pixie).unwrap()),
            StandOffReason::BelowMinimum
        );
    }

    #[test]
    fn a_defender_who_only_defends_cannot_hurt() {
        let shield_only = RolledCombatant {
            can_harm: false,
            ..RolledCombatant::new(Level::GREAT)
        };
        let e = exchange(&RolledCombatant::new(Level::FAIR), &shield_only).unwrap();
        assert_eq!(stand_off(e), StandOffReason::CannotHarm);
        assert_eq!(e.relative_degree, -2);
        // ... but can still be hit.
        let e = exchange(&RolledCombatant::new(Level::SUPERB), &shield_only).unwrap();
        assert!(e.was_hit(RoundSide::Second));
    }

    #[test]
    fn all_out_offense() {
        let berserk = |result| RolledCombatant {
            stance: Stance::AllOutOffense,
            ..RolledCombatant::new(result)
        };
        // Wins: +1 damage.
        let h = hit(exchange(&berserk(Level::GREAT), &RolledCombatant::new(Level::GOOD)).unwrap());
        assert_eq!((h.winner, h.relative_degree, h.damage_bonus), (RoundSide::First, 1, 1));
        // Ties: the other fighter wins, +2 damage, margin 0.
        let h = hit(exchange(&berserk(Level::GOOD), &RolledCombatant::new(Level::GOOD)).unwrap());
        assert_eq!((h.winner, h.relative_degree, h.damage_bonus), (RoundSide::Second, 0, 2));
        let h = hit(exchange(&RolledCombatant::new(Level::GOOD), &berserk(Level::GOOD)).unwrap());
        assert_eq!((h.winner, h.damage_bonus), (RoundSide::First, 2));
        // Loses: +2 damage to the winner.
        let h = hit(exchange(&berserk(Level::FAIR), &RolledCombatant::new(Level::GREAT)).unwrap());
        assert_eq!((h.winner, h.relative_degree, h.damage_bonus), (RoundSide::Second, 2, 2));
        // Two berserkers: the winner gets +1 for his own and +2 for the loser's.
        let h = hit(exchange(&berserk(Level::FAIR), &berserk(Level::GREAT)).unwrap());
        assert_eq!((h.winner, h.damage_bonus), (RoundSide::Second, 3));
        // Two berserkers tying: stand-off (decision).
        let e = exchange(&berserk(Level::FAIR), &berserk(Level::FAIR)).unwrap();
        assert_eq!(stand_off(e), StandOffReason::Tie);
        // The tie-winner still needs his minimum.
        let e = exchange(&berserk(Level::TERRIBLE), &RolledCombatant::new(Level::TERRIBLE)).unwrap();
        assert_eq!(stand_off(e), StandOffReason::BelowMinimum);
    }

    #[test]
    fn all_out_defense_harms_only_on_a_critical() {
        let turtle = RolledCombatant {
            stance: Stance::AllOutDefense,
            ..RolledCombatant::new(Level::SUPERB)
        };
        let e = exchange(&turtle, &RolledCombatant::new(Level::FAIR)).unwrap();
        assert_eq!(stand_off(e), StandOffReason::CannotHarm);
        let critical = RolledCombatant {
            critical: true,
            ..turtle
        };
        assert_eq!(
            hit(exchange(&critical, &RolledCombatant::new(Level::FAIR)).unwrap()).winner,
            RoundSide::First
        );
        // A critical does not let a shield-only defender harm.
        let shield_only = RolledCombatant {
            can_harm: false,
            critical: true,
            ..RolledCombatant::new(Level::SUPERB)
        };
        assert_eq!(
            stand_off(exchange(&shield_only, &RolledCombatant::new(Level::FAIR)).unwrap()),
            StandOffReason::CannotHarm
        );
    }

    #[test]
    fn aiming_at_a_small_part() {
        let aim = |a, result| RolledCombatant {
            aim: a,
            ..RolledCombatant::new(result)
        };
        let foe = RolledCombatant::new(Level::POOR);
        let h = hit(exchange(&aim(Aim::SmallPartNeedingGood, Level::GOOD), &foe).unwrap());
        assert_eq!(h.aim, AimOutcome::AimedPart);
        let e = exchange(&aim(Aim::SmallPartNeedingGood, Level::FAIR), &foe).unwrap();
        assert_eq!(stand_off(e), StandOffReason::BelowMinimum);
        let h = hit(exchange(&aim(Aim::SmallPartNeedingGreat, Level::GREAT), &foe).unwrap());
        assert_eq!(h.aim, AimOutcome::AimedPart);
        // Great needed, Good rolled, still won: a hit, not in the part.
        let h = hit(exchange(&aim(Aim::SmallPartNeedingGreat, Level::GOOD), &foe).unwrap());
        assert_eq!(h.aim, AimOutcome::ElsewhereThanAimed);
        let e = exchange(&aim(Aim::SmallPartNeedingGreat, Level::FAIR), &foe).unwrap();
        assert_eq!(stand_off(e), StandOffReason::BelowMinimum);
        // Unaimed blows are NotAimed.
        assert_eq!(
            hit(exchange(&RolledCombatant::new(Level::GOOD), &foe).unwrap()).aim,
            AimOutcome::NotAimed
        );
        // Aiming never lowers a higher minimum for size.
        let at_pixie_eye = RolledCombatant {
            minimum_to_hit: Level::SUPERB,
            ..aim(Aim::SmallPartNeedingGood, Level::GREAT)
        };
        assert_eq!(
            stand_off(exchange(&at_pixie_eye, &foe).unwrap()),
            StandOffReason::BelowMinimum
        );
    }

    #[test]
    fn melee_round_applies_both_sides_modifiers() {
        let knight = Combatant::new(Level::GOOD).with_modifiers(MeleeModifiers {
            shield: Some(Shield::new(ShieldSize::Medium)),
            ..Default::default()
        });
        let brute = Combatant::new(Level::GREAT);
        let r = melee_round(&knight, &brute, &mut ScriptedRolls::new([0, 0])).unwrap();
        assert_eq!(r.first.result, Level::GOOD);
        assert_eq!(r.second.result, Level::GOOD); // Great -1 for the shield
        assert_eq!(
            r.exchange.outcome,
            ExchangeOutcome::StandOff {
                reason: StandOffReason::Tie
            }
        );
        let bad = Combatant::new(Level::GOOD).with_source(ResultSource::Rolled { roll: 9 });
        assert!(matches!(
            melee_round(&knight, &bad, &mut ScriptedRolls::new([0])),
            Err(Error::OutOfRange { ref field, .. }) if field == "second.roll"
        ));
    }

    #[test]
    fn eyes() {
        let h = Hit {
            winner: RoundSide::First,
            relative_degree: 8,
            damage_bonus: 0,
            aim: AimOutcome::NotAimed,
        };
        assert!(h.can_pierce_eye());
        assert!(!can_pierce_eye(-8));
    }
}
