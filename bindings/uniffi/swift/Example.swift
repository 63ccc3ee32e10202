// The goblin ambush of the Relativity article at the table, from Swift: the
// same session as bindings/uniffi/kotlin/Main.kt, with the text's rolls.
//
// It uses the generated module `Skirmish` (Skirmish.swift + SkirmishFFI).
// No Swift compiler runs here (Linux CI): scripts/test-mobile parses this
// file with tree-sitter-swift and checks that every Encounter method and
// top-level function it calls exists in the generated Skirmish.swift. On a
// Mac it runs as is inside an app or a test target (see docs/mobile.md).

import Foundation
import Skirmish

/// The tick sheet as a GM reads it: "4: Madoc, Orc #2".
func sheetText(_ sheet: [SheetLine]) -> [String] {
    return sheet
        .filter { !$0.lines.isEmpty }
        .map { line in "\(line.display): " + line.lines.map { $0.sheetLabel }.joined(separator: ", ") }
}

func attack(_ timeTaken: Int32, bonus: Int32 = 0) -> Declaration {
    return Declaration(timeTaken: timeTaken, speedBonus: bonus)
}

/// Plays ticks 1 to 7 of the Continuous example; returns the restored copy's log.
func runAmbush() throws -> [String] {
    let fight = try Encounter(system: .continuous(config: ContinuousConfig()), seed: 0)
    let party: [(String, Declaration, String)] = [
        ("Roland", attack(2, bonus: 1), "elven bow"),
        ("Madoc", attack(0, bonus: 2), "Spark"),
        ("Cardiff", attack(7), "two-handed sword"),
        ("Orc #1", attack(3), "dagger"),
        ("Orc #2", attack(3), "dagger"),
        ("Goblin #1", attack(8), "pike"),
        ("Goblin #2", attack(8), "pike"),
        ("Shaman", attack(2), "Unholy Grasp"),
    ]
    for (name, action, label) in party {
        _ = try fight.addCombatant(spec: CombatantSpec(name: name, action: action, actionLabel: label))
    }
    func id(_ name: String) throws -> UInt32 {
        return try fight.find(name: name)
    }

    // Initiative: the party's 4dF rolls, the goblinoids' GM-set scores.
    try fight.setInitiative(combatant: id("Roland"), entry: .roll(roll: -1))
    try fight.setInitiative(combatant: id("Madoc"), entry: .roll(roll: 1))
    try fight.setInitiative(combatant: id("Cardiff"), entry: .roll(roll: -4))
    try fight.setInitiative(combatant: id("Shaman"), entry: .total(total: 6))
    try fight.setInitiative(combatant: id("Orc #1"), entry: .total(total: 3))
    try fight.setInitiative(combatant: id("Orc #2"), entry: .total(total: 4))
    try fight.setInitiative(combatant: id("Goblin #1"), entry: .total(total: 9))
    try fight.setInitiative(combatant: id("Goblin #2"), entry: .total(total: 9))

    if case .newRound(let round, let sheet, _) = try fight.next() {
        print("round \(round): \(sheetText(sheet))")
    }

    // Tick 3: Orc #1 reaches Cardiff; the GM rules his next blow lands in tick 10.
    if case .acting(let moment, let lines, _) = try fight.next() {
        print("tick \(moment.display): \(lines.map { $0.name })")
    }
    let orcLands = try fight.declare(
        combatant: id("Orc #1"), label: "stab Cardiff",
        action: Declaration(timeTaken: 3, gm: .readyTime(ticks: 7)), roll: nil)
    assert(orcLands == 10)

    // Tick 4: Madoc's Spark and Orc #2's dagger at the same instant.
    _ = try fight.next()
    _ = try fight.declare(combatant: id("Madoc"), label: "hidden dagger",
                          action: Declaration(timeTaken: 3, gm: .readyTime(ticks: 6)), roll: nil)
    _ = try fight.declare(combatant: id("Orc #2"), label: "stab Madoc", action: attack(3), roll: 0)
    _ = try fight.cancel(combatant: id("Shaman"))
    _ = try fight.declare(combatant: id("Shaman"), label: "Word of Darkness: Blind",
                          action: Declaration(timeTaken: 2, extraPreparation: 2), roll: -1)

    // The app saves the fight after every change (an opaque blob) ...
    let saved = try fight.snapshot()
    UserDefaults.standard.set(saved, forKey: "skirmish.fight")

    // Tick 5: Roland slays Goblin #2 and aims at Orc #2 (roll -1: tick 6).
    _ = try fight.next()
    try fight.down(combatant: id("Goblin #2"))
    _ = try fight.declare(combatant: id("Roland"), label: "shoot Orc #2", action: attack(2, bonus: 1), roll: -1)

    // Undo the last declaration, then think better of it: redo does it again exactly.
    try fight.undo()
    if try fight.redoDepth() > 0 {
        try fight.redo()
    }
    // The players' screen polls the log for what is new.
    let seen = try fight.logLen()
    _ = try fight.next()
    for entry in try fight.logSince(n: seen) {
        print("[\(entry.round) \(entry.tick)] \(entry.text)")
    }
    try fight.undo()
    print(sheetText(try fight.tickSheet()))

    // Errors are typed: a downed goblin cannot act, a fresh fight has nothing to undo.
    do {
        _ = try fight.declare(combatant: id("Goblin #2"), label: "stab", action: attack(3), roll: nil)
    } catch SkirmishError.NotNow(let message) {
        print("refused: \(message)")
    }
    do {
        try Encounter(system: .simpleRounds, seed: 1).undo()
    } catch SkirmishError.NothingToUndo(let message) {
        print("refused: \(message)")
    }
    do {
        _ = try fight.declare(combatant: id("Orc #1"), label: "x", action: attack(-1), roll: nil)
    } catch SkirmishError.InvalidInput(let field, let message) {
        print("field \(field): \(message)")
    }

    // ... and after the app was killed, restores it and carries on exactly.
    let blob = UserDefaults.standard.string(forKey: "skirmish.fight") ?? saved
    let resumed = try Encounter.restore(snapshot: blob)
    _ = try resumed.next()
    try resumed.down(combatant: resumed.find(name: "Goblin #2"))
    _ = try resumed.declare(combatant: resumed.find(name: "Roland"), label: "shoot Orc #2",
                            action: attack(2, bonus: 1), roll: -1)
    let sameSheet = try resumed.tickSheet() == fight.tickSheet()
    assert(sameSheet)

    // The odds the app shows before Cardiff swings: 76 of the 81 rolls hit.
    let odds = try strikeOdds(strikeRating: 9, defenseRating: 6, options: nil)
    print("hit \(odds.hit.numerator)/\(odds.hit.denominator)")
    let crossbow = try findWeapon(name: "heavy crossbow")
    print("\(crossbow.name): TT \(crossbow.timeTaken)")

    return try resumed.log().map { $0.text }
}

