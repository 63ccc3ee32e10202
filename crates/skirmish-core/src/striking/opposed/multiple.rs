//! Multiple combatants in melee: one fighter against several foes (4.34).

use serde::{Deserialize, Serialize};

use super::modifiers::{EffectiveSkill, ModifierReason};
use super::result::{ResultSource, add, check_fudge, relative_degree};
use crate::dice::{Dice, RollSource};
use crate::error::{Error, Result};
use crate::ladder::Level;

/// How many foes can reach the lone fighter at once (4.34).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Reach {
    /// Ideal conditions (wolves, spear-wielders): "Six is about the
    /// maximum".
    #[default]
    Ideal,
    /// Weapons or martial arts that need a lot of room: "only three or
    /// four". *Decision:* 4; use [`Custom`](Self::Custom) for 3.
    NeedsRoom,
    /// The lone fighter stands in a doorway: "only one or two". *Decision:*
    /// 2; use [`Custom`](Self::Custom) for 1.
    Doorway,
    /// The GM's own limit (at least 1).
    Custom {
        /// Most foes who can attack at once.
        max_attackers: u32,
    },
}

impl Reach {
    /// Most foes who can attack the lone fighter at once.
    pub const fn max_attackers(self) -> u32 {
        match self {
            Reach::Ideal => 6,
            Reach::NeedsRoom => 4,
            Reach::Doorway => 2,
            Reach::Custom { max_attackers } => max_attackers,
        }
    }
}

/// The GM's option to roll once for the whole group of foes (4.34): "The GM
/// rolls 2dF, and applies the result to each NPC." When on, it replaces
/// every foe's own [`ResultSource`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GroupRoll {
    /// Each foe gets its result from its own source.
    #[default]
    Off,
    /// One 2dF from the roll source, for every foe.
    Roll,
    /// One 2dF rolled at the table (checked: -2..=2), for every foe.
    Rolled {
        /// The 2dF total.
        roll: i32,
    },
}

/// The optional sweeping blow (4.34): the lone fighter may wound more than
/// one of the foes he bested, and "this slows a slash down: reduce damage
/// done by 1 or 2 for each foe cut through".
///
/// *Decision:* the text does not say which blows are reduced. Here every
/// foe cut through takes the same reduction: 1 (or 2) per foe beyond the
/// first, so a single blow is never reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SweepingBlow {
    /// One foe at most (the standard rule).
    #[default]
    Off,
    /// -1 damage per extra foe cut through.
    MinusOnePerFoe,
    /// -2 damage per extra foe cut through.
    MinusTwoPerFoe,
}

impl SweepingBlow {
    /// The damage change per foe beyond the first: 0, -1 or -2.
    pub const fn damage_per_extra_foe(self) -> i32 {
        match self {
            SweepingBlow::Off => 0,
            SweepingBlow::MinusOnePerFoe => -1,
            SweepingBlow::MinusTwoPerFoe => -2,
        }
    }
}

/// The lone fighter, before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LoneFighter {
    /// His combat skill (after other modifiers; the extra-foe penalty is
    /// applied by [`Outnumbered::resolve`]).
    pub skill: Level,
    /// Who rolls.
    pub source: ResultSource,
}

/// One of the foes, before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Foe {
    /// The foe's combat skill.
    pub skill: Level,
    /// Who rolls (ignored under a [`GroupRoll`]).
    pub source: ResultSource,
    /// The least result this foe needs to hit the lone fighter (see
    /// [`TargetSize`](super::TargetSize)); also the Difficulty Level when
    /// the foe is ignored.
    pub minimum_to_hit: Level,
    /// The least result the lone fighter needs to hit this foe.
    pub minimum_to_be_hit: Level,
    /// The well-armored fighter's option (4.34): he "can simply
    /// concentrate on one foe and let the others try to get through his
    /// armor (that is, not defend himself at all against some of his
    /// attackers)". An ignored foe neither blocks the lone fighter's blow
    /// nor can be its target; it attacks unopposed, hitting iff its result
    /// reaches its `minimum_to_hit` (the Difficulty Level, as for a defender
    /// who cannot fight, 4.22).
    pub ignored: bool,
}

