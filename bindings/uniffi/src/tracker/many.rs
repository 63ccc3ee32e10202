//! Mirrors of the tracker's one-against-many round
//! (`skirmish_core::tracker::many`, FUDGE 4.34): the GM's choices, the
//! typed dice and the report. Conversion only.

use skirmish_core::tracker as core;

use super::strike::Part;
use crate::damage::WoundLevel;

/// The GM's choices for a lone fighter's round.
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct LoneFighterOptions {
    /// One 2dF for every foe (FUDGE 4.34's group roll).
    #[uniffi(default = false)]
    pub group_roll: bool,
    /// Foes he lets try his armor (not all of them).
    #[uniffi(default = [])]
    pub ignore: Vec<u32>,
    /// The foe he wounds, of those he may (several with the sweeping
    /// blow); empty: the blow that hurts most.
    #[uniffi(default = [])]
    pub strike: Vec<u32>,
    /// The GM's modifier to his result.
    #[uniffi(default = 0)]
    pub modifier: i32,
}

impl From<LoneFighterOptions> for core::LoneFighterOptions {
    fn from(o: LoneFighterOptions) -> core::LoneFighterOptions {
        core::LoneFighterOptions {
            group_roll: o.group_roll,
            ignore: o.ignore.into_iter().map(core::CombatantId).collect(),
            strike: o.strike.into_iter().map(core::CombatantId).collect(),
            modifier: o.modifier,
        }
    }
}

/// Rolls typed in from the table; a roll left out the encounter rolls.
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct LoneFighterDice {
    /// The lone fighter's 4dF.
    #[uniffi(default = None)]
    pub lone: Option<i32>,
    /// The group's 2dF (with the group roll).
    #[uniffi(default = None)]
    pub group: Option<i32>,
    /// Each foe's 4dF in order: none, or one per foe.
    #[uniffi(default = [])]
    pub foes: Vec<Option<i32>>,
}

impl From<LoneFighterDice> for core::LoneFighterDice {
    fn from(d: LoneFighterDice) -> core::LoneFighterDice {
        core::LoneFighterDice {
            lone: d.lone,
            group: d.group,
            foes: d.foes,
        }
    }
}

/// One foe's part in a lone fighter's round.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LoneFoe {
    /// The foe.
    pub foe: u32,
    /// Its roll.
    pub roll: i32,
    /// Its result against him.
    pub total: i32,
    /// Its terms.
    pub breakdown: Vec<Part>,
    /// His result against it (the Difficulty Level if ignored).
    pub lone_total: i32,
    /// His relative degree over it.
    pub margin: i32,
    /// He ignored it.
    pub ignored: bool,
    /// He may wound it (FUDGE 4.34's rule).
    pub may_be_wounded: bool,
    /// It wounded him.
    pub hit: bool,
    /// The damage it did him.
    pub damage_to_lone: i32,
    /// The damage his blow did it, if he struck it.
    pub damage: Option<i32>,
    /// Its worst wound after the round (wound track).
    pub wound: Option<WoundLevel>,
    /// Its hit points after the round (hit points).
    pub hit_points: Option<i32>,
    /// His blow took it out of the fight.
    pub went_down: bool,
}

/// What a lone fighter's round did.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LoneFighterReport {
    /// The lone fighter.
    pub lone: u32,
    /// His one roll.
    pub lone_roll: i32,
    /// The group's 2dF, if the GM rolled once for all.
    pub group_roll: Option<i32>,
    /// His result before each foe's own modifiers.
    pub lone_result: i32,
    /// Its terms.
    pub lone_breakdown: Vec<Part>,
    /// Each foe, in order.
    pub foes: Vec<LoneFoe>,
    /// His worst wound after the round (wound track).
    pub wound: Option<WoundLevel>,
    /// His hit points after the round (hit points).
    pub hit_points: Option<i32>,
    /// The foes' blows took him out of the fight.
    pub went_down: bool,
    /// The log line.
    pub text: String,
}

impl From<core::LoneFighterReport> for LoneFighterReport {
    fn from(r: core::LoneFighterReport) -> LoneFighterReport {
        LoneFighterReport {
            lone: r.lone.0,
            lone_roll: r.lone_roll,
            group_roll: r.group_roll,
            lone_result: r.lone_result,
            lone_breakdown: r.lone_breakdown.into_iter().map(Into::into).collect(),
            foes: r
                .foes
                .into_iter()
                .map(|f| LoneFoe {
                    foe: f.foe.0,
                    roll: f.roll,
                    total: f.total,
                    breakdown: f.breakdown.into_iter().map(Into::into).collect(),
                    lone_total: f.lone_total,
                    margin: f.margin,
                    ignored: f.ignored,
                    may_be_wounded: f.may_be_wounded,
                    hit: f.hit,
                    damage_to_lone: f.damage_to_lone,
                    damage: f.damage,
                    wound: f.wound.map(Into::into),
                    hit_points: f.hit_points,
                    went_down: f.went_down,
                })
                .collect(),
            wound: r.wound.map(Into::into),
            hit_points: r.hit_points,
            went_down: r.went_down,
            text: r.text,
        }
    }
}

