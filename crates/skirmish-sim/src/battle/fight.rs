//! The battle loop: the clock hands out a moment's actors, each picks its
//! target, every strike is rolled, then every hit lands together and the
//! fallen fall (the module docs of `battle` give the rules).

use skirmish_core::combat::{self, AmazingEffect, Bearing, OpposedSide, ParryCost};
use skirmish_core::damage::DamageModel;
use skirmish_core::dice::SeededRolls;
use skirmish_core::fighter::Fighter;
use skirmish_core::striking::full_contact::StrikeOutcome;
use skirmish_core::striking::opposed::{Modifier, ModifierReason};
use skirmish_core::timing::tick_system::Defending;

use super::distance::Act;
use super::targeting::{Arrays, DISARMED, SPENT_ON_PARRY, rank_key};
use super::trace::{self, OpposedEnd, OpposedPart, Trace};
use super::{Battle, BattleProgress, Control, PROGRESS_EVERY, Resume, RunOptions};
use crate::clock::{Clock, Tick};
use crate::error::SimError;
use crate::report::{BattleReport, BattleSummary, Casualties, Outcome};
use crate::roster::{NONE, exchange_key};
use crate::scenario::Striking;
use skirmish_core::fighter::ExchangeRule;

impl Battle {
    /// Fights from the arrays' state (reset by the caller) until a side is
    /// left, none is, or a limit is reached.
    #[expect(clippy::too_many_arguments, reason = "the loop's inputs, each of its own kind")]
    pub(super) fn fight<C: Clock, D: DamageModel>(
        &self,
        clock: &mut C,
        model: &D,
        state: &mut [D::State],
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        options: &RunOptions,
        resume: Resume,
        control: &mut Control<'_>,
    ) -> Result<BattleReport, SimError> {
        let fielded: Vec<u64> = ws.standing.iter().map(|s| s.len() as u64).collect();
        let mut summary = BattleSummary::start();
        summary.rounds = resume.rounds;
        summary.ticks = resume.tick;
        let mut casualties = Vec::new();
        let mut trace = Trace::new(options.trace, control.trace.take());
        let mut next_progress = 0u64;
        let total: u64 = fielded.iter().sum();
        let mut round_starts = resume.round_starts;
        // Per side, the fighters who left it standing when it broke.
        let mut left_standing = vec![0u64; if self.morale.is_empty() { 0 } else { fielded.len() }];

        // Already decided before a blow (a side with nobody in it).
        let left = ws.standing.iter().filter(|s| !s.is_empty()).count();
        if left < 2 {
            summary.outcome = if left == 1 {
                Outcome::Win {
                    side: ws.standing.iter().position(|s| !s.is_empty()).unwrap_or(0),
                }
            } else {
                Outcome::Draw
            };
        }

        while left >= 2 && summary.outcome == Outcome::Timeout {
            let Some(step) = clock.next(rolls, &mut ws.acting)? else {
                break; // nobody can ever act again: a timeout, not a win
            };
            let (tick, round, display, pass) = match step {
                Tick::NewRound => {
                    round_starts += 1;
                    if round_starts > self.max_rounds {
                        break; // a round past the cap is not begun
                    }
                    summary.rounds = summary.rounds.max(round_starts);
                    continue;
                }
                Tick::Moment {
                    tick,
                    round,
                    display,
                    pass,
                } => (tick, round, display, pass),
            };
            // The caps: a moment past the ticks or rounds (Continuous counts
            // its stopwatch laps) is not fought, nor one that would take the
            // actions past their cap: a moment is fought whole or not at all.
            if tick > self.max_ticks
                || round > self.max_rounds
                || summary.actions.saturating_add(ws.acting.len() as u64) > self.max_actions
            {
                break;
            }
            if let Some(progress) = control.progress.as_mut()
                && summary.actions >= next_progress
            {
                next_progress = summary.actions.saturating_add(PROGRESS_EVERY);
                progress(&BattleProgress {
                    tick,
                    round,
                    actions: summary.actions,
                    standing: ws.standing.iter().map(|s| s.len() as u64).sum(),
                    fielded: total,
                });
            }
            if control.cancelled() {
                return Err(SimError::Interrupted {
                    tick: summary.ticks,
                    round: summary.rounds,
                    actions: summary.actions,
                });
            }
            summary.ticks = tick;
            summary.rounds = summary.rounds.max(round);
            trace.at(tick, round, display, pass);
            // FUDGE's group roll: one 2dF per side for all its fighters at
            // this moment; a fighter alone on its side rolls its own 4dF.
            if let Striking::FudgeOpposed(r) = self.striking
                && r.group_roll
            {
                for (roll, side) in ws.side_roll.iter_mut().zip(ws.standing.iter()) {
                    *roll = (side.len() >= 2).then(|| rolls.fudge(2));
                }
            }
            // First every actor picks its target (all at once: the
            // engagements of this moment count in every strike of it)...
            self.pick_targets(clock, ws, rolls, round, &mut summary, &mut trace)?;
            // ...then every strike is resolved (FUDGE: which strikes are
            // exchanges of their own, and who is beset, counted first)...
            ws.hits.clear();
            let lone = self.lone_fighter();
            if let Striking::FudgeOpposed(_) = self.striking {
                self.count_exchanges(ws, round, lone);
            }
            for i in 0..ws.picks.len() {
                // Tick System: Prepare's bonus, as it stands at the start
                // of the moment (answers come at its end).
                let bonus = if self.tick_policies {
                    clock.defense_bonus(ws.picks[i].1)
                } else {
                    0
                };
                self.strike(ws, rolls, (i, bonus), (tick, round), &mut summary, &mut trace)?;
            }
            // ...and at the end of the moment every hit lands together.
            self.land_hits(clock, model, state, ws, &mut summary, &mut trace);
            if self.tick_policies {
                self.defend_and_answer(clock, ws, &mut trace)?;
            }
            if !ws.fallen.is_empty() && options.casualties {
                casualties.push(Casualties {
                    tick,
                    standing: ws.standing.iter().map(|s| s.len() as u64).collect(),
                });
            }
            let mut sides_left = ws.standing.iter().filter(|s| !s.is_empty()).count();
            // Morale: judged after the moment's falls, on its end state,
            // while the battle goes on (a side whose foes all fell wins).
            if !self.morale.is_empty() && !ws.fallen.is_empty() && sides_left >= 2 {
                self.break_sides(clock, ws, (&fielded, &mut left_standing), &mut summary, &mut trace);
                sides_left = ws.standing.iter().filter(|s| !s.is_empty()).count();
            }
            if sides_left <= 1 {
                summary.outcome = match ws.standing.iter().position(|s| !s.is_empty()) {
                    Some(side) => Outcome::Win { side },
                    None => Outcome::Draw,
                };
                break;
            }
        }
        Ok(BattleReport {
            summary,
            sides: self.sides.clone(),
            fielded,
            standing: ws
                .standing
                .iter()
                .enumerate()
                .map(|(s, list)| list.len() as u64 + left_standing.get(s).copied().unwrap_or(0))
                .collect(),
            casualties,
            trace: trace.into_kept(),
        })
    }

