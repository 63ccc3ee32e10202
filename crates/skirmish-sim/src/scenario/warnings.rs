//! Settings that a scenario may write but its rules never read: a Tick
//! System interval under Continuous timing, say. They are not errors (a
//! file can carry every system's numbers, to be fought under each in turn
//! with `--set timing=...`), but an author who wrote one expecting it to
//! matter should hear that it does not.

use skirmish_core::fighter::ExchangeRule;
use skirmish_core::striking::opposed::{Aim, Position, Stance, SweepingBlow};
use skirmish_core::timing::tick_system::Defending;
use skirmish_core::timing::{TickSystemConfig, TimingSystem};

use super::{Scenario, Striking};

impl Scenario {
    /// Settings this scenario gives that its chosen rules ignore, one
    /// sentence each, naming the field: Tick System initiative bonus and
    /// interval, action ticks, `defend` and `prepare` under another timing
    /// system, and the Tick System's free-action ticks, Prepare bonus and
    /// Acquire ticks where no group reads them; REF and Combat Sense (Action
    /// Blocks) under another, and a REF below 0 under Action Blocks (the
    /// rules take it, the text never goes there); a FUDGE stance, shield,
    /// aim, position, Scale, NPC result, posture or `concentrate` under
    /// Full Contact striking;
    /// FUDGE 4.34's sweeping blow and `concentrate` where no lone fighter
    /// is played (one-way strikes, the rule off).
    ///
    /// ```
    /// use skirmish_sim::scenario::Scenario;
    /// let parity = Scenario::builtin("parity")?;
    /// assert!(parity.warnings().is_empty());
    /// let odd = parity.with_field("sides.A.groups.0.interval", "3")?;
    /// assert_eq!(
    ///     odd.warnings(),
    ///     ["sides[0].groups[0].interval: 3 has no effect under continuous timing (only the Tick System reads it)"]
    /// );
    /// # Ok::<(), skirmish_sim::scenario::ScenarioError>(())
    /// ```
    pub fn warnings(&self) -> Vec<String> {
        self.warnings_of_fields().into_iter().map(|(_, text)| text).collect()
    }

    /// The [`warnings`](Scenario::warnings) about fields whose value this
    /// scenario changed from `base` (or added): what a change made to
    /// `base` brought. A built-in carries every timing system's numbers on
    /// purpose, so `skirmish run goblin-ambush --set timing=simultaneous`
    /// says nothing of the ambush's Tick System intervals, but does of an
    /// interval set by `--set` that the rules fought ignore.
    ///
    /// ```
    /// use skirmish_sim::scenario::Scenario;
    /// let ambush = Scenario::builtin("goblin-ambush")?;
    /// let simultaneous = ambush.with_field("timing", "simultaneous")?;
    /// assert_eq!(simultaneous.warnings().len(), 25);
    /// assert!(simultaneous.warnings_beside(&ambush).is_empty());
    /// let slower = simultaneous.with_field("sides.party.groups.Roland.interval", "5")?;
    /// assert_eq!(
    ///     slower.warnings_beside(&ambush),
    ///     ["sides[0].groups[0].interval: 5 has no effect under simultaneous timing (only the Tick System reads it)"]
    /// );
    /// # Ok::<(), skirmish_sim::scenario::ScenarioError>(())
    /// ```
    pub fn warnings_beside(&self, base: &Scenario) -> Vec<String> {
        let (Ok(mine), Ok(theirs)) = (serde_json::to_value(self), serde_json::to_value(base)) else {
            return self.warnings();
        };
        self.warnings_of_fields()
            .into_iter()
            .filter(|(field, _)| {
                let pointer = super::field_path::pointer_of(field);
                mine.pointer(&pointer) != theirs.pointer(&pointer)
            })
            .map(|(_, text)| text)
            .collect()
    }

