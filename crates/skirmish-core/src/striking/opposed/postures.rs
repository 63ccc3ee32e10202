//! Offensive/defensive postures (4.32).

use serde::{Deserialize, Serialize};

use super::modifiers::check_range;
use super::result::{ResultSource, add, relative_degree};
use crate::dice::RollSource;
use crate::error::{Error, Result};
use crate::ladder::Level;

/// A combat posture for one round (4.32): an offensive modifier from +2 to
/// -2, with the opposite defensive modifier ("+1 to Offense, -1 to
/// Defense"...). Chosen secretly, "by selecting two FUDGE dice and setting
/// them to a result from +2 to -2".
///
/// ```
/// use skirmish_core::striking::opposed::Posture;
/// let p = Posture::new(1).unwrap();
/// assert_eq!((p.offense(), p.defense()), (1, -1));
/// assert!(Posture::new(3).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "i32", into = "i32")]
pub struct Posture {
    offense: i32,
}

impl Posture {
    /// Normal offense and defense.
    pub const NORMAL: Posture = Posture { offense: 0 };

    /// A posture with this offensive modifier (-2..=+2).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (field `posture`) outside -2..=2.
    pub fn new(offense: i32) -> Result<Posture> {
        Ok(Posture {
            offense: check_range(offense, -2, 2, "posture")?,
        })
    }

    /// The modifier to offense.
    pub const fn offense(self) -> i32 {
        self.offense
    }

    /// The modifier to defense (the opposite of [`offense`](Self::offense)).
    pub const fn defense(self) -> i32 {
        -self.offense
    }
}

impl TryFrom<i32> for Posture {
    type Error = Error;
    fn try_from(offense: i32) -> Result<Posture> {
        Posture::new(offense)
    }
}

impl From<Posture> for i32 {
    fn from(p: Posture) -> i32 {
        p.offense
    }
}

/// How a fighter picks its posture each exchange (4.32): always the same
/// one, or a mixed strategy, each posture with its probability, drawn
/// afresh (and secretly) for every exchange.
///
/// In a file: the offense modifier (`posture = 1`), or a table of the
/// postures' probabilities, which must sum to 1 (`posture = { "2" = 0.25,
/// "0" = 0.75 }`; postures left out have none).
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::striking::opposed::{Posture, PostureChoice};
///
/// let mixed: PostureChoice = serde_json::from_str(r#"{"2": 0.25, "-1": 0.75}"#).unwrap();
/// assert_eq!(mixed.probability(Posture::new(2).unwrap()), 0.25);
/// let fixed: PostureChoice = serde_json::from_str("1").unwrap();
/// assert_eq!(fixed, PostureChoice::Fixed(Posture::new(1).unwrap()));
/// assert!(serde_json::from_str::<PostureChoice>(r#"{"2": 0.5}"#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PostureChoice {
    /// The same posture every exchange.
    Fixed(Posture),
    /// Each exchange a posture drawn with these probabilities, for offense
    /// -2, -1, 0, +1, +2 (each in 0..=1, summing to 1).
    Mixed([f64; 5]),
}

// The probabilities are checked finite when made: equality is total.
impl Eq for PostureChoice {}

impl Default for PostureChoice {
    fn default() -> Self {
        PostureChoice::Fixed(Posture::NORMAL)
    }
}