    /// Every actor of the moment (`ws.acting`) draws its dice and picks its
    /// target among the enemies standing at the start of the moment, and
    /// engages it: the moment's strikes go into `ws.picks`.
    #[inline]
    fn pick_targets<C: Clock>(
        &self,
        clock: &mut C,
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        round: u32,
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) -> Result<(), SimError> {
        let reach = self.reach_limit();
        let Arrays {
            penalty,
            down,
            taken,
            target_of,
            engaged_by,
            standing,
            acting,
            picks,
            ranking,
            line,
            rear,
            spent,
            knocked,
            side_roll,
            ..
        } = ws;
        picks.clear();
        for &a in acting.iter() {
            summary.actions += 1;
            let ag = &self.groups[self.group_of[a as usize] as usize];
            // A Full Contact action draws its target, Strike roll and
            // follow-up Ready Time roll together (`action_dice`).
            let (drawn_target, strike_roll) = match self.striking {
                Striking::FullContact(_) => {
                    let dice = rolls.action_dice(self.random_pool(ag.side, standing));
                    clock.ready_roll(a, dice.ready);
                    (Some(dice.target), dice.strike)
                }
                Striking::FudgeOpposed(_) => (None, 0),
            };
            // Its next action: a knocked-down fighter is up again; one
            // already spent on a parry, or lost to a disarm (docs/rules.md
            // §2.1.4, §2.1.8), is taken, its dice drawn, and strikes no one.
            if self.spends_actions {
                knocked[a as usize] = 0;
                match std::mem::take(&mut spent[a as usize]) {
                    0 => {}
                    SPENT_ON_PARRY => {
                        trace.say(|| trace::spent_on_parry(&self.fighter_name(a)));
                        continue;
                    }
                    _ => {
                        trace.say(|| trace::lost_to_disarm(&self.fighter_name(a)));
                        continue;
                    }
                }
            }
            let picked = self.pick_target(
                a,
                ag.side,
                standing,
                (target_of, engaged_by, taken, down),
                ranking,
                rolls,
                drawn_target,
            );
            let t = if self.distance.is_some() {
                // docs/rules.md §5.1: strike what is in reach, else move
                // by the plan, or wait.
                let rating = match self.striking {
                    Striking::FullContact(_) => ag.fighter.strike_rating.saturating_add(penalty[a as usize]),
                    // The side's group 2dF of this moment, if it rolls one.
                    Striking::FudgeOpposed(_) => self.best_result(
                        a,
                        penalty[a as usize],
                        round,
                        side_roll.get(usize::from(ag.side)).is_some_and(Option::is_some),
                    ),
                };
                match self.act_at_distance(a, ag.side, picked, rating, line, (target_of, engaged_by)) {
                    Act::Strike(t) => t,
                    Act::Move(by) => {
                        line.advance(a, ag.side, by);
                        trace.say(|| {
                            let nearest = line.nearest_foe(ag.side).map(|n| line.between(a, n));
                            trace::moves(&self.fighter_name(a), by, nearest)
                        });
                        continue;
                    }
                    Act::Wait => {
                        trace.say(|| {
                            let nearest = line.nearest_foe(ag.side).map(|n| line.between(a, n));
                            trace::waits(&self.fighter_name(a), nearest)
                        });
                        continue;
                    }
                }
            } else {
                let Some(t) = picked else {
                    trace.say(|| trace::no_one_in_reach(&self.fighter_name(a)));
                    continue;
                };
                t
            };
            // Engage the target.
            let old = target_of[a as usize];
            if old != t {
                // Acquire (Tick System, docs/rules.md §5): a ranged
                // attacker changes target here (`acquire.rs`).
                self.acquire(clock, (a, t), line, trace)?;
                if let Some(r) = rear.get_mut(a as usize) {
                    *r = self.comes_from_the_rear(t, engaged_by[t as usize]);
                }
                if old != NONE {
                    engaged_by[old as usize] -= 1;
                }
                engaged_by[t as usize] += 1;
                target_of[a as usize] = t;
                if ranking.is_on() {
                    let arrays = (&down[..], &taken[..], &engaged_by[..]);
                    if old != NONE {
                        ranking.set(old, rank_key(self.targeting, reach, old, arrays));
                    }
                    ranking.set(t, rank_key(self.targeting, reach, t, arrays));
                }
            }
            picks.push((a, t, strike_roll));
        }
        Ok(())
    }

