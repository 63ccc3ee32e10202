//! Time at the table: initiative, who acts next, declarations and changes
//! of mind, cancelled and disrupted actions, delays, Action Blocks holds,
//! the Tick System's free actions, interrupts and held turns, and effects
//! that run out. Each operation is one undoable step over the scheduler
//! (`crate::timing`), which holds the rules. The types these operations
//! hand out and keep (a [`Turn`], a [`LineDeclaration`], effects and their
//! [`Duration`]) are here with them.

use super::*;

/// An effect of an [`Encounter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EffectId(pub u32);

/// How long an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    /// This many ticks (seconds in Continuous timing) from now.
    Ticks(u64),
    /// Until the start of the round this many rounds on (Continuous timing:
    /// this many stopwatch laps, in ticks).
    Rounds(u32),
}

/// A line's current declaration, as [`Encounter::declaration`] gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDeclaration {
    /// The action's label ("elven bow", "Spark").
    pub label: String,
    /// What it is: Time Taken, speed bonus, rate of fire, kind, GM timing.
    pub declaration: Declaration,
}

/// An effect that ran out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpiredEffect {
    /// Its id.
    pub id: EffectId,
    /// Its name.
    pub name: String,
    /// Whom it was on, if anyone.
    pub target: Option<CombatantId>,
}

