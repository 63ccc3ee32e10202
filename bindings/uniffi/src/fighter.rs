//! Mirrors of [`skirmish_core::fighter`]: a fighter's profile as the app
//! types it (every default the rules have), the numbers the rules resolved
//! from it, and the striking rules. Conversion only.

use skirmish_core::Error as CoreError;
use skirmish_core::fighter as core;
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::opposed::Stance as CoreStance;

use crate::striking::ParryPolicy;
use crate::tactics::{Aim, Position, PostureChoice, Shield, SweepingBlow};
use crate::timing::{ActorTiming, Declaration, Defending, RateOfFire};

/// Options of Full Contact striking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct FullContactRules {
    /// Guaranteed success (+4 hits) and fumble (-4 misses).
    #[uniffi(default = false)]
    pub guaranteed: bool,
    /// Amazing strikes and defenses.
    #[uniffi(default = false)]
    pub amazing: bool,
    /// Extra damage an amazing strike does (0: none) under the flat rule.
    #[uniffi(default = 0)]
    pub amazing_strike_damage: i32,
    /// What an amazing strike does (docs/rules.md §2.1.8): `null`, the
    /// default, is `FLAT` (the damage plus `amazing_strike_damage`).
    /// (UniFFI's defaults are literals, so the enum's default is spelt
    /// `null`.)
    #[uniffi(default = None)]
    pub amazing_strike: Option<AmazingStrikeRule>,
    /// What an amazing defense does to the attacker (docs/rules.md
    /// §2.1.8): `null`, the default, is nothing; a disarm or a knock-down
    /// (the tracker keeps it until the attacker's next action).
    #[uniffi(default = None)]
    pub amazing_defense: Option<AmazingDefenseRule>,
    /// A knocked-down attacker's Defense Rating penalty until its next
    /// action (0..=1000).
    #[uniffi(default = 2)]
    pub knock_down_penalty: i32,
}

impl From<FullContactRules> for core::FullContactRules {
    fn from(r: FullContactRules) -> core::FullContactRules {
        core::FullContactRules {
            amazing_strike: r.amazing_strike.map_or(core::AmazingStrikeRule::Flat, Into::into),
            amazing_defense: r.amazing_defense.map_or(core::AmazingDefenseRule::None, Into::into),
            knock_down_penalty: r.knock_down_penalty,
            ..core::FullContactRules::with(r.guaranteed, r.amazing, r.amazing_strike_damage)
        }
    }
}

impl From<core::FullContactRules> for FullContactRules {
    fn from(r: core::FullContactRules) -> FullContactRules {
        FullContactRules {
            guaranteed: r.guaranteed,
            amazing: r.amazing,
            amazing_strike_damage: r.amazing_strike_damage,
            amazing_strike: Some(r.amazing_strike.into()),
            amazing_defense: match r.amazing_defense {
                core::AmazingDefenseRule::None => None,
                core::AmazingDefenseRule::Disarm => Some(AmazingDefenseRule::Disarm),
                core::AmazingDefenseRule::KnockDown => Some(AmazingDefenseRule::KnockDown),
            },
            knock_down_penalty: r.knock_down_penalty,
        }
    }
}

/// What an amazing strike does (docs/rules.md §2.1.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum AmazingStrikeRule {
    /// The blow's damage plus `amazing_strike_damage`.
    Flat,
    /// Double the blow's damage.
    DoubleDamage,
}

impl From<AmazingStrikeRule> for core::AmazingStrikeRule {
    fn from(r: AmazingStrikeRule) -> core::AmazingStrikeRule {
        match r {
            AmazingStrikeRule::Flat => core::AmazingStrikeRule::Flat,
            AmazingStrikeRule::DoubleDamage => core::AmazingStrikeRule::DoubleDamage,
        }
    }
}

impl From<core::AmazingStrikeRule> for AmazingStrikeRule {
    fn from(r: core::AmazingStrikeRule) -> AmazingStrikeRule {
        match r {
            core::AmazingStrikeRule::Flat => AmazingStrikeRule::Flat,
            core::AmazingStrikeRule::DoubleDamage => AmazingStrikeRule::DoubleDamage,
        }
    }
}

