//! Mirrors of [`skirmish_core::tables`]: the weapon speed tables and the
//! armor table, for an app's pickers.

use skirmish_core::tables::{armor as core_armor, weapons as core_weapons};
use skirmish_core::timing as core_timing;

use crate::error::{Result, guard};
use crate::timing::{Declaration, RateOfFire, TimingSystem};

/// The four weapon tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Genre {
    /// Fantasy (18 weapons).
    Fantasy,
    /// Oriental (15 weapons).
    Oriental,
    /// Industrial & Modern (15 weapons).
    IndustrialModern,
    /// Science Fiction (9 weapons).
    ScienceFiction,
}

impl From<core_weapons::Genre> for Genre {
    fn from(g: core_weapons::Genre) -> Genre {
        match g {
            core_weapons::Genre::Fantasy => Genre::Fantasy,
            core_weapons::Genre::Oriental => Genre::Oriental,
            core_weapons::Genre::IndustrialModern => Genre::IndustrialModern,
            core_weapons::Genre::ScienceFiction => Genre::ScienceFiction,
        }
    }
}

impl From<Genre> for core_weapons::Genre {
    fn from(g: Genre) -> core_weapons::Genre {
        match g {
            Genre::Fantasy => core_weapons::Genre::Fantasy,
            Genre::Oriental => core_weapons::Genre::Oriental,
            Genre::IndustrialModern => core_weapons::Genre::IndustrialModern,
            Genre::ScienceFiction => core_weapons::Genre::ScienceFiction,
        }
    }
}

/// A footnote of the weapon tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Footnote {
    /// Heavy crossbow: a round to reset; TT 12 in Continuous combat.
    HeavyCrossbow,
    /// Grenades: the same values for every kind.
    Grenade,
    /// Machine guns: values per burst of about 15 rounds.
    MachineGun,
}

impl From<core_weapons::Footnote> for Footnote {
    fn from(f: core_weapons::Footnote) -> Footnote {
        match f {
            core_weapons::Footnote::HeavyCrossbow => Footnote::HeavyCrossbow,
            core_weapons::Footnote::Grenade => Footnote::Grenade,
            core_weapons::Footnote::MachineGun => Footnote::MachineGun,
        }
    }
}

/// One row of a weapon speed table.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Weapon {
    /// The name as the text writes it, e.g. "Crossbow, Heavy".
    pub name: String,
    /// The table it is in.
    pub genre: Genre,
    /// The table's heading, e.g. "Industrial & Modern".
    pub genre_title: String,
    /// Time Taken, in ticks (seconds).
    pub time_taken: u32,
    /// Time Taken in Continuous combat where a footnote gives one.
    pub continuous_time_taken: Option<u32>,
    /// Rate of Fire, shots per round.
    pub rate_of_fire: RateOfFire,
    /// Rounds of ammunition per burst (machine guns).
    pub burst: Option<u32>,
    /// The row's footnote.
    pub footnote: Option<Footnote>,
    /// The footnote's text.
    pub footnote_text: Option<String>,
    /// Other names `find_weapon` accepts.
    pub aliases: Vec<String>,
}

impl From<&core_weapons::Weapon> for Weapon {
    fn from(w: &core_weapons::Weapon) -> Weapon {
        Weapon {
            name: w.name.to_owned(),
            genre: w.genre.into(),
            genre_title: w.genre.title().to_owned(),
            time_taken: w.time_taken,
            continuous_time_taken: w.continuous_time_taken,
            rate_of_fire: w.rate_of_fire.into(),
            burst: w.burst,
            footnote: w.footnote.map(Into::into),
            footnote_text: w.footnote_text().map(str::to_owned),
            aliases: w.aliases.iter().map(|a| (*a).to_owned()).collect(),
        }
    }
}

/// One row of the armor table.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Armor {
    /// The row as the text writes it, e.g. "Plate mail, riot gear".
    pub name: String,
    /// Other names that find it.
    pub aliases: Vec<String>,
    /// What it adds to Defense Rating.
    pub defense_rating_bonus: i32,
    /// The table's `*`: counts "depending on skill/situation".
    pub situational: bool,
}

impl From<&core_armor::Armor> for Armor {
    fn from(a: &core_armor::Armor) -> Armor {
        Armor {
            name: a.name.to_owned(),
            aliases: a.aliases.iter().map(|s| (*s).to_owned()).collect(),
            defense_rating_bonus: a.defense_rating_bonus,
            situational: a.situational,
        }
    }
}

/// The weapon rows of one table, or of all four (`genre` = `None`), in the text's order.
#[uniffi::export(default(genre = None))]
pub fn weapons(genre: Option<Genre>) -> Result<Vec<Weapon>> {
    guard(|| {
        let rows = match genre {
            Some(g) => core_weapons::by_genre(g.into()),
            None => core_weapons::all(),
        };
        Ok(rows.iter().map(Into::into).collect())
    })
}

/// The weapon named `name` (forgiving; `NotFound` suggests the closest rows).
#[uniffi::export]
pub fn find_weapon(name: String) -> Result<Weapon> {
    guard(|| Ok(core_weapons::find(&name)?.into()))
}

/// Attacking with the weapon named `weapon` under `system`: its Time Taken
/// (for that system) and Rate of Fire, with `speed_bonus`.
#[uniffi::export(default(speed_bonus = 0))]
pub fn weapon_declaration(weapon: String, system: TimingSystem, speed_bonus: i32) -> Result<Declaration> {
    guard(|| {
        let w = core_weapons::find(&weapon)?;
        let system = core_timing::TimingSystem::try_from(system)?;
        Ok(core_timing::Declaration::weapon(w, &system, speed_bonus).into())
    })
}

/// Every row of the armor table, in the text's order.
#[uniffi::export]
pub fn armor_table() -> Result<Vec<Armor>> {
    guard(|| Ok(core_armor::all().iter().map(Into::into).collect()))
}

/// The armor row named `name` (its name or an alias, forgiving).
#[uniffi::export]
pub fn find_armor(name: String) -> Result<Armor> {
    guard(|| Ok(core_armor::armor(&name)?.into()))
}