/// What [`Encounter::next`] hands the GM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "turn", rename_all = "snake_case")]
pub enum Turn {
    /// A new round (phase, exchange) with its initiative rolled: the sheet
    /// shows who acts when. Initiative may still be corrected with
    /// [`Encounter::set_initiative`].
    NewRound {
        /// Its number.
        round: u32,
        /// The tick sheet of the round.
        sheet: Vec<SheetLine>,
        /// Effects that ran out as the round began.
        expired: Vec<ExpiredEffect>,
    },
    /// These act now, together.
    Moment {
        /// When.
        moment: Moment,
        /// Who, in order (the order actions were scheduled; within an
        /// Action Block, REF order).
        lines: Vec<ActingLine>,
        /// Effects that run out now.
        expired: Vec<ExpiredEffect>,
    },
    /// Nobody is left who can act.
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Effect {
    pub(super) name: String,
    pub(super) target: Option<u32>,
    /// Timer event (tick durations).
    timer: Option<EventId>,
    /// Round at whose start it runs out (round durations).
    until_round: Option<u32>,
    pub(super) active: bool,
}

impl Encounter {
    /// Sets a combatant's initiative (for a group: the group's): a roll
    /// typed in from the table, or the total. Right after a new round it
    /// corrects that round; otherwise it is used for the next roll.
    pub fn set_initiative(&mut self, id: CombatantId, entry: InitiativeEntry) -> TrackerResult<()> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            s.scheduler.set_initiative(actor, entry)?;
            let text = match entry {
                InitiativeEntry::Roll(r) => format!("initiative roll {r:+} entered"),
                InitiativeEntry::Total(t) => format!("initiative {t} entered"),
            };
            let name = s.lines[actor.index()].name.clone();
            note(s, log, format!("{name}: {text}"));
            Ok(())
        })
    }

    /// What happens next: a new round, the lines acting at the next moment
    /// (with the effects that run out then), or [`Turn::Over`]. An
    /// encounter with no combatants at all is an error.
    #[expect(
        clippy::should_implement_trait,
        reason = "the GM's \"next\": fallible and undoable, not an Iterator"
    )]
    pub fn next(&mut self) -> TrackerResult<Turn> {
        if self.state.combatants.is_empty() {
            return Err(TrackerError::not_now(
                "encounter",
                "has no combatants yet: add some before asking who acts",
            ));
        }
        self.mutate(|s, log| {
            let mut acts = Vec::new();
            let mut rng = s.rng.clone();
            let step = s.scheduler.next(&mut rng, &mut acts)?;
            s.rng = rng;
            // A new moment: rolls take the wound penalties as they stand now
            // (simultaneity: a wound struck in the moment counts from the next).
            // Every step counts (a new round or the end too): one taken out at
            // this step still strikes in it, and only in it.
            s.moments = s.moments.saturating_add(1);
            super::amazing::at_step(s);
            let model = &s.model;
            for c in &mut s.combatants {
                c.moment_penalty = c.damage.map_or(0, |d| model.wound_penalty(&d));
            }
            match step {
                None => {
                    if !s.over {
                        note(s, log, "nobody is left who can act".into());
                    }
                    s.over = true;
                    s.current.clear();
                    Ok(Turn::Over)
                }
                Some(Step::NewRound { round }) => {
                    s.current.clear();
                    let mut expired = Vec::new();
                    for (i, e) in s.effects.iter_mut().enumerate() {
                        if e.active && e.until_round.is_some_and(|r| r <= round) {
                            e.active = false;
                            expired.push(ExpiredEffect {
                                id: EffectId(i as u32),
                                name: e.name.clone(),
                                target: e.target.map(CombatantId),
                            });
                        }
                    }
                    let sheet = sheet_of(s);
                    let inits: Vec<String> = s
                        .lines
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| s.scheduler.is_in(ActorId(*i as u32)))
                        .map(|(i, l)| format!("{} {}", l.name, s.scheduler.initiative(ActorId(i as u32)).unwrap_or(0)))
                        .collect();
                    let text = match s.scheduler.system() {
                        TimingSystem::Simultaneous => format!("exchange {round} begins"),
                        TimingSystem::Continuous(_) => format!("the battle begins; initiative: {}", inits.join(", ")),
                        TimingSystem::ActionBlocks(_) => {
                            format!("phase {round} begins; actions this phase: {}", inits.join(", "))
                        }
                        TimingSystem::TickSystem(_) => format!(
                            "round {round} begins, {} ticks long; initiative: {}",
                            sheet.first().map_or(0, |l| l.display),
                            inits.join(", ")
                        ),
                        _ => format!("round {round} begins; initiative: {}", inits.join(", ")),
                    };
                    note(s, log, text);
                    for x in &expired {
                        note(s, log, format!("{} runs out", x.name));
                    }
                    Ok(Turn::NewRound { round, sheet, expired })
                }
                Some(Step::Moment(moment)) => {
                    let mut lines = Vec::new();
                    let mut expired = Vec::new();
                    let mut landed = Vec::new();
                    s.current.clear();
                    for act in acts {
                        match act {
                            Act::Timer { id } => {
                                if let Some(e) = s.effects.get_mut(id as usize)
                                    && e.active
                                {
                                    e.active = false;
                                    expired.push(ExpiredEffect {
                                        id: EffectId(id),
                                        name: e.name.clone(),
                                        target: e.target.map(CombatantId),
                                    });
                                }
                            }
                            Act::Action { actor, nth } => {
                                s.current.push(actor.0);
                                landed.push(actor.0);
                                lines.push(acting_line(s, actor, true, nth));
                            }
                            Act::Turn { actor } => {
                                s.current.push(actor.0);
                                lines.push(acting_line(s, actor, false, 0));
                            }
                        }
                    }
                    let names: Vec<String> = lines
                        .iter()
                        .map(|l| {
                            if l.lands {
                                l.name.clone()
                            } else {
                                format!("{} (turn begins)", l.name)
                            }
                        })
                        .collect();
                    let text = if names.is_empty() {
                        format!("{} (effects only)", label_of(s.scheduler.system(), &moment))
                    } else {
                        format!(
                            "{}: {} {}",
                            label_of(s.scheduler.system(), &moment),
                            names.join(", "),
                            if names.len() == 1 { "acts" } else { "act" }
                        )
                    };
                    note(s, log, text);
                    for x in &expired {
                        note(s, log, format!("{} runs out", x.name));
                    }
                    // An action landing ends a knock-down, or is lost to
                    // a disarm (docs/rules.md §2.1.8).
                    for line in landed {
                        super::amazing::at_landing(s, log, line);
                    }
                    Ok(Turn::Moment { moment, lines, expired })
                }
            }
        })
    }

    /// Declares a combatant's (its line's) next action, labelled `label`.
    /// `roll` is a 2dF Ready Time roll typed in from the table (Continuous,
    /// Graduated); without it the encounter rolls. See
    /// [`Scheduler::declare`] for when it lands: a follow-up after landing,
    /// a change of mind while an action is on the way (never retroactive),
    /// or the next round's action. Returns the absolute tick it lands on,
    /// if it was scheduled.
    pub fn declare(
        &mut self,
        id: CombatantId,
        label: &str,
        action: Declaration,
        roll: Option<i32>,
    ) -> TrackerResult<Option<u64>> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let changing =
                !s.scheduler.is_awaiting(actor) && s.scheduler.pending().iter().any(|p| p.act.actor() == Some(actor));
            let tick = with_rolls(s, roll, |sch, r| sch.declare(actor, action, r))?;
            s.lines[actor.index()].label = label.to_owned();
            let name = s.lines[actor.index()].name.clone();
            let verb = if changing { "changes to" } else { "declares" };
            let when = match tick {
                Some(t) => format!(" landing at {}", describe_tick(s, t)),
                None => String::new(),
            };
            note(
                s,
                log,
                format!(
                    "{name} {verb} {}{when}",
                    if label.is_empty() { "an action" } else { label }
                ),
            );
            Ok(tick)
        })
    }

    /// Cancels a combatant's next action (called off, lost). See
    /// [`Scheduler::cancel`]. Returns whether anything was pending.
    pub fn cancel(&mut self, id: CombatantId) -> TrackerResult<bool> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let done = s.scheduler.cancel(actor)?;
            if done.is_some() {
                let name = s.lines[actor.index()].name.clone();
                note(s, log, format!("{name}'s action is cancelled"));
            }
            Ok(done.is_some())
        })
    }

    /// The combatant was hit before its disruptible action (a spell)
    /// landed: the action is lost. Returns whether it was disrupted.
    pub fn disrupt(&mut self, id: CombatantId) -> TrackerResult<bool> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let done = s.scheduler.disrupt(actor)?;
            if done {
                let name = s.lines[actor.index()].name.clone();
                let label = s.lines[actor.index()].label.clone();
                note(
                    s,
                    log,
                    format!(
                        "{name}'s {} is disrupted",
                        if label.is_empty() { "action" } else { &label }
                    ),
                );
            }
            Ok(done)
        })
    }

    /// Moves a combatant's next action `ticks` later (see [`Scheduler::delay`]).
    pub fn delay(&mut self, id: CombatantId, ticks: u32) -> TrackerResult<u64> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let t = s.scheduler.delay(actor, ticks)?;
            let name = s.lines[actor.index()].name.clone();
            note(
                s,
                log,
                format!("{name} delays {ticks} tick(s), to {}", describe_tick(s, t)),
            );
            Ok(t)
        })
    }

    /// Action Blocks: the combatant holds its declaration to the end of the
    /// current block's sequence. Returns the new order of the block's lines.
    pub fn hold(&mut self, id: CombatantId) -> TrackerResult<Vec<String>> {
        let actor = self.standing(id)?;
        if !matches!(self.system(), TimingSystem::ActionBlocks(_)) {
            return Err(TrackerError::not_now(
                "hold",
                "holding to the end of the block is an Action Blocks rule",
            ));
        }
        if !self.state.current.contains(&actor.0) {
            return Err(TrackerError::not_now(
                "hold",
                "only a combatant acting in the current block can hold",
            ));
        }
        self.mutate(|s, log| {
            s.current.retain(|&a| a != actor.0);
            s.current.push(actor.0);
            let name = s.lines[actor.index()].name.clone();
            note(s, log, format!("{name} holds to the end of the block"));
            Ok(s.current.iter().map(|&a| s.lines[a as usize].name.clone()).collect())
        })
    }

    /// Tick System: a free action (defending by default) now. See
    /// [`Scheduler::free_action`].
    pub fn free_action(
        &mut self,
        id: CombatantId,
        ticks: Option<u32>,
        defending: bool,
    ) -> TrackerResult<FreeActionResult> {
        let actor = self.standing(id)?;
        self.tick_system_only("free_action")?;
        self.mutate(|s, log| {
            let r = s.scheduler.free_action(actor, ticks, defending)?;
            let name = s.lines[actor.index()].name.clone();
            let mut text = format!(
                "{name} {} ({} tick(s))",
                if defending { "defends" } else { "takes a free action" },
                r.ticks
            );
            if r.cancelled_action {
                text += ", cancelling the action in progress";
            }
            if r.pushed {
                text += ", pushing the next turn";
            }
            note(s, log, text);
            Ok(r)
        })
    }

    /// Tick System: something tries to stop the combatant's non-combat
    /// action; `concentration_kept` is the result of its Resist
    /// Concentration Loss roll. Returns whether the action was lost.
    pub fn interrupt(&mut self, id: CombatantId, concentration_kept: bool) -> TrackerResult<bool> {
        let actor = self.standing(id)?;
        self.tick_system_only("interrupt")?;
        self.mutate(|s, log| {
            let lost = s.scheduler.interrupt(actor, concentration_kept)?;
            let name = s.lines[actor.index()].name.clone();
            note(
                s,
                log,
                if lost {
                    format!("{name} is interrupted and loses the action")
                } else {
                    format!("{name} keeps concentrating")
                },
            );
            Ok(lost)
        })
    }

    /// Tick System: a prepared combatant takes its held turn now; it then
    /// declares as at any turn.
    pub fn take_held_turn(&mut self, id: CombatantId) -> TrackerResult<ActingLine> {
        let actor = self.standing(id)?;
        self.tick_system_only("take_held_turn")?;
        self.mutate(|s, log| {
            s.scheduler.take_held_turn(actor)?;
            s.current.push(actor.0);
            let line = acting_line(s, actor, false, 0);
            note(s, log, format!("{} takes the held turn", line.name));
            Ok(line)
        })
    }

    /// `NotNow` unless the encounter runs the Tick System (whose rules
    /// `field` belongs to).
    fn tick_system_only(&self, field: &str) -> TrackerResult<()> {
        if matches!(self.system(), TimingSystem::TickSystem(_)) {
            Ok(())
        } else {
            Err(TrackerError::not_now(
                field,
                format!("a Tick System rule; this encounter runs {}", self.system().name()),
            ))
        }
    }

    /// The combatant's (its line's) current declaration and its label.
    pub fn declaration(&self, id: CombatantId) -> TrackerResult<LineDeclaration> {
        let c = self.combatant(id)?;
        let line = &self.state.lines[c.line as usize];
        Ok(LineDeclaration {
            label: line.label.clone(),
            declaration: self.state.scheduler.declaration(ActorId(c.line))?,
        })
    }

    /// The first living member of each line awaiting a declaration.
    pub fn awaiting_combatants(&self) -> Vec<CombatantId> {
        self.state
            .scheduler
            .awaiting()
            .into_iter()
            .filter_map(|a| {
                self.state.lines[a.index()]
                    .members
                    .iter()
                    .find(|&&m| self.state.combatants[m as usize].status == Status::Standing)
                    .map(|&m| CombatantId(m))
            })
            .collect()
    }

    /// Tick System: the bonus to the combatant's defensive rolls (+4 while prepared).
    pub fn defense_bonus(&self, id: CombatantId) -> TrackerResult<i32> {
        let c = self.combatant(id)?;
        Ok(self.state.scheduler.defense_bonus(ActorId(c.line)))
    }

    /// Adds an effect (a spell, a gas cloud) that runs out after `duration`;
    /// [`next`](Self::next) reports it when it does.
    pub fn add_effect(
        &mut self,
        name: &str,
        target: Option<CombatantId>,
        duration: Duration,
    ) -> TrackerResult<EffectId> {
        if let Some(t) = target {
            self.combatant(t)?;
        }
        self.mutate(|s, log| {
            let id = s.effects.len() as u32;
            let (timer, until_round) = match (duration, s.scheduler.system()) {
                (Duration::Ticks(t), _) => (Some(s.scheduler.set_timer(id, t)?), None),
                (Duration::Rounds(r), TimingSystem::Continuous(c)) => {
                    (Some(s.scheduler.set_timer(id, u64::from(r) * u64::from(c.lap))?), None)
                }
                (Duration::Rounds(r), _) => {
                    if r == 0 {
                        return Err(TrackerError::invalid("duration.rounds", "0 is outside 1..=4294967295"));
                    }
                    (None, Some(s.scheduler.round().saturating_add(r)))
                }
            };
            s.effects.push(Effect {
                name: name.to_owned(),
                target: target.map(|t| t.0),
                timer,
                until_round,
                active: true,
            });
            note(s, log, format!("effect {name} begins"));
            Ok(EffectId(id))
        })
    }

    /// Ends an effect early; returns whether it was still active.
    pub fn end_effect(&mut self, id: EffectId) -> TrackerResult<bool> {
        if self.state.effects.get(id.0 as usize).is_none() {
            return Err(TrackerError::not_found("effect", format!("no effect {}", id.0)));
        }
        self.mutate(|s, log| {
            let e = &mut s.effects[id.0 as usize];
            let was = e.active;
            e.active = false;
            if let Some(t) = e.timer {
                s.scheduler.cancel_timer(t);
            }
            if was {
                let name = s.effects[id.0 as usize].name.clone();
                note(s, log, format!("effect {name} ends"));
            }
            Ok(was)
        })
    }
}