    /// Whether FUDGE 4.34's lone fighter is played: FUDGE striking, the
    /// two-way exchange, the rule on.
    fn lone_fighter(&self) -> bool {
        matches!(self.striking, Striking::FudgeOpposed(r) if r.lone_fighter && r.exchange == ExchangeRule::TwoWay)
    }

    /// FUDGE's first pass over the moment's picks: whether each is an
    /// exchange of its own (exchanges by round, docs/rules.md §2.2.2: a
    /// blow at a foe that already began an exchange with this fighter
    /// this round is that exchange), and with the lone-fighter rule, each
    /// fighter's exchanges of the moment.
    fn count_exchanges(&self, ws: &mut Arrays, round: u32, lone: bool) {
        let Arrays {
            picks,
            live,
            exchanged,
            lone: moment,
            shots,
            line,
            ..
        } = ws;
        live.clear();
        if lone {
            moment.begin();
        }
        for (i, &(a, t, _)) in picks.iter().enumerate() {
            // FUDGE 4.4's shots are no melee exchanges (`ranged.rs`).
            if self.shoots_fudge(a, t, line) {
                shots.note(a, i);
                live.push(true);
                continue;
            }
            let own = !self.exchanges_by_round || exchanged[t as usize] != exchange_key(round, a);
            if own && self.exchanges_by_round {
                exchanged[a as usize] = exchange_key(round, t);
            }
            if own && lone {
                moment.engage(a, t);
            }
            live.push(own);
        }
    }

