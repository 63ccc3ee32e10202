//! The fighter: one profile for a scenario's group and a tracker's
//! combatant, and the striking rules a battle or an encounter is fought by.
//!
//! A [`FighterProfile`] is what a GM writes down for a fighter: its weapon
//! (by table name or Time Taken), its Full Contact ratings (SR, DR, armor
//! by table name), its FUDGE skill and damage factors, its hit points and
//! its timing traits. [`FighterProfile::resolve`] looks the names up once
//! and gives a [`Fighter`], the plain numbers the rules use; the battle
//! engine (`skirmish-sim`) and the live tracker ([`crate::tracker`]) both
//! fight with it, through the same blow arithmetic ([`crate::combat`]).
//!
//! ```
//! use skirmish_core::fighter::{FighterProfile, Striking, WeaponChoice};
//! use skirmish_core::timing::TimingSystem;
//!
//! let mut cardiff = FighterProfile::new("Cardiff");
//! cardiff.strike_rating = 9;
//! cardiff.defense_rating = 2;
//! cardiff.armor = Some("plate".into());
//! cardiff.weapon = Some(WeaponChoice::Named("Sword, Two-Handed".into()));
//! let f = cardiff.resolve(&TimingSystem::continuous(), &Striking::default())?;
//! // Armor counts in the Defense Rating under Full Contact.
//! assert_eq!((f.strike_rating, f.defense_rating), (9, 6));
//! assert_eq!(f.weapon, "Sword, Two-Handed");
//! # Ok::<(), skirmish_core::Error>(())
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use crate::distance::Plan;
use crate::error::Error;
use crate::ladder::{CombatLevel, Level};
use crate::striking::full_contact::{ParryPolicy, WeaponRange};
use crate::striking::opposed::{Aim, MeleeModifiers, Missile, Position, PostureChoice, Shield, Stance};
use crate::tables::weapons::RateOfFire;
use crate::tables::{armor, weapons};
use crate::timing::tick_system::Defending;
use crate::timing::{ActionKind, ActorTiming, Declaration, TimingSystem};

mod rules;

pub use rules::{
    AmazingDefenseRule, AmazingStrikeRule, ExchangeRule, FudgeRules, FullContactRules, KNOCK_DOWN_PENALTY,
    MULTI_FOE_PENALTY_LIMIT, Striking,
};

/// A weapon: a row of the weapon tables by name, or custom numbers.
///
/// In a file: `weapon = "Dagger"` or `weapon = { time_taken = 0, name =
/// "Spark" }`. (Read by hand rather than as an untagged enum, so a wrong
/// key inside the table is reported as such.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum WeaponChoice {
    /// A row of the tables, by name ("Dagger", "heavy crossbow").
    Named(String),
    /// Custom Time Taken and Rate of Fire.
    Custom(CustomWeapon),
}

