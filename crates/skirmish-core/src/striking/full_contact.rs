//! Full Contact striking (full-contact-striking.txt; RULES.md §2).
//!
//! One number for the attacker, one for the defender, one roll of 4dF:
//!
//! - **Strike Rating** ("Calculating Strike Rating (SR)"): 5 + weapon
//!   skill + half of each relevant attribute (rounded toward zero) +
//!   weapon quality (+ magic). Built with [`StrikeRating::builder`].
//! - **Defense Rating** ("Calculating Defense Rating (DR)"): 3 + defensive
//!   skill + half of relevant attributes + armor, shield, coverage (+ magic),
//!   with the surprised/unaware variant. Built with
//!   [`DefenseRating::builder`]; the armor table is
//!   [`tables::armor`](crate::tables::armor).
//! - **The Strike roll** ("Determining a Hit"): the blow lands iff
//!   SR + roll > DR; a tie goes to the defender. [`resolve`] decides one
//!   strike, [`odds`] gives the exact probabilities over the 81 outcomes of
//!   4dF by applying the very same decision to every roll.
//! - **Parrying**: a Strike roll against the attack's SR + roll ([`parry`]).
//! - **Ranged weapons** ("Range Penalties", "Point-Blank Range"): -1 SR per
//!   Range Strength (or part) beyond Short range; an SR reduced to 0 or less
//!   by range cannot hit at all. [`WeaponRange`], [`RangedShot`],
//!   [`resolve_at_range`], [`odds_at_range`].
//! - **Optional rules** ("Special Success & Failure"): guaranteed success and
//!   fumble, amazing strikes and defenses, point-blank range, switched on
//!   with [`StrikeOptions`].
//!
//! # Decisions where the text is silent
//!
//! - *Guaranteed hits and amazing strikes.* "Could hit their opponent
//!   normally" means without the guaranteed-success rule: a +4 that hits
//!   only because of that rule is a [`StrikeOutcome::GuaranteedHit`], never
//!   an amazing strike; a -4 that misses only because of the fumble rule is a
//!   [`StrikeOutcome::Fumble`], never an amazing defense. So a guaranteed
//!   hit always has margin <= 0 and a fumble margin > 0.
//! - *Out of reach.* The "SR dropped to 0" rule applies when a range penalty
//!   actually applies (the target is beyond Short range) and the SR after
//!   all range adjustments (penalty and point-blank bonus) is 0 or less. It
//!   then beats every optional rule: no hit, no amazing defense, no fumble.
//!   A melee SR of 0 or less is not "out of reach": it simply needs a roll
//!   (or a guaranteed success) that beats the DR.
//! - *Unaware defenders* keep their skill and attribute *penalties*: only
//!   bonuses need awareness ("cannot apply things like dodge skills or
//!   agility bonuses"), and being surprised never makes anyone harder to
//!   hit. This is also why the text says Cardiff's DR "stays pretty much the
//!   same" when he is surprised: his -1 Agility stays, so it stays 7.
//! - *Parries* are Strike rolls (the text: "a parry ... is a Strike roll"),
//!   so the optional rules apply to them too when switched on.
//!
//! # Integer ranges
//!
//! Ratings are `i32`; a rating whose terms sum beyond `i32` is an
//! [`Error::Overflow`]. Distances are `i64` in the GM's unit (feet, metres,
//! hexes). Margins are `i64` and exact for every input, except for a shot
//! out of reach whose range penalty is beyond about `2^62` steps, where the
//! reported adjusted SR and margin saturate at `i64::MIN`.
//!
//! # Example
//!
//! Cardiff's sword against the goblin sentry, and the goblin's reply:
//!
//! ```
//! use skirmish_core::ladder::Level;
//! use skirmish_core::striking::full_contact::{resolve, DefenseRating, StrikeOptions, StrikeOutcome, StrikeRating};
//! use skirmish_core::tables::armor::armor;
//!
//! let sword = StrikeRating::builder()
//!     .skill(Level::GREAT)
//!     .attribute("strength", Level::SUPERB)
//!     .weapon(Level::GOOD)
//!     .build()?;
//! assert_eq!(sword.to_string(), "5 base + 2 skill + 1 strength + 1 weapon = 9");
//!
//! let cardiff = DefenseRating::builder()
//!     .skill(0)
//!     .attribute("agility", Level::TERRIBLE)
//!     .armor_from_table(armor("plate mail")?)
//!     .armor_from_table(armor("gauntlets, greaves & helm")?)
//!     .build()?;
//! assert_eq!(cardiff.to_string(), "3 base + 0 skill - 1 agility + 4 armor + 1 coverage = 7");
//!
//! let core = StrikeOptions::default();
//! // Cardiff rolls -1 against the goblin's DR 6: 9 - 1 > 6.
//! assert_eq!(resolve(sword.total(), 6, -1, core)?, StrikeOutcome::Hit { margin: 2 });
//! // The goblin (SR 5) rolls +2: 5 + 2 = 7 ties Cardiff's DR, and ties go to the defender.
//! let reply = resolve(5, cardiff.total(), 2, core)?;
//! assert_eq!(reply, StrikeOutcome::Miss { margin: 0 });
//! assert!(!reply.is_hit());
//! # Ok::<(), skirmish_core::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, Probability, RollSource};
use crate::error::{Error, Result};
use crate::ladder::half_toward_zero;
use crate::tables::armor::{ARMOR, Armor, COVERAGE, SHIELD};

