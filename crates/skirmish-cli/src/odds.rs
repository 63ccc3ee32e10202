//! `skirmish odds`: exact Full Contact strike probabilities.

use skirmish_core::dice::Probability;
use skirmish_core::striking::full_contact::{
    ParryOdds, RangedShot, StrikeOdds, StrikeOptions, odds, odds_at_range, parry_odds,
};

use crate::output::{Format, Table};

/// Arguments of `skirmish odds`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Strike Rating of the attacker. Give both --sr and --dr for one pair;
    /// leave one out for a row or column, both for the whole table.
    #[arg(long, allow_hyphen_values = true)]
    sr: Option<i32>,
    /// Defense Rating of the defender.
    #[arg(long, allow_hyphen_values = true)]
    dr: Option<i32>,
    /// Ratings the table covers, as LOW..HIGH (both ends included; either
    /// may be negative, like -5..5).
    #[arg(long, default_value = "1..12", value_parser = parse_span, allow_hyphen_values = true)]
    span: (i32, i32),
    /// What the table cells show.
    #[arg(long, value_enum, default_value_t = Show::Hit)]
    show: Show,
    /// Optional rule: a +4 always hits, a -4 always misses.
    #[arg(long)]
    guaranteed: bool,
    /// Optional rule: amazing strikes (margin 4+) and amazing defenses (margin -3 or worse).
    #[arg(long)]
    amazing: bool,
    /// Optional rule: +2 SR when the target is closer than the Range Strength.
    #[arg(long)]
    point_blank: bool,
    /// Switch on every optional rule.
    #[arg(long)]
    all_options: bool,
    /// Distance to the target, for a ranged attack (needs --short and --range-strength).
    #[arg(long, allow_hyphen_values = true, requires_all = ["short", "range_strength"])]
    distance: Option<i64>,
    /// Short range of the weapon: no penalty up to here.
    #[arg(long, allow_hyphen_values = true, requires = "distance")]
    short: Option<i64>,
    /// Range Strength of the weapon: -1 SR per this much (or part) beyond Short range.
    #[arg(long, allow_hyphen_values = true, requires = "distance")]
    range_strength: Option<i64>,
    /// A parry (docs/rules.md §2.1.4): the defender parries with this
    /// Strike Rating, a Strike roll against the attack's SR + roll; gives
    /// the exact odds over both rolls (needs --sr and --dr; melee only).
    #[arg(long, allow_hyphen_values = true, requires_all = ["sr", "dr"], conflicts_with = "distance")]
    parry: Option<i32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Which probability a table cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Show {
    Hit,
    AmazingStrike,
    AmazingDefense,
}

fn parse_span(s: &str) -> Result<(i32, i32), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("{s:?}: expected LOW..HIGH, like 1..12"))?;
    let hi = hi.strip_prefix('=').unwrap_or(hi);
    let lo: i32 = lo.trim().parse().map_err(|e| format!("{s:?}: low end: {e}"))?;
    let hi: i32 = hi.trim().parse().map_err(|e| format!("{s:?}: high end: {e}"))?;
    if lo > hi {
        return Err(format!("{s:?}: the low end is above the high end"));
    }
    if i64::from(hi) - i64::from(lo) >= 200 {
        return Err(format!("{s:?}: at most 200 ratings per axis"));
    }
    Ok((lo, hi))
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let options = if args.all_options {
        StrikeOptions::ALL
    } else {
        StrikeOptions {
            guaranteed_success_and_fumble: args.guaranteed,
            amazing: args.amazing,
            point_blank: args.point_blank,
        }
    };
    let shot = match (args.distance, args.short, args.range_strength) {
        (Some(d), Some(s), Some(r)) => Some(RangedShot::new(s, r, d)?),
        _ => None,
    };
    let compute = |sr: i32, dr: i32| match shot {
        Some(shot) => odds_at_range(sr, dr, shot, options),
        None => odds(sr, dr, options),
    };
    let out = match (args.sr, args.dr) {
        (Some(sr), Some(dr)) if args.parry.is_some() => {
            let parry_sr = args.parry.unwrap_or_default();
            parried(
                sr,
                parry_sr,
                dr,
                &parry_odds(sr, parry_sr, dr, options),
                options,
                args.format,
            )
        }
        (Some(sr), Some(dr)) => pair(sr, dr, &compute(sr, dr), options, shot, args.format),
        (sr, dr) => {
            let srs: Vec<i32> = sr.map_or_else(|| (args.span.0..=args.span.1).collect(), |s| vec![s]);
            let drs: Vec<i32> = dr.map_or_else(|| (args.span.0..=args.span.1).collect(), |d| vec![d]);
            grid(&srs, &drs, &compute, args.show, options, args.format)
        }
    };
    crate::output::emit(&out)?;
    Ok(())
}

