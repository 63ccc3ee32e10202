//! Settings that a scenario may write but its rules never read: a Tick
//! System interval under Continuous timing, say. They are not errors (a
//! file can carry every system's numbers, to be fought under each in turn
//! with `--set timing=...`), but an author who wrote one expecting it to
//! matter should hear that it does not.

use skirmish_core::fighter::{AmazingDefenseRule, ExchangeRule, KNOCK_DOWN_PENALTY};
use skirmish_core::striking::opposed::{Aim, Position, Stance, SweepingBlow};
use skirmish_core::timing::tick_system::Defending;
use skirmish_core::timing::{TickSystemConfig, TimingSystem};

use super::{Scenario, Striking};
use skirmish_core::distance::Plan;

impl Scenario {
    /// Settings this scenario gives that its chosen rules ignore, one
    /// sentence each, naming the field: Tick System initiative bonus and
    /// interval, action ticks, `defend` and `prepare` under another timing
    /// system, and the Tick System's free-action ticks, Prepare bonus and
    /// Acquire ticks where no group reads them; REF and Combat Sense (Action
    /// Blocks) under another, and a REF below 0 under Action Blocks (the
    /// rules take it, the text never goes there); a FUDGE stance, shield,
    /// aim, position, Scale, NPC result, posture, `concentrate` or
    /// `scouting` under Full Contact striking; `scouting` without the
    /// all-out defense that earns it;
    /// FUDGE 4.34's sweeping blow and `concentrate` where no lone fighter
    /// is played (one-way strikes, the rule off); a group's `range`,
    /// `melee_reach`, `move`, `plan` or `keep_at` without a `distance`,
    /// FUDGE 4.4's `missile` on a group that does not shoot under FUDGE
    /// striking, `cover` and `dodge` that no FUDGE shot meets, `keep_at` without its plan, a closing
    /// group that cannot move, point-blank range without a ranged group
    /// and its damage without it, an `unaware_defense_rating` never read
    /// (docs/rules.md §5.1, §5.2); a Full Contact `parry` policy under
    /// FUDGE striking; what an amazing result does (`amazing_strike`,
    /// `amazing_defense`, `amazing_strike_damage`) with the amazing rule
    /// off, the flat extra with double damage, a `knock_down_penalty`
    /// without the knock-down; a side's `morale` that never
    /// breaks it (`break_below = 0` and no leader).
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
            Striking::FullContact(r) => {
                // What an amazing result does needs the amazing rule on.
                let strike = (!r.amazing_strike.is_flat()).then(|| "double_damage".to_string());
                let defense = match r.amazing_defense {
                    AmazingDefenseRule::None => None,
                    AmazingDefenseRule::Disarm => Some("disarm".to_string()),
                    AmazingDefenseRule::KnockDown => Some("knock_down".to_string()),
                };
                let damage = (r.amazing_strike_damage != 0).then(|| r.amazing_strike_damage.to_string());
                if !r.amazing {
                    for (field, value) in [
                        ("amazing_strike", strike),
                        ("amazing_defense", defense),
                        ("amazing_strike_damage", damage),
                    ] {
                        if let Some(value) = value {
                            out.push(with_field(format!(
                                "striking.{field}: {value} has no effect without the amazing rule (striking.amazing \
                                 = true)"
                            )));
                        }
                    }
                } else if !r.amazing_strike.is_flat() && r.amazing_strike_damage != 0 {
                    out.push(with_field(format!(
                        "striking.amazing_strike_damage: {} has no effect with amazing_strike = \"double_damage\" \
                         (the flat extra is the \"flat\" rule's)",
                        r.amazing_strike_damage
                    )));
                }
                if r.knock_down_penalty != KNOCK_DOWN_PENALTY
                    && !(r.amazing && r.amazing_defense == AmazingDefenseRule::KnockDown)
                {
                    out.push(with_field(format!(
                        "striking.knock_down_penalty: {} has no effect without amazing = true and amazing_defense = \
                         \"knock_down\"",
                        r.knock_down_penalty
                    )));
                }
                false
            }
        };
        if let TimingSystem::TickSystem(c) = &self.timing {
            out.extend(self.tick_system_warnings(c));
        }
        for (s, side) in self.sides.iter().enumerate() {
            if let Some(text) = super::morale::warnings(s, side) {
                out.push(with_field(text));
            }
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
                        ("scouting", group.scouting.map(|l| format!("{:?}", l.to_string()))),
                    ] {
                        if let Some(value) = value {
                            out.push(with_field(format!(
                                "sides[{s}].groups[{g}].{field}: {value} has no effect under full-contact striking \
                                 (only fudge-opposed striking reads it)"
                            )));
                        }
                    }
                } else if !group.parry.is_never() {
                    // Full Contact's parry: FUDGE's defender rolls anyway.
                    out.push(with_field(format!(
                        "sides[{s}].groups[{g}].parry: {} has no effect under fudge-opposed striking (only \
                         full-contact striking reads it; there the defender's opposed roll is its defense)",
                        group.parry.name()
                    )));
                }
                if let (true, Some(level), false) = (fudge, group.scouting, group.stance == Stance::AllOutDefense) {
                    out.push(with_field(format!(
                        "sides[{s}].groups[{g}].scouting: {:?} has no effect: only a successful all-out defense \
                         scouts (stance = \"all_out_defense\")",
                        level.to_string()
                    )));
                }
                if fudge && group.concentrate && !lone {
                    out.push(with_field(format!(
                        "sides[{s}].groups[{g}].concentrate: true has no effect without the lone fighter \
                         (striking.lone_fighter = true and two-way exchanges)"
                    )));
                }
            }
        }
        self.distance_warnings(&mut out);
        out
    }

    /// Distance, surprise and the rear (docs/rules.md §5.1, §5.2): fields
    /// that need a `distance`, a ranged group, Full Contact's DR, or each
    /// other.
    fn distance_warnings(&self, out: &mut Vec<(String, String)>) {
        let fudge = matches!(self.striking, Striking::FudgeOpposed(_));
        let mut any_ranged = false;
        for (s, side) in self.sides.iter().enumerate() {
            for (g, group) in side.groups.iter().enumerate() {
                let at = format!("sides[{s}].groups[{g}]");
                let range = group.range.map(|r| {
                    format!(
                        "{{ short_range = {}, range_strength = {} }}",
                        r.short_range(),
                        r.range_strength()
                    )
                });
                let fields = [
                    ("range", range.clone()),
                    ("melee_reach", group.melee_reach.map(|v| v.to_string())),
                    ("move", group.move_distance.map(|v| v.to_string())),
                    ("plan", group.plan.map(|p| format!("{:?}", p.name()))),
                    ("keep_at", group.keep_at.map(|v| v.to_string())),
                ];
                if self.distance.is_none() {
                    for (field, value) in fields {
                        if let Some(value) = value {
                            out.push(with_field(format!(
                                "{at}.{field}: {value} has no effect without a distance (set the scenario's \
                                 `distance` for the sides to start apart)"
                            )));
                        }
                    }
                } else if group.range.is_some() {
                    any_ranged = true;
                }
                if let Some(missile) = group.missile {
                    let missile = serde_json::to_string(&missile).unwrap_or_default();
                    let why = if !fudge {
                        Some("only fudge-opposed striking reads it (FUDGE 4.4's dodge)")
                    } else if self.distance.is_none() || group.range.is_none() {
                        Some("the group does not shoot (a `range` in a battle with a distance)")
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        out.push(with_field(format!("{at}.missile: {missile} has no effect: {why}")));
                    }
                }
                if let Some(dodge) = group.dodge {
                    let why = if !fudge {
                        Some("only fudge-opposed striking reads it (FUDGE 4.4's dodge)")
                    } else if !self.foe_shoots(s) {
                        Some("no foe shoots (a group of another side with a `range`, in a battle with a distance)")
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        out.push(with_field(format!(
                            "{at}.dodge: {:?} has no effect: {why}",
                            dodge.to_string()
                        )));
                    }
                }
                if group.cover != 0 {
                    let why = if !fudge {
                        Some("only fudge-opposed striking reads it (FUDGE 4.4's Difficulty Level)")
                    } else if !self.foe_shoots(s) {
                        Some("no foe shoots (a group of another side with a `range`, in a battle with a distance)")
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        out.push(with_field(format!("{at}.cover: {} has no effect: {why}", group.cover)));
                    }
                }
                if let (Some(keep_at), false, true) = (
                    group.keep_at,
                    group.plan == Some(Plan::KeepDistance),
                    self.distance.is_some(),
                ) {
                    out.push(with_field(format!(
                        "{at}.keep_at: {keep_at} has no effect without plan = \"keep_distance\""
                    )));
                }
                if self.distance.is_some()
                    && group.move_distance == Some(0)
                    && Plan::or_default(group.plan, group.range.is_some()) == Plan::Close
                {
                    out.push(with_field(format!(
                        "{at}.move: 0 with plan \"close\": the group never closes on a foe out of its reach"
                    )));
                }
                if let Some(dr) = group.unaware_defense_rating {
                    if fudge {
                        out.push(with_field(format!(
                            "{at}.unaware_defense_rating: {dr} has no effect under fudge-opposed striking (an \
                             unaware defender does not roll: the blow is unopposed)"
                        )));
                    } else if group.unaware_for == 0 && self.battle.front.is_none() {
                        out.push(with_field(format!(
                            "{at}.unaware_defense_rating: {dr} has no effect: the group is never unaware (no \
                             unaware_for, no battle.front)"
                        )));
                    }
                }
            }
        }
        if let Striking::FullContact(r) = self.striking {
            if r.point_blank && !any_ranged {
                out.push(with_field(
                    "striking.point_blank: true has no effect without a ranged group (a `range`) in a battle with a \
                     distance"
                        .to_string(),
                ));
            }
            if r.point_blank_damage != 0 && !r.point_blank {
                out.push(with_field(format!(
                    "striking.point_blank_damage: {} has no effect without striking.point_blank = true",
                    r.point_blank_damage
                )));
            }
        }
    }
}

impl Scenario {
    /// Whether a group of a side other than `side` shoots (has a `range`,
    /// in a battle with a distance).
    fn foe_shoots(&self, side: usize) -> bool {
        self.distance.is_some()
            && self
                .sides
                .iter()
                .enumerate()
                .any(|(s, x)| s != side && x.groups.iter().any(|g| g.range.is_some()))
    }

    /// The Tick System's options that no group of this scenario reads:
    /// free-action ticks without a group that defends as a free action,
    /// Prepare's bonus without a group that prepares, and Acquire's ticks
    /// without a group that shoots (a `range`, in a battle with a
    /// distance: docs/rules.md §5).
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
        // The groups that shoot, as a battle resolves them (`GroupField`):
        // a `range` in a battle with a distance, under either striking
        // system (FUDGE 4.4's shots pay Acquire as Full Contact's do).
        let shoots = self.distance.is_some() && groups().any(|g| g.range.is_some());
        if c.acquire_ticks != default.acquire_ticks && !shoots {
            out.push(with_field(format!(
                "timing.acquire_ticks: {} has no effect: no group shoots (Acquire is for ranged attacks: a group's \
                 `range`, in a battle with a `distance`)",
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