// ---------------------------------------------------------------------------
// Ratings

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

// ---------------------------------------------------------------------------
// Range

/// A ranged weapon's two distances ("Ranged Weapons"): its **Short range**,
/// within which it fires without penalty, and its **Range Strength**, each
/// further stretch of which (or part of one) costs -1 SR.
///
/// Distances are whole numbers in whatever unit the GM uses.
///
/// ```
/// use skirmish_core::striking::full_contact::WeaponRange;
/// // The sniper's short bow: Sh 150', RS 50'. Madoc is 280' away.
/// let short_bow = WeaponRange::new(150, 50)?;
/// assert_eq!(short_bow.at(280)?.range_penalty(), -3);
/// assert_eq!(short_bow.at(150)?.range_penalty(), 0);
/// assert_eq!(short_bow.at(151)?.range_penalty(), -1);
/// assert_eq!(short_bow.at(200)?.range_penalty(), -1);
/// # Ok::<(), skirmish_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "WeaponRangeRepr", into = "WeaponRangeRepr")]
pub struct WeaponRange {
    short_range: i64,
    range_strength: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponRangeRepr {
    short_range: i64,
    range_strength: i64,
}

impl TryFrom<WeaponRangeRepr> for WeaponRange {
    type Error = Error;
    fn try_from(r: WeaponRangeRepr) -> Result<WeaponRange> {
        WeaponRange::new(r.short_range, r.range_strength)
    }
}

impl From<WeaponRange> for WeaponRangeRepr {
    fn from(r: WeaponRange) -> WeaponRangeRepr {
        WeaponRangeRepr {
            short_range: r.short_range,
            range_strength: r.range_strength,
        }
    }
}

impl WeaponRange {
    /// A weapon's ranges.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a negative `short_range` or a
    /// `range_strength` of 0 or less.
    pub fn new(short_range: i64, range_strength: i64) -> Result<WeaponRange> {
        if short_range < 0 {
            return Err(Error::out_of_range("short_range", short_range, 0, i64::MAX));
        }
        if range_strength <= 0 {
            return Err(Error::out_of_range("range_strength", range_strength, 1, i64::MAX));
        }
        Ok(WeaponRange {
            short_range,
            range_strength,
        })
    }

    /// The Short range.
    pub const fn short_range(self) -> i64 {
        self.short_range
    }

    /// The Range Strength.
    pub const fn range_strength(self) -> i64 {
        self.range_strength
    }