impl PostureChoice {
    /// A mixed strategy with these probabilities for -2..=+2.
    ///
    /// # Errors
    /// [`Error::Invalid`] (field `posture`): a probability not in 0..=1,
    /// or a sum other than 1 (within 1e-9).
    pub fn mixed(probabilities: [f64; 5]) -> Result<PostureChoice> {
        if let Some((i, p)) = probabilities
            .iter()
            .enumerate()
            .find(|(_, p)| !(0.0..=1.0).contains(*p))
        {
            return Err(Error::invalid(
                "posture",
                format!("the probability of posture {:+} is {p}, not within 0..=1", i as i32 - 2),
            ));
        }
        let sum: f64 = probabilities.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(Error::invalid(
                "posture",
                format!("the probabilities sum to {sum}, not 1"),
            ));
        }
        Ok(PostureChoice::Mixed(probabilities))
    }

    /// The chance of `posture`.
    pub fn probability(&self, posture: Posture) -> f64 {
        match self {
            PostureChoice::Fixed(p) => f64::from(u8::from(*p == posture)),
            PostureChoice::Mixed(w) => w[(posture.offense() + 2) as usize],
        }
    }

    /// Whether every exchange draws a posture.
    pub const fn is_mixed(&self) -> bool {
        matches!(self, PostureChoice::Mixed(_))
    }

    /// Whether it is the normal posture, always.
    pub fn is_normal(&self) -> bool {
        *self == PostureChoice::Fixed(Posture::NORMAL)
    }

    /// This exchange's posture: the fixed one, drawing nothing, or one
    /// drawn from `rolls` ([`pick`](Self::pick) of a
    /// [`uniform`](crate::dice::SeededRolls::uniform) number).
    #[inline]
    pub fn draw(&self, rolls: &mut crate::dice::SeededRolls) -> Posture {
        match self {
            PostureChoice::Fixed(p) => *p,
            PostureChoice::Mixed(_) => self.pick(rolls.uniform()),
        }
    }

    /// This exchange's posture: the fixed one (no draw), or one drawn from
    /// `uniform`, a number in 0..1, by the probabilities in order -2..=+2.
    pub fn pick(&self, uniform: f64) -> Posture {
        match self {
            PostureChoice::Fixed(p) => *p,
            PostureChoice::Mixed(w) => {
                let mut left = uniform;
                let mut last = 0;
                for (i, &p) in w.iter().enumerate() {
                    if p > 0.0 {
                        last = i;
                        if left < p {
                            return Posture { offense: i as i32 - 2 };
                        }
                        left -= p;
                    }
                }
                // Rounding left a sliver past the sum: the last possible one.
                Posture {
                    offense: last as i32 - 2,
                }
            }
        }
    }
}

