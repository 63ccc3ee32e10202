//! Strike Rating and Defense Rating ("Calculating Strike Rating (SR)",
//! "Calculating Defense Rating (DR)"): the terms, their sums and the
//! builders that check them.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::ladder::half_toward_zero;
use crate::tables::armor::{ARMOR, Armor, COVERAGE, SHIELD};

/// What a term of a rating stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TermKind {
    /// Skill with the weapon (SR) or at avoiding blows (DR).
    Skill,
    /// Half of a relevant attribute, labelled with the attribute's name.
    Attribute,
    /// Weapon quality (SR).
    Weapon,
    /// Armor (DR).
    Armor,
    /// A shield (DR).
    Shield,
    /// Extra coverage: gauntlets, greaves and helm (DR).
    Coverage,
    /// Magic: an enchanted weapon, a protective ring, a blessing.
    Magic,
    /// Anything else the GM rules relevant, under the GM's label.
    Other,
}

impl TermKind {
    /// Whether the defender must be aware of the attack to apply this term
    /// as a bonus: dodge skills and attribute bonuses (see
    /// [`DefenseRating::unaware`]).
    pub const fn needs_awareness(self) -> bool {
        matches!(self, TermKind::Skill | TermKind::Attribute)
    }
}

/// One labelled term of a [`Rating`], e.g. `+1 strength`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Term {
    /// What the term stands for.
    pub kind: TermKind,
    /// How the breakdown names it: `"skill"`, `"strength"`, `"armor"`.
    pub label: Cow<'static, str>,
    /// What it adds (negative for a penalty).
    pub value: i32,
}

impl Term {
    fn fixed(kind: TermKind, label: &'static str, value: i32) -> Term {
        Term {
            kind,
            label: Cow::Borrowed(label),
            value,
        }
    }
}

/// A rating as a GM reads it: a base and labelled terms, and their total.
///
/// Displays as `"5 base + 2 skill + 1 strength + 1 weapon = 9"`; negative
/// terms as `"5 base - 1 skill - 1 vision - 1 weapon = 2"`. Zero terms are
/// shown, as the text's own breakdowns show them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Rating {
    base: i32,
    terms: Vec<Term>,
    total: i32,
}

impl Rating {
    /// Sums `base` and `terms`; `field` names the rating in errors.
    fn new(field: &str, base: i32, terms: Vec<Term>) -> Result<Rating> {
        if let Some(t) = terms.iter().find(|t| t.label.trim().is_empty()) {
            return Err(Error::invalid(
                format!("{field}.{}", kind_field(t.kind)),
                "the label of a term must not be empty",
            ));
        }
        // No i64 overflow: fewer than 2^32 terms of at most 2^31 each.
        let sum = terms.iter().fold(i64::from(base), |acc, t| acc + i64::from(t.value));
        let mut rating = Rating { base, terms, total: 0 };
        rating.total = i32::try_from(sum).map_err(|_| {
            Error::overflow(
                field,
                format!(
                    "{} sums to {sum}, beyond the {}..={} a rating holds",
                    Breakdown(&rating),
                    i32::MIN,
                    i32::MAX
                ),
            )
        })?;
        Ok(rating)
    }

    /// The base: 5 for a Strike Rating, 3 for a Defense Rating.
    pub fn base(&self) -> i32 {
        self.base
    }

    /// The terms after the base, in the order they were added.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// Base plus terms.
    pub fn total(&self) -> i32 {
        self.total
    }
}

/// The breakdown without `= total`.
struct Breakdown<'a>(&'a Rating);

impl fmt::Display for Breakdown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} base", self.0.base)?;
        for t in &self.0.terms {
            let sign = if t.value < 0 { '-' } else { '+' };
            write!(f, " {sign} {} {}", t.value.unsigned_abs(), t.label)?;
        }
        Ok(())
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", Breakdown(self), self.total)
    }
}

fn kind_field(kind: TermKind) -> &'static str {
    match kind {
        TermKind::Skill => "skill",
        TermKind::Attribute => "attribute",
        TermKind::Weapon => "weapon",
        TermKind::Armor => "armor",
        TermKind::Shield => "shield",
        TermKind::Coverage => "coverage",
        TermKind::Magic => "magic",
        TermKind::Other => "other",
    }
}