    /// A shot at a target `distance` away.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (field `distance`) for a negative distance.
    pub fn at(self, distance: i64) -> Result<RangedShot> {
        if distance < 0 {
            return Err(Error::out_of_range("distance", distance, 0, i64::MAX));
        }
        Ok(RangedShot { range: self, distance })
    }
}

/// A shot with a ranged weapon at a known distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RangedShotRepr", into = "RangedShotRepr")]
pub struct RangedShot {
    range: WeaponRange,
    distance: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RangedShotRepr {
    short_range: i64,
    range_strength: i64,
    distance: i64,
}

impl TryFrom<RangedShotRepr> for RangedShot {
    type Error = Error;
    fn try_from(r: RangedShotRepr) -> Result<RangedShot> {
        RangedShot::new(r.short_range, r.range_strength, r.distance)
    }
}

impl From<RangedShot> for RangedShotRepr {
    fn from(s: RangedShot) -> RangedShotRepr {
        RangedShotRepr {
            short_range: s.range.short_range,
            range_strength: s.range.range_strength,
            distance: s.distance,
        }
    }
}

impl RangedShot {
    /// `WeaponRange::new(short_range, range_strength)?.at(distance)`.
    ///
    /// # Errors
    /// As [`WeaponRange::new`] and [`WeaponRange::at`].
    pub fn new(short_range: i64, range_strength: i64, distance: i64) -> Result<RangedShot> {
        WeaponRange::new(short_range, range_strength)?.at(distance)
    }

    /// The weapon's ranges.
    pub const fn range(self) -> WeaponRange {
        self.range
    }

    /// The distance to the target.
    pub const fn distance(self) -> i64 {
        self.distance
    }

    /// The range penalty: 0 within Short range, then -1 per Range Strength
    /// or part of one beyond it (0 down to `-i64::MAX`).
    #[inline]
    pub const fn range_penalty(self) -> i64 {
        // Both non-negative, so the difference cannot overflow.
        let beyond = self.distance - self.range.short_range;
        if beyond <= 0 {
            return 0;
        }
        let rs = self.range.range_strength;
        // Ceiling division without the overflow of `beyond + rs - 1`.
        let steps = beyond / rs + if beyond % rs == 0 { 0 } else { 1 };
        -steps
    }

    /// Whether the target is nearer than the Range Strength (the optional
    /// point-blank rule's "less than": at exactly the Range Strength there
    /// is no bonus).
    #[inline]
    pub const fn is_point_blank(self) -> bool {
        self.distance < self.range.range_strength
    }

    /// The SR for this shot: `strike_rating` plus the range penalty, plus 2
    /// if point-blank range is in use and applies. Saturates at `i64::MIN`
    /// (only for penalties beyond about `2^62` steps).
    #[inline]
    pub const fn strike_rating(self, strike_rating: i32, options: StrikeOptions) -> i64 {
        let bonus = if options.point_blank && self.is_point_blank() {
            POINT_BLANK_BONUS
        } else {
            0
        };
        (strike_rating as i64)
            .saturating_add(self.range_penalty())
            .saturating_add(bonus)
    }

    /// Whether range has put the target out of reach: a range penalty
    /// applies and the adjusted SR is 0 or less, so "there is no way that
    /// the character can hit anything at that distance (even if Guaranteed
    /// Success is being used)".
    #[inline]
    pub const fn is_out_of_reach(self, strike_rating: i32, options: StrikeOptions) -> bool {
        self.range_penalty() < 0 && self.strike_rating(strike_rating, options) <= 0
    }
}

/// The optional point-blank bonus to SR.
pub const POINT_BLANK_BONUS: i64 = 2;

// ---------------------------------------------------------------------------
// Options and outcomes

/// The optional rules in use. All off (the default) is the core rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StrikeOptions {
    /// "Guaranteed Successes and Fumbles": a +4 always hits and a -4
    /// always misses (except out of reach, where nothing hits).
    pub guaranteed_success_and_fumble: bool,
    /// "Amazing Strikes and Defenses".
    pub amazing: bool,
    /// "Point-Blank Range": +2 SR against a target nearer than the weapon's
    /// Range Strength.
    pub point_blank: bool,
}

impl StrikeOptions {
    /// The core rule only.
    pub const CORE: StrikeOptions = StrikeOptions {
        guaranteed_success_and_fumble: false,
        amazing: false,
        point_blank: false,
    };

    /// Every optional rule.
    pub const ALL: StrikeOptions = StrikeOptions {
        guaranteed_success_and_fumble: true,
        amazing: true,
        point_blank: true,
    };

