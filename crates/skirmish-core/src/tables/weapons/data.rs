//! The rows: every weapon of the four tables as static data, in the
//! text's order, with the footnotes' extra values, checked when the crate
//! compiles, and the two ways to list them ([`all`], [`by_genre`]). Its own
//! file because it is the text's tables transcribed, to be read against
//! the printed page (`tests/it/weapons.rs` compares it with
//! `tests/cases/weapon_tables.txt`), apart from the types and the name
//! lookups.

use super::{Footnote, Genre, RateOfFire, Weapon};

const fn row(name: &'static str, genre: Genre, time_taken: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        name,
        genre,
        time_taken,
        rate_of_fire: RateOfFire::of(shots, rounds),
        continuous_time_taken: None,
        burst: None,
        footnote: None,
        aliases: &[],
    }
}

const fn fantasy(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::Fantasy, tt, shots, rounds)
}

const fn oriental(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::Oriental, tt, shots, rounds)
}

const fn modern(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::IndustrialModern, tt, shots, rounds)
}

const fn scifi(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::ScienceFiction, tt, shots, rounds)
}

const fn grenade(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        footnote: Some(Footnote::Grenade),
        ..modern(name, tt, shots, rounds)
    }
}

/// Rounds of ammunition per machine-gun burst ("roughly 15").
const BURST: u32 = 15;

const fn machine_gun(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        footnote: Some(Footnote::MachineGun),
        burst: Some(BURST),
        ..modern(name, tt, shots, rounds)
    }
}

/// Rows per genre, in [`Genre::ALL`] order.
const COUNTS: [usize; 4] = [18, 15, 15, 9];

/// Every row of the four tables, in the text's order.
pub(super) static WEAPONS: [Weapon; 57] = [
    // Fantasy
    fantasy("Axe, Battle", 5, 1, 1),
    fantasy("Bow, Long", 3, 2, 1),
    fantasy("Bow, Short", 2, 2, 1),
    fantasy("Club", 3, 3, 2),
    Weapon {
        continuous_time_taken: Some(12),
        footnote: Some(Footnote::HeavyCrossbow),
        ..fantasy("Crossbow, Heavy", 8, 1, 2)
    },
    fantasy("Crossbow, Light", 5, 1, 1),
    fantasy("Dagger", 3, 2, 1),
    fantasy("Hammer, War", 3, 4, 3),
    fantasy("Mace/Morningstar", 3, 4, 3),
    fantasy("Pike/Pole-arm", 8, 1, 1),
    fantasy("Quarterstaff", 5, 1, 1),
    fantasy("Spear", 5, 1, 1),
    fantasy("Sword, Bastard (1-hand)", 5, 1, 1),
    fantasy("Sword, Bastard (2-hand)", 6, 1, 1),
    fantasy("Sword, Long", 5, 1, 1),
    fantasy("Sword, Short", 4, 4, 3),
    fantasy("Sword, Two-Handed", 7, 1, 1),
    fantasy("Whip, Bull", 5, 4, 3),
    // Oriental
    oriental("Bo Stick", 4, 4, 3),
    oriental("Fan, War", 3, 5, 3),
    oriental("Katana", 4, 1, 1),
    oriental("Kusari-Gama", 6, 4, 3),
    oriental("Naginata", 5, 1, 1),
    oriental("Ninjato", 4, 1, 1),
    oriental("Nodachi", 7, 1, 1),
    oriental("Nunchaku", 3, 2, 1),
    oriental("Sai", 3, 2, 1),
    oriental("Shuriken", 2, 3, 1),
    oriental("Staff, Three-Part", 4, 3, 2),
    oriental("Tonfa", 3, 5, 3),
    oriental("Tachi", 4, 4, 3),
    oriental("Wakizashi", 3, 2, 1),
    oriental("Wrist Razor", 3, 2, 1),
    // Industrial & Modern
    modern("Bayonet", 5, 1, 1),
    modern("Chain, Length of", 5, 1, 1),
    grenade("Grenade, Hand", 4, 1, 1),
    grenade("Grenade, Launched", 4, 1, 1),
    modern("Hand Gun, Luger Semi-Automatic", 3, 2, 1),
    modern("Hand Gun, Revolver", 2, 3, 1),
    modern("Hand Gun, Desert Eagle", 3, 2, 1),
    modern("Knife, Switchblade", 2, 3, 1),
    modern("Knife, Bowie", 3, 2, 1),
    machine_gun("Machine Gun, Gatling", 6, 1, 1),
    machine_gun("Machine Gun, M-16 or AK-47", 5, 1, 1),
    machine_gun("Machine Gun, Thompson", 4, 3, 2),
    modern("Rifle, Flintlock", 14, 1, 2),
    modern("Rifle, Sniper", 9, 2, 3),
    Weapon {
        aliases: &["Rifle, Twelve-Gauge"],
        ..modern("Rifle, Twelve-Guage", 7, 1, 1)
    },
    // Science Fiction
    scifi("Lightsaber", 4, 3, 2),
    scifi("Pistol, Laser", 3, 3, 2),
    scifi("Pistol, Particle", 5, 1, 1),
    scifi("Pistol, Heatseeker", 7, 1, 1),
    scifi("Rifle, Laser", 5, 1, 1),
    scifi("Rifle, Plasma", 12, 1, 2),
    scifi("Rifle, Railgun", 6, 1, 1),
    scifi("Tazer", 9, 2, 3),
    scifi("Whip, Monofilament", 4, 3, 2),
];

/// Where each genre's rows start in [`WEAPONS`].
pub(super) const STARTS: [usize; 5] = [
    0,
    COUNTS[0],
    COUNTS[0] + COUNTS[1],
    COUNTS[0] + COUNTS[1] + COUNTS[2],
    COUNTS[0] + COUNTS[1] + COUNTS[2] + COUNTS[3],
];

// The table is checked when the crate compiles: rows grouped by genre in
// order, the counts add up, every rate of fire is valid.
const _: () = {
    assert!(STARTS[4] == WEAPONS.len());
    let mut g = 0;
    while g < 4 {
        let mut i = STARTS[g];
        while i < STARTS[g + 1] {
            assert!(WEAPONS[i].genre as usize == g);
            assert!(WEAPONS[i].rate_of_fire.shots >= 1 && WEAPONS[i].rate_of_fire.rounds >= 1);
            assert!(WEAPONS[i].time_taken >= 1);
            i += 1;
        }
        g += 1;
    }
};

/// Every weapon of the four tables, in the text's order.
pub fn all() -> &'static [Weapon] {
    &WEAPONS
}

/// The weapons of one table, in the text's order.
///
/// ```
/// use skirmish_core::tables::weapons::{by_genre, Genre};
/// let counts = Genre::ALL.map(|g| by_genre(g).len());
/// assert_eq!(counts, [18, 15, 15, 9]);
/// assert_eq!(by_genre(Genre::ScienceFiction)[0].name, "Lightsaber");
/// ```
pub fn by_genre(genre: Genre) -> &'static [Weapon] {
    let g = genre as usize;
    // Always in range (checked at compile time above).
    WEAPONS.get(STARTS[g]..STARTS[g + 1]).unwrap_or(&[])
}