/// The builder methods Strike and Defense Ratings share.
macro_rules! shared_terms {
    () => {
        /// Adds the skill (a number or a [`Level`](crate::ladder::Level)), labelled `skill`.
        pub fn skill(mut self, level: impl Into<i32>) -> Self {
            self.terms
                .push(Term::fixed(TermKind::Skill, "skill", level.into()));
            self
        }

        /// Adds half of an attribute's level, rounded toward zero, labelled
        /// with the attribute's `name` (Superb Strength, +3, adds `+1 strength`).
        pub fn attribute(mut self, name: impl Into<String>, level: impl Into<i32>) -> Self {
            self.terms.push(Term {
                kind: TermKind::Attribute,
                label: Cow::Owned(name.into()),
                value: half_toward_zero(level.into()),
            });
            self
        }

        /// Adds an attribute bonus as it is, for a GM who uses "tables of
        /// bonuses" instead of half the level.
        pub fn attribute_bonus(mut self, name: impl Into<String>, bonus: i32) -> Self {
            self.terms.push(Term {
                kind: TermKind::Attribute,
                label: Cow::Owned(name.into()),
                value: bonus,
            });
            self
        }

        /// Adds a magic bonus (or a curse, if negative), labelled `magic`.
        pub fn magic(mut self, bonus: i32) -> Self {
            self.terms.push(Term::fixed(TermKind::Magic, "magic", bonus));
            self
        }

        /// Adds anything else the GM rules relevant, under `label`
        /// (which must not be empty).
        pub fn other(mut self, label: impl Into<String>, value: i32) -> Self {
            self.terms.push(Term {
                kind: TermKind::Other,
                label: Cow::Owned(label.into()),
                value,
            });
            self
        }
    };
}

/// A Strike Rating: how likely a character is to hit with one weapon
/// (base 5).
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::full_contact::StrikeRating;
/// // Brooklyn with a dropped pair of nunchaku.
/// let nunchaku = StrikeRating::builder()
///     .skill(Level::POOR)
///     .attribute("agility", Level::GREAT)
///     .attribute("strength", Level::GOOD)
///     .weapon(Level::FAIR)
///     .build()?;
/// assert_eq!(nunchaku.total(), 4);
/// assert_eq!(nunchaku.to_string(), "5 base - 2 skill + 1 agility + 0 strength + 0 weapon = 4");
/// # Ok::<(), skirmish_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct StrikeRating {
    rating: Rating,
}

impl StrikeRating {
    /// The base of every Strike Rating.
    pub const BASE: i32 = 5;

    /// A builder starting from the base of 5.
    pub fn builder() -> StrikeRatingBuilder {
        StrikeRatingBuilder::default()
    }

    /// The Strike Rating.
    pub fn total(&self) -> i32 {
        self.rating.total
    }

    /// Its breakdown.
    pub fn rating(&self) -> &Rating {
        &self.rating
    }
}

impl fmt::Display for StrikeRating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rating.fmt(f)
    }
}

/// Builds a [`StrikeRating`]; terms show in the order they are added.
#[derive(Debug, Clone, Default)]
pub struct StrikeRatingBuilder {
    terms: Vec<Term>,
}

impl StrikeRatingBuilder {
    shared_terms!();

    /// Adds the weapon's quality (a number or a [`Level`](crate::ladder::Level):
    /// Good +1, Mediocre -1), labelled `weapon`.
    pub fn weapon(mut self, quality: impl Into<i32>) -> Self {
        self.terms.push(Term::fixed(TermKind::Weapon, "weapon", quality.into()));
        self
    }

    /// The rating.
    ///
    /// # Errors
    /// [`Error::Overflow`] (field `strike_rating`) if the total does not fit
    /// in an `i32`; [`Error::Invalid`] for an empty label.
    pub fn build(self) -> Result<StrikeRating> {
        Ok(StrikeRating {
            rating: Rating::new("strike_rating", StrikeRating::BASE, self.terms)?,
        })
    }
}

