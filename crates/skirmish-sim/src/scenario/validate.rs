//! The rules a scenario must keep before a battle runs it.

use std::collections::HashMap;
use std::fmt;

use super::error::{ScenarioError, ScenarioErrorKind};
use skirmish_core::tables::{armor, weapons};

use super::{Group, Scenario, Striking, WeaponChoice};

/// Memory one battle may take for its fighters: 2 GiB, so that a sweep
/// running one battle per core of an 8-core, 16 GiB machine fits.
pub const BATTLE_MEMORY_BUDGET: u64 = 2 * 1024 * 1024 * 1024;

/// Bytes of battle state per fighter, measured: the peak resident memory of
/// `skirmish run` at 2 x 1,000,000 fighters on the hungriest path (set from
/// the Tick System on the core Scheduler, before it had a lean clock),
/// rounded up for headroom. docs/reliability.md ("Memory per fighter") has
/// the figures and the command.
pub const FIGHTER_STATE_BYTES: u64 = 600;

/// Most fighters a scenario may field, over all sides:
/// [`BATTLE_MEMORY_BUDGET`] / [`FIGHTER_STATE_BYTES`], 3,579,139.
///
/// A count beyond it is refused with the memory it would need, instead of
/// failing halfway through allocation (or being killed by the system).
pub const MAX_FIGHTERS: u64 = BATTLE_MEMORY_BUDGET / FIGHTER_STATE_BYTES;

/// Most sides a scenario may have: the battle numbers sides in 8 bits, so
/// 255 is its own limit, checked here where the file and line are known.
pub const MAX_SIDES: usize = 255;

/// Most groups a scenario may have, over all sides: 16,384.
///
/// A table names a few dozen kinds of fighter (a group holds any number of
/// identical ones), and 16,384 groups written with every common field (up
/// to about 250 bytes each) fit in a file of
/// [`MAX_SCENARIO_BYTES`](super::MAX_SCENARIO_BYTES). The bound keeps
/// loading linear and small: a longer list is refused while it is read,
/// before anything is checked pairwise.
pub const MAX_GROUPS: usize = 1 << 14;

impl Scenario {
    /// Checks every rule a battle relies on; the error names the field.
    ///
    /// Loading validates; call this again after changing a scenario in code
    /// ([`with_field`](Scenario::with_field) does).
    ///
    /// The rules: at least 2 sides, each with a name and at least one
    /// group; side names unique, and group names unique within a side
    /// (ignoring case, as field paths look them up); every count at least
    /// 1 and at most [`MAX_FIGHTERS`] fighters in all; weapons and armor
    /// that the tables have (unknown names suggest the closest); a custom
    /// weapon's Time Taken in 0..=1000 and rate of fire at most 100 shots per
    /// at most 100 rounds; ratings, skills, damage factors, speed bonuses,
    /// REF within ±1000; Combat Sense (a level of skill) in 0..=1000;
    /// initiative bonus within
    /// ±1,000,000; interval at most 1,000,000; extra attacks at most 100;
    /// hit points 1..=1,000,000 if given; the timing and damage options as
    /// their own `validate` requires; every battle limit at least 1; a
    /// side's `morale` (on the first 64 sides) with `break_below` in
    /// `0..=1` and a `leader` naming one of its groups.
    ///
    /// # Errors
    /// A [`ScenarioErrorKind::Invalid`] error for the first broken rule,
    /// with its field path (no origin or position: the loaders add them).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.timing
            .validate()
            .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, "timing", e))?;
        validate_striking(&self.striking)?;
        self.damage
            .validate()
            .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, "damage", e))?;
        let battle = &self.battle;
        at_least_one(
            "battle.max_attackers_per_target",
            u64::from(battle.max_attackers_per_target),
        )?;
        at_least_one("battle.max_ticks", battle.max_ticks)?;
        at_least_one("battle.max_rounds", u64::from(battle.max_rounds))?;
        at_least_one("battle.max_actions", battle.max_actions)?;
        if let Some(front) = battle.front {
            at_least_one("battle.front", u64::from(front))?;
        }
        if let Some(d) = self.distance {
            skirmish_core::distance::check_distance("distance", d)
                .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, "", e))?;
            if self.sides.len() != 2 {
                return Err(ScenarioError::invalid(
                    "distance",
                    format!(
                        "a battle with a distance has exactly 2 sides (one at each end of the line), this one has {}",
                        self.sides.len()
                    ),
                ));
            }
        }

        if self.sides.len() < 2 {
            return Err(ScenarioError::invalid(
                "sides",
                format!(
                    "a battle needs at least 2 sides, this one has {}; add a [[sides]] table",
                    self.sides.len()
                ),
            ));
        }
        // Sizes first, so that nothing below runs over a list too long.
        if self.sides.len() > MAX_SIDES {
            return Err(too_many_sides(self.sides.len()));
        }
        let groups: usize = self.sides.iter().map(|side| side.groups.len()).sum();
        if groups > MAX_GROUPS {
            return Err(too_many_groups(groups));
        }
        // Names are compared through a map: linear, however many there are.
        let mut side_names = HashMap::with_capacity(self.sides.len());
        let mut total: u128 = 0;
        for (s, side) in self.sides.iter().enumerate() {
            let side_path = At { side: s, group: None };
            named(side_path, "side", &side.name)?;
            if let Some(first) = side_names.insert(name_key(&side.name), s) {
                return Err(ScenarioError::invalid(
                    format!("{side_path}.name"),
                    format!(
                        "side {:?} is named twice (also sides[{first}]); side names must differ, ignoring case",
                        side.name
                    ),
                ));
            }
            if side.groups.is_empty() {
                return Err(ScenarioError::invalid(
                    format!("{side_path}.groups"),
                    format!(
                        "side {:?} has no groups; give it at least one [[sides.groups]] of 1 or more fighters",
                        side.name
                    ),
                ));
            }
            let mut group_names = HashMap::with_capacity(side.groups.len());
            for (g, group) in side.groups.iter().enumerate() {
                let path = At {
                    side: s,
                    group: Some(g),
                };
                named(path, "group", &group.name)?;
                if let Some(first) = group_names.insert(name_key(&group.name), g) {
                    return Err(ScenarioError::invalid(
                        format!("{path}.name"),
                        format!(
                            "group {:?} is named twice in side {:?} (also groups[{first}]); group names must differ \
                             within a side, ignoring case",
                            group.name, side.name
                        ),
                    ));
                }
                validate_group(path, group)?;
                total += u128::from(group.count);
            }
            super::morale::validate(s, side)?;
        }
        if total > u128::from(MAX_FIGHTERS) {
            return Err(ScenarioError::invalid(
                "sides",
                format!("{total} fighters in all {}", too_many(total)),
            ));
        }
        Ok(())
    }
}