/// The whole combat loop from the built-in ambush: a strike with the table's
/// roll, the wound it deals, the screen refresh, the odds from here.
func runStrikes() throws -> [String] {
    let fight = try Encounter.fromScenario(name: "goblin-ambush", seed: 1)
    let cardiff = try fight.find(name: "Cardiff")
    let goblin = try fight.find(name: "Goblin #1")
    _ = try fight.next()

    // Cardiff (SR 9) rolls -1 against the goblin sentry's DR 6: a hit by 2.
    let report = try fight.strike(attacker: cardiff, target: goblin,
                                  options: EncounterStrikeOptions(modifier: 0),
                                  dice: StrikeDice(attack: -1))
    print("\(report.attackTotal) vs \(report.defenseTotal): \(report.result), damage \(report.damage)")
    for part in report.attackBreakdown {
        print("  \(part.label) \(part.value)")
    }
    if report.wentDown {
        print("Goblin #1 is down")
    }
    // The GM's correction, and the wound penalty it gives.
    try fight.setDamage(combatant: goblin, change: .heal)
    print("penalty \(try fight.penalty(combatant: goblin))")

    // One call per screen refresh; the players' screen hides what they cannot see.
    try fight.setParty(side: "party")
    let screen = try fight.view(viewFor: .players)
    for c in screen.combatants {
        print("\(c.name): \(c.status) \(String(describing: c.wound))")
    }
    let odds = try fight.oddsFromHere(battles: 1000, seed: 7)
    for side in odds.sides {
        print("\(side.name): \(side.winRate) (\(side.low)-\(side.high))")
    }

    do {
        _ = try fight.strike(attacker: cardiff, target: cardiff, options: nil, dice: StrikeDice(attack: 0))
    } catch SkirmishError.InvalidInput(let field, let message) {
        print("field \(field): \(message)")
    }
    return try fight.log().map { $0.text }
}