impl Foe {
    /// A foe of `skill`, rolling 4dF from the roll source, equal-sized
    /// (minimums Poor), fought.
    pub const fn new(skill: Level) -> Foe {
        Foe {
            skill,
            source: ResultSource::Roll,
            minimum_to_hit: Level::POOR,
            minimum_to_be_hit: Level::POOR,
            ignored: false,
        }
    }
}

/// One fighter against several foes in one round (4.34).
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{Foe, GroupRoll, LoneFighter, Outnumbered, ResultSource};
///
/// // Tucker (Superb) against Molly (Fair), Annie (Good), Maggie (Mediocre);
/// // the GM rolls one 2dF for the pirates: +1. Tucker rolls +1.
/// let round = Outnumbered {
///     group_roll: GroupRoll::Rolled { roll: 1 },
///     ..Outnumbered::new(
///         LoneFighter { skill: Level::SUPERB, source: ResultSource::Rolled { roll: 1 } },
///         [Level::FAIR, Level::GOOD, Level::MEDIOCRE].map(Foe::new).to_vec(),
///     )
/// }
/// .resolve(&mut ScriptedRolls::new([]))
/// .unwrap();
/// assert_eq!(round.lone_skill.level, Level::GOOD); // -1 per extra foe
/// assert_eq!(round.lone_result, Level::GREAT);
/// assert_eq!(round.may_wound, vec![2]); // ties Annie: only Maggie (Fair)
/// assert!(round.wounded_by.is_empty());
/// assert_eq!(round.strike(2).unwrap().relative_degree, 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outnumbered {
    /// The lone fighter.
    pub lone: LoneFighter,
    /// His foes, in order (results refer to them by index).
    pub foes: Vec<Foe>,
    /// How many can reach him.
    pub reach: Reach,
    /// One 2dF for all foes, or each its own.
    pub group_roll: GroupRoll,
    /// The lone fighter's penalty per foe beyond the first: 1 in the text;
    /// "for epic-style games ... this penalty can be reduced". It counts
    /// ignored foes too ("there may or may not be a penalty": set 0 to
    /// waive it).
    pub penalty_per_extra_foe: u32,
    /// Whether one blow may wound several bested foes.
    pub sweeping_blow: SweepingBlow,
}

/// One foe's part in an [`OutnumberedRound`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FoeOutcome {
    /// The foe's rolled result.
    pub result: Level,
    /// The lone fighter's result minus this foe's.
    pub relative_degree: i32,
    /// Whether the lone fighter ignored this foe.
    pub ignored: bool,
    /// Whether the lone fighter may wound this foe.
    pub may_be_wounded: bool,
    /// Whether this foe wounds the lone fighter.
    pub wounds_lone: bool,
}

/// A foe who wounds the lone fighter, and by how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WoundFrom {
    /// Index of the foe.
    pub foe: usize,
    /// The foe's margin: its result minus the lone fighter's (or, for an
    /// ignored foe, minus its Difficulty Level).
    pub relative_degree: i32,
}

/// The lone fighter's blow landing on one foe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LoneHit {
    /// Index of the foe.
    pub foe: usize,
    /// The lone fighter's margin over this foe.
    pub relative_degree: i32,
    /// Damage change from a sweeping blow (0 for a single blow).
    pub damage_adjustment: i32,
}

/// What one round against several foes came to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutnumberedRound {
    /// The lone fighter's skill after the extra-foe penalty.
    pub lone_skill: EffectiveSkill,
    /// His rolled result (one roll, compared with each foe).
    pub lone_result: Level,
    /// The group's 2dF, when the GM rolled once for all.
    pub group_roll: Option<i32>,
    /// Each foe, in the order given.
    pub foes: Vec<FoeOutcome>,
    /// The foes he may wound (he picks one, or several with a sweeping blow).
    pub may_wound: Vec<usize>,
    /// The foes who wound him, each with its relative degree.
    pub wounded_by: Vec<WoundFrom>,
    /// The sweeping-blow option in force.
    pub sweeping_blow: SweepingBlow,
}