    /// All eight combinations of the optional rules, the core rule first.
    pub const fn combinations() -> [StrikeOptions; 8] {
        let mut all = [StrikeOptions::CORE; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = StrikeOptions {
                guaranteed_success_and_fumble: i & 1 != 0,
                amazing: i & 2 != 0,
                point_blank: i & 4 != 0,
            };
            i += 1;
        }
        all
    }
}

/// What one strike did. Every outcome carries its **margin**,
/// SR + roll - DR (with the SR after range adjustments): positive on a
/// normal hit, 0 or less on a normal miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum StrikeOutcome {
    /// SR + roll > DR: the blow lands.
    Hit {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Optional: a hit by 4 or more, or a hit on a roll of +4.
    AmazingStrike {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Optional: a +4 that lands only because of the guaranteed-success rule.
    GuaranteedHit {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// SR + roll <= DR: the blow does not land (a tie goes to the defender).
    Miss {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// Optional: DR beats SR + roll by 3 or more, or a miss on a roll of -4.
    AmazingDefense {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// Optional: a -4 that misses only because of the fumble rule.
    Fumble {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Range has reduced the SR to 0 or less: nothing can hit at that
    /// distance, guaranteed success included.
    OutOfReach {
        /// The SR after range adjustments (0 or less).
        strike_rating: i64,
        /// SR + roll - DR with that SR.
        margin: i64,
    },
}

impl StrikeOutcome {
    /// Whether the blow lands.
    #[inline]
    pub const fn is_hit(self) -> bool {
        matches!(
            self,
            StrikeOutcome::Hit { .. } | StrikeOutcome::AmazingStrike { .. } | StrikeOutcome::GuaranteedHit { .. }
        )
    }

    /// SR + roll - DR.
    #[inline]
    pub const fn margin(self) -> i64 {
        match self {
            StrikeOutcome::Hit { margin }
            | StrikeOutcome::AmazingStrike { margin }
            | StrikeOutcome::GuaranteedHit { margin }
            | StrikeOutcome::Miss { margin }
            | StrikeOutcome::AmazingDefense { margin }
            | StrikeOutcome::Fumble { margin }
            | StrikeOutcome::OutOfReach { margin, .. } => margin,
        }
    }

    /// The outcome's name in words: `"hit"`, `"amazing strike"`, ...
    pub const fn name(self) -> &'static str {
        match self {
            StrikeOutcome::Hit { .. } => "hit",
            StrikeOutcome::AmazingStrike { .. } => "amazing strike",
            StrikeOutcome::GuaranteedHit { .. } => "guaranteed hit",
            StrikeOutcome::Miss { .. } => "miss",
            StrikeOutcome::AmazingDefense { .. } => "amazing defense",
            StrikeOutcome::Fumble { .. } => "fumble",
            StrikeOutcome::OutOfReach { .. } => "out of reach",
        }
    }
}

impl fmt::Display for StrikeOutcome {
    /// `"hit (margin +2)"`, `"miss (margin 0)"`,
    /// `"out of reach (SR -1 after range)"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StrikeOutcome::OutOfReach { strike_rating, .. } => {
                write!(f, "out of reach (SR {strike_rating} after range)")
            }
            other => write!(f, "{} (margin {:+})", other.name(), other.margin()),
        }
    }
}

// ---------------------------------------------------------------------------
// Resolution

/// The smallest and largest Strike roll (4dF).
const ROLL_MIN: i32 = -4;
const ROLL_MAX: i32 = 4;

/// The decision itself, for a roll already checked to be -4..=4. Every
/// public resolver and [`odds`] goes through here, so they cannot disagree.
#[inline]
const fn decide(strike_rating: i64, defense_rating: i64, roll: i32, options: StrikeOptions) -> StrikeOutcome {
    let margin = strike_rating.saturating_add(roll as i64).saturating_sub(defense_rating);
    let hits_normally = margin > 0;
    if options.guaranteed_success_and_fumble {
        if roll == ROLL_MAX && !hits_normally {
            return StrikeOutcome::GuaranteedHit { margin };
        }
        if roll == ROLL_MIN && hits_normally {
            return StrikeOutcome::Fumble { margin };
        }
    }
    if hits_normally {
        // A +4 that hits normally is amazing: either it already beats the DR
        // by 4, or an amazing strike "would need a Strike roll of more than +3".
        if options.amazing && (margin >= 4 || roll == ROLL_MAX) {
            StrikeOutcome::AmazingStrike { margin }
        } else {
            StrikeOutcome::Hit { margin }
        }
    } else if options.amazing && (margin <= -3 || roll == ROLL_MIN) {
        // A -4 that misses normally shows that "it would be possible for the
        // attacker to miss on a normal roll".
        StrikeOutcome::AmazingDefense { margin }
    } else {
        StrikeOutcome::Miss { margin }
    }
}

/// The decision for a ranged shot, roll already checked.
#[inline]
const fn decide_at_range(
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    shot: RangedShot,
    options: StrikeOptions,
) -> StrikeOutcome {
    let adjusted = shot.strike_rating(strike_rating, options);
    if shot.range_penalty() < 0 && adjusted <= 0 {
        return StrikeOutcome::OutOfReach {
            strike_rating: adjusted,
            margin: adjusted
                .saturating_add(roll as i64)
                .saturating_sub(defense_rating as i64),
        };
    }
    decide(adjusted, defense_rating as i64, roll, options)
}

#[inline]
fn check_roll(field: &'static str, roll: i32) -> Result<()> {
    if (ROLL_MIN..=ROLL_MAX).contains(&roll) {
        Ok(())
    } else {
        Err(roll_out_of_range(field, roll))
    }
}

#[cold]
fn roll_out_of_range(field: &'static str, roll: i32) -> Error {
    Error::out_of_range(field, roll, ROLL_MIN, ROLL_MAX)
}

/// One melee strike: does `strike_rating` + `roll` beat `defense_rating`?
///
/// ```
/// use skirmish_core::striking::full_contact::{resolve, StrikeOptions, StrikeOutcome};
/// let amazing = StrikeOptions { amazing: true, ..StrikeOptions::default() };
/// assert_eq!(resolve(9, 6, -1, StrikeOptions::default())?, StrikeOutcome::Hit { margin: 2 });
/// assert_eq!(resolve(9, 6, 1, amazing)?, StrikeOutcome::AmazingStrike { margin: 4 });
/// assert!(resolve(9, 6, 5, amazing).is_err());
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `strike_roll`) for a roll outside -4..=4.
#[inline]
pub fn resolve(strike_rating: i32, defense_rating: i32, roll: i32, options: StrikeOptions) -> Result<StrikeOutcome> {
    check_roll("strike_roll", roll)?;
    Ok(decide(
        i64::from(strike_rating),
        i64::from(defense_rating),
        roll,
        options,
    ))
}

/// One ranged strike: as [`resolve`], with the SR adjusted for the
/// distance ([`RangedShot::strike_rating`]) and out of reach when range has
/// brought it to 0 or less.
///
/// ```
/// use skirmish_core::striking::full_contact::{resolve_at_range, RangedShot, StrikeOptions, StrikeOutcome};
/// // The sniper (SR 7, short bow Sh 150' RS 50') shoots at Madoc (DR 7) 280' away and rolls +2.
/// let shot = RangedShot::new(150, 50, 280)?;
/// assert_eq!(shot.strike_rating(7, StrikeOptions::default()), 4);
/// assert_eq!(resolve_at_range(7, 7, 2, shot, StrikeOptions::default())?, StrikeOutcome::Miss { margin: -1 });
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `strike_roll`) for a roll outside -4..=4.
#[inline]
pub fn resolve_at_range(
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    shot: RangedShot,
    options: StrikeOptions,
) -> Result<StrikeOutcome> {
    check_roll("strike_roll", roll)?;
    Ok(decide_at_range(strike_rating, defense_rating, roll, shot, options))
}