/// What an amazing defense does to the attacker (docs/rules.md §2.1.8);
/// nothing is `null` where a record takes one (a `NONE` would read as
/// Swift's `.none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum AmazingDefenseRule {
    /// Disarmed: its next action is lost.
    Disarm,
    /// Knocked down: `knock_down_penalty` off its Defense Rating until its
    /// next action.
    KnockDown,
}

impl From<AmazingDefenseRule> for core::AmazingDefenseRule {
    fn from(r: AmazingDefenseRule) -> core::AmazingDefenseRule {
        match r {
            AmazingDefenseRule::Disarm => core::AmazingDefenseRule::Disarm,
            AmazingDefenseRule::KnockDown => core::AmazingDefenseRule::KnockDown,
        }
    }
}

/// Options of FUDGE opposed striking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct FudgeRules {
    /// The minimum rolled result to hit, as a ladder number (Poor, -2, by default).
    #[uniffi(default = -2)]
    pub minimum_to_hit: i32,
    /// The lone fighter's penalty per attacker beyond the first (FUDGE
    /// 4.34: 1; 0 turns it off; at most 10).
    #[uniffi(default = 1)]
    pub multi_foe_penalty: u32,
    /// The GM's one 2dF for each side's fighters at a moment (FUDGE 4.34).
    #[uniffi(default = false)]
    pub group_roll: bool,
    /// Who an opposed roll can hurt: both, the winner hurting the loser
    /// (FUDGE 4.22; `null`, the default, is `TWO_WAY`), or only the
    /// striker. (UniFFI's defaults are literals, so the enum's default is
    /// spelt `null`.)
    #[uniffi(default = None)]
    pub exchange: Option<ExchangeRule>,
    /// FUDGE 4.34's lone fighter in battles: a fighter in exchanges with
    /// two or more foes at one moment rolls once against them all and
    /// wounds only by beating or tying every one.
    #[uniffi(default = true)]
    pub lone_fighter: bool,
    /// FUDGE 4.34's optional sweeping blow (`null`: off).
    #[uniffi(default = None)]
    pub sweeping_blow: Option<SweepingBlow>,
}

/// Who a FUDGE opposed roll can hurt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ExchangeRule {
    /// FUDGE 4.22: the winner of the roll hurts the loser.
    TwoWay,
    /// Only the striker can hurt.
    OneWay,
}

impl From<ExchangeRule> for core::ExchangeRule {
    fn from(e: ExchangeRule) -> core::ExchangeRule {
        match e {
            ExchangeRule::TwoWay => core::ExchangeRule::TwoWay,
            ExchangeRule::OneWay => core::ExchangeRule::OneWay,
        }
    }
}

impl From<core::ExchangeRule> for ExchangeRule {
    fn from(e: core::ExchangeRule) -> ExchangeRule {
        match e {
            core::ExchangeRule::TwoWay => ExchangeRule::TwoWay,
            core::ExchangeRule::OneWay => ExchangeRule::OneWay,
        }
    }
}

impl From<FudgeRules> for core::FudgeRules {
    fn from(r: FudgeRules) -> core::FudgeRules {
        core::FudgeRules {
            minimum_to_hit: Level::new(r.minimum_to_hit),
            multi_foe_penalty: r.multi_foe_penalty,
            group_roll: r.group_roll,
            exchange: r.exchange.map_or(core::ExchangeRule::TwoWay, Into::into),
            lone_fighter: r.lone_fighter,
            sweeping_blow: r
                .sweeping_blow
                .map_or(skirmish_core::striking::opposed::SweepingBlow::Off, Into::into),
        }
    }
}

impl From<core::FudgeRules> for FudgeRules {
    fn from(r: core::FudgeRules) -> FudgeRules {
        FudgeRules {
            minimum_to_hit: r.minimum_to_hit.value(),
            multi_foe_penalty: r.multi_foe_penalty,
            group_roll: r.group_roll,
            exchange: Some(r.exchange.into()),
            lone_fighter: r.lone_fighter,
            sweeping_blow: Some(r.sweeping_blow.into()),
        }
    }
}