/// FUDGE 4.34's rule for whom the lone fighter may wound, from relative
/// degrees: `worst` is his smallest relative degree over any foe he fights
/// (his result minus the best foe's), `margin` his relative degree over
/// this foe. "The solo combatant has to defeat or tie *all* of the
/// opponents in order to inflict a wound on one of them. If he beats all
/// of his foes, he may hit the foe of his choice. If he ties his best
/// opponent, he can only wound another whose result is at least two
/// levels below his." (Whether his blow reaches the minimum to hit, and
/// whether he can harm at all, are the caller's to add.)
///
/// ```
/// use skirmish_core::striking::opposed::may_wound;
/// // Paco (Great) ties the best thug (Great): only the Mediocre one, 2 below.
/// assert!(!may_wound(0, 1) && may_wound(0, 2));
/// assert!(may_wound(1, 1)); // he beat them all
/// assert!(!may_wound(-1, 3)); // one thug beat him
/// ```
#[inline]
pub const fn may_wound(worst: i32, margin: i32) -> bool {
    worst > 0 || (worst == 0 && margin >= 2)
}

/// The lone fighter's blows of one round (FUDGE 4.34) from his exchanges
/// with each foe: `answers[i]` is his relative degree over foe `i` and the
/// damage his blow would do that foe alone (`None`: it could not wound
/// him: lost, below the minimum to hit, or unable to harm). He wounds
/// only if [`may_wound`] allows: without a sweeping blow the one foe his
/// blow hurts most (the first of equals), with one every foe allowed, each
/// blow changed by the sweeping blow's damage per foe beyond the first.
/// `land(i, damage)` is called for each blow, in the foes' order. This is
/// the rule the battle engine's lone fighters follow (docs/rules.md
/// §2.2.6).
///
/// ```
/// use skirmish_core::striking::opposed::{SweepingBlow, lone_blows};
/// // He beats three foes by 1, 3 and 2: one blow, on the second.
/// let answers = [(1, Some(1)), (3, Some(3)), (2, Some(2))];
/// let mut hits = Vec::new();
/// lone_blows(&answers, SweepingBlow::Off, |i, d| hits.push((i, d)));
/// assert_eq!(hits, [(1, 3)]);
/// // A sweeping blow cuts through all three, -2 each (-1 per extra foe).
/// hits.clear();
/// lone_blows(&answers, SweepingBlow::MinusOnePerFoe, |i, d| hits.push((i, d)));
/// assert_eq!(hits, [(0, -1), (1, 1), (2, 0)]);
/// ```
pub fn lone_blows(answers: &[(i32, Option<i32>)], sweeping: SweepingBlow, mut land: impl FnMut(usize, i32)) {
    let Some(worst) = answers.iter().map(|&(m, _)| m).min() else {
        return;
    };
    let allowed = |&(margin, damage): &(i32, Option<i32>)| damage.filter(|_| may_wound(worst, margin));
    if sweeping == SweepingBlow::Off {
        let mut tally = LoneTally::NEW;
        for (i, &(margin, damage)) in answers.iter().enumerate() {
            tally.add(u32::try_from(i).unwrap_or(u32::MAX), margin, damage);
        }
        if let Some((i, d)) = tally.blow() {
            land(i as usize, d);
        }
        return;
    }
    let n = answers.iter().filter(|a| allowed(a).is_some()).count();
    let extra = i32::try_from(n.saturating_sub(1)).unwrap_or(i32::MAX);
    let change = sweeping.damage_per_extra_foe().saturating_mul(extra);
    for (i, a) in answers.iter().enumerate() {
        if let Some(d) = allowed(a) {
            land(i, d.saturating_add(change));
        }
    }
}

