//! `skirmish tables`: the data tables of the texts.

use skirmish_core::tables::armor;
use skirmish_core::tables::weapons::{self, Genre};

use crate::output::{Format, Table};

/// Arguments of `skirmish tables`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Which table.
    #[arg(value_enum)]
    table: Which,
    /// Only this genre of weapons: fantasy, oriental, modern (industrial &
    /// modern) or sci-fi (science fiction).
    #[arg(long, value_parser = parse_genre)]
    genre: Option<Genre>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Which {
    /// Weapon speeds: Time Taken and Rate of Fire (Relativity addendum).
    Weapons,
    /// Suggested armor values (Full Contact addendum).
    Armor,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let out = match args.table {
        Which::Weapons => weapons(args)?,
        Which::Armor => {
            if args.genre.is_some() {
                return Err("--genre applies to the weapons table only".into());
            }
            armor_table(args.format)
        }
    };
    crate::output::emit(&out)?;
    Ok(())
}

/// A genre as the command line writes it; the message lists them all.
fn parse_genre(s: &str) -> Result<Genre, String> {
    s.parse::<Genre>()
        .map_err(|e| format!("{e} (the genres: fantasy, oriental, modern, sci-fi)"))
}

fn armor_table(format: Format) -> String {
    let mut t = Table::new(&["armor", "dr", "situational", "also known as"]).right_align(&[1]);
    for a in armor::all() {
        t.push(vec![
            a.name.to_string(),
            format!("{:+}", a.defense_rating_bonus),
            if a.situational { "yes" } else { "no" }.to_string(),
            a.aliases.join("; "),
        ]);
    }
    let mut s = t.render(format);
    if format == Format::Text {
        s += "\nsituational: depending on skill/situation (the text's *)\n";
    }
    s
}

fn weapons(args: &Args) -> Result<String, Box<dyn std::error::Error>> {
    let rows: &[weapons::Weapon] = match &args.genre {
        Some(g) => weapons::by_genre(*g),
        None => weapons::all(),
    };
    let mut t = Table::new(&["genre", "weapon", "tt", "rof", "tt_continuous", "note"]).right_align(&[2, 3, 4]);
    for w in rows {
        t.push(vec![
            w.genre.title().to_string(),
            w.name.to_string(),
            w.time_taken.to_string(),
            w.rate_of_fire.to_string(),
            w.time_taken_for(true).to_string(),
            w.footnote.map(|f| f.marker().to_string()).unwrap_or_default(),
        ]);
    }
    let mut s = t.render(args.format);
    if args.format == Format::Text {
        s += "\nTT: Time Taken (ticks); RoF: shots per round, exact; tt_continuous: TT under Continuous timing\n";
        for f in weapons::Footnote::ALL {
            if rows.iter().any(|w| w.footnote == Some(f)) {
                s += &format!("{} {}\n", f.marker(), f.text());
            }
        }
    }
    Ok(s)
}
