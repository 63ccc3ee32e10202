//! The roster: who is in the encounter. Combatants and groups, their ids
//! and specs, adding them (with or without combat stats), finding them by
//! name, and taking them out (down or removed). Its own file because the
//! roster is what every other operation looks its combatants up in, and
//! the limits on its size live with it.

use serde::{Deserialize, Serialize};

use super::amazing::Upset;
use super::{Encounter, State, TrackerError, TrackerResult, note, strike};
use crate::damage::{Damage, DamageModel, DamageState};
use crate::fighter::{Fighter, FighterProfile, Striking, Tactics};
use crate::striking::opposed::ScoutedMark;
use crate::timing::{ActorId, ActorTiming, Declaration};

/// A combatant of an [`Encounter`], in the order added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CombatantId(pub u32);

/// What a combatant (or each member of a group) is, as the timing rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// Name shown on the tick sheet.
    pub name: String,
    /// Side or party, for the GM's display (optional).
    #[serde(default)]
    pub side: Option<String>,
    /// Tick System initiative bonus and interval, FUZION REF and Combat Sense.
    #[serde(default)]
    pub timing: ActorTiming,
    /// What it is doing first.
    pub action: Declaration,
    /// A label for that action ("elven bow", "Spark").
    #[serde(default)]
    pub action_label: String,
    /// Combat stats, if the tracker resolves its strikes (see
    /// [`Encounter::add_fighter`]); without them it is timing-only.
    #[serde(default)]
    pub stats: Option<Fighter>,
    /// Hidden from the players' view until revealed (an ambusher not yet seen).
    #[serde(default)]
    pub hidden: bool,
}

impl CombatantSpec {
    /// A combatant with this name and first action, default traits.
    pub fn new(name: impl Into<String>, action: Declaration) -> CombatantSpec {
        CombatantSpec {
            name: name.into(),
            side: None,
            timing: ActorTiming::default(),
            action,
            action_label: String::new(),
            stats: None,
            hidden: false,
        }
    }

    /// The same, hidden from the players until revealed.
    pub fn hidden(mut self) -> CombatantSpec {
        self.hidden = true;
        self
    }

    /// The same with a side.
    pub fn on_side(mut self, side: impl Into<String>) -> CombatantSpec {
        self.side = Some(side.into());
        self
    }

    /// The same with timing traits.
    pub fn with_timing(mut self, timing: ActorTiming) -> CombatantSpec {
        self.timing = timing;
        self
    }

    /// The same with an action label.
    pub fn labelled(mut self, label: impl Into<String>) -> CombatantSpec {
        self.action_label = label.into();
        self
    }
}

/// Whether a combatant is in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    Standing,
    /// Down (incapacitated, dead): takes no more actions.
    Down,
    /// Removed from the encounter (fled, or added by mistake).
    Removed,
}

/// A combatant as the tracker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantView {
    /// Its id.
    pub id: CombatantId,
    /// Its name.
    pub name: String,
    /// Its side, if given.
    pub side: Option<String>,
    /// The group's name, for a member of a group.
    pub group: Option<String>,
    /// In the fight or not.
    pub status: Status,
    /// Hidden from the players' view.
    pub hidden: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Combatant {
    pub(super) name: String,
    pub(super) side: Option<String>,
    pub(super) line: u32,
    pub(super) status: Status,
    #[serde(default)]
    pub(super) hidden: bool,
    /// What it has taken under the encounter's damage model (with stats).
    #[serde(default)]
    pub(super) damage: Option<DamageState>,
    /// The wound penalty its rolls take at the current moment: the one it
    /// had when the moment began (simultaneity, docs/rules.md §1.8).
    #[serde(default)]
    pub(super) moment_penalty: i32,
    /// The moment it went down at (it still strikes in that moment).
    #[serde(default)]
    pub(super) down_at_moment: Option<u64>,
    /// What an amazing defense left on it until its next action (a
    /// disarm, a knock-down; docs/rules.md §2.1.8). Snapshot version 5;
    /// left out when there is none.
    #[serde(default, skip_serializing_if = "Upset::is_none")]
    pub(super) upset: Upset,
    /// When a foe's scouting puts it at -1 (FUDGE 4.31, docs/rules.md
    /// §2.2.3). Snapshot version 6; left out when clear.
    #[serde(default, skip_serializing_if = "ScoutedMark::is_clear")]
    pub(super) scouted: ScoutedMark,
}

/// A line on the sheet: one scheduler actor; one combatant or a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Line {
    pub(super) name: String,
    pub(super) members: Vec<u32>,
    pub(super) group: bool,
    pub(super) label: String,
    /// The combat stats its members share (None: timing only): one copy
    /// per line, however large the group.
    #[serde(default)]
    pub(super) stats: Option<Fighter>,
    /// Tick System: the combatant its last ranged blow was at (Acquire
    /// charges a blow at another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) last_shot_at: Option<u32>,
}