/// A strike rolled from a [`RollSource`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RolledStrike {
    /// The Strike roll (4dF).
    pub roll: i32,
    /// What it did.
    pub outcome: StrikeOutcome,
}

/// Rolls the Strike roll (4dF) from `rolls` and resolves it, at range if
/// `shot` is given.
///
/// # Errors
/// Whatever the roll source refuses (a scripted roll that is not a 4dF
/// total, an exhausted script).
pub fn roll_strike(
    rolls: &mut (impl RollSource + ?Sized),
    strike_rating: i32,
    defense_rating: i32,
    shot: Option<RangedShot>,
    options: StrikeOptions,
) -> Result<RolledStrike> {
    let roll = rolls.roll(Dice::FOUR_DF)?;
    let outcome = match shot {
        Some(shot) => resolve_at_range(strike_rating, defense_rating, roll, shot, options)?,
        None => resolve(strike_rating, defense_rating, roll, options)?,
    };
    Ok(RolledStrike { roll, outcome })
}

/// A parry ("Parrying"): the parry is a Strike roll against the attack's
/// final value, SR + Strike roll, instead of the attacker's DR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Parry {
    /// The attack's SR + Strike roll.
    pub attack_total: i64,
    /// The parry's SR + Strike roll.
    pub parry_total: i64,
    /// The parry as a strike against `attack_total`: it succeeds iff this
    /// is a hit (with the core rule, iff `parry_total > attack_total`).
    pub outcome: StrikeOutcome,
}