impl<'de> Deserialize<'de> for WeaponChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WeaponChoice;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a weapon name from the tables or a table { time_taken, rate_of_fire, name }")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<WeaponChoice, E> {
                Ok(WeaponChoice::Named(s.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<WeaponChoice, A::Error> {
                CustomWeapon::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(WeaponChoice::Custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A weapon given by its numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomWeapon {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// Time Taken.
    pub time_taken: i32,
    /// Rate of fire (default 1/1).
    #[serde(default = "one_per_round")]
    pub rate_of_fire: RateOfFire,
}

fn one_per_round() -> RateOfFire {
    RateOfFire::ONE
}

/// A fighter, or a group of identical fighters: what a scenario file's
/// group and a tracker's combatant both are (one type, so a scenario's
/// fighter and a tracker's combatant are the same thing).
///
/// Every field but `name` has a default, so a profile is as short as the
/// rules it needs: timing only (`weapon`), Full Contact (`strike_rating`,
/// `defense_rating`, `armor`) or FUDGE opposed (`skill`, `offense`,
/// `toughness`). See [`validate`](Self::validate) for the bounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterProfile {
    /// Its name (a scenario's groups: unique within the side).
    pub name: String,
    /// How many (mass battles: thousands; the tracker: a group of this many).
    #[serde(default = "one")]
    pub count: u64,
    /// Full Contact Strike Rating (default 5).
    #[serde(default = "five")]
    pub strike_rating: i32,
    /// Full Contact Defense Rating, without the armor named in `armor`
    /// (default 3).
    #[serde(default = "three")]
    pub defense_rating: i32,
    /// FUDGE combat skill, plus-levels allowed (default Fair).
    #[serde(default)]
    pub skill: CombatLevel,
    /// The weapon (default: TT 3, RoF 1/1, unnamed).
    #[serde(default)]
    pub weapon: Option<WeaponChoice>,
    /// Armor from the table: its DR bonus adds to the Defense Rating in
    /// Full Contact, and to the defensive damage factor under FUDGE striking.
    #[serde(default)]
    pub armor: Option<String>,
    /// Speed bonus (half-values of the relevant traits).
    #[serde(default)]
    pub speed_bonus: i32,
    /// Extra attacks per round from gear (Simple and Graduated Rounds).
    #[serde(default)]
    pub extra_attacks: u32,
    /// Whether its actions are disruptible (spellcasters).
    #[serde(default)]
    pub disruptible: bool,
    /// Offensive damage factor (Strength, weapon deadliness, Scale).
    #[serde(default)]
    pub offense: i32,
    /// Defensive damage factor besides armor (Scale, Damage Capacity).
    #[serde(default)]
    pub toughness: i32,
    /// Hit points, overriding the damage model's `max_hp`.
    #[serde(default)]
    pub hit_points: Option<i32>,
    /// Tick System: initiative bonus.
    #[serde(default)]
    pub initiative_bonus: i32,
    /// Tick System: interval.
    #[serde(default)]
    pub interval: u32,
    /// FUZION REF.
    #[serde(default)]
    pub reflexes: i32,
    /// FUZION Combat Sense: levels of the skill, 0 (none) or more.
    #[serde(default)]
    pub combat_sense: i32,
    /// FUDGE 4.31's stance: normal, all-out offense (+1 skill, +1 damage
    /// when it wins; a tie or a loss gives the foe the win and +2 damage)
    /// or all-out defense (+2 skill, cannot harm). Read by FUDGE opposed
    /// striking only.
    #[serde(default)]
    pub stance: Stance,
    /// FUDGE 4.31's shield: `"small"` (+1 in melee), `"medium"` (+1, and
    /// against missiles), `"large"` (+2; -2 to its carrier outside a
    /// shield wall), or a table `{ size, trained = true, in_shield_wall =
    /// false }`. Its value comes off the foe's result. FUDGE striking only.
    #[serde(default)]
    pub shield: Option<Shield>,
    /// FUDGE 4.31: aiming at a small part, -1 and a result of at least
    /// Good to hit. FUDGE striking only.
    #[serde(default)]
    pub aim: Aim,
    /// FUDGE 4.31: a worse position (-1) or a much worse one (-2). FUDGE
    /// striking only.
    #[serde(default)]
    pub position: Position,
    /// FUDGE Scale (0 human-sized), within ±[`SCALE_LIMIT`]: added to the
    /// offensive and the defensive damage factor, and the minimum result
    /// to hit a foe of another Scale follows the difference (FUDGE 4.22;
    /// docs/rules.md §2.2.3). FUDGE striking only.
    #[serde(default)]
    pub scale: i32,
    /// FUDGE 4.33, PCs vs NPCs: these fighters never roll; their result is
    /// always their trait level. FUDGE striking only.
    #[serde(default)]
    pub npc_result: bool,
    /// FUDGE 4.32's posture: the offense modifier (-2..=2; the defense
    /// gets its opposite), or a mixed strategy drawn each exchange
    /// ([`PostureChoice`]). Postures replace the all-out stances: not with
    /// a `stance`. FUDGE striking only.
    #[serde(default)]
    pub posture: PostureChoice,
    /// FUDGE 4.34's well-armored fighter: beset by several foes at once,
    /// he fights one (the foe he strikes, else the first to strike him)
    /// and lets the others try his armor unopposed: in battles under FUDGE
    /// striking with the lone-fighter rule, and at the table in
    /// `Encounter::lone_fighter` (docs/rules.md §2.2.6).
    #[serde(default)]
    pub concentrate: bool,
    /// A ranged weapon's Short range and Range Strength (Full Contact), in
    /// feet: `{ short_range = 150, range_strength = 50 }`. Battles with a
    /// distance only (docs/rules.md §5.1); none: a melee weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<WeaponRange>,
    /// How far its melee weapon reaches, in feet (ours; default
    /// [`DEFAULT_MELEE_REACH`](crate::distance::DEFAULT_MELEE_REACH)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee_reach: Option<i64>,
    /// Feet one move action covers (ours; default
    /// [`DEFAULT_MOVE`](crate::distance::DEFAULT_MOVE)).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_distance: Option<i64>,
    /// What it does with no foe in reach (default: `hold` with a ranged
    /// weapon, `close` with a melee one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
    /// `keep_distance`: it steps back while a foe is this near, in feet
    /// (default twice its move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_at: Option<i64>,
    /// Surprise: it defends unaware for its side's first this many ticks
    /// (Continuous, the Tick System) or rounds (the other systems) of a
    /// battle (0: aware from the start).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub unaware_for: u32,
    /// FUDGE 4.31's scouting, in battles and at the table
    /// ([`Encounter::scout`](crate::tracker::Encounter::scout)): its Perception or Tactics trait
    /// (a ladder level). With it, a fighter in all-out defense who comes
    /// out of an exchange unhit rolls it (4dF) against Fair; on a success
    /// its foe is at -1 in their exchanges of the next round (round
    /// systems) or in their next exchange (the others; docs/rules.md
    /// §2.2.3). None (the default): no scouting. FUDGE striking only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scouting: Option<Level>,
    /// FUDGE 4.4: what its `range` weapon shoots, in a battle with a
    /// distance under FUDGE striking: `{ kind = "thrown" }` (no modifier
    /// to the target's dodge) or `{ kind = "propelled", dodge_penalty = 2 }`
    /// (2 or 3 off the dodge). Default
    /// [`DEFAULT_MISSILE`](crate::distance::DEFAULT_MISSILE): propelled, -2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missile: Option<Missile>,
    /// FUDGE 4.4: the trait it dodges missiles with ("a Dodge skill, or
    /// Agility attribute, or something similar"), a ladder level within
    /// ±[`RATING_LIMIT`]; default: its combat skill. Battles with a
    /// distance under FUDGE striking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dodge: Option<Level>,
    /// FUDGE 4.4: levels its cover, concealment and poor light add to the
    /// Difficulty Level of every shot at it (ours as a number, within
    /// ±[`RATING_LIMIT`]; default 0: in the open, in good light). Battles
    /// with a distance under FUDGE striking.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub cover: i32,
    /// Its Full Contact DR when unaware (surprised, or struck from the
    /// rear), before the armor named in `armor` like `defense_rating`
    /// (default: 3, or `defense_rating` if lower).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unaware_defense_rating: Option<i32>,
    /// Full Contact's parry (docs/rules.md §2.1.4): when a blow aimed at
    /// it that would land is parried, a Strike roll with its own Strike
    /// Rating against the attack's SR + roll, at the cost of its next
    /// action (free under the Tick System): `"never"` (the default),
    /// `"always"`, or `"when_better"` (when the parry's exact chance beats
    /// its own strike's at the attacker). In battles; at the table the GM
    /// asks for a parry per strike. Full Contact striking only.
    #[serde(default, skip_serializing_if = "ParryPolicy::is_never")]
    pub parry: ParryPolicy,
    /// Tick System: the ticks its action takes, overriding the system's
    /// `action_ticks` (`None`, the default: the system's), in
    /// `1..=`[`ACTION_TICKS_LIMIT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_ticks: Option<u32>,
    /// Tick System: whether its defenses take time ([`Defending`]):
    /// `"untimed"` (the default) or `"free_action"`, each defense a free
    /// action of the system's `free_action_ticks` (docs/rules.md §1.5).
    #[serde(default, skip_serializing_if = "Defending::is_untimed")]
    pub defend: Defending,
    /// Tick System: Prepare at each turn instead of attacking (+ the
    /// system's `prepare_defense_bonus` to its defense, the first defense
    /// while prepared free), and take the held turn to attack when first
    /// struck at while prepared (battles; docs/rules.md §1.5, §5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prepare: bool,
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

/// The most ticks a fighter's Tick System action may take (as the system's
/// own `action_ticks`).
pub const ACTION_TICKS_LIMIT: u32 = 10_000;

/// The largest magnitude of a FUDGE Scale: far beyond a dragon's.
pub const SCALE_LIMIT: i32 = 100;

fn one() -> u64 {
    1
}
fn five() -> i32 {
    5
}
fn three() -> i32 {
    3
}

/// The Time Taken of a fighter with no weapon given.
pub const DEFAULT_TIME_TAKEN: i32 = 3;
/// Largest magnitude of ratings, skills, damage factors, speed bonuses,
/// REF and Combat Sense: far past any the texts use, small enough that no
/// sum of them overflows.
pub const RATING_LIMIT: i32 = 1_000;
/// Largest magnitude of a Tick System initiative bonus.
pub const INITIATIVE_LIMIT: i32 = 1_000_000;
/// Largest Tick System interval.
pub const INTERVAL_LIMIT: u32 = 1_000_000;
/// Most extra attacks per round from gear.
pub const EXTRA_ATTACKS_LIMIT: u32 = 100;
/// Largest Time Taken of a custom weapon, in ticks.
pub const TIME_TAKEN_LIMIT: i32 = 1_000;
/// Most shots, and most rounds, in a custom rate of fire.
pub const RATE_OF_FIRE_LIMIT: u32 = 100;
/// Most hit points a fighter may have.
pub const HIT_POINTS_LIMIT: i32 = 1_000_000;

fn within(field: &str, value: i32, limit: i32) -> crate::Result<()> {
    if (-limit..=limit).contains(&value) {
        Ok(())
    } else {
        Err(Error::out_of_range(field, value, -limit, limit))
    }
}

impl FighterProfile {
    /// A fighter with this name and every default: SR 5, DR 3, skill Fair,
    /// no weapon (Time Taken 3), no armor.
    pub fn new(name: impl Into<String>) -> FighterProfile {
        FighterProfile {
            name: name.into(),
            count: 1,
            strike_rating: 5,
            defense_rating: 3,
            skill: CombatLevel::default(),
            weapon: None,
            armor: None,
            speed_bonus: 0,
            extra_attacks: 0,
            disruptible: false,
            offense: 0,
            toughness: 0,
            hit_points: None,
            initiative_bonus: 0,
            interval: 0,
            reflexes: 0,
            combat_sense: 0,
            stance: Stance::Normal,
            shield: None,
            aim: Aim::Anywhere,
            position: Position::Even,
            scale: 0,
            npc_result: false,
            posture: PostureChoice::Fixed(crate::striking::opposed::Posture::NORMAL),
            concentrate: false,
            range: None,
            melee_reach: None,
            move_distance: None,
            plan: None,
            keep_at: None,
            unaware_for: 0,
            scouting: None,
            missile: None,
            dodge: None,
            cover: 0,
            unaware_defense_rating: None,
            parry: ParryPolicy::Never,
            action_ticks: None,
            defend: Defending::Untimed,
            prepare: false,
        }
    }

    /// Checks every field but the count (whose limit is the caller's: a
    /// scenario's fighter cap, a tracker's group size); the error names the
    /// field. Ratings, skill, damage factors, speed bonus and REF within
    /// ±[`RATING_LIMIT`]; Combat Sense (a level of skill) in
    /// `0..=`[`RATING_LIMIT`]; initiative bonus within
    /// ±[`INITIATIVE_LIMIT`]; interval at most [`INTERVAL_LIMIT`]; extra
    /// attacks at most [`EXTRA_ATTACKS_LIMIT`]; hit points
    /// 1..=[`HIT_POINTS_LIMIT`] if given; a weapon and armor the tables
    /// have; a custom weapon's Time Taken in 0..=[`TIME_TAKEN_LIMIT`] and
    /// rate of fire at most [`RATE_OF_FIRE_LIMIT`] shots per at most as
    /// many rounds.
    pub fn validate(&self) -> crate::Result<()> {
        if self.name.trim().is_empty() {
            return Err(Error::invalid("name", "must not be empty"));
        }
        for (name, value) in [
            ("strike_rating", self.strike_rating),
            ("defense_rating", self.defense_rating),
            ("speed_bonus", self.speed_bonus),
            ("offense", self.offense),
            ("toughness", self.toughness),
            ("reflexes", self.reflexes),
            ("skill", self.skill.level.value()),
        ] {
            within(name, value, RATING_LIMIT)?;
        }
        // A level of skill, none being 0: "Bob ... does not have any ranks
        // in Combat Sense" (fuzion-action-blocks.txt).
        if !(0..=RATING_LIMIT).contains(&self.combat_sense) {
            return Err(Error::out_of_range("combat_sense", self.combat_sense, 0, RATING_LIMIT));
        }
        within("initiative_bonus", self.initiative_bonus, INITIATIVE_LIMIT)?;
        within("scale", self.scale, SCALE_LIMIT)?;
        check_posture(self.stance, &self.posture)?;
        if self.interval > INTERVAL_LIMIT {
            return Err(Error::out_of_range("interval", self.interval, 0, INTERVAL_LIMIT));
        }
        if let Some(t) = self.action_ticks
            && !(1..=ACTION_TICKS_LIMIT).contains(&t)
        {
            return Err(Error::out_of_range("action_ticks", t, 1, ACTION_TICKS_LIMIT));
        }
        if self.extra_attacks > EXTRA_ATTACKS_LIMIT {
            return Err(Error::out_of_range(
                "extra_attacks",
                self.extra_attacks,
                0,
                EXTRA_ATTACKS_LIMIT,
            ));
        }
        if let Some(hp) = self.hit_points
            && !(1..=HIT_POINTS_LIMIT).contains(&hp)
        {
            return Err(Error::out_of_range("hit_points", hp, 1, HIT_POINTS_LIMIT));
        }
        match &self.weapon {
            None => {}
            Some(WeaponChoice::Named(name)) => {
                weapons::find(name)?;
            }
            Some(WeaponChoice::Custom(custom)) => {
                if !(0..=TIME_TAKEN_LIMIT).contains(&custom.time_taken) {
                    return Err(Error::out_of_range(
                        "weapon.time_taken",
                        custom.time_taken,
                        0,
                        TIME_TAKEN_LIMIT,
                    ));
                }
                let rof = custom.rate_of_fire;
                if rof.shots() > RATE_OF_FIRE_LIMIT || rof.rounds() > RATE_OF_FIRE_LIMIT {
                    return Err(Error::invalid(
                        "weapon.rate_of_fire",
                        format!(
                            "{rof} is not a sane rate of fire (at most {RATE_OF_FIRE_LIMIT} shots per at most \
                             {RATE_OF_FIRE_LIMIT} rounds)"
                        ),
                    ));
                }
            }
        }
        if let Some(name) = &self.armor {
            armor::armor(name)?;
        }
        for (field, value) in [
            ("melee_reach", self.melee_reach),
            ("move", self.move_distance),
            ("keep_at", self.keep_at),
        ] {
            if let Some(v) = value {
                crate::distance::check_distance(field, v)?;
            }
        }
        if let Some(range) = self.range {
            crate::distance::check_distance("range.short_range", range.short_range())?;
            crate::distance::check_distance("range.range_strength", range.range_strength())?;
        }
        if let Some(dr) = self.unaware_defense_rating {
            within("unaware_defense_rating", dr, RATING_LIMIT)?;
        }
        if let Some(missile) = self.missile {
            missile.dodge_modifier()?;
        }
        within("cover", self.cover, RATING_LIMIT)?;
        if let Some(level) = self.scouting {
            within("scouting", level.value(), RATING_LIMIT)?;
        }
        if let Some(level) = self.dodge {
            within("dodge", level.value(), RATING_LIMIT)?;
        }
        Ok(())
    }

    /// The numbers the rules fight with: the weapon's Time Taken and Rate
    /// of Fire from the tables (for `timing`: the heavy crossbow's TT is 12
    /// under Continuous), the armor's bonus in the Defense Rating under
    /// Full Contact or in the defensive damage factor under FUDGE striking
    /// (FUDGE 4.1), the timing traits. Validates first.
    pub fn resolve(&self, timing: &TimingSystem, striking: &Striking) -> crate::Result<Fighter> {
        self.validate()?;
        let (mut action, weapon) = match &self.weapon {
            None => (
                Declaration::new(DEFAULT_TIME_TAKEN, self.speed_bonus),
                String::from("weapon"),
            ),
            Some(WeaponChoice::Named(name)) => {
                let w = weapons::find(name).map_err(|e| e.in_field("weapon"))?;
                (Declaration::weapon(w, timing, self.speed_bonus), w.name.to_string())
            }
            Some(WeaponChoice::Custom(c)) => (
                Declaration::new(c.time_taken, self.speed_bonus).with_rate_of_fire(c.rate_of_fire),
                if c.name.is_empty() {
                    "weapon".to_string()
                } else {
                    c.name.clone()
                },
            ),
        };
        action.extra_attacks = self.extra_attacks;
        action.disruptible = self.disruptible;
        action.action_ticks = self.action_ticks;
        // Prepare is a declaration of the Tick System's (other systems
        // have no use for it: warned about in a scenario).
        if self.prepare && matches!(timing, TimingSystem::TickSystem(_)) {
            action.kind = ActionKind::Prepare;
        }
        action.validate()?;
        let timing_traits = ActorTiming {
            initiative_bonus: self.initiative_bonus,
            interval: self.interval,
            reflexes: self.reflexes,
            combat_sense: self.combat_sense,
        };
        timing_traits.validate()?;
        let armor_bonus = match &self.armor {
            Some(name) => {
                armor::armor(name)
                    .map_err(|e| e.in_field("armor"))?
                    .defense_rating_bonus
            }
            None => 0,
        };
        let fudge = matches!(striking, Striking::FudgeOpposed(_));
        // FUDGE: armor and Scale are defensive factors, Scale offensive too.
        let (defense_rating, defense_factor, offense) = if fudge {
            (
                self.defense_rating,
                self.toughness + armor_bonus + self.scale,
                self.offense + self.scale,
            )
        } else {
            (self.defense_rating + armor_bonus, self.toughness, self.offense)
        };
        Ok(Fighter {
            name: self.name.clone(),
            weapon,
            action,
            timing: timing_traits,
            strike_rating: self.strike_rating,
            defense_rating,
            armor_bonus,
            skill: self.skill,
            offense,
            defense_factor,
            hit_points: self.hit_points,
            disruptible: self.disruptible,
            stance: self.stance,
            shield: self.shield,
            aim: self.aim,
            position: self.position,
            scale: if fudge { self.scale } else { 0 },
            npc_result: self.npc_result,
            posture: self.posture,
            concentrate: self.concentrate && fudge,
            parry: if fudge { ParryPolicy::Never } else { self.parry },
            defend: self.defend,
            scouting: if fudge { self.scouting } else { None },
        })
    }
}

impl Fighter {
    /// Tick System: whether it Prepares at its turns (its profile's
    /// `prepare`, resolved under the Tick System).
    pub fn prepares(&self) -> bool {
        self.action.kind == ActionKind::Prepare
    }

    /// Checks that these numbers could have come from
    /// [`FighterProfile::resolve`] (a restored snapshot, a hand-made
    /// continuation): ratings, skill, armor and damage factors within the
    /// profile's bounds (armor may add to the Defense Rating or the defensive
    /// factor), hit points in range, a valid action and timing traits. The
    /// error names the field.
    pub fn validate(&self) -> crate::Result<()> {
        let rated = 2 * RATING_LIMIT;
        for (name, value, limit) in [
            ("strike_rating", self.strike_rating, RATING_LIMIT),
            ("defense_rating", self.defense_rating, rated),
            ("armor_bonus", self.armor_bonus, RATING_LIMIT),
            ("offense", self.offense, RATING_LIMIT + SCALE_LIMIT),
            ("defense_factor", self.defense_factor, rated + SCALE_LIMIT),
            ("skill", self.skill.level.value(), RATING_LIMIT),
            ("scale", self.scale, SCALE_LIMIT),
        ] {
            within(name, value, limit)?;
        }
        check_posture(self.stance, &self.posture)?;
        if let Some(hp) = self.hit_points
            && !(1..=HIT_POINTS_LIMIT).contains(&hp)
        {
            return Err(Error::out_of_range("hit_points", hp, 1, HIT_POINTS_LIMIT));
        }
        if let Some(level) = self.scouting {
            within("scouting", level.value(), RATING_LIMIT)?;
        }
        self.action.validate().map_err(|e| e.in_field("action"))?;
        self.timing.validate().map_err(|e| e.in_field("timing"))
    }
}

/// A fighter ready to fight: the numbers [`FighterProfile::resolve`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    /// Its name.
    pub name: String,
    /// Its weapon's name ("weapon" when none or unnamed).
    pub weapon: String,
    /// Its action: the weapon's Time Taken and Rate of Fire, speed bonus,
    /// extra attacks, disruptible.
    pub action: Declaration,
    /// Its timing traits (Tick System, FUZION).
    pub timing: ActorTiming,
    /// Full Contact Strike Rating.
    pub strike_rating: i32,
    /// Full Contact Defense Rating, armor included under Full Contact.
    pub defense_rating: i32,
    /// The armor's Defense Rating bonus (0 without armor), counted in
    /// `defense_rating` (Full Contact) or `defense_factor` (FUDGE).
    pub armor_bonus: i32,
    /// FUDGE combat skill.
    pub skill: CombatLevel,
    /// Offensive damage factor.
    pub offense: i32,
    /// Defensive damage factor: toughness, and armor under FUDGE striking.
    pub defense_factor: i32,
    /// Hit points, overriding the damage model's `max_hp`.
    pub hit_points: Option<i32>,
    /// Whether its actions are disruptible.
    pub disruptible: bool,
    /// FUDGE 4.31's stance (FUDGE opposed striking).
    #[serde(default)]
    pub stance: Stance,
    /// FUDGE 4.31's shield, if any.
    #[serde(default)]
    pub shield: Option<Shield>,
    /// FUDGE 4.31: aiming at a small part.
    #[serde(default)]
    pub aim: Aim,
    /// FUDGE 4.31: a worse position.
    #[serde(default)]
    pub position: Position,
    /// FUDGE Scale (0 under Full Contact), already counted in `offense`
    /// and `defense_factor`; it also sets the minimum result to hit a foe
    /// of another Scale.
    #[serde(default)]
    pub scale: i32,
    /// FUDGE 4.33: the result is always the trait level (no roll).
    #[serde(default)]
    pub npc_result: bool,
    /// FUDGE 4.32's posture, or the mixed strategy drawn each exchange.
    #[serde(default)]
    pub posture: PostureChoice,
    /// FUDGE 4.34: beset by several foes at once, fights one and lets the
    /// others try his armor (battles).
    #[serde(default)]
    pub concentrate: bool,
    /// Full Contact: when it parries a blow that would land (battles).
    #[serde(default, skip_serializing_if = "ParryPolicy::is_never")]
    pub parry: ParryPolicy,
    /// Tick System: whether its defenses take time.
    #[serde(default, skip_serializing_if = "Defending::is_untimed")]
    pub defend: Defending,
    /// FUDGE 4.31: its Perception or Tactics trait, if it scouts (FUDGE
    /// striking only; docs/rules.md §2.2.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scouting: Option<Level>,
}

/// Postures (4.32) replace the all-out stances (4.31): a fighter has one
/// or the other. A mixed strategy's probabilities are checked again (a
/// restored snapshot).
fn check_posture(stance: Stance, posture: &PostureChoice) -> crate::Result<()> {
    if let PostureChoice::Mixed(w) = posture {
        PostureChoice::mixed(*w)?;
    }
    if stance != Stance::Normal && !posture.is_normal() {
        return Err(Error::invalid(
            "posture",
            format!(
                "postures (FUDGE 4.32) replace the all-out stances (4.31): give a posture or the stance {}, not both",
                stance.name()
            ),
        ));
    }
    Ok(())
}

/// The FUDGE 4.31-4.32 choices a fighter may change between blows: its
/// stance, shield, aim, position and posture. [`Encounter::set_tactics`](crate::tracker::Encounter::set_tactics)
/// changes them mid-fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tactics {
    /// Normal, all-out offense or all-out defense.
    pub stance: Stance,
    /// The shield carried, if any.
    pub shield: Option<Shield>,
    /// A called shot at a small part.
    pub aim: Aim,
    /// A worse position.
    pub position: Position,
    /// FUDGE 4.32's posture, or a mixed strategy (not with a stance).
    pub posture: PostureChoice,
}

impl Tactics {
    /// Checks that the posture and the stance go together (postures
    /// replace the all-out stances) and a mixed strategy's probabilities.
    ///
    /// # Errors
    /// [`Error::Invalid`] (field `posture`).
    pub fn validate(&self) -> crate::Result<()> {
        check_posture(self.stance, &self.posture)
    }

    /// In words, for the log: "stance all_out_offense, shield large
    /// (untrained), aim anywhere, position even".
    pub fn describe(&self) -> String {
        let shield = match self.shield {
            None => "none".to_string(),
            Some(s) => {
                let mut words = s.size.name().to_string();
                if !s.trained {
                    words.push_str(" (untrained)");
                }
                if s.in_shield_wall {
                    words.push_str(" (in a shield wall)");
                }
                words
            }
        };
        let aim = Aim::NAMES[self.aim as usize];
        let position = Position::NAMES[self.position as usize];
        let posture = match self.posture {
            PostureChoice::Fixed(p) => format!("{:+}", p.offense()),
            PostureChoice::Mixed(w) => {
                let parts: Vec<String> = w
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| **p > 0.0)
                    .map(|(i, p)| format!("{:+} {p}", i as i32 - 2))
                    .collect();
                format!("mixed ({})", parts.join(", "))
            }
        };
        format!(
            "stance {}, shield {shield}, aim {aim}, position {position}, posture {posture}",
            self.stance.name()
        )
    }
}

impl Fighter {
    /// Its FUDGE 4.31 choices.
    pub const fn tactics(&self) -> Tactics {
        Tactics {
            stance: self.stance,
            shield: self.shield,
            aim: self.aim,
            position: self.position,
            posture: self.posture,
        }
    }

    /// Changes its FUDGE 4.31 choices.
    pub const fn set_tactics(&mut self, tactics: Tactics) {
        self.stance = tactics.stance;
        self.shield = tactics.shield;
        self.aim = tactics.aim;
        self.position = tactics.position;
        self.posture = tactics.posture;
    }

    /// The FUDGE 4.31 modifiers this fighter fights with, but for its
    /// wounds and stance (which a blow carries itself, as
    /// [`OpposedSide`](crate::combat::OpposedSide)'s `penalty` and
    /// `stance`): position, shield, aim.
    pub const fn melee_modifiers(&self) -> MeleeModifiers {
        MeleeModifiers {
            wounds: crate::striking::opposed::Wounds::Unhurt,
            position: self.position,
            shield: self.shield,
            aim: self.aim,
            blessing: 0,
            stance: Stance::Normal,
            scouted: false,
        }
    }
}
