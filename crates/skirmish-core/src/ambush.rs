//! The goblin ambush of the *Relativity* article, built in: Roland the
//! thieving bard, Madoc the wizard and Cardiff the paladin against two orcs
//! with daggers, two goblins with pikes and an orcish shaman.
//!
//! Every entry point (the tracker, the replay, the simulator's default
//! scenario) has this real fight to run with no files.
//!
//! From the texts: the weapons and spells, their Time Taken and Rate of
//! Fire, the party's speed bonuses, the initiative rolls of round one
//! (Roland -1, Madoc +1, Cardiff -4 on the 4dF) and the goblinoids'
//! GM-adjusted initiative scores (orcs 3 and 4, shaman 6, goblins 9).
//!
//! *Our choice, since the texts give none for these characters:* the Tick
//! System initiative bonuses and intervals, and the FUZION REF and Combat
//! Sense, chosen to match each character's described speed (Roland quick,
//! Cardiff "very slow and cumbersome", the goblins "small, slow").

use crate::tables::weapons::RateOfFire;
use crate::timing::{ActorTiming, Declaration, InitiativeEntry};
use crate::tracker::CombatantSpec;

/// One member of the ambush, as timing sees him.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmbushMember {
    /// The combatant.
    pub spec: CombatantSpec,
    /// His initiative in the text's first round.
    pub text_initiative: InitiativeEntry,
}

fn member(
    name: &str,
    side: &str,
    label: &str,
    action: Declaration,
    timing: ActorTiming,
    text_initiative: InitiativeEntry,
) -> AmbushMember {
    AmbushMember {
        spec: CombatantSpec::new(name, action)
            .on_side(side)
            .with_timing(timing)
            .labelled(label),
        text_initiative,
    }
}

fn traits(initiative_bonus: i32, interval: u32, reflexes: i32, combat_sense: i32) -> ActorTiming {
    ActorTiming {
        initiative_bonus,
        interval,
        reflexes,
        combat_sense,
    }
}

/// The eight combatants, party first (the order of the texts' tables).
///
/// ```
/// use skirmish_core::ambush::goblin_ambush;
/// let fight = goblin_ambush();
/// assert_eq!(fight.len(), 8);
/// assert_eq!(fight[0].spec.name, "Roland");
/// assert_eq!(fight[7].spec.name, "Shaman");
/// ```
pub fn goblin_ambush() -> Vec<AmbushMember> {
    let two = RateOfFire::TWO;
    vec![
        // "Roland's much quicker elven bow has a TT of 2"; Good bow skill
        // (bonus 0) and Great Agility (bonus +1); 2 shots a round.
        member(
            "Roland",
            "party",
            "elven bow",
            Declaration::new(2, 1).with_rate_of_fire(two),
            traits(3, 3, 7, 2),
            InitiativeEntry::Roll(-1),
        ),
        // "Madoc's 'Spark' spell ... TT of 0"; Legendary Spellcraft, bonus +2.
        member(
            "Madoc",
            "party",
            "Spark",
            Declaration::new(0, 2).disruptible(),
            traits(2, 4, 5, 0),
            InitiativeEntry::Roll(1),
        ),
        // "Cardiff's monstrous 2-handed sword has a slow TT value of 7";
        // bonus +1 (skill) - 1 (Terrible Agility) = 0.
        member(
            "Cardiff",
            "party",
            "two-handed sword",
            Declaration::new(7, 0),
            traits(0, 7, 4, 2),
            InitiativeEntry::Roll(-4),
        ),
        // "daggers have a TT of 3, and the orcs have no special bonuses".
        member(
            "Orc #1",
            "goblinoids",
            "dagger",
            Declaration::new(3, 0).with_rate_of_fire(two),
            traits(1, 3, 5, 0),
            InitiativeEntry::Total(3),
        ),
        member(
            "Orc #2",
            "goblinoids",
            "dagger",
            Declaration::new(3, 0).with_rate_of_fire(two),
            traits(1, 3, 5, 0),
            InitiativeEntry::Total(4),
        ),
        // "goblins were small, slow, and wielding extremely slow pikes" (TT 8).
        member(
            "Goblin #1",
            "goblinoids",
            "pike",
            Declaration::new(8, 0),
            traits(-1, 8, 3, 0),
            InitiativeEntry::Total(9),
        ),
        member(
            "Goblin #2",
            "goblinoids",
            "pike",
            Declaration::new(8, 0),
            traits(-1, 8, 3, 0),
            InitiativeEntry::Total(9),
        ),
        // "Unholy Grasp", a spell: disruptible. Its TT is not given; his other
        // spells in the text take 2 and 4; we take 2.
        member(
            "Shaman",
            "goblinoids",
            "Unholy Grasp",
            Declaration::new(2, 0).disruptible(),
            traits(0, 5, 5, 1),
            InitiativeEntry::Total(6),
        ),
    ]
}