    /// The `i`th strike of the moment (with the Full Contact Strike roll
    /// drawn at the pick): counted, traced, and a hit kept in `ws.hits`
    /// for the end of the moment (under a FUDGE two-way exchange, the
    /// defender's hit on the attacker too; a beset fighter's blows wait
    /// in `ws.lone`).
    #[inline]
    fn strike(
        &self,
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        (i, prepared): (usize, i32),
        (tick, round): (u64, u32),
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) -> Result<(), SimError> {
        let (a, t, strike_roll) = ws.picks[i];
        if self.shoots_fudge(a, t, &ws.line) {
            return self.fudge_shot(ws, rolls, (i, prepared), (tick, round), summary, trace);
        }
        // FUDGE 4.34: the blows of beset fighters whose last exchange this
        // was, and their trace lines, after this exchange's.
        let mut settled_hits: Vec<(u32, i32)> = Vec::new();
        let mut settled_lines: Vec<String> = Vec::new();
        let Arrays {
            penalty,
            engaged_by,
            hits,
            side_roll,
            live,
            lone,
            line,
            rear,
            spent,
            knocked,
            scouting,
            ..
        } = ws;
        // Surprise, or a blow from the rear (docs/rules.md §5.2): the
        // defender is unaware of it.
        let unaware = self.defends_unaware(a, t, (tick, round), rear);
        let (ag_side, tg_side) = (self.side_of(a), self.side_of(t));
        let ag = &self.groups[self.group_of[a as usize] as usize].fighter;
        let tg = &self.groups[self.group_of[t as usize] as usize].fighter;
        let (landed, damage, counter, what) = match self.striking {
            Striking::FullContact(r) => {
                let sr = ag.strike_rating + penalty[a as usize];
                let aware_dr = if unaware {
                    self.field_of(t).unaware_defense
                } else {
                    tg.defense_rating
                };
                // A knocked-down target defends the worse (§2.1.8).
                let down_by = if self.spends_actions { knocked[t as usize] } else { 0 };
                // Prepare's bonus, like every defensive bonus, needs
                // awareness (docs/rules.md §2.1.2).
                let prepared = if unaware { 0 } else { prepared };
                let dr = aware_dr + penalty[t as usize] - down_by + prepared;
                // A ranged weapon shoots at the distance of the moment
                // (Full Contact "Range Penalties", docs/rules.md §5.1).
                let shot = match (self.distance, self.field_of(a).reach.range()) {
                    (Some(_), Some(range)) => Some(range.at(line.between(a, t)).map_err(SimError::rules)?),
                    _ => None,
                };
                let blow = combat::full_contact_blow(
                    sr,
                    dr,
                    strike_roll,
                    shot,
                    r.point_blank,
                    &r,
                    ag.offense,
                    tg.defense_factor,
                )
                .map_err(SimError::rules)?;
                match blow.outcome {
                    StrikeOutcome::AmazingStrike { .. } => summary.amazing_strikes += 1,
                    StrikeOutcome::AmazingDefense { .. } => summary.amazing_defenses += 1,
                    _ => {}
                }
                // A blow that would land may be parried (docs/rules.md
                // §2.1.4): the target's policy decides, knowing the
                // attack's total; the parry spends its next action unless
                // the timing system makes it free.
                let mut landed = blow.landed;
                let mut parry_words = String::new();
                // An unaware defender does not see the blow coming, so it
                // cannot parry it (docs/rules.md §5.2).
                if self.spends_actions && landed && !unaware {
                    // The attack's final value: its SR after range (and
                    // point-blank) plus the roll (docs/rules.md §2.1.4).
                    let final_sr = match shot {
                        Some(shot) => i32::try_from(shot.strike_rating(sr, combat::strike_options(&r, r.point_blank)))
                            .unwrap_or(i32::MIN),
                        None => sr,
                    };
                    let parry_sr = tg.strike_rating + penalty[t as usize];
                    let cost = combat::parry_cost(&self.timing);
                    // A parry needs an action to spend (a free one, a
                    // weapon in hand).
                    let free = match cost {
                        ParryCost::Free => spent[t as usize] != DISARMED,
                        ParryCost::NextAction => spent[t as usize] == 0,
                    };
                    let attack_total = i64::from(final_sr) + i64::from(strike_roll);
                    let foe_dr = ag.defense_rating + penalty[a as usize];
                    if free
                        && tg.parry.parries(
                            parry_sr,
                            attack_total,
                            parry_sr,
                            foe_dr,
                            combat::strike_options(&r, false),
                        )
                    {
                        let roll = rolls.four_df();
                        let parried =
                            combat::parry_blow(&blow, final_sr, parry_sr, roll, &r).map_err(SimError::rules)?;
                        if cost == ParryCost::NextAction {
                            spent[t as usize] = SPENT_ON_PARRY;
                        }
                        landed = !parried.blocked;
                        if trace.is_on() {
                            parry_words = trace::parry(&self.fighter_name(t), parry_sr, roll, &parried);
                        }
                    }
                }
                // What an amazing result does (§2.1.8): double damage is in
                // the blow's damage; a disarm or knock-down befalls the
                // attacker.
                match blow.effect {
                    Some(AmazingEffect::Disarm) => spent[a as usize] = DISARMED,
                    Some(AmazingEffect::KnockDown { penalty: p }) => knocked[a as usize] = p,
                    Some(AmazingEffect::DoubleDamage) | None => {}
                }
                let what = trace.is_on().then(|| {
                    let effect = blow
                        .effect
                        .map_or_else(String::new, |e| trace::amazing(&self.fighter_name(a), e));
                    let what = match shot {
                        Some(shot) => {
                            trace::full_contact_shot(sr, shot, r.point_blank, (strike_roll, dr, unaware), &blow.outcome)
                        }
                        None => trace::full_contact(sr, strike_roll, dr, &blow.outcome, unaware),
                    };
                    (what, effect + &parry_words)
                });
                (landed, blow.damage, None, what)
            }
            Striking::FudgeOpposed(r) => {
                if !live[i] {
                    trace.say(|| trace::already_exchanged(&self.fighter_name(a), &self.fighter_name(t)));
                    return Ok(());
                }
                let lone_on = self.lone_fighter();
                let round_no = round.max(1);
                let a_skill = ag.skill.in_round(round_no).map_err(SimError::rules)?.value();
                let t_skill = tg.skill.in_round(round_no).map_err(SimError::rules)?.value();
                // FUDGE 4.34: a well-armored fighter beset by several may
                // let this blow meet his armor unopposed.
                // An unaware defender does not roll: the blow is unopposed
                // (FUDGE 4.4's unaware target, docs/rules.md §5.2).
                let ignored = unaware || (lone_on && tg.concentrate && lone.ignores(t, a));
                // A fighter's roll: none for an NPC whose result is its
                // trait level (FUDGE 4.33), else its side's group roll or
                // its own 4dF; a beset fighter's one roll of the moment.
                let mut roll_of = |side: u8, npc: bool| {
                    if npc {
                        0
                    } else {
                        side_roll[side as usize].unwrap_or_else(|| rolls.four_df())
                    }
                };
                let (a_beset, t_beset) = (lone_on && lone.beset(a), lone_on && lone.beset(t));
                let ar = lone.roll((a, a_beset), || roll_of(ag_side, ag.npc_result));
                let dr = if ignored {
                    0
                } else {
                    lone.roll((t, t_beset), || roll_of(tg_side, tg.npc_result))
                };
                // FUDGE 4.32: each side's posture, drawn now if mixed.
                let ap = lone.posture((a, a_beset), || ag.posture.draw(rolls).offense());
                let tp = if ignored {
                    0
                } else {
                    lone.posture((t, t_beset), || tg.posture.draw(rolls).offense())
                };
                // FUDGE 4.34: a fighter beset by several is at the per-foe
                // penalty for each attacker beyond the first, attacking and
                // defending.
                let crowd = |f: u32| r.outnumbered(engaged_by[f as usize]);
                // FUDGE 4.31's standing modifiers and the minimums by Scale
                // and aim, each way.
                let (ab, tb) = (Bearing::of(ag), Bearing::of(tg));
                let min = r.minimum_to_hit.value();
                // FUDGE 4.31: a fighter a foe scouted is at -1
                // (`scouting.rs`).
                let (a_scouted, t_scouted) = if scouting.is_on() {
                    let by_round = self.timing.exchanges_by_round();
                    let t_scouted = if ignored {
                        0
                    } else {
                        scouting.penalty(t, (tick, round_no), by_round)
                    };
                    (scouting.penalty(a, (tick, round_no), by_round), t_scouted)
                } else {
                    (0, 0)
                };
                let attacker = OpposedSide {
                    skill: a_skill,
                    penalty: penalty[a as usize],
                    outnumbered: crowd(a),
                    roll: ar,
                    stance: ag.stance,
                    modifier: ab.modifier_against(&tb).saturating_add(a_scouted),
                    minimum: ab.minimum_against(&tb, min),
                    posture: ap,
                };
                let defender = OpposedSide {
                    skill: t_skill,
                    penalty: penalty[t as usize],
                    outnumbered: crowd(t),
                    roll: dr,
                    stance: tg.stance,
                    modifier: tb
                        .modifier_against(&ab)
                        .saturating_add(prepared)
                        .saturating_add(t_scouted),
                    minimum: tb.minimum_against(&ab, min),
                    posture: tp,
                };
                let (blow, counter) = if ignored {
                    (combat::unopposed_blow(attacker, ag.offense, tg.defense_factor), None)
                } else {
                    let blow = combat::opposed_blow(attacker, defender, ag.offense, tg.defense_factor);
                    // A two-way exchange: the defender who wins hurts the attacker.
                    (blow, combat::counter_blow(&blow, &r, tg.offense, ag.defense_factor))
                };
                // FUDGE 4.31: an all-out defender unhit may scout its foe.
                let mut scout_words = String::new();
                if scouting.is_on() && !ignored {
                    for (f, foe, hit) in [(a, t, counter.is_some()), (t, a, blow.landed)] {
                        let wounds = penalty[f as usize];
                        if let Some(words) = self.scout(scouting, (f, foe), (hit, wounds), (tick, round_no), rolls)? {
                            scout_words.push_str(&words);
                        }
                    }
                }
                let back = blow.answer.0.saturating_sub(blow.answer.1);
                // His degree as FUDGE 4.34 compares it (ties given by 4.31
                // counted), or none over a foe who did not roll against him.
                let a_degree = if ignored {
                    crate::lone::UNOPPOSED
                } else {
                    blow.attacker_degree()
                };
                // A beset fighter's blow waits for the end of the moment's
                // exchanges (FUDGE 4.34).
                let a_waits = lone_on && lone.beset(a);
                let t_waits = lone_on && !ignored && lone.beset(t);
                if a_waits {
                    lone.defer(a, t, a_degree, blow.landed.then_some(blow.damage));
                }
                if t_waits {
                    lone.defer(t, a, blow.defender_degree(), counter);
                }
                let landed = blow.landed && !a_waits;
                let counter = counter.filter(|_| !t_waits);
                // After a beset fighter's last exchange of the moment, his
                // blows land (FUDGE 4.34's rule), after this exchange's.
                if lone_on {
                    for f in [a, t] {
                        if lone.beset(f)
                            && let Some(settled) = lone.finish(f)
                        {
                            for &(foe, damage) in lone.blows(&settled) {
                                settled_hits.push((foe, damage));
                            }
                            if trace.is_on() {
                                let blows: Vec<_> = lone
                                    .blows(&settled)
                                    .iter()
                                    .map(|&(x, d)| (self.fighter_name(x), d))
                                    .collect();
                                settled_lines.push(trace::lone(
                                    &self.fighter_name(f),
                                    settled.foes,
                                    settled.worst.unwrap_or(0),
                                    &blows,
                                ));
                            }
                        }
                    }
                }
                let what = trace.is_on().then(|| {
                    let part = |side: &OpposedSide, (result, posture): (i32, i32), (me, foe): (&Fighter, &Fighter)| {
                        OpposedPart {
                            result,
                            posture,
                            skill: side.skill,
                            penalty: side.penalty,
                            roll: (!me.npc_result).then_some(side.roll),
                            outnumbered: side.outnumbered,
                            stance: side.stance,
                            modifiers: combat::matchup(me, foe, &r).modifiers,
                        }
                    };
                    let end = match (landed, counter.is_some()) {
                        (true, true) => OpposedEnd::Both(blow.degree, back),
                        (true, false) => OpposedEnd::Hit(blow.degree),
                        (false, true) => OpposedEnd::Countered(back),
                        (false, false) => OpposedEnd::NoHit,
                    };
                    let scouted = |mut p: OpposedPart, value: i32| {
                        if value != 0 {
                            p.modifiers.push(Modifier {
                                reason: ModifierReason::OpponentScouted,
                                value,
                            });
                        }
                        p
                    };
                    let attack = scouted(part(&attacker, (blow.attack, ap), (ag, tg)), a_scouted);
                    let what = if ignored {
                        trace::unopposed(&attack, blow.defense, end, unaware)
                    } else {
                        trace::opposed(
                            &attack,
                            &scouted(
                                part(&defender, (blow.defense, tp.saturating_neg()), (tg, ag)),
                                t_scouted,
                            ),
                            end,
                        )
                    };
                    let mut note = scout_words;
                    for (waits, f) in [(a_waits, a), (t_waits, t)] {
                        if waits {
                            note.push_str(&trace::beset(&self.fighter_name(f), lone.foes(f)));
                        }
                    }
                    (what, note)
                });
                (landed, blow.damage, counter, what)
            }
        };
        if landed {
            summary.hits += 1;
            hits.push((t, damage));
        }
        if let Some(back) = counter {
            summary.hits += 1;
            hits.push((a, back));
        }
        if let Some((what, note)) = what {
            trace.say(|| {
                let (a_name, t_name) = (self.fighter_name(a), self.fighter_name(t));
                // A Full Contact shot (FUDGE's are `ranged.rs`'s).
                let verb = if self.distance.is_some()
                    && self.field_of(a).reach.range().is_some()
                    && matches!(self.striking, Striking::FullContact(_))
                {
                    "shoots"
                } else {
                    "strikes"
                };
                trace::strike(
                    (&a_name, &ag.weapon, &t_name),
                    verb,
                    &what,
                    landed.then_some(damage),
                    counter,
                ) + &note
            });
        }
        for hit in settled_hits {
            summary.hits += 1;
            hits.push(hit);
        }
        for line in settled_lines {
            trace.say(|| line);
        }
        Ok(())
    }