/// Most combatants one encounter may have.
pub const MAX_COMBATANTS: u32 = 100_000;

/// Most members of one group.
pub const MAX_GROUP: u32 = 10_000;

impl Encounter {
    /// Adds one combatant. Before the first initiative it simply takes part;
    /// later it joins at the next chance its timing system gives.
    pub fn add_combatant(&mut self, spec: CombatantSpec) -> TrackerResult<CombatantId> {
        let ids = self.add_line(spec.name.clone(), vec![spec.name.clone()], false, spec)?;
        Ok(ids[0])
    }

    /// Adds a group of `count` identical combatants named "`name` 1",
    /// "`name` 2", ...: one line on the sheet, one initiative roll, members
    /// that fall one by one.
    pub fn add_group(&mut self, name: &str, count: u32, spec: CombatantSpec) -> TrackerResult<Vec<CombatantId>> {
        if !(1..=MAX_GROUP).contains(&count) {
            return Err(TrackerError::invalid(
                "group.count",
                format!("{count} is outside 1..={MAX_GROUP}"),
            ));
        }
        let names = (1..=count).map(|i| format!("{name} {i}")).collect();
        self.add_line(name.to_owned(), names, true, spec)
    }

    /// Adds a fighter with combat stats on `side`: a combatant, or a group
    /// of `profile.count` members (one line on the sheet, one initiative
    /// roll). The profile is resolved under this encounter's timing and
    /// striking rules (weapon and armor by table name), the same way a
    /// scenario's group is; its first action is its weapon's. Its strikes
    /// are then resolved by [`strike`](Self::strike).
    pub fn add_fighter(&mut self, side: &str, profile: &FighterProfile) -> TrackerResult<Vec<CombatantId>> {
        let fighter = profile
            .resolve(self.state.scheduler.system(), &self.state.rules.striking)
            .map_err(|e| TrackerError::from(e.in_field("profile")))?;
        let count = u32::try_from(profile.count)
            .ok()
            .filter(|c| (1..=MAX_GROUP).contains(c))
            .ok_or_else(|| {
                TrackerError::invalid("profile.count", format!("{} is outside 1..={MAX_GROUP}", profile.count))
            })?;
        let mut spec = CombatantSpec::new(profile.name.clone(), fighter.action).on_side(side);
        spec.timing = fighter.timing;
        spec.action_label = fighter.weapon.clone();
        spec.stats = Some(fighter);
        if count == 1 {
            self.add_combatant(spec).map(|id| vec![id])
        } else {
            let name = profile.name.clone();
            self.add_group(&name, count, spec)
        }
    }

    fn add_line(
        &mut self,
        line_name: String,
        names: Vec<String>,
        group: bool,
        spec: CombatantSpec,
    ) -> TrackerResult<Vec<CombatantId>> {
        if line_name.trim().is_empty() {
            return Err(TrackerError::invalid("name", "must not be empty"));
        }
        let total = self.state.combatants.len() as u64 + names.len() as u64;
        if total > u64::from(MAX_COMBATANTS) {
            return Err(TrackerError::invalid(
                "combatants",
                format!("{total} combatants would pass the limit of {MAX_COMBATANTS}"),
            ));
        }
        self.mutate(|s, log| {
            let actor = s.scheduler.add(spec.timing, spec.action)?;
            let first = s.combatants.len() as u32;
            let members: Vec<u32> = (first..first + names.len() as u32).collect();
            let damage = spec.stats.as_ref().map(|f| fresh_damage(&s.model, f));
            for n in &names {
                s.combatants.push(Combatant {
                    name: n.clone(),
                    side: spec.side.clone(),
                    line: actor.0,
                    status: Status::Standing,
                    hidden: spec.hidden,
                    damage,
                    moment_penalty: 0,
                    down_at_moment: None,
                    upset: Upset::None,
                    scouted: ScoutedMark::default(),
                });
            }
            s.lines.push(Line {
                name: line_name.clone(),
                members: members.clone(),
                group,
                label: spec.action_label.clone(),
                stats: spec.stats.clone(),
                last_shot_at: None,
            });
            s.over = false;
            let what = if group {
                format!("group {line_name} ({} members)", names.len())
            } else {
                line_name
            };
            note(s, log, format!("{what} joins"));
            Ok(members.into_iter().map(CombatantId).collect())
        })
    }