fn describe(options: StrikeOptions) -> String {
    let mut on = Vec::new();
    if options.guaranteed_success_and_fumble {
        on.push("guaranteed success/fumble");
    }
    if options.amazing {
        on.push("amazing strike/defense");
    }
    if options.point_blank {
        on.push("point-blank");
    }
    if on.is_empty() {
        "core rule only".to_string()
    } else {
        on.join(", ")
    }
}

fn percent(p: Probability) -> String {
    format!("{:.2}%", 100.0 * p.value())
}

fn pair(sr: i32, dr: i32, o: &StrikeOdds, options: StrikeOptions, shot: Option<RangedShot>, format: Format) -> String {
    let mut rows: Vec<(&str, Probability)> = vec![("hit", o.hit), ("miss", o.miss)];
    if options.amazing {
        rows.push(("amazing strike", o.amazing_strike));
        rows.push(("amazing defense", o.amazing_defense));
    }
    if options.guaranteed_success_and_fumble {
        rows.push(("guaranteed hit", o.guaranteed_hit));
        rows.push(("fumble", o.fumble));
    }
    if shot.is_some() {
        rows.push(("out of reach", o.out_of_reach));
    }
    if format != Format::Text {
        let mut t = Table::new(&["sr", "dr", "outcome", "of_81", "probability"]);
        for (name, p) in rows {
            t.push(vec![
                sr.to_string(),
                dr.to_string(),
                name.to_string(),
                p.numerator.to_string(),
                format!("{:.6}", p.value()),
            ]);
        }
        return t.render(format);
    }
    let mut s = format!("Strike Rating {sr} vs Defense Rating {dr}");
    if let Some(shot) = shot {
        s += &format!(
            " at distance {} (range penalty {}{})",
            shot.distance(),
            shot.range_penalty(),
            if options.point_blank && shot.is_point_blank() {
                ", point-blank +2"
            } else {
                ""
            }
        );
    }
    s += &format!(
        "\noptions: {}\nexact over the 81 equally likely 4dF rolls\n\n",
        describe(options)
    );
    let mut t = Table::new(&["outcome", "rolls", "chance"]).right_align(&[1, 2]);
    for (name, p) in rows {
        t.push(vec![name.to_string(), format!("{}/81", p.numerator), percent(p)]);
    }
    s += &t.render(Format::Text);
    s += &match o.lowest_hitting_roll() {
        Some(r) => format!("\nhits on a Strike roll of {r:+} or better\n"),
        None => "\nno Strike roll hits\n".to_string(),
    };
    s += "\nby roll:\n";
    for roll in -4..=4 {
        if let Some(outcome) = o.outcome(roll) {
            s += &format!("  {roll:+}  {outcome}\n");
        }
    }
    s
}

