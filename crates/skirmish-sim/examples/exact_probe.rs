//! Temporary probe (not committed).
#![allow(missing_docs, clippy::unwrap_used, reason = "probe")]
use skirmish_sim::exact::{Arithmetic, ExactOptions, solve};
use skirmish_sim::scenario::Scenario;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let arith = match std::env::args().nth(2).as_deref() {
        Some("float") => Arithmetic::Float,
        Some("frac") => Arithmetic::Fractions,
        _ => Arithmetic::Auto,
    };
    let s = Scenario::load(std::path::Path::new(&path)).unwrap();
    let t = std::time::Instant::now();
    let o = solve(
        &s,
        &ExactOptions {
            arithmetic: arith,
            ..ExactOptions::default()
        },
    );
    match o {
        Ok(o) => println!(
            "{} states {} transitions {:?} {:?} {:?} {:?}",
            o.states,
            o.transitions,
            t.elapsed(),
            o.wins.iter().map(|w| w.value).collect::<Vec<_>>(),
            o.draw.value,
            o.error_bound
        ),
        Err(e) => println!("{e} {:?}", t.elapsed()),
    }
}
