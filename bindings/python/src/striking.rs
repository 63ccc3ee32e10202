//! `skirmish_core::striking::full_contact`: exact odds, one strike, and
//! Strike/Defense Ratings with their breakdowns.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skirmish_core::dice::Probability;
use skirmish_core::striking::full_contact::{
    self, DefenseRating, RangedShot, StrikeOptions, StrikeOutcome, StrikeRating,
};

use crate::args;
use crate::error::{ToPyErr, guard};

fn options(amazing: bool, guaranteed: bool, point_blank: bool) -> StrikeOptions {
    StrikeOptions {
        guaranteed_success_and_fumble: guaranteed,
        amazing,
        point_blank,
    }
}

fn shot(py: Python<'_>, range: Option<(i64, i64, i64)>) -> PyResult<Option<RangedShot>> {
    range
        .map(|(short, strength, distance)| RangedShot::new(short, strength, distance).map_err(|e| e.to_py(py)))
        .transpose()
}

fn fraction(p: Probability) -> (u64, u64) {
    (p.numerator, p.denominator)
}

/// `(name, margin, is_hit)` of an outcome.
fn outcome(o: StrikeOutcome) -> (&'static str, i64, bool) {
    (o.name(), o.margin(), o.is_hit())
}

/// The exact odds of a strike, counted over the 81 equally likely 4dF
/// rolls: a dict of `(numerator, denominator)` pairs plus `by_roll` (the
/// outcome of each roll, -4 first) and `lowest_hitting_roll`. `range` is
/// `(short_range, range_strength, distance)` for a ranged shot.
#[pyfunction]
#[pyo3(signature = (strike_rating, defense_rating, amazing = false, guaranteed = false, point_blank = false, range = None))]
pub(crate) fn strike_odds<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::strike_rating)] strike_rating: i32,
    #[pyo3(from_py_with = args::rules::defense_rating)] defense_rating: i32,
    #[pyo3(from_py_with = args::rules::amazing)] amazing: bool,
    #[pyo3(from_py_with = args::rules::guaranteed)] guaranteed: bool,
    #[pyo3(from_py_with = args::rules::point_blank)] point_blank: bool,
    #[pyo3(from_py_with = args::rules::range)] range: Option<(i64, i64, i64)>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let opts = options(amazing, guaranteed, point_blank);
        let odds = match shot(py, range)? {
            Some(s) => full_contact::odds_at_range(strike_rating, defense_rating, s, opts),
            None => full_contact::odds(strike_rating, defense_rating, opts),
        };
        let d = PyDict::new(py);
        d.set_item("hit", fraction(odds.hit))?;
        d.set_item("miss", fraction(odds.miss))?;
        d.set_item("amazing_strike", fraction(odds.amazing_strike))?;
        d.set_item("amazing_defense", fraction(odds.amazing_defense))?;
        d.set_item("guaranteed_hit", fraction(odds.guaranteed_hit))?;
        d.set_item("fumble", fraction(odds.fumble))?;
        d.set_item("out_of_reach", fraction(odds.out_of_reach))?;
        d.set_item("by_roll", odds.by_roll.map(outcome).to_vec())?;
        d.set_item("lowest_hitting_roll", odds.lowest_hitting_roll())?;
        Ok(d)
    })
}

/// The exact odds of a parried strike over both 4dF rolls (6561 pairs):
/// a dict of `(numerator, denominator)` pairs `parried`, `blocked`,
/// `lands`, `lands_unparried`, and `by_attack_roll` (the parry's chance
/// out of 81 against each attack roll, -4 first).
#[pyfunction]
#[pyo3(signature = (strike_rating, parry_strike_rating, defense_rating, amazing = false, guaranteed = false))]
pub(crate) fn parry_odds<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::strike_rating)] strike_rating: i32,
    #[pyo3(from_py_with = args::rules::parry_strike_rating)] parry_strike_rating: i32,
    #[pyo3(from_py_with = args::rules::defense_rating)] defense_rating: i32,
    #[pyo3(from_py_with = args::rules::amazing)] amazing: bool,
    #[pyo3(from_py_with = args::rules::guaranteed)] guaranteed: bool,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let o = full_contact::parry_odds(
            strike_rating,
            parry_strike_rating,
            defense_rating,
            options(amazing, guaranteed, false),
        );
        let d = PyDict::new(py);
        d.set_item("parried", fraction(o.parried))?;
        d.set_item("blocked", fraction(o.blocked))?;
        d.set_item("lands", fraction(o.lands))?;
        d.set_item("lands_unparried", fraction(o.lands_unparried))?;
        d.set_item("by_attack_roll", o.by_attack_roll.map(fraction).to_vec())?;
        Ok(d)
    })
}