impl Serialize for PostureChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            PostureChoice::Fixed(p) => s.serialize_i32(p.offense()),
            PostureChoice::Mixed(w) => {
                let mut map = s.serialize_map(None)?;
                for (i, p) in w.iter().enumerate() {
                    if *p > 0.0 {
                        map.serialize_entry(&format!("{}", i as i32 - 2), p)?;
                    }
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for PostureChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = PostureChoice;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a posture from -2 to 2, or a table of the postures' probabilities ({ \"2\" = 0.5, \"0\" = 0.5 })",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<PostureChoice, E> {
                let n = i32::try_from(n).map_err(|_| E::custom(format!("posture {n} is outside -2..=2")))?;
                Posture::new(n).map(PostureChoice::Fixed).map_err(E::custom)
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<PostureChoice, E> {
                self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<PostureChoice, A::Error> {
                let mut w = [0.0; 5];
                let mut seen = [false; 5];
                while let Some(Key(offense)) = map.next_key::<Key>()? {
                    let i = (offense + 2) as usize;
                    if seen[i] {
                        return Err(A::Error::custom(format!("posture {offense:+} is given twice")));
                    }
                    seen[i] = true;
                    w[i] = map.next_value()?;
                }
                PostureChoice::mixed(w).map_err(A::Error::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A posture as a key of a mixed strategy: `"2"`, `"+1"`, or an integer.
struct Key(i32);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a posture: -2, -1, 0, 1 or 2")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<Key, E> {
                i32::try_from(n)
                    .ok()
                    .filter(|o| (-2..=2).contains(o))
                    .map(Key)
                    .ok_or_else(|| E::custom(format!("{n} is not a posture (-2, -1, 0, 1, 2)")))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<Key, E> {
                self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Key, E> {
                match s.trim().trim_start_matches('+').parse::<i64>() {
                    Ok(n) => self.visit_i64(n),
                    Err(_) => Err(E::custom(format!("{s:?} is not a posture (-2, -1, 0, 1, 2)"))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A fighter in a postures round, before the roll.
///
/// Postures replace the all-out options of 4.31: compute `skill` with
/// [`Stance::Normal`](super::Stance::Normal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureFighter {
    /// The combat skill, after any other modifiers.
    pub skill: Level,
    /// The chosen posture.
    pub posture: Posture,
    /// Who rolls.
    pub source: ResultSource,
    /// The least offense result that hits the opponent (see
    /// [`TargetSize`](super::TargetSize)).
    pub minimum_to_hit: Level,
    /// `false` for a fighter who can only defend (4.22).
    pub can_harm: bool,
}

impl PostureFighter {
    /// A fighter of `skill` in `posture`, rolling 4dF from the roll source,
    /// against an equal-sized foe.
    pub const fn new(skill: Level, posture: Posture) -> PostureFighter {
        PostureFighter {
            skill,
            posture,
            source: ResultSource::Roll,
            minimum_to_hit: Level::POOR,
            can_harm: true,
        }
    }
}

/// One fighter's rolled results in a postures round: one roll, applied to
/// both offense and defense.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureResult {
    /// The roll (for a known result, result minus skill; 0 for the NPC rule).
    pub roll: i32,
    /// skill + posture's offense + roll.
    pub offense: Level,
    /// skill + posture's defense + roll.
    pub defense: Level,
}

impl PostureResult {
    /// The offense and defense results of `skill` in `posture` with `roll`.
    ///
    /// # Errors
    /// [`Error::Overflow`] (fields `offense`, `defense`).
    pub fn new(skill: Level, posture: Posture, roll: i32) -> Result<PostureResult> {
        let rolled = add(skill, roll, "offense")?;
        Ok(PostureResult {
            roll,
            offense: add(rolled, posture.offense(), "offense")?,
            defense: add(rolled, posture.defense(), "defense")?,
        })
    }
}

/// One fighter's offense against the other's defense.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Strike {
    /// Attacker's result minus defender's result.
    pub relative_degree: i32,
    /// Whether it hit: a positive degree, the minimum reached, and an
    /// attacker able to harm.
    pub hit: bool,
}

/// A postures round: each side's results and both strikes. Both may hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureRound {
    /// The first fighter's results.
    pub first: PostureResult,
    /// The second fighter's results.
    pub second: PostureResult,
    /// First's offense against second's defense.
    pub first_strike: Strike,
    /// Second's offense against first's defense.
    pub second_strike: Strike,
}

/// Compares the results of a postures round: "The offensive rolled result
/// of each fighter is then compared to the defense of the other fighter."
///
/// # Errors
/// [`Error::Overflow`] when a relative degree does not fit an `i32`.
pub fn compare_postures(
    first: &PostureFighter,
    first_result: PostureResult,
    second: &PostureFighter,
    second_result: PostureResult,
) -> Result<PostureRound> {
    let strike = |attacker: &PostureFighter, offense: Level, defense: Level| -> Result<Strike> {
        let relative_degree = relative_degree(offense, defense)?;
        Ok(Strike {
            relative_degree,
            hit: relative_degree > 0 && offense >= attacker.minimum_to_hit && attacker.can_harm,
        })
    };
    Ok(PostureRound {
        first: first_result,
        second: second_result,
        first_strike: strike(first, first_result.offense, second_result.defense)?,
        second_strike: strike(second, second_result.offense, first_result.defense)?,
    })
}

/// Rolls (first, then second) and resolves a postures round (4.32).
///
/// The text's example: a Good fighter at +1 offense rolls 0 (offense Great,
/// defense Fair); a Great swordswoman in normal posture rolls -1 (Good both);
/// each wins by +1 and both check for damage.
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{posture_round, Posture, PostureFighter};
///
/// let him = PostureFighter::new(Level::GOOD, Posture::new(1).unwrap());
/// let her = PostureFighter::new(Level::GREAT, Posture::NORMAL);
/// let round = posture_round(&him, &her, &mut ScriptedRolls::new([0, -1])).unwrap();
/// assert_eq!((round.first.offense, round.first.defense), (Level::GREAT, Level::FAIR));
/// assert_eq!((round.second.offense, round.second.defense), (Level::GOOD, Level::GOOD));
/// assert!(round.first_strike.hit && round.second_strike.hit);
/// assert_eq!(round.first_strike.relative_degree, 1);
/// assert_eq!(round.second_strike.relative_degree, 1);
/// ```
///
/// # Errors
/// A bad or exhausted roll (fields `first.roll`, `second.roll`), or an
/// overflow.
pub fn posture_round(
    first: &PostureFighter,
    second: &PostureFighter,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<PostureRound> {
    let first_result = roll_posture(first, rolls, "first")?;
    let second_result = roll_posture(second, rolls, "second")?;
    compare_postures(first, first_result, second, second_result)
}

/// One fighter's roll in [`posture_round`], errors under `name`.
fn roll_posture(f: &PostureFighter, rolls: &mut (impl RollSource + ?Sized), name: &str) -> Result<PostureResult> {
    let roll = f.source.roll_for(f.skill, rolls).map_err(|e| e.in_field(name))?;
    PostureResult::new(f.skill, f.posture, roll).map_err(|e| e.in_field(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;

    #[test]
    fn posture_range() {
        for p in -2..=2 {
            assert_eq!(Posture::new(p).unwrap().offense(), p);
        }
        for bad in [-3, 3, i32::MIN, i32::MAX] {
            assert!(matches!(
                Posture::new(bad),
                Err(Error::OutOfRange { ref field, min: -2, max: 2, .. }) if field == "posture"
            ));
        }
        assert!(serde_json::from_str::<Posture>("5").is_err());
        assert_eq!(serde_json::from_str::<Posture>("-2").unwrap().defense(), 2);
    }

    #[test]
    fn ties_minimums_and_defend_only() {
        let all_in = PostureFighter::new(Level::FAIR, Posture::new(2).unwrap());
        let turtle = PostureFighter {
            can_harm: false,
            ..PostureFighter::new(Level::FAIR, Posture::new(-2).unwrap())
        };
        let r = posture_round(&all_in, &turtle, &mut ScriptedRolls::new([0, 0])).unwrap();
        // Great offense vs Great defense: a tie, no hit. Poor offense vs
        // Poor defense: a tie too.
        assert_eq!(
            r.first_strike,
            Strike {
                relative_degree: 0,
                hit: false
            }
        );
        assert_eq!(
            r.second_strike,
            Strike {
                relative_degree: 0,
                hit: false
            }
        );
        // The turtle wins its strike but cannot harm.
        let r = posture_round(&all_in, &turtle, &mut ScriptedRolls::new([-1, 0])).unwrap();
        assert_eq!(
            r.second_strike,
            Strike {
                relative_degree: 1,
                hit: false
            }
        );
        // Offense below the minimum misses even when it beats the defense.
        let weak = PostureFighter::new(Level::TERRIBLE, Posture::NORMAL);
        let weaker = PostureFighter::new(Level::new(-5), Posture::NORMAL);
        let r = posture_round(&weak, &weaker, &mut ScriptedRolls::new([0, 0])).unwrap();
        assert_eq!(
            r.first_strike,
            Strike {
                relative_degree: 2,
                hit: false
            }
        );
    }

    #[test]
    fn npc_rule_and_bad_rolls() {
        let npc = PostureFighter {
            source: ResultSource::TraitLevel,
            ..PostureFighter::new(Level::GOOD, Posture::new(-1).unwrap())
        };
        let pc = PostureFighter {
            source: ResultSource::Rolled { roll: 7 },
            ..PostureFighter::new(Level::GOOD, Posture::NORMAL)
        };
        assert!(matches!(
            posture_round(&npc, &pc, &mut ScriptedRolls::new([])),
            Err(Error::OutOfRange { ref field, .. }) if field == "second.roll"
        ));
        let r = PostureResult::new(Level::GOOD, npc.posture, 0).unwrap();
        assert_eq!((r.offense, r.defense), (Level::FAIR, Level::GREAT));
        assert!(PostureResult::new(Level::new(i32::MAX), Posture::new(1).unwrap(), 0).is_err());
    }
}