/// [`lone_blows`] without a sweeping blow, kept as the answers come: the
/// lone fighter's least relative degree so far, the blow that hurts most
/// of all, and the one that hurts most of those he beat by 2 or more (the
/// only ones tying the best allows). 20 bytes, no list: what a battle keeps
/// per beset fighter.
///
/// ```
/// use skirmish_core::striking::opposed::LoneTally;
/// // Paco ties the best thug (0), beats the next by 1, the last by 3.
/// let mut t = LoneTally::NEW;
/// t.add(0, 0, None);
/// t.add(1, 1, Some(1));
/// t.add(2, 3, Some(3));
/// assert_eq!((t.worst(), t.blow()), (Some(0), Some((2, 3))));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoneTally {
    worst: i32,
    /// The best blow of all, and of those beaten by 2 or more: (foe,
    /// damage), the foe `u32::MAX` for none.
    any: (u32, i32),
    two: (u32, i32),
}

/// No blow in a [`LoneTally`].
const NO_BLOW: (u32, i32) = (u32::MAX, i32::MIN);

impl LoneTally {
    /// No answer yet.
    pub const NEW: LoneTally = LoneTally {
        worst: i32::MAX,
        any: NO_BLOW,
        two: NO_BLOW,
    };

    /// His answer to foe `foe` (below `u32::MAX`): his relative degree over
    /// it and the damage his blow would do it alone (`None`: it could not
    /// wound).
    #[inline]
    pub fn add(&mut self, foe: u32, margin: i32, damage: Option<i32>) {
        self.worst = self.worst.min(margin);
        if let Some(d) = damage {
            if self.any.0 == u32::MAX || d > self.any.1 {
                self.any = (foe, d);
            }
            if margin >= 2 && (self.two.0 == u32::MAX || d > self.two.1) {
                self.two = (foe, d);
            }
        }
    }

    /// His least relative degree over any foe, once he has answered one.
    #[inline]
    pub const fn worst(&self) -> Option<i32> {
        if self.worst == i32::MAX { None } else { Some(self.worst) }
    }

    /// His one blow (the foe, the damage) as [`may_wound`] allows: the one
    /// that hurts most (the first of equals) when he beat every foe; of
    /// those he beat by 2 or more when he tied the best; none when one beat
    /// him.
    #[inline]
    pub const fn blow(&self) -> Option<(u32, i32)> {
        let best = match self.worst() {
            Some(w) if w > 0 => self.any,
            Some(0) => self.two,
            _ => NO_BLOW,
        };
        if best.0 == u32::MAX { None } else { Some(best) }
    }
}

impl Outnumbered {
    /// `lone` against `foes`, with the text's defaults: ideal reach (6), no
    /// group roll, -1 per extra foe, no sweeping blow.
    pub fn new(lone: LoneFighter, foes: Vec<Foe>) -> Outnumbered {
        Outnumbered {
            lone,
            foes,
            reach: Reach::Ideal,
            group_roll: GroupRoll::Off,
            penalty_per_extra_foe: 1,
            sweeping_blow: SweepingBlow::Off,
        }
    }