/// One strike with a known Strike roll (-4..4): `(name, margin, is_hit)`.
#[pyfunction]
#[pyo3(signature = (strike_rating, defense_rating, roll, amazing = false, guaranteed = false, point_blank = false, range = None))]
#[expect(clippy::too_many_arguments, reason = "mirrors the Python keyword arguments")]
pub(crate) fn resolve_strike(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::strike_rating)] strike_rating: i32,
    #[pyo3(from_py_with = args::rules::defense_rating)] defense_rating: i32,
    #[pyo3(from_py_with = args::rules::roll)] roll: i32,
    #[pyo3(from_py_with = args::rules::amazing)] amazing: bool,
    #[pyo3(from_py_with = args::rules::guaranteed)] guaranteed: bool,
    #[pyo3(from_py_with = args::rules::point_blank)] point_blank: bool,
    #[pyo3(from_py_with = args::rules::range)] range: Option<(i64, i64, i64)>,
) -> PyResult<(&'static str, i64, bool)> {
    guard(py, || {
        let opts = options(amazing, guaranteed, point_blank);
        let o = match shot(py, range)? {
            Some(s) => full_contact::resolve_at_range(strike_rating, defense_rating, roll, s, opts),
            None => full_contact::resolve(strike_rating, defense_rating, roll, opts),
        }
        .map_err(|e| e.to_py(py))?;
        Ok(outcome(o))
    })
}

/// A Strike Rating from its parts: `(total, breakdown text)`.
/// `attributes` are `(name, level)` pairs (half the level counts).
#[pyfunction]
#[pyo3(signature = (skill = 0, attributes = Vec::new(), weapon = 0, magic = 0, other = Vec::new()))]
pub(crate) fn strike_rating(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::skill)] skill: i32,
    #[pyo3(from_py_with = args::rules::attributes)] attributes: Vec<(String, i32)>,
    #[pyo3(from_py_with = args::rules::weapon)] weapon: i32,
    #[pyo3(from_py_with = args::rules::magic)] magic: i32,
    #[pyo3(from_py_with = args::rules::other)] other: Vec<(String, i32)>,
) -> PyResult<(i32, String)> {
    guard(py, || {
        let mut b = StrikeRating::builder().skill(skill);
        for (name, level) in attributes {
            b = b.attribute(name, level);
        }
        b = b.weapon(weapon);
        if magic != 0 {
            b = b.magic(magic);
        }
        for (label, value) in other {
            b = b.other(label, value);
        }
        let r = b.build().map_err(|e| e.to_py(py))?;
        Ok((r.total(), r.to_string()))
    })
}

/// A Defense Rating from its parts: `(total, breakdown, unaware total,
/// unaware breakdown)`.
#[pyfunction]
#[pyo3(signature = (skill = 0, attributes = Vec::new(), armor = 0, shield = 0, coverage = 0, magic = 0, other = Vec::new()))]
#[expect(clippy::too_many_arguments, reason = "mirrors the Python keyword arguments")]
pub(crate) fn defense_rating(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::skill)] skill: i32,
    #[pyo3(from_py_with = args::rules::attributes)] attributes: Vec<(String, i32)>,
    #[pyo3(from_py_with = args::rules::armor)] armor: i32,
    #[pyo3(from_py_with = args::rules::shield)] shield: i32,
    #[pyo3(from_py_with = args::rules::coverage)] coverage: i32,
    #[pyo3(from_py_with = args::rules::magic)] magic: i32,
    #[pyo3(from_py_with = args::rules::other)] other: Vec<(String, i32)>,
) -> PyResult<(i32, String, i32, String)> {
    guard(py, || {
        let mut b = DefenseRating::builder();
        if skill != 0 {
            b = b.skill(skill);
        }
        for (name, level) in attributes {
            b = b.attribute(name, level);
        }
        if armor != 0 {
            b = b.armor(armor);
        }
        if shield != 0 {
            b = b.shield(shield);
        }
        if coverage != 0 {
            b = b.coverage(coverage);
        }
        if magic != 0 {
            b = b.magic(magic);
        }
        for (label, value) in other {
            b = b.other(label, value);
        }
        let r = b.build().map_err(|e| e.to_py(py))?;
        Ok((
            r.total(),
            r.rating().to_string(),
            r.unaware_total(),
            r.unaware().to_string(),
        ))
    })
}

/// Registers the functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(strike_odds, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_strike, m)?)?;
    m.add_function(wrap_pyfunction!(parry_odds, m)?)?;
    m.add_function(wrap_pyfunction!(strike_rating, m)?)?;
    m.add_function(wrap_pyfunction!(defense_rating, m)?)?;
    Ok(())
}