    /// [`warnings`](Scenario::warnings), each with the path of its field.
    fn warnings_of_fields(&self) -> Vec<(String, String)> {
        let tick_system = matches!(self.timing, TimingSystem::TickSystem(_));
        let action_blocks = matches!(self.timing, TimingSystem::ActionBlocks(_));
        let fudge = matches!(self.striking, Striking::FudgeOpposed(_));
        let timing = self.timing.name().replace('-', " ");
        let mut out = Vec::new();
        // FUDGE 4.34's lone fighter is played with the two-way exchange and
        // the rule on; the sweeping blow and concentrating need it.
        let lone = match self.striking {
            Striking::FudgeOpposed(r) => {
                // (`lone_fighter` itself is on by default: with one-way
                // strikes it is no author's doing, so no warning.)
                let on = r.lone_fighter && r.exchange == ExchangeRule::TwoWay;
                if !on && r.sweeping_blow != SweepingBlow::Off {
                    out.push(with_field(format!(
                        "striking.sweeping_blow: {} has no effect without the lone fighter (lone_fighter = true and \
                         two-way exchanges)",
                        serde_json::to_string(&r.sweeping_blow).unwrap_or_default()
                    )));
                }
                on
            }
            Striking::FullContact(_) => false,
        };
        if let TimingSystem::TickSystem(c) = &self.timing {
            out.extend(self.tick_system_warnings(c));
        }
        for (s, side) in self.sides.iter().enumerate() {
            for (g, group) in side.groups.iter().enumerate() {
                let mut ignored = |field: &str, value: i64, reader: &str| {
                    if value != 0 {
                        out.push(with_field(format!(
                            "sides[{s}].groups[{g}].{field}: {value} has no effect under {timing} timing (only {reader} \
                             reads it)"
                        )));
                    }
                };
                if !tick_system {
                    ignored("initiative_bonus", group.initiative_bonus.into(), "the Tick System");
                    ignored("interval", group.interval.into(), "the Tick System");
                }
                if !action_blocks {
                    ignored("reflexes", group.reflexes.into(), "Action Blocks");
                    ignored("combat_sense", group.combat_sense.into(), "Action Blocks");
                } else if group.reflexes < 0 {
                    // FUZION's REF is a characteristic; the text plays 2 to
                    // 8 and sets no floor (fuzion-action-blocks.txt).
                    out.push(with_field(format!(
                        "sides[{s}].groups[{g}].reflexes: {} is below 0, and REF is a characteristic (the text's \
                         characters have 2 to 8): it only sorts these fighters last in each block's declarations, \
                         and the minimum of one action a phase holds",
                        group.reflexes
                    )));
                }
                if !tick_system {
                    for (field, value) in [
                        ("action_ticks", group.action_ticks.map(|t| t.to_string())),
                        (
                            "defend",
                            (!group.defend.is_untimed()).then(|| format!("\"{}\"", group.defend.name())),
                        ),
                        ("prepare", group.prepare.then(|| "true".to_string())),
                    ] {
                        if let Some(value) = value {
                            out.push(with_field(format!(
                                "sides[{s}].groups[{g}].{field}: {value} has no effect under {timing} timing (only \
                                 the Tick System reads it)"
                            )));
                        }
                    }
                }
                if !fudge {
                    // FUDGE chapter 4's per-fighter options.
                    let aim = group.aim as usize;
                    let position = group.position as usize;
                    for (field, value) in [
                        (
                            "stance",
                            (group.stance != Stance::Normal).then(|| group.stance.name().to_string()),
                        ),
                        ("shield", group.shield.map(|sh| sh.size.name().to_string())),
                        ("aim", (group.aim != Aim::Anywhere).then(|| Aim::NAMES[aim].to_string())),
                        (
                            "position",
                            (group.position != Position::Even).then(|| Position::NAMES[position].to_string()),
                        ),
                        ("scale", (group.scale != 0).then(|| group.scale.to_string())),
                        ("npc_result", group.npc_result.then(|| "true".to_string())),
                        (
                            "posture",
                            (!group.posture.is_normal())
                                .then(|| serde_json::to_string(&group.posture).unwrap_or_default()),
                        ),
                        ("concentrate", group.concentrate.then(|| "true".to_string())),
                    ] {
                        if let Some(value) = value {
                            out.push(with_field(format!(
                                "sides[{s}].groups[{g}].{field}: {value} has no effect under full-contact striking \
                                 (only fudge-opposed striking reads it)"
                            )));
                        }
                    }
                } else if group.concentrate && !lone {
                    out.push(with_field(format!(
                        "sides[{s}].groups[{g}].concentrate: true has no effect without the lone fighter \
                         (striking.lone_fighter = true and two-way exchanges)"
                    )));
                }
            }
        }
        out
    }
}

impl Scenario {
    /// The Tick System's options that no group of this scenario reads:
    /// free-action ticks without a group that defends as a free action,
    /// Prepare's bonus without a group that prepares, and Acquire's ticks
    /// (a battle's attacks are not ranged: nothing Acquires).
    fn tick_system_warnings(&self, c: &TickSystemConfig) -> Vec<(String, String)> {
        let default = TickSystemConfig::default();
        let groups = || self.sides.iter().flat_map(|side| side.groups.iter());
        let mut out = Vec::new();
        if c.free_action_ticks != default.free_action_ticks && !groups().any(|g| g.defend == Defending::FreeAction) {
            out.push(with_field(format!(
                "timing.free_action_ticks: {} has no effect: no group defends as a free action (defend = \
                 \"free_action\")",
                c.free_action_ticks
            )));
        }
        if c.prepare_defense_bonus != default.prepare_defense_bonus && !groups().any(|g| g.prepare) {
            out.push(with_field(format!(
                "timing.prepare_defense_bonus: {} has no effect: no group prepares (prepare = true)",
                c.prepare_defense_bonus
            )));
        }
        if c.acquire_ticks != default.acquire_ticks {
            out.push(with_field(format!(
                "timing.acquire_ticks: {} has no effect in a battle: its attacks are not ranged, so none \
                 Acquires a target (the tracker's ranged blows do)",
                c.acquire_ticks
            )));
        }
        out
    }
}

/// A warning with its field's path: the text before its first `": "`.
fn with_field(text: String) -> (String, String) {
    let field = text.split_once(": ").map_or("", |(field, _)| field).to_owned();
    (field, text)
}