/// A Defense Rating: how hard a character is to hit (base 3), with its
/// surprised/unaware variant.
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::full_contact::DefenseRating;
/// use skirmish_core::tables::armor::armor;
/// // Brooklyn in her leather-reinforced working outfit.
/// let brooklyn = DefenseRating::builder()
///     .skill(Level::GREAT)
///     .attribute("agility", Level::GREAT)
///     .armor_from_table(armor("leather")?)
///     .build()?;
/// assert_eq!(brooklyn.to_string(), "3 base + 2 skill + 1 agility + 1 armor = 7");
/// // Ambushed, she cannot dodge: no Tumbling, no Agility bonus.
/// assert_eq!(brooklyn.unaware().to_string(), "3 base + 1 armor = 4");
/// # Ok::<(), skirmish_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct DefenseRating {
    aware: Rating,
    unaware: Rating,
}

impl DefenseRating {
    /// The base of every Defense Rating: "an untrained individual of average
    /// agility wearing normal clothes or less".
    pub const BASE: i32 = 3;

    /// A builder starting from the base of 3.
    pub fn builder() -> DefenseRatingBuilder {
        DefenseRatingBuilder::default()
    }

    /// The usual Defense Rating (the defender sees the attack coming).
    pub fn total(&self) -> i32 {
        self.aware.total
    }

    /// The usual breakdown.
    pub fn rating(&self) -> &Rating {
        &self.aware
    }

    /// The Defense Rating against an attack the defender is not aware of
    /// (surprised, ambushed, struck from behind unseen): "characters who
    /// aren't aware of an incoming attack cannot apply things like dodge
    /// skills or agility bonuses".
    ///
    /// Skill and attribute terms that would help (positive, or zero) are
    /// left out; penalties stay, since being surprised never makes anyone
    /// harder to hit. Armor, shield, coverage, magic and other terms stay.
    pub fn unaware(&self) -> &Rating {
        &self.unaware
    }

    /// The total of [`unaware`](Self::unaware).
    pub fn unaware_total(&self) -> i32 {
        self.unaware.total
    }
}

impl fmt::Display for DefenseRating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.aware.fmt(f)
    }
}

/// Builds a [`DefenseRating`]; terms show in the order they are added.
#[derive(Debug, Clone, Default)]
pub struct DefenseRatingBuilder {
    terms: Vec<Term>,
}

impl DefenseRatingBuilder {
    shared_terms!();

    /// Adds an armor bonus, labelled `armor`.
    pub fn armor(mut self, bonus: i32) -> Self {
        self.terms.push(Term::fixed(TermKind::Armor, "armor", bonus));
        self
    }

    /// Adds a row of the armor table: the shield row as `shield`, the
    /// gauntlets/greaves/helm row as `coverage`, any other row as `armor`.
    /// (Those two rows are "+1 depending on skill/situation": add them only
    /// when the GM rules they count.)
    pub fn armor_from_table(mut self, armor: &Armor) -> Self {
        let (kind, label) = if *armor == ARMOR[SHIELD] {
            (TermKind::Shield, "shield")
        } else if *armor == ARMOR[COVERAGE] {
            (TermKind::Coverage, "coverage")
        } else {
            (TermKind::Armor, "armor")
        };
        self.terms.push(Term::fixed(kind, label, armor.defense_rating_bonus));
        self
    }

    /// Adds a shield's bonus, labelled `shield`.
    pub fn shield(mut self, bonus: i32) -> Self {
        self.terms.push(Term::fixed(TermKind::Shield, "shield", bonus));
        self
    }

    /// Adds extra coverage (gauntlets, greaves and helm), labelled `coverage`.
    pub fn coverage(mut self, bonus: i32) -> Self {
        self.terms.push(Term::fixed(TermKind::Coverage, "coverage", bonus));
        self
    }

    /// The rating and its unaware variant.
    ///
    /// # Errors
    /// [`Error::Overflow`] (field `defense_rating`, or
    /// `defense_rating.unaware`) if either total does not fit in an `i32`;
    /// [`Error::Invalid`] for an empty label.
    pub fn build(self) -> Result<DefenseRating> {
        let unaware_terms: Vec<Term> = self
            .terms
            .iter()
            .filter(|t| !(t.kind.needs_awareness() && t.value >= 0))
            .cloned()
            .collect();
        Ok(DefenseRating {
            aware: Rating::new("defense_rating", DefenseRating::BASE, self.terms)?,
            unaware: Rating::new("defense_rating.unaware", DefenseRating::BASE, unaware_terms)?,
        })
    }
}