/// Runs `f` with the table's roll if one was typed in, else the generator.
fn with_rolls<T>(
    s: &mut State,
    roll: Option<i32>,
    f: impl FnOnce(&mut Scheduler, &mut dyn RollSource) -> crate::Result<T>,
) -> TrackerResult<T> {
    match roll {
        Some(r) => {
            let mut table = ScriptedRolls::new([r]);
            Ok(f(&mut s.scheduler, &mut table)?)
        }
        None => {
            let mut rng = s.rng.clone();
            let v = f(&mut s.scheduler, &mut rng)?;
            s.rng = rng;
            Ok(v)
        }
    }
}

fn label_of(system: &TimingSystem, m: &Moment) -> String {
    match system {
        TimingSystem::Simultaneous => format!("exchange {}", m.display),
        TimingSystem::SimpleRounds => format!("round {} pass {} initiative {}", m.round, m.pass, m.display),
        TimingSystem::GraduatedRounds(_) if m.pass > 0 => {
            format!(
                "round {} end of round pass {} initiative {}",
                m.round, m.pass, m.display
            )
        }
        TimingSystem::GraduatedRounds(_) => format!("round {} tick {}", m.round, m.display),
        TimingSystem::Continuous(_) => format!("tick {}", m.display),
        TimingSystem::TickSystem(_) => format!("round {} tick {}", m.round, m.display),
        TimingSystem::ActionBlocks(_) => format!("phase {} block {}", m.round, m.display),
    }
}

fn describe_tick(s: &State, tick: u64) -> String {
    s.scheduler
        .pending()
        .into_iter()
        .find(|p| p.at.tick == tick)
        .map(|p| label_of(s.scheduler.system(), &p.at))
        .unwrap_or_else(|| format!("tick {tick}"))
}