    /// Rolls and resolves the round. Rolls are drawn in order: the lone
    /// fighter, then the group's 2dF (or each foe in order).
    ///
    /// The lone fighter "has to defeat or tie *all* of the opponents in
    /// order to inflict a wound on one of them. If he beats all of his foes,
    /// he may hit the foe of his choice. If he ties his best opponent, he can
    /// only wound another whose result is at least two levels below his."
    /// Every foe who beats him wounds him. Minimums to hit apply on both
    /// sides.
    ///
    /// # Errors
    /// - no foes, or more than the reach allows: [`Error::OutOfRange`],
    ///   field `foes`; a custom reach of 0: field `reach.max_attackers`;
    /// - every foe ignored: [`Error::Invalid`], field `foes`;
    /// - bad rolls: fields `lone.roll`, `group_roll.roll`, `foes[i].roll`;
    /// - overflows (e.g. field `penalty_per_extra_foe`).
    pub fn resolve(&self, rolls: &mut (impl RollSource + ?Sized)) -> Result<OutnumberedRound> {
        let max = self.reach.max_attackers();
        if max == 0 {
            return Err(Error::out_of_range("reach.max_attackers", 0, 1, u32::MAX));
        }
        let count = self.foes.len();
        if count == 0 || count > max as usize {
            return Err(Error::out_of_range("foes", count as u64, 1, max));
        }
        if self.foes.iter().all(|f| f.ignored) {
            return Err(Error::invalid(
                "foes",
                "every foe is ignored; the lone fighter must fight at least one",
            ));
        }
        // count <= max <= u32::MAX, so this fits.
        let extra = i64::try_from(count - 1).unwrap_or(i64::MAX);
        let penalty = i32::try_from(-i64::from(self.penalty_per_extra_foe) * extra).map_err(|_| {
            Error::overflow(
                "penalty_per_extra_foe",
                format!("{} x {extra}", self.penalty_per_extra_foe),
            )
        })?;
        let lone_skill = EffectiveSkill::new(self.lone.skill)
            .with(ModifierReason::ExtraFoes, penalty)
            .map_err(|e| e.in_field("lone"))?;
        let lone_result = self
            .lone
            .source
            .result(lone_skill.level, rolls)
            .map_err(|e| e.in_field("lone"))?;
        let group_roll = match self.group_roll {
            GroupRoll::Off => None,
            GroupRoll::Roll => Some(check_fudge(rolls.roll(Dice::TWO_DF)?, Dice::TWO_DF, "group_roll.roll")?),
            GroupRoll::Rolled { roll } => Some(check_fudge(roll, Dice::TWO_DF, "group_roll.roll")?),
        };
        let mut results = Vec::with_capacity(count);
        for (i, foe) in self.foes.iter().enumerate() {
            let result = match group_roll {
                Some(roll) => add(foe.skill, roll, "result"),
                None => foe.source.result(foe.skill, rolls),
            }
            .map_err(|e| e.in_field(&format!("foes[{i}]")))?;
            results.push(result);
        }
        self.compare(lone_skill, lone_result, group_roll, &results)
    }

    /// The comparisons of 4.34, once every result is known.
    fn compare(
        &self,
        lone_skill: EffectiveSkill,
        lone_result: Level,
        group_roll: Option<i32>,
        results: &[Level],
    ) -> Result<OutnumberedRound> {
        let fought = || self.foes.iter().zip(results).filter(|(f, _)| !f.ignored);
        let best = fought().map(|(_, &r)| r).max().unwrap_or(lone_result);
        let mut foes = Vec::with_capacity(results.len());
        let mut may_wound = Vec::new();
        let mut wounded_by = Vec::new();
        for (i, (foe, &result)) in self.foes.iter().zip(results).enumerate() {
            let degree = relative_degree(lone_result, result).map_err(|e| e.in_field(&format!("foes[{i}]")))?;
            let worst = i64::from(lone_result.value()) - i64::from(best.value());
            let margin = i64::from(lone_result.value()) - i64::from(result.value());
            // Ladder values are small: the differences fit (clamped anyway).
            let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            let bested = super::multiple::may_wound(clamp(worst), clamp(margin));
            let may_be_wounded = !foe.ignored && bested && lone_result >= foe.minimum_to_be_hit;
            let wound = if foe.ignored {
                // Undefended: an Unopposed action against its minimum.
                (result >= foe.minimum_to_hit)
                    .then(|| relative_degree(result, foe.minimum_to_hit))
                    .transpose()
            } else {
                (result > lone_result && result >= foe.minimum_to_hit)
                    .then(|| relative_degree(result, lone_result))
                    .transpose()
            }
            .map_err(|e| e.in_field(&format!("foes[{i}]")))?;
            if may_be_wounded {
                may_wound.push(i);
            }
            if let Some(relative_degree) = wound {
                wounded_by.push(WoundFrom {
                    foe: i,
                    relative_degree,
                });
            }
            foes.push(FoeOutcome {
                result,
                relative_degree: degree,
                ignored: foe.ignored,
                may_be_wounded,
                wounds_lone: wound.is_some(),
            });
        }
        Ok(OutnumberedRound {
            lone_skill,
            lone_result,
            group_roll,
            foes,
            may_wound,
            wounded_by,
            sweeping_blow: self.sweeping_blow,
        })
    }
}