fn validate_striking(striking: &Striking) -> Result<(), ScenarioError> {
    match striking {
        Striking::FullContact(rules) => rules
            .validate()
            .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, "striking", e)),
        Striking::FudgeOpposed(rules) => rules
            .validate()
            .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, "striking", e)),
    }
}

fn validate_group(path: At, group: &Group) -> Result<(), ScenarioError> {
    let field = |name: &str| format!("{path}.{name}");
    if group.count == 0 {
        return Err(ScenarioError::invalid(
            field("count"),
            "0 is not a count (expected 1 or more); remove the group instead",
        ));
    }
    if group.count > MAX_FIGHTERS {
        return Err(ScenarioError::invalid(
            field("count"),
            format!("{} fighters {}", group.count, too_many(u128::from(group.count))),
        ));
    }
    // Names first, so an unknown one is reported at its own field with
    // its suggestions; the rest are the core profile's rules.
    if let Some(WeaponChoice::Named(name)) = &group.weapon {
        weapons::find(name).map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, &field("weapon"), e))?;
    }
    if let Some(name) = &group.armor {
        armor::armor(name).map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, &field("armor"), e))?;
    }
    group
        .validate()
        .map_err(|e| ScenarioError::from_core(ScenarioErrorKind::Invalid, &path.to_string(), e))?;
    Ok(())
}

/// `"would need about N GiB ..."` for `fighters` over the cap.
fn too_many(fighters: u128) -> String {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    #[expect(clippy::cast_precision_loss, reason = "an estimate in GiB")]
    let gib = |n: u128| (n * u128::from(FIGHTER_STATE_BYTES)) as f64 / GIB;
    format!(
        "would need about {} GiB of battle state ({FIGHTER_STATE_BYTES} bytes each), more than memory allows; \
         at most {MAX_FIGHTERS} fighters in all (about {:.1} GiB) are allowed",
        format_gib(gib(fighters)),
        gib(u128::from(MAX_FIGHTERS))
    )
}

/// A size in GiB with a sensible number of digits.
fn format_gib(gib: f64) -> String {
    if gib >= 100.0 {
        format!("{gib:.0}")
    } else {
        format!("{gib:.1}")
    }
}

/// A name as field paths look it up: trimmed, case ignored.
fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The error for `sides` sides, over [`MAX_SIDES`].
pub(crate) fn too_many_sides(sides: usize) -> ScenarioError {
    ScenarioError::invalid(
        format!("sides[{MAX_SIDES}]"),
        format!("{sides} sides; a battle takes at most {MAX_SIDES} sides (sides are numbered in 8 bits)"),
    )
}

/// The error for `groups` groups in all, over [`MAX_GROUPS`].
pub(crate) fn too_many_groups(groups: usize) -> ScenarioError {
    ScenarioError::invalid(
        "sides",
        format!(
            "{groups} groups in all; a scenario takes at most {MAX_GROUPS} groups over all sides \
             (a group holds any number of identical fighters: raise its count instead)"
        ),
    )
}

/// Where a side (`sides[s]`) or one of its groups (`sides[s].groups[g]`)
/// is, written out only for an error: a sweep validates every cell, and
/// writing every group's path took half of a validation.
#[derive(Debug, Clone, Copy)]
struct At {
    side: usize,
    group: Option<usize>,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sides[{}]", self.side)?;
        match self.group {
            Some(g) => write!(f, ".groups[{g}]"),
            None => Ok(()),
        }
    }
}

fn named(path: At, what: &str, name: &str) -> Result<(), ScenarioError> {
    if name.trim().is_empty() {
        return Err(ScenarioError::invalid(
            format!("{path}.name"),
            format!("every {what} needs a name (field paths and reports use it)"),
        ));
    }
    Ok(())
}

fn at_least_one(path: &str, value: u64) -> Result<(), ScenarioError> {
    if value == 0 {
        return Err(ScenarioError::invalid(path, "0 is too small (expected 1 or more)"));
    }
    Ok(())
}