/// The striking system and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Striking {
    /// Full Contact: SR + 4dF against DR.
    FullContact {
        /// Its options.
        rules: FullContactRules,
    },
    /// FUDGE opposed rolls: skill + 4dF against the defender's skill + 4dF.
    FudgeOpposed {
        /// Its options.
        rules: FudgeRules,
    },
}

impl From<Striking> for core::Striking {
    fn from(s: Striking) -> core::Striking {
        match s {
            Striking::FullContact { rules } => core::Striking::FullContact(rules.into()),
            Striking::FudgeOpposed { rules } => core::Striking::FudgeOpposed(rules.into()),
        }
    }
}

impl From<core::Striking> for Striking {
    fn from(s: core::Striking) -> Striking {
        match s {
            core::Striking::FullContact(rules) => Striking::FullContact { rules: rules.into() },
            core::Striking::FudgeOpposed(rules) => Striking::FudgeOpposed { rules: rules.into() },
        }
    }
}

/// A weapon given by its numbers.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CustomWeapon {
    /// A label.
    #[uniffi(default = "")]
    pub name: String,
    /// Time Taken.
    pub time_taken: i32,
    /// Rate of fire (default 1/1).
    #[uniffi(default)]
    pub rate_of_fire: RateOfFire,
}

/// A weapon: a row of the weapon tables by name, or custom numbers.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum WeaponChoice {
    /// A row of the tables ("Dagger", "heavy crossbow").
    Named {
        /// The row's name.
        name: String,
    },
    /// Custom Time Taken and Rate of Fire.
    Custom {
        /// The numbers.
        weapon: CustomWeapon,
    },
}

impl TryFrom<WeaponChoice> for core::WeaponChoice {
    type Error = CoreError;
    fn try_from(w: WeaponChoice) -> Result<core::WeaponChoice, CoreError> {
        Ok(match w {
            WeaponChoice::Named { name } => core::WeaponChoice::Named(name),
            WeaponChoice::Custom { weapon } => core::WeaponChoice::Custom(core::CustomWeapon {
                name: weapon.name,
                time_taken: weapon.time_taken,
                rate_of_fire: weapon
                    .rate_of_fire
                    .try_into()
                    .map_err(|e: CoreError| e.in_field("weapon"))?,
            }),
        })
    }
}