impl OutnumberedRound {
    /// The lone fighter's blow on the one foe he chooses.
    ///
    /// # Errors
    /// As [`sweep`](Self::sweep) with one foe.
    pub fn strike(&self, foe: usize) -> Result<LoneHit> {
        let mut hits = self.sweep(&[foe])?;
        hits.pop().ok_or_else(|| Error::invalid("foe", "no blow was struck"))
    }

    /// The lone fighter's blow on each of `foes` (more than one only with a
    /// sweeping blow).
    ///
    /// # Errors
    /// [`Error::Invalid`] (field `foes`) for an empty or repeated choice,
    /// a foe he may not wound, or several foes without the sweeping-blow
    /// option; [`Error::OutOfRange`] for an index past the foes.
    pub fn sweep(&self, foes: &[usize]) -> Result<Vec<LoneHit>> {
        if foes.is_empty() {
            return Err(Error::invalid("foes", "choose at least one foe to strike"));
        }
        if foes.len() > 1 && self.sweeping_blow == SweepingBlow::Off {
            return Err(Error::invalid(
                "foes",
                "wounding more than one foe needs the sweeping-blow option",
            ));
        }
        let extra = i64::try_from(foes.len() - 1).unwrap_or(i64::MAX);
        let damage_adjustment = i64::from(self.sweeping_blow.damage_per_extra_foe())
            .checked_mul(extra)
            .and_then(|v| i32::try_from(v).ok())
            .ok_or_else(|| Error::overflow("foes", "sweeping-blow damage adjustment"))?;
        let mut hits = Vec::with_capacity(foes.len());
        for (n, &foe) in foes.iter().enumerate() {
            let Some(outcome) = self.foes.get(foe) else {
                return Err(Error::out_of_range(
                    format!("foes[{n}]"),
                    foe as u64,
                    0,
                    self.foes.len().saturating_sub(1) as u64,
                ));
            };
            if foes[..n].contains(&foe) {
                return Err(Error::invalid("foes", format!("foe {foe} is chosen twice")));
            }
            if !outcome.may_be_wounded {
                return Err(Error::invalid(
                    "foes",
                    format!(
                        "the lone fighter ({}) may not wound foe {foe} ({}) this round",
                        self.lone_result, outcome.result
                    ),
                ));
            }
            hits.push(LoneHit {
                foe,
                relative_degree: outcome.relative_degree,
                damage_adjustment,
            });
        }
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;

    fn known(levels: &[i32]) -> Vec<Foe> {
        levels
            .iter()
            .map(|&v| Foe {
                source: ResultSource::Known { result: Level::new(v) },
                ..Foe::new(Level::FAIR)
            })
            .collect()
    }

    fn lone_known(result: i32) -> LoneFighter {
        LoneFighter {
            skill: Level::FAIR,
            source: ResultSource::Known {
                result: Level::new(result),
            },
        }
    }

    #[test]
    fn reach_limits() {
        let none = Outnumbered::new(lone_known(0), vec![]);
        assert!(matches!(
            none.resolve(&mut ScriptedRolls::new([])),
            Err(Error::OutOfRange { ref field, value: 0, min: 1, max: 6 }) if field == "foes"
        ));
        let seven = Outnumbered::new(lone_known(0), known(&[0; 7]));
        assert!(matches!(
            seven.resolve(&mut ScriptedRolls::new([])),
            Err(Error::OutOfRange { ref field, value: 7, max: 6, .. }) if field == "foes"
        ));
        let six = Outnumbered::new(lone_known(0), known(&[0; 6]));
        assert!(six.resolve(&mut ScriptedRolls::new([])).is_ok());
        for (reach, max) in [
            (Reach::NeedsRoom, 4),
            (Reach::Doorway, 2),
            (Reach::Custom { max_attackers: 1 }, 1),
        ] {
            let ok = Outnumbered {
                reach,
                ..Outnumbered::new(lone_known(0), known(&vec![0; max]))
            };
            assert!(ok.resolve(&mut ScriptedRolls::new([])).is_ok());
            let too_many = Outnumbered {
                reach,
                ..Outnumbered::new(lone_known(0), known(&vec![0; max + 1]))
            };
            assert!(matches!(
                too_many.resolve(&mut ScriptedRolls::new([])),
                Err(Error::OutOfRange { ref field, .. }) if field == "foes"
            ));
        }
        let zero = Outnumbered {
            reach: Reach::Custom { max_attackers: 0 },
            ..Outnumbered::new(lone_known(0), known(&[0]))
        };
        assert!(matches!(
            zero.resolve(&mut ScriptedRolls::new([])),
            Err(Error::OutOfRange { ref field, .. }) if field == "reach.max_attackers"
        ));
    }

    #[test]
    fn must_beat_or_tie_all() {
        // Beats two, loses to one: wounds nobody, wounded by that one.
        let r = Outnumbered::new(lone_known(1), known(&[0, 2, -1]))
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert!(r.may_wound.is_empty());
        assert_eq!(
            r.wounded_by,
            vec![WoundFrom {
                foe: 1,
                relative_degree: 1
            }]
        );
        // Tying the best with nobody two below: nobody.
        let r = Outnumbered::new(lone_known(1), known(&[1, 0]))
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert!(r.may_wound.is_empty() && r.wounded_by.is_empty());
        // Beating all: any.
        let r = Outnumbered::new(lone_known(2), known(&[1, 1]))
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert_eq!(r.may_wound, vec![0, 1]);
    }

    #[test]
    fn minimums_apply_both_ways() {
        // Everyone below Poor: the lone fighter "beats" all but cannot hit;
        // foes who beat him below their minimum do not wound.
        let r = Outnumbered::new(lone_known(-3), known(&[-4, -5]))
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert!(r.may_wound.is_empty());
        let r = Outnumbered::new(lone_known(-5), known(&[-3, -4]))
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert!(r.wounded_by.is_empty());
    }

    #[test]
    fn penalty_and_rolls() {
        // Two foes, each rolling from the script after the lone fighter.
        let o = Outnumbered::new(
            LoneFighter {
                skill: Level::GREAT,
                source: ResultSource::Roll,
            },
            vec![Foe::new(Level::FAIR), Foe::new(Level::FAIR)],
        );
        let r = o.resolve(&mut ScriptedRolls::new([0, 1, -1])).unwrap();
        assert_eq!(r.lone_result, Level::GOOD);
        assert_eq!(r.foes[0].result, Level::GOOD);
        assert_eq!(r.foes[1].result, Level::MEDIOCRE);
        assert_eq!(r.may_wound, vec![1]);
        // Epic games: no penalty.
        let epic = Outnumbered {
            penalty_per_extra_foe: 0,
            ..o.clone()
        };
        assert_eq!(
            epic.resolve(&mut ScriptedRolls::new([0, 0, 0]))
                .unwrap()
                .lone_skill
                .level,
            Level::GREAT
        );
        // A rolled 2dF group roll.
        let group = Outnumbered {
            group_roll: GroupRoll::Roll,
            ..o.clone()
        };
        let r = group.resolve(&mut ScriptedRolls::new([0, -2])).unwrap();
        assert_eq!(r.group_roll, Some(-2));
        assert_eq!(r.foes[1].result, Level::POOR);
        // The script holds a 4dF value where a 2dF is asked for.
        assert!(matches!(
            group.resolve(&mut ScriptedRolls::new([0, 3])),
            Err(Error::ScriptedRollOutOfRange { .. })
        ));
        let bad = Outnumbered {
            group_roll: GroupRoll::Rolled { roll: 3 },
            ..o.clone()
        };
        assert!(matches!(
            bad.resolve(&mut ScriptedRolls::new([0])),
            Err(Error::OutOfRange { ref field, min: -2, max: 2, .. }) if field == "group_roll.roll"
        ));
        let bad_foe = Outnumbered {
            foes: vec![
                Foe::new(Level::FAIR),
                Foe {
                    source: ResultSource::Rolled { roll: -5 },
                    ..Foe::new(Level::FAIR)
                },
            ],
            ..o.clone()
        };
        assert!(matches!(
            bad_foe.resolve(&mut ScriptedRolls::new([0, 0])),
            Err(Error::OutOfRange { ref field, .. }) if field == "foes[1].roll"
        ));
        let huge = Outnumbered {
            penalty_per_extra_foe: u32::MAX,
            ..o
        };
        assert!(matches!(
            huge.resolve(&mut ScriptedRolls::new([0, 0, 0])),
            Err(Error::Overflow { .. })
        ));
    }

    #[test]
    fn ignoring_foes() {
        // A knight concentrates on foe 0 and ignores the two peasants, who
        // outroll him: he still wounds foe 0; peasants hit unopposed vs Poor.
        let mut foes = known(&[0, 2, -3]);
        foes[1].ignored = true;
        foes[2].ignored = true;
        let r = Outnumbered::new(lone_known(1), foes)
            .resolve(&mut ScriptedRolls::new([]))
            .unwrap();
        assert_eq!(r.may_wound, vec![0]);
        assert_eq!(
            r.wounded_by,
            vec![WoundFrom {
                foe: 1,
                relative_degree: 4
            }]
        );
        assert!(r.foes[1].ignored && !r.foes[1].may_be_wounded);
        assert!(matches!(r.strike(1), Err(Error::Invalid { .. })));
        let mut all = known(&[0]);
        all[0].ignored = true;
        assert!(matches!(
            Outnumbered::new(lone_known(1), all).resolve(&mut ScriptedRolls::new([])),
            Err(Error::Invalid { ref field, .. }) if field == "foes"
        ));
    }

    #[test]
    fn strikes_and_sweeps() {
        let o = Outnumbered::new(lone_known(3), known(&[0, 1, -1]));
        let r = o.resolve(&mut ScriptedRolls::new([])).unwrap();
        assert_eq!(
            r.strike(1).unwrap(),
            LoneHit {
                foe: 1,
                relative_degree: 2,
                damage_adjustment: 0
            }
        );
        assert!(matches!(r.sweep(&[0, 1]), Err(Error::Invalid { .. })));
        assert!(matches!(r.sweep(&[]), Err(Error::Invalid { .. })));
        assert!(matches!(r.strike(3), Err(Error::OutOfRange { .. })));
        let sweeping = Outnumbered {
            sweeping_blow: SweepingBlow::MinusTwoPerFoe,
            ..o
        }
        .resolve(&mut ScriptedRolls::new([]))
        .unwrap();
        let hits = sweeping.sweep(&[2, 0, 1]).unwrap();
        assert_eq!(hits.len(), 3);
        assert!(hits.iter().all(|h| h.damage_adjustment == -4));
        assert_eq!(hits[0].relative_degree, 4);
        assert!(matches!(sweeping.sweep(&[0, 0]), Err(Error::Invalid { .. })));
        assert_eq!(sweeping.strike(0).unwrap().damage_adjustment, 0);
    }
}