/// A story element (FUDGE 4.21): a combatant's roll of its skill with the
/// GM's modifier, once or the median of three.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct StoryReport {
    /// Who rolled.
    pub combatant: u32,
    /// The skill with the GM's modifier (a ladder value).
    pub skill: i32,
    /// Every result, in the order rolled.
    pub results: Vec<i32>,
    /// The result that counts: the only one, or the median.
    pub result: i32,
    /// The log line.
    pub text: String,
}

impl From<core::StoryReport> for StoryReport {
    fn from(r: core::StoryReport) -> StoryReport {
        StoryReport {
            combatant: r.combatant.0,
            skill: r.skill,
            results: r.results,
            result: r.result,
            text: r.text,
        }
    }
}

/// A scouting roll (FUDGE 4.31): the scout's Perception or Tactics against
/// Fair; on a success the foe is at -1 next.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ScoutReport {
    /// Who scouted.
    pub scout: u32,
    /// The foe it scouted.
    pub foe: u32,
    /// Its Perception or Tactics with its wound penalty (a ladder value).
    pub level: i32,
    /// The 4dF (0 for an NPC whose result is its trait level).
    pub roll: i32,
    /// The result: level + roll.
    pub result: i32,
    /// What it had to make: Fair (0).
    pub difficulty: i32,
    /// It made it: the foe is scouted.
    pub scouts: bool,
    /// The log line.
    pub text: String,
}

impl From<core::ScoutReport> for ScoutReport {
    fn from(r: core::ScoutReport) -> ScoutReport {
        ScoutReport {
            scout: r.scout.0,
            foe: r.foe.0,
            level: r.level,
            roll: r.roll,
            result: r.result,
            difficulty: r.difficulty,
            scouts: r.scouts,
            text: r.text,
        }
    }
}

/// What a FUDGE shot did (4.4).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ShotReport {
    /// Who shot.
    pub shooter: u32,
    /// At whom.
    pub target: u32,
    /// The shooter's result.
    pub result: i32,
    /// The target's dodge result, when it dodged.
    pub dodge: Option<i32>,
    /// The Difficulty Level.
    pub difficulty: i32,
    /// The result over the dodge, or over the Difficulty Level.
    pub relative_degree: i32,
    /// Whether it hit.
    pub hit: bool,
    /// The damage it did (0 if it missed).
    pub damage: i32,
    /// The target's worst wound after it (wound track).
    pub wound: Option<WoundLevel>,
    /// The target's hit points after it (hit points).
    pub hit_points: Option<i32>,
    /// It took the target out of the fight.
    pub went_down: bool,
    /// The log line.
    pub text: String,
}

impl From<core::ShotReport> for ShotReport {
    fn from(r: core::ShotReport) -> ShotReport {
        ShotReport {
            shooter: r.shooter.0,
            target: r.target.0,
            result: r.result,
            dodge: r.dodge,
            difficulty: r.difficulty,
            relative_degree: r.relative_degree,
            hit: r.hit,
            damage: r.damage,
            wound: r.wound.map(Into::into),
            hit_points: r.hit_points,
            went_down: r.went_down,
            text: r.text,
        }
    }
}

/// A FUDGE shot's options (4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct ShotOptions {
    /// The GM's Difficulty Level (a ladder value; Fair, 0, by default).
    #[uniffi(default = 0)]
    pub difficulty: i32,
    /// The target is unaware: no dodge.
    #[uniffi(default = false)]
    pub unaware: bool,
    /// The target's dodge trait (`null`: its combat skill).
    #[uniffi(default = None)]
    pub dodge_skill: Option<i32>,
    /// A propelled missile's penalty to the dodge, 2 or 3 (`null`: thrown).
    #[uniffi(default = None)]
    pub propelled: Option<i32>,
}

impl From<ShotOptions> for core::ShotOptions {
    fn from(o: ShotOptions) -> core::ShotOptions {
        use skirmish_core::striking::opposed::Missile;
        core::ShotOptions {
            difficulty: o.difficulty,
            defense: if o.unaware {
                core::ShotDefense::Unaware
            } else {
                core::ShotDefense::Dodge
            },
            dodge_skill: o.dodge_skill,
            missile: o
                .propelled
                .map_or(Missile::Thrown, |dodge_penalty| Missile::Propelled { dodge_penalty }),
        }
    }
}
