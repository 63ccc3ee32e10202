//! FUDGE opposed combat (FUDGE chapter 4, sections 4.2 to 4.4;
//! docs/rules.md §2.2, "FUDGE opposed combat").
//!
//! Combat in FUDGE is an Opposed action. Each fighter's **rolled result**
//! is a trait level plus 4dF; the **relative degree** is one result minus
//! the other, and a relative degree of 0 is a stand-off. The winner hits if
//! his result also reaches the **minimum to hit** set by the target's size
//! (Poor against an equal foe). Everything here is plain owned data in,
//! plain owned data out.
//!
//! | text | rule | here |
//! | --- | --- | --- |
//! | 4.21 | story elements: trait + GM modifier (-3..+3), one roll or the median of three | [`resolve_story_element`], [`median_result`] |
//! | 4.22 | simultaneous combat rounds, minimum to hit by Scale, Unopposed when a defender cannot fight, defend-only fighters | [`exchange`], [`melee_round`], [`TargetSize`], [`unopposed`], [`RolledCombatant::can_harm`] |
//! | 4.31 | melee modifiers: wounds, position, shields, aiming, blessings, all-out offense/defense, scouting | [`MeleeModifiers`], [`EffectiveSkill`], [`Stance`], [`Aim`], [`Shield`], [`scouting_earned`], [`scout`], [`ScoutedMark`] |
//! | 4.32 | offensive/defensive postures; both may be hit | [`Posture`], [`posture_round`] |
//! | 4.33 | PCs vs NPCs: the NPC's result is its trait level | [`ResultSource::TraitLevel`] |
//! | 4.34 | one fighter against several; reach; one 2dF for a group; sweeping blow; ignoring foes | [`Outnumbered`], [`Reach`], [`GroupRoll`], [`SweepingBlow`], [`Foe::ignored`] |
//! | 4.35 | hit location by relative degree; +8 may pierce an eye | [`can_pierce_eye`] |
//! | 4.36 | plus levels (`Good+`) | [`CombatLevel::in_round`](crate::ladder::CombatLevel::in_round) gives the skill for a round |
//! | 4.4 | ranged: unaware (Unopposed vs DL), dodging (opposed, DL still the minimum), shooting back | [`RangedAttack`], [`RangedDefense`], [`Missile`], [`exchange_fire`] |
//!
//! # Where a result comes from
//!
//! Every combatant carries a [`ResultSource`]: a 4dF roll drawn from a
//! [`RollSource`](crate::dice::RollSource) (seeded, or scripted table
//! rolls), a 4dF total typed in at the table, the NPC rule (no roll), or the
//! result itself. Explicit rolls are checked (4dF in -4..=4, 2dF in
//! -2..=2) and every sum is checked: bad input is an [`Error`](crate::Error)
//! naming the field (`"second.roll"`, `"foes[2].roll"`), never a panic.
//! Functions that roll for several combatants draw in the order their
//! documentation gives.
//!
//! # Decisions where the text is silent (docs/rules.md §2.2)
//!
//! - Two all-out attackers who tie stand off ([`exchange`]).
//! - A "successful" all-out defense, for scouting, is one that was not hit
//!   ([`scouting_earned`]).
//! - Reach "three or four" is 4 and "one or two" is 2 ([`Reach`]); custom
//!   limits are allowed. Too many foes is an error on field `foes`.
//! - A sweeping blow reduces the damage to every foe cut through by 1 or 2
//!   per foe beyond the first ([`SweepingBlow`]).
//! - An ignored foe attacks unopposed against its minimum to hit, which
//!   acts as the Difficulty Level ([`Foe::ignored`]).
//! - A large shield costs nothing in a shield wall ([`Shield`]).
//! - Critical results (FUDGE 3.6) are not in this text: the caller marks
//!   one with [`RolledCombatant::critical`].
//!
//! # Example: a simultaneous round
//!
//! ```
//! use skirmish_core::dice::SeededRolls;
//! use skirmish_core::ladder::Level;
//! use skirmish_core::striking::opposed::{
//!     melee_round, Combatant, ExchangeOutcome, MeleeModifiers, ResultSource, Wounds,
//! };
//!
//! let hurt = MeleeModifiers { wounds: Wounds::Hurt, ..Default::default() };
//! let hero = Combatant::new(Level::GREAT).with_modifiers(hurt);
//! let orc = Combatant::new(Level::GOOD).with_source(ResultSource::TraitLevel); // 4.33: no roll
//! let round = melee_round(&hero, &orc, &mut SeededRolls::new(7)).unwrap();
//! assert_eq!(round.first.skill.level, Level::GOOD); // Great, Hurt -1
//! assert_eq!(round.second.result, Level::GOOD);
//! match round.exchange.outcome {
//!     ExchangeOutcome::Hit(hit) => println!("{:?} hits by {}", hit.winner, hit.relative_degree),
//!     ExchangeOutcome::StandOff { reason } => println!("stand-off: {reason:?}"),
//! }
//! ```

mod exchange;
mod modifiers;
mod multiple;
mod postures;
mod ranged;
mod result;
mod scouting;
mod story;

pub use exchange::{
    AimOutcome, Combatant, Exchange, ExchangeOutcome, Hit, MeleeRound, PIERCE_EYE_DEGREE, RolledCombatant, RoundResult,
    RoundSide, StandOffReason, TargetSize, can_pierce_eye, exchange, melee_round,
};
pub use modifiers::{
    Aim, CombatKind, EffectiveSkill, MeleeModifiers, Modifier, ModifierReason, Position, Shield, ShieldSize, Stance,
    Wounds, scouting_earned,
};
pub use multiple::{
    Foe, FoeOutcome, GroupRoll, LoneFighter, LoneHit, LoneTally, Outnumbered, OutnumberedRound, Reach, SweepingBlow,
    WoundFrom, lone_blows, may_wound,
};
pub use postures::{
    Posture, PostureChoice, PostureFighter, PostureResult, PostureRound, Strike, compare_postures, posture_round,
};
pub use ranged::{
    DodgeResult, ExchangeOfFire, Missile, RangedAttack, RangedDefense, RangedOutcome, Shooter, exchange_fire,
};
pub use result::{ResultSource, Unopposed, relative_degree, unopposed};
pub use scouting::{SCOUTING_DIFFICULTY, ScoutedMark, ScoutingRoll, scout};
pub use story::{StoryElement, StoryResolution, median_result, resolve_story_element};