impl Parry {
    /// Whether the attack was knocked aside. If not, the attack goes on to
    /// be resolved against the defender's DR as usual.
    pub const fn parried(&self) -> bool {
        self.outcome.is_hit()
    }
}

/// Parries an attack of `attack_strike_rating` (after any range
/// adjustment) that rolled `attack_roll`, with a parry of
/// `parry_strike_rating` that rolled `parry_roll`.
///
/// ```
/// use skirmish_core::striking::full_contact::{parry, StrikeOptions};
/// // The guard's naginata (SR 7) rolls +2 = 9; Brooklyn's knife (SR 6) rolls +4 = 10.
/// let first = parry(7, 2, 6, 4, StrikeOptions::default())?;
/// assert_eq!((first.attack_total, first.parry_total), (9, 10));
/// assert!(first.parried());
/// // The second thrust rolls +2 again; her parry rolls only +1 = 7.
/// assert!(!parry(7, 2, 6, 1, StrikeOptions::default())?.parried());
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `attack_roll` or `parry_roll`) for a roll
/// outside -4..=4.
#[inline]
pub fn parry(
    attack_strike_rating: i32,
    attack_roll: i32,
    parry_strike_rating: i32,
    parry_roll: i32,
    options: StrikeOptions,
) -> Result<Parry> {
    check_roll("attack_roll", attack_roll)?;
    check_roll("parry_roll", parry_roll)?;
    let attack_total = i64::from(attack_strike_rating) + i64::from(attack_roll);
    let parry_total = i64::from(parry_strike_rating) + i64::from(parry_roll);
    Ok(Parry {
        attack_total,
        parry_total,
        outcome: decide(i64::from(parry_strike_rating), attack_total, parry_roll, options),
    })
}

// ---------------------------------------------------------------------------
// Exact odds

/// How many of the 81 equally likely 4dF outcomes show -4, -3, ..., +4
/// (checked against [`Dice::distribution`] in the tests).
const FOUR_DF_COUNTS: [u64; 9] = [1, 4, 10, 16, 19, 16, 10, 4, 1];
const FOUR_DF_TOTAL: u64 = 81;

/// The exact chances of one strike, as counts of the 81 equally likely
/// outcomes of 4dF.
///
/// The categories follow [`StrikeOutcome`]: `hit` is every outcome that
/// lands (hits, amazing strikes, guaranteed hits) and `miss` is the rest,
/// so `hit + miss = 1`; the others are parts of those two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StrikeOdds {
    /// The blow lands (any kind of hit).
    pub hit: Probability,
    /// The blow does not land (any kind of miss, out of reach included).
    pub miss: Probability,
    /// An amazing strike.
    pub amazing_strike: Probability,
    /// An amazing defense.
    pub amazing_defense: Probability,
    /// A hit only because of the guaranteed-success rule.
    pub guaranteed_hit: Probability,
    /// A miss only because of the fumble rule.
    pub fumble: Probability,
    /// Out of reach (all or nothing: it does not depend on the roll).
    pub out_of_reach: Probability,
    /// The outcome of each roll, -4 first.
    pub by_roll: [StrikeOutcome; 9],
}

impl StrikeOdds {
    /// Tallies the outcomes of the nine rolls.
    fn tally(by_roll: [StrikeOutcome; 9]) -> StrikeOdds {
        let mut counts = [0u64; 7];
        for (outcome, weight) in by_roll.iter().zip(FOUR_DF_COUNTS) {
            let slot = match outcome {
                StrikeOutcome::Hit { .. } => 0,
                StrikeOutcome::AmazingStrike { .. } => 1,
                StrikeOutcome::GuaranteedHit { .. } => 2,
                StrikeOutcome::Miss { .. } => 3,
                StrikeOutcome::AmazingDefense { .. } => 4,
                StrikeOutcome::Fumble { .. } => 5,
                StrikeOutcome::OutOfReach { .. } => 6,
            };
            counts[slot] += weight;
        }
        let p = |numerator| Probability {
            numerator,
            denominator: FOUR_DF_TOTAL,
        };
        let hit = counts[0] + counts[1] + counts[2];
        StrikeOdds {
            hit: p(hit),
            miss: p(FOUR_DF_TOTAL - hit),
            amazing_strike: p(counts[1]),
            amazing_defense: p(counts[4]),
            guaranteed_hit: p(counts[2]),
            fumble: p(counts[5]),
            out_of_reach: p(counts[6]),
            by_roll,
        }
    }