/// A fighter, or a group of identical fighters, as `add_fighter` takes it
/// (the same profile a scenario's group is). Every field but `name` has the
/// rules' default: SR 5, DR 3, skill Fair, count 1, no weapon (Time Taken
/// 3), no armor.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct FighterProfile {
    /// Its name.
    pub name: String,
    /// How many (a group of this many; 1: one combatant).
    #[uniffi(default = 1)]
    pub count: u64,
    /// Full Contact Strike Rating.
    #[uniffi(default = 5)]
    pub strike_rating: i32,
    /// Full Contact Defense Rating, without the armor named in `armor`.
    #[uniffi(default = 3)]
    pub defense_rating: i32,
    /// FUDGE combat skill by name, plus-levels allowed ("Fair", "Good+").
    #[uniffi(default = "Fair")]
    pub skill: String,
    /// The weapon (none: Time Taken 3, 1/1, unnamed).
    #[uniffi(default = None)]
    pub weapon: Option<WeaponChoice>,
    /// Armor from the table, by name.
    #[uniffi(default = None)]
    pub armor: Option<String>,
    /// Speed bonus.
    #[uniffi(default = 0)]
    pub speed_bonus: i32,
    /// Extra attacks per round from gear (Simple and Graduated Rounds).
    #[uniffi(default = 0)]
    pub extra_attacks: u32,
    /// Whether its actions are disruptible (spellcasters).
    #[uniffi(default = false)]
    pub disruptible: bool,
    /// Offensive damage factor.
    #[uniffi(default = 0)]
    pub offense: i32,
    /// Defensive damage factor besides armor.
    #[uniffi(default = 0)]
    pub toughness: i32,
    /// Hit points, overriding the damage model's `max_hp`.
    #[uniffi(default = None)]
    pub hit_points: Option<i32>,
    /// Tick System: initiative bonus.
    #[uniffi(default = 0)]
    pub initiative_bonus: i32,
    /// Tick System: interval.
    #[uniffi(default = 0)]
    pub interval: u32,
    /// FUZION REF.
    #[uniffi(default = 0)]
    pub reflexes: i32,
    /// FUZION Combat Sense.
    #[uniffi(default = 0)]
    pub combat_sense: i32,
    /// FUDGE 4.31's stance (`null`, the default, is `NORMAL`; UniFFI's
    /// defaults are literals).
    #[uniffi(default = None)]
    pub stance: Option<Stance>,
    /// FUDGE 4.31's shield, if any.
    #[uniffi(default = None)]
    pub shield: Option<Shield>,
    /// FUDGE 4.31: aiming at a small part (`null`: anywhere).
    #[uniffi(default = None)]
    pub aim: Option<Aim>,
    /// FUDGE 4.31: a worse position (`null`: even).
    #[uniffi(default = None)]
    pub position: Option<Position>,
    /// FUDGE Scale (0 human-sized; -100..=100): both damage factors, and
    /// the minimum result to hit a foe of another Scale.
    #[uniffi(default = 0)]
    pub scale: i32,
    /// FUDGE 4.33: an NPC whose result is always its trait level (no roll).
    #[uniffi(default = false)]
    pub npc_result: bool,
    /// FUDGE 4.32's posture, or a mixed strategy drawn each exchange
    /// (`null`: normal); not with a stance.
    #[uniffi(default = None)]
    pub posture: Option<PostureChoice>,
    /// FUDGE 4.34: beset by several foes at once, fights one and lets the
    /// others try its armor unopposed (battles).
    #[uniffi(default = false)]
    pub concentrate: bool,
    /// Full Contact: when it parries a blow that would land, in battles
    /// and odds from here (`null`: never); at the table the GM asks for a
    /// parry per strike.
    #[uniffi(default = None)]
    pub parry: Option<ParryPolicy>,
    /// Tick System: the ticks its action takes (`null`: the system's).
    #[uniffi(default = None)]
    pub action_ticks: Option<u32>,
    /// Tick System: whether its defenses take time (`null`: `UNTIMED`).
    #[uniffi(default = None)]
    pub defend: Option<Defending>,
    /// Tick System: Prepare at each turn instead of attacking.
    #[uniffi(default = false)]
    pub prepare: bool,
    /// FUDGE 4.31: its Perception or Tactics trait, a ladder name, if it
    /// scouts (`null`: none): at the table `Encounter.scout` rolls it.
    #[uniffi(default = None)]
    pub scouting: Option<String>,
}

/// FUDGE 4.31's all-out stances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Stance {
    /// An ordinary round.
    Normal,
    /// +1 skill and +1 damage if it wins; a tie or a loss gives the foe the
    /// win and +2 damage.
    AllOutOffense,
    /// +2 skill; cannot harm the foe.
    AllOutDefense,
}

impl From<Stance> for CoreStance {
    fn from(s: Stance) -> CoreStance {
        match s {
            Stance::Normal => CoreStance::Normal,
            Stance::AllOutOffense => CoreStance::AllOutOffense,
            Stance::AllOutDefense => CoreStance::AllOutDefense,
        }
    }
}

impl From<CoreStance> for Stance {
    fn from(s: CoreStance) -> Stance {
        match s {
            CoreStance::Normal => Stance::Normal,
            CoreStance::AllOutOffense => Stance::AllOutOffense,
            CoreStance::AllOutDefense => Stance::AllOutDefense,
        }
    }
}