fn grid(
    srs: &[i32],
    drs: &[i32],
    compute: &dyn Fn(i32, i32) -> StrikeOdds,
    show: Show,
    options: StrikeOptions,
    format: Format,
) -> String {
    let pick = |o: &StrikeOdds| match show {
        Show::Hit => o.hit,
        Show::AmazingStrike => o.amazing_strike,
        Show::AmazingDefense => o.amazing_defense,
    };
    if format != Format::Text {
        // Long form, one row per pair: easy to load into a DataFrame.
        let mut t = Table::new(&[
            "sr",
            "dr",
            "hit_of_81",
            "hit",
            "amazing_strike_of_81",
            "amazing_strike",
            "amazing_defense_of_81",
            "amazing_defense",
        ]);
        for &sr in srs {
            for &dr in drs {
                let o = compute(sr, dr);
                let mut row = vec![sr.to_string(), dr.to_string()];
                for p in [o.hit, o.amazing_strike, o.amazing_defense] {
                    row.push(p.numerator.to_string());
                    row.push(format!("{:.6}", p.value()));
                }
                t.push(row);
            }
        }
        return t.render(format);
    }
    let what = match show {
        Show::Hit => "hit",
        Show::AmazingStrike => "amazing strike",
        Show::AmazingDefense => "amazing defense",
    };
    let mut header = vec!["SR \\ DR".to_string()];
    header.extend(drs.iter().map(|d| d.to_string()));
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let cols: Vec<usize> = (0..header.len()).collect();
    let mut t = Table::new(&header_refs).right_align(&cols);
    for &sr in srs {
        let mut row = vec![sr.to_string()];
        row.extend(
            drs.iter()
                .map(|&dr| format!("{:.1}", 100.0 * pick(&compute(sr, dr)).value())),
        );
        t.push(row);
    }
    format!(
        "Chance of {what}, % (exact over the 81 4dF rolls; options: {})\n\n{}",
        describe(options),
        t.render(Format::Text)
    )
}

/// `skirmish odds --sr A --dr D --parry P`: the attack, the parry and the
/// blow's fate over both 4dF rolls, then the parry's chance per attack roll.
fn parried(sr: i32, parry_sr: i32, dr: i32, o: &ParryOdds, options: StrikeOptions, format: Format) -> String {
    let rows = [
        ("parried", o.parried),
        ("blocked", o.blocked),
        ("lands", o.lands),
        ("lands unparried", o.lands_unparried),
    ];
    if format != Format::Text {
        let mut t = Table::new(&[
            "sr",
            "parry_sr",
            "dr",
            "outcome",
            "attack_roll",
            "numerator",
            "denominator",
            "probability",
        ]);
        let mut push = |name: &str, roll: String, p: Probability| {
            t.push(vec![
                sr.to_string(),
                parry_sr.to_string(),
                dr.to_string(),
                name.to_string(),
                roll,
                p.numerator.to_string(),
                p.denominator.to_string(),
                format!("{:.6}", p.value()),
            ]);
        };
        for (name, p) in rows {
            push(name, String::new(), p);
        }
        for (roll, p) in (-4..=4).zip(o.by_attack_roll) {
            push("parried", format!("{roll:+}"), p);
        }
        return t.render(format);
    }
    let mut s = format!(
        "Strike Rating {sr} vs Defense Rating {dr}, parried at Strike Rating {parry_sr}\noptions: {}\nexact over the \
         6561 equally likely pairs of 4dF rolls (the attack's, then the parry's)\n\n",
        describe(options)
    );
    let mut t = Table::new(&["outcome", "pairs", "chance"]).right_align(&[1, 2]);
    for (name, p) in rows {
        t.push(vec![
            name.to_string(),
            format!("{}/{}", p.numerator, p.denominator),
            percent(p),
        ]);
    }
    s += &t.render(Format::Text);
    s += "\nparried: the parry beats the attack's SR + roll; blocked: and the blow would have landed\n";
    s += "\nby attack roll (the parry's chance against that total):\n";
    for (roll, p) in (-4..=4).zip(o.by_attack_roll) {
        let total = i64::from(sr) + i64::from(roll);
        s += &format!("  {roll:+}  total {total}: {}/81 ({})\n", p.numerator, percent(p));
    }
    s
}