    /// The outcome of Strike roll `roll`, or `None` outside -4..=4.
    pub fn outcome(&self, roll: i32) -> Option<StrikeOutcome> {
        let i = usize::try_from(i64::from(roll) - i64::from(ROLL_MIN)).ok()?;
        self.by_roll.get(i).copied()
    }

    /// The lowest Strike roll that hits, or `None` if none does.
    pub fn lowest_hitting_roll(&self) -> Option<i32> {
        (ROLL_MIN..=ROLL_MAX)
            .zip(self.by_roll)
            .find(|(_, o)| o.is_hit())
            .map(|(r, _)| r)
    }
}

/// The exact odds of a melee strike, by applying [`resolve`]'s decision to
/// each of the nine Strike roll totals weighted by its 4dF count.
///
/// ```
/// use skirmish_core::striking::full_contact::{odds, StrikeOptions};
/// // Cardiff (SR 9) against the goblin (DR 6) hits on -2 or better.
/// let o = odds(9, 6, StrikeOptions::default());
/// assert_eq!(o.hit.to_string(), "76/81 (93.83%)");
/// assert_eq!(o.lowest_hitting_roll(), Some(-2));
/// // The goblin (SR 5) against Cardiff (DR 7) needs +3.
/// assert_eq!(odds(5, 7, StrikeOptions::default()).hit.numerator, 5);
/// ```
#[inline]
pub fn odds(strike_rating: i32, defense_rating: i32, options: StrikeOptions) -> StrikeOdds {
    let (sr, dr) = (i64::from(strike_rating), i64::from(defense_rating));
    StrikeOdds::tally(std::array::from_fn(|i| decide(sr, dr, ROLL_MIN + i as i32, options)))
}

/// The exact odds of a ranged strike (see [`resolve_at_range`]).
#[inline]
pub fn odds_at_range(strike_rating: i32, defense_rating: i32, shot: RangedShot, options: StrikeOptions) -> StrikeOdds {
    StrikeOdds::tally(std::array::from_fn(|i| {
        decide_at_range(strike_rating, defense_rating, ROLL_MIN + i as i32, shot, options)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_df_counts_are_the_distribution() {
        let d = Dice::FOUR_DF.distribution();
        assert_eq!(d.counts(), &FOUR_DF_COUNTS);
        assert_eq!(d.min(), ROLL_MIN);
        assert_eq!(d.max(), ROLL_MAX);
        assert_eq!(d.total(), FOUR_DF_TOTAL);
    }

    #[test]
    fn combinations_are_distinct_and_start_with_core() {
        let all = StrikeOptions::combinations();
        assert_eq!(all[0], StrikeOptions::CORE);
        assert_eq!(all[7], StrikeOptions::ALL);
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| a != b));
        }
    }

    #[test]
    fn margin_invariants_of_each_outcome() {
        for options in StrikeOptions::combinations() {
            for sr in -6..=12 {
                for dr in -2..=12 {
                    for roll in ROLL_MIN..=ROLL_MAX {
                        let o = decide(sr, dr, roll, options);
                        let m = o.margin();
                        assert_eq!(m, sr + i64::from(roll) - dr);
                        match o {
                            StrikeOutcome::Hit { .. } | StrikeOutcome::AmazingStrike { .. } => assert!(m > 0),
                            StrikeOutcome::Fumble { .. } => assert!(m > 0 && roll == -4),
                            StrikeOutcome::GuaranteedHit { .. } => assert!(m <= 0 && roll == 4),
                            StrikeOutcome::Miss { .. } | StrikeOutcome::AmazingDefense { .. } => assert!(m <= 0),
                            StrikeOutcome::OutOfReach { .. } => unreachable!(),
                        }
                    }
                }
            }
        }
    }
}