impl TryFrom<FighterProfile> for core::FighterProfile {
    type Error = CoreError;
    fn try_from(p: FighterProfile) -> Result<core::FighterProfile, CoreError> {
        Ok(core::FighterProfile {
            skill: p.skill.parse::<CombatLevel>().map_err(|e| e.in_field("skill"))?,
            weapon: p.weapon.map(TryInto::try_into).transpose()?,
            name: p.name,
            count: p.count,
            strike_rating: p.strike_rating,
            defense_rating: p.defense_rating,
            armor: p.armor,
            speed_bonus: p.speed_bonus,
            extra_attacks: p.extra_attacks,
            disruptible: p.disruptible,
            offense: p.offense,
            toughness: p.toughness,
            hit_points: p.hit_points,
            initiative_bonus: p.initiative_bonus,
            interval: p.interval,
            reflexes: p.reflexes,
            combat_sense: p.combat_sense,
            stance: p.stance.map_or(CoreStance::Normal, Into::into),
            shield: p.shield.map(Into::into),
            aim: p.aim.map(Into::into).unwrap_or_default(),
            position: p.position.map(Into::into).unwrap_or_default(),
            scale: p.scale,
            npc_result: p.npc_result,
            posture: p
                .posture
                .map(TryInto::try_into)
                .transpose()
                .map_err(|e: CoreError| e.in_field("profile"))?
                .unwrap_or_default(),
            concentrate: p.concentrate,
            parry: p.parry.map(Into::into).unwrap_or_default(),
            action_ticks: p.action_ticks,
            defend: p.defend.map(Into::into).unwrap_or_default(),
            prepare: p.prepare,
            scouting: p
                .scouting
                .map(|s| s.parse::<Level>())
                .transpose()
                .map_err(|e| e.in_field("scouting"))?,
            // A battle's fields (distance, surprise, shots): the tracker
            // reads none of them, so they keep the core's defaults.
            ..core::FighterProfile::new(String::new())
        })
    }
}

/// A fighter ready to fight: the numbers the rules resolved from its profile.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct Fighter {
    /// Its name.
    pub name: String,
    /// Its weapon's name ("weapon" when none or unnamed).
    pub weapon: String,
    /// Its action: the weapon's Time Taken and Rate of Fire and the rest.
    pub action: Declaration,
    /// Its timing traits (Tick System, FUZION).
    pub timing: ActorTiming,
    /// Full Contact Strike Rating.
    pub strike_rating: i32,
    /// Full Contact Defense Rating, armor included under Full Contact.
    pub defense_rating: i32,
    /// The armor's Defense Rating bonus (0 without armor).
    pub armor_bonus: i32,
    /// FUDGE combat skill ("Fair", "Good+").
    pub skill: String,
    /// Offensive damage factor.
    pub offense: i32,
    /// Defensive damage factor.
    pub defense_factor: i32,
    /// Hit points, overriding the damage model's `max_hp`.
    pub hit_points: Option<i32>,
    /// Whether its actions are disruptible.
    pub disruptible: bool,
    /// FUDGE 4.31's stance.
    pub stance: Stance,
    /// FUDGE 4.31's shield, if any.
    pub shield: Option<Shield>,
    /// FUDGE 4.31: aiming at a small part.
    pub aim: Aim,
    /// FUDGE 4.31: a worse position.
    pub position: Position,
    /// FUDGE Scale (0 under Full Contact), counted in both damage factors.
    pub scale: i32,
    /// FUDGE 4.33: the result is always the trait level.
    pub npc_result: bool,
    /// FUDGE 4.32's posture, or its mixed strategy.
    pub posture: PostureChoice,
    /// FUDGE 4.34: beset, fights one foe and ignores the others (battles).
    pub concentrate: bool,
    /// Full Contact: when it parries a blow that would land (battles).
    pub parry: ParryPolicy,
    /// Tick System: whether its defenses take time.
    pub defend: Defending,
    /// FUDGE 4.31: its Perception or Tactics trait (a ladder name), if it
    /// scouts.
    pub scouting: Option<String>,
}

impl From<core::Fighter> for Fighter {
    fn from(f: core::Fighter) -> Fighter {
        Fighter {
            name: f.name,
            weapon: f.weapon,
            action: f.action.into(),
            timing: f.timing.into(),
            strike_rating: f.strike_rating,
            defense_rating: f.defense_rating,
            armor_bonus: f.armor_bonus,
            skill: f.skill.to_string(),
            offense: f.offense,
            defense_factor: f.defense_factor,
            hit_points: f.hit_points,
            disruptible: f.disruptible,
            stance: f.stance.into(),
            shield: f.shield.map(Into::into),
            aim: f.aim.into(),
            position: f.position.into(),
            scale: f.scale,
            npc_result: f.npc_result,
            posture: f.posture.into(),
            concentrate: f.concentrate,
            parry: f.parry.into(),
            defend: f.defend.into(),
            scouting: f.scouting.map(|l| l.to_string()),
        }
    }
}