    /// Changes a fighter's FUDGE 4.31 choices (stance, shield, aim,
    /// position) from its next blow on, undoably; for a group, every
    /// member's (they share one line of stats). Refused for a combatant
    /// without combat stats, one down or removed, and under Full Contact
    /// striking, which has none of these rules.
    pub fn set_tactics(&mut self, id: CombatantId, tactics: Tactics) -> TrackerResult<()> {
        let line = self.standing(id)?;
        if !matches!(self.state.rules.striking, Striking::FudgeOpposed(_)) {
            return Err(TrackerError::invalid(
                "tactics",
                "stance, shield, aim and position are FUDGE 4.31 rules: this encounter uses full-contact striking",
            ));
        }
        if super::stats_of(&self.state, id.0 as usize).is_none() {
            return Err(TrackerError::invalid("combatant", "has no combat stats"));
        }
        tactics
            .validate()
            .map_err(|e| TrackerError::from(e.in_field("tactics")))?;
        self.mutate(|s, log| {
            let l = &mut s.lines[line.0 as usize];
            if let Some(stats) = l.stats.as_mut() {
                stats.set_tactics(tactics);
            }
            let name = l.name.clone();
            note(s, log, format!("{name}: {}", tactics.describe()));
            Ok(())
        })
    }

    /// A fighter's FUDGE 4.31 tactics now (its line's).
    pub fn tactics(&self, id: CombatantId) -> TrackerResult<Tactics> {
        self.combatant(id)?;
        super::stats_of(&self.state, id.0 as usize)
            .map(Fighter::tactics)
            .ok_or_else(|| TrackerError::invalid("combatant", "has no combat stats"))
    }

    pub(super) fn combatant(&self, id: CombatantId) -> TrackerResult<&Combatant> {
        self.state.combatants.get(id.0 as usize).ok_or_else(|| {
            TrackerError::not_found(
                "combatant",
                format!("no combatant {} (there are {})", id.0, self.state.combatants.len()),
            )
        })
    }

    pub(super) fn standing(&self, id: CombatantId) -> TrackerResult<ActorId> {
        let c = self.combatant(id)?;
        if c.status != Status::Standing {
            return Err(TrackerError::not_now(
                "combatant",
                format!(
                    "{} is {}",
                    c.name,
                    if c.status == Status::Down { "down" } else { "removed" }
                ),
            ));
        }
        Ok(ActorId(c.line))
    }

    /// Every combatant.
    pub fn combatants(&self) -> Vec<CombatantView> {
        self.state
            .combatants
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let line = &self.state.lines[c.line as usize];
                CombatantView {
                    id: CombatantId(i as u32),
                    name: c.name.clone(),
                    side: c.side.clone(),
                    group: line.group.then(|| line.name.clone()),
                    status: c.status,
                    hidden: c.hidden,
                }
            })
            .collect()
    }

    /// The combatant named `name` (case-insensitive).
    pub fn find(&self, name: &str) -> TrackerResult<CombatantId> {
        let wanted = name.trim().to_lowercase();
        self.state
            .combatants
            .iter()
            .position(|c| c.name.to_lowercase() == wanted)
            .map(|i| CombatantId(i as u32))
            .ok_or_else(|| {
                let e = crate::Error::unknown_name(
                    "combatant",
                    name,
                    self.state.combatants.iter().map(|c| c.name.as_str()),
                );
                TrackerError::not_found("combatant", e.to_string())
            })
    }

    /// Marks a combatant down: its line acts no more once every member of
    /// it is down or removed (simultaneity: a combatant downed at a moment
    /// has already acted in it).
    pub fn down(&mut self, id: CombatantId) -> TrackerResult<()> {
        self.take_out(id, Status::Down)
    }

    /// Removes a combatant from the encounter (fled, or added by mistake).
    pub fn remove(&mut self, id: CombatantId) -> TrackerResult<()> {
        self.take_out(id, Status::Removed)
    }

    fn take_out(&mut self, id: CombatantId, status: Status) -> TrackerResult<()> {
        self.standing(id)?;
        self.mutate(|s, log| strike::take_out_in(s, log, id, status))
    }
}

/// The combat stats of combatant `c` (its line's), if any.
pub(super) fn stats_of(s: &State, c: usize) -> Option<&Fighter> {
    s.combatants
        .get(c)
        .and_then(|c| s.lines.get(c.line as usize))
        .and_then(|l| l.stats.as_ref())
}

/// A fighter's damage state before any blow: the model's fresh state, with
/// the fighter's own hit points where it has them.
pub(super) fn fresh_damage(model: &Damage, fighter: &Fighter) -> DamageState {
    match (model, fighter.hit_points) {
        (Damage::HitPoints(_), Some(hp)) => DamageState::HitPoints(crate::damage::HitPointState::new(hp)),
        _ => model.fresh(),
    }
}

/// Checks that `state` could be `fighter`'s under `model` (its own hit
/// points may exceed the model's `max_hp`).
pub(super) fn validate_damage(model: &Damage, fighter: &Fighter, state: &DamageState) -> crate::Result<()> {
    match (model, fighter.hit_points, state) {
        (Damage::HitPoints(_), Some(max), DamageState::HitPoints(h)) => {
            if h.hp() > max {
                Err(crate::Error::out_of_range("hp", h.hp(), i32::MIN, max))
            } else {
                Ok(())
            }
        }
        _ => model.validate_state(state),
    }
}