    /// Tick System policies at the end of the moment (docs/rules.md §5),
    /// after the hits landed: each strike at a fighter still standing whose
    /// group defends as a free action is a defense of
    /// `free_action_ticks` (in the order struck; a prepared fighter's first
    /// is free), then each prepared fighter struck at takes its held turn
    /// and attacks.
    fn defend_and_answer<C: Clock>(&self, clock: &mut C, ws: &mut Arrays, trace: &mut Trace) -> Result<(), SimError> {
        for i in 0..ws.picks.len() {
            let t = ws.picks[i].1;
            if ws.down[t as usize] {
                continue;
            }
            let g = &self.groups[self.group_of[t as usize] as usize].fighter;
            if g.defend == Defending::FreeAction
                && let Some(r) = clock.defend(t)?
            {
                trace.say(|| trace::defends(&self.fighter_name(t), &r));
            }
        }
        for i in 0..ws.picks.len() {
            let t = ws.picks[i].1;
            if !ws.down[t as usize]
                && self.groups[self.group_of[t as usize] as usize].fighter.prepares()
                && clock.answer(t)?
            {
                trace.say(|| trace::answers(&self.fighter_name(t)));
            }
        }
        Ok(())
    }

    /// The end of the moment: every hit of `ws.hits` lands, in the order it
    /// was struck; the fallen (into `ws.fallen`) leave the clock, their
    /// side's standing list and their engagement; a fighter hit and still
    /// standing loses a pending disruptible action.
    #[inline]
    fn land_hits<C: Clock, D: DamageModel>(
        &self,
        clock: &mut C,
        model: &D,
        state: &mut [D::State],
        ws: &mut Arrays,
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) {
        let reach = self.reach_limit();
        let Arrays {
            penalty,
            down,
            taken,
            target_of,
            engaged_by,
            standing,
            pos,
            hits,
            fallen,
            ranking,
            line,
            ..
        } = ws;
        fallen.clear();
        for &(t, damage) in hits.iter() {
            let out = model.apply(&mut state[t as usize], damage);
            // The penalty left on its rolls, while it still stands to roll.
            let rolls = if out.after.is_down() { 0 } else { out.penalty };
            trace.say(|| trace::damage_result(&self.fighter_name(t), damage, &out.change, rolls));
            penalty[t as usize] = out.penalty;
            taken[t as usize] = crate::ranking::add_taken(taken[t as usize], damage);
            if out.after.is_down() && !down[t as usize] {
                down[t as usize] = true;
                fallen.push(t);
            }
            if ranking.is_on() {
                ranking.set(t, rank_key(self.targeting, reach, t, (down, taken, engaged_by)));
            }
        }
        clock.remove_fallen(fallen);
        for &f in fallen.iter() {
            let side = self.groups[self.group_of[f as usize] as usize].side as usize;
            if self.distance.is_some() {
                line.remove(f, side as u8);
            }
            let list = &mut standing[side];
            let p = pos[f as usize] as usize;
            let last = list[list.len() - 1];
            list.swap_remove(p);
            if last != f {
                pos[last as usize] = p as u32;
            }
            let tgt = target_of[f as usize];
            if tgt != NONE {
                engaged_by[tgt as usize] -= 1;
                target_of[f as usize] = NONE;
                if ranking.is_on() {
                    ranking.set(tgt, rank_key(self.targeting, reach, tgt, (down, taken, engaged_by)));
                }
            }
            trace.say(|| trace::falls(&self.fighter_name(f)));
        }
        for &(t, _) in hits.iter() {
            if !down[t as usize] {
                let g = &self.groups[self.group_of[t as usize] as usize];
                if clock.disrupt(t, g.fighter.disruptible) {
                    summary.disruptions += 1;
                    trace.say(|| trace::disrupted(&self.fighter_name(t)));
                }
            }
        }
    }
}
