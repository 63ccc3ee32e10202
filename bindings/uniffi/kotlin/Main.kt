// The skirmish tracker driven from Kotlin through the generated UniFFI
// bindings, on the JVM (JNA loads the Rust library). scripts/test-mobile
// compiles this with the generated `dev/skirmish/skirmish_uniffi.kt` in one
// kotlinc call and runs it; it exits non-zero if any check fails.
//
// It plays the Continuous example of the Relativity article (the goblin
// ambush) with the text's rolls, as crates/skirmish-core/tests/cases/timing.toml
// ("Continuous: every pending-actions table") does through the Rust tracker;
// then undo and redo, a snapshot restored into a new object that continues
// identically, two threads at once, every error kind, and bad input that
// must come back as exceptions, never a crash.

import dev.skirmish.*
import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread
import kotlin.system.exitProcess

var passed = 0
var failed = 0

fun check(name: String, ok: Boolean, detail: () -> String = { "" }) {
    if (ok) {
        passed++
    } else {
        failed++
        println("FAIL: $name ${detail()}")
    }
}

fun <T> same(name: String, got: T, want: T) = check(name, got == want) { "\n   got:  $got\n   want: $want" }

/** Runs `block`, which must throw an exception of type `E`; returns it. */
inline fun <reified E : SkirmishException> throws(name: String, block: () -> Unit): E? {
    try {
        block()
    } catch (e: E) {
        passed++
        return e
    } catch (e: Throwable) {
        failed++
        println("FAIL: $name threw ${e::class.qualifiedName}: ${e.message}, not ${E::class.simpleName}")
        return null
    }
    failed++
    println("FAIL: $name did not throw ${E::class.simpleName}")
    return null
}

/** The tick sheet as the Rust case file writes it: "4: Madoc, Orc #2". */
fun sheetText(sheet: List<SheetLine>): List<String> =
    sheet.filter { it.lines.isNotEmpty() }.map { line -> "${line.display}: " + line.lines.joinToString(", ") { it.sheetLabel } }

fun attack(timeTaken: Int, speedBonus: Int = 0) = Declaration(timeTaken = timeTaken, speedBonus = speedBonus)

fun Encounter.id(name: String): UInt = find(name)

/** Expects a moment at `display` with these lines acting. */
fun Encounter.expectMoment(display: Long, acting: List<String>) {
    when (val t = next()) {
        is Turn.Acting -> same("moment $display", Pair(t.moment.display, t.lines.map { it.sheetLabel }), Pair(display, acting))
        else -> check("moment $display", false) { "got $t" }
    }
}

/** Declares and checks the landing tick (Continuous: display = absolute tick). */
fun Encounter.expectDeclare(who: String, label: String, action: Declaration, roll: Int?, lands: Long) {
    val tick = declare(id(who), label, action, roll)
    same("$who declares $label: lands", tick?.toLong(), lands)
}

val party = listOf(
    CombatantSpec(name = "Roland", action = attack(2, 1), actionLabel = "elven bow"),
    CombatantSpec(name = "Madoc", action = attack(0, 2), actionLabel = "Spark"),
    CombatantSpec(name = "Cardiff", action = attack(7), actionLabel = "two-handed sword"),
    CombatantSpec(name = "Orc #1", action = attack(3), actionLabel = "dagger"),
    CombatantSpec(name = "Orc #2", action = attack(3), actionLabel = "dagger"),
    CombatantSpec(name = "Goblin #1", action = attack(8), actionLabel = "pike"),
    CombatantSpec(name = "Goblin #2", action = attack(8), actionLabel = "pike"),
    CombatantSpec(name = "Shaman", action = attack(2), actionLabel = "Unholy Grasp"),
)

/** The ambush up to the first round's sheet. */
fun ambush(): Encounter {
    val e = Encounter(TimingSystem.Continuous(ContinuousConfig()), 0uL)
    for (spec in party) e.addCombatant(spec)
    e.setInitiative(e.id("Roland"), InitiativeEntry.Roll(-1))
    e.setInitiative(e.id("Madoc"), InitiativeEntry.Roll(1))
    e.setInitiative(e.id("Cardiff"), InitiativeEntry.Roll(-4))
    e.setInitiative(e.id("Shaman"), InitiativeEntry.Total(6))
    e.setInitiative(e.id("Orc #1"), InitiativeEntry.Total(3))
    e.setInitiative(e.id("Orc #2"), InitiativeEntry.Total(4))
    e.setInitiative(e.id("Goblin #1"), InitiativeEntry.Total(9))
    e.setInitiative(e.id("Goblin #2"), InitiativeEntry.Total(9))
    return e
}

/** Ticks 3 and 4 of the text: Orc #1 reaches Cardiff, Madoc's Spark and Orc #2 at once. */
fun ticksThreeAndFour(e: Encounter) {
    // "Nothing happens during the first two ticks, then Orc #1 reaches Cardiff".
    e.expectMoment(3, listOf("Orc #1"))
    // "the Orc's next blow should land in tick #10": a GM-set Ready Time of 7.
    e.expectDeclare("Orc #1", "stab Cardiff", attack(3).copy(gm = GmTiming.ReadyTime(7u)), null, 10)
    same("sheet after tick 3", sheetText(e.tickSheet()),
        listOf("4: Madoc, Orc #2", "5: Roland", "6: Shaman", "8: Cardiff", "9: Goblin #1, Goblin #2", "10: Orc #1"))
    // "In the next tick, 4, Madoc casts his spell and Orc #2 strikes him at the same instant."
    e.expectMoment(4, listOf("Madoc", "Orc #2"))
    e.expectDeclare("Madoc", "hidden dagger", attack(3).copy(gm = GmTiming.ReadyTime(6u)), null, 10)
    // Orc #2: "Roll 0 -> R.T. 3 -> Next tick 7".
    e.expectDeclare("Orc #2", "stab Madoc", attack(3), 0, 7)
    // The shaman's spell is gone: disrupt finds nothing disruptible, cancel does.
    same("disrupt the Shaman's grasp", e.disrupt(e.id("Shaman")), false)
    same("cancel the Shaman's grasp", e.cancel(e.id("Shaman")), true)
    // "Word of Darkness: Blind", TT 2 + 2 extra ticks to recover; roll -1 -> tick 7.
    e.expectDeclare("Shaman", "Word of Darkness: Blind", attack(2).copy(extraPreparation = 2), -1, 7)
    same("sheet after tick 4", sheetText(e.tickSheet()),
        listOf("5: Roland", "7: Orc #2, Shaman", "8: Cardiff", "9: Goblin #1, Goblin #2", "10: Orc #1, Madoc"))
}

/** Ticks 5 to 7 of the text. */
fun ticksFiveToSeven(e: Encounter) {
    // "In tick 5, Roland slays Goblin #2 with an arrow ... (Roll -1 -> R.T. 1 -> Next tick 6)".
    e.expectMoment(5, listOf("Roland"))
    e.down(e.id("Goblin #2"))
    e.expectDeclare("Roland", "shoot Orc #2", attack(2, 1), -1, 6)
    same("sheet after tick 5", sheetText(e.tickSheet()),
        listOf("6: Roland", "7: Orc #2, Shaman", "8: Cardiff", "9: Goblin #1", "10: Orc #1, Madoc"))
    // "At 6, Roland slays Orc #2, and directs his next shot towards the Shaman (Roll 1 -> R.T. 2 -> Next tick 8)".
    e.expectMoment(6, listOf("Roland"))
    e.down(e.id("Orc #2"))
    e.expectDeclare("Roland", "shoot the Shaman", attack(2, 1), 1, 8)
    same("sheet after tick 6", sheetText(e.tickSheet()), listOf("7: Shaman", "8: Cardiff, Roland", "9: Goblin #1", "10: Orc #1, Madoc"))
    // "In 7, the Shaman successfully casts his blinding spell on Roland."
    e.expectMoment(7, listOf("Shaman"))
    // Roland changes his mind: drops the bow, draws his short sword, TT 4: roll 0 -> tick 11.
    e.expectDeclare("Roland", "draw short sword", attack(4), 0, 11)
    // "Disrupt Dweomer", TT 4: "Roll -1 -> R.T. 3 -> Next tick 10".
    e.expectDeclare("Shaman", "Disrupt Dweomer", attack(4), -1, 10)
    same("sheet after tick 7", sheetText(e.tickSheet()), listOf("8: Cardiff", "9: Goblin #1", "10: Orc #1, Madoc, Shaman", "11: Roland"))
}

/** What a continuation shows, step by step, for comparing two encounters. */
fun continuation(e: Encounter, steps: Int): List<String> {
    val out = mutableListOf<String>()
    repeat(steps) {
        val t = e.next()
        out += t.toString()
        // Whoever landed does the same again, the encounter rolling Ready Time.
        for (c in e.awaitingCombatants()) {
            val d = e.declaration(c)
            out += "${e.declare(c, d.label, d.declaration, null)}"
        }
        out += sheetText(e.tickSheet()).joinToString(" | ")
    }
    out += e.log().joinToString("\n") { "[${it.round} ${it.tick}] ${it.text}" }
    return out
}

fun theGoblinAmbush() {
    ambush().use { e ->
        same("system", e.system(), TimingSystem.Continuous(ContinuousConfig(lap = 20u)))
        val first = e.next()
        check("the battle begins", first is Turn.NewRound && first.round == 1u) { "$first" }
        if (first is Turn.NewRound) {
            same("the first sheet", sheetText(first.sheet),
                listOf("3: Orc #1", "4: Madoc, Orc #2", "5: Roland", "6: Shaman", "8: Cardiff", "9: Goblin #1, Goblin #2"))
        }
        ticksThreeAndFour(e)
        ticksFiveToSeven(e)
        same("Goblin #2 is down", e.combatants().first { it.name == "Goblin #2" }.status, Status.DOWN)
        same("Roland's declaration", e.declaration(e.id("Roland")), LineDeclaration("draw short sword", attack(4).copy(kind = ActionKind.Attack)))
        check("the log tells the story", e.log().any { it.text.contains("Roland changes to draw short sword") }) {
            e.log().joinToString("\n") { it.text }
        }
        check("the built-in ambush has the same eight", goblinAmbush().map { it.spec.name } == party.map { it.name })
    }
}

fun undoAndRedo() {
    ambush().use { e ->
        e.next()
        ticksThreeAndFour(e)
        val sheet = e.tickSheet()
        val depth = e.undoDepth()
        val snap = e.snapshot()
        // Undo Roland's landing (a `next`) and the declarations before it, then redo.
        e.expectMoment(5, listOf("Roland"))
        e.down(e.id("Goblin #2"))
        val after = e.snapshot()
        e.undo()
        e.undo()
        same("undo goes back two steps", e.snapshot(), snap)
        same("the sheet is back", e.tickSheet(), sheet)
        same("undo depth is back", e.undoDepth(), depth)
        same("two steps to redo", e.redoDepth(), 2u)
        e.redo()
        e.redo()
        same("redo brings both back exactly", e.snapshot(), after)
        throws<SkirmishException.NothingToUndo>("redo with nothing undone") { e.redo() }
        e.undo()
        e.undo()
        ticksFiveToSeven(e) // done again by hand: the same story, the same sheets
        throws<SkirmishException.NothingToUndo>("a new operation clears redo") { e.redo() }
        // A declaration undone and declared again lands on the same tick.
        e.undo()
        e.expectDeclare("Shaman", "Disrupt Dweomer", attack(4), -1, 10)
        // Undo a `next` whose Ready Time the encounter rolled: redoing it rolls the same.
        val before = e.snapshot()
        val a = continuation(e, 3)
        repeat(a.size) { if (e.snapshot() != before) e.undo() }
        same("undone back to before the rolls", e.snapshot(), before)
        same("redone rolls are the same rolls", continuation(e, 3), a)
    }
}

fun snapshotAndRestore() {
    ambush().use { e ->
        e.next()
        ticksThreeAndFour(e)
        val blob = e.snapshot()
        Encounter.restore(blob).use { r ->
            same("the restored encounter snapshots the same", r.snapshot(), blob)
            same("the restored sheet", r.tickSheet(), e.tickSheet())
            same("the restored log", r.log(), e.log())
            // A snapshot carries the newest 20 undo steps (bounded size).
            same("the restored undo depth", r.undoDepth(), minOf(e.undoDepth(), 20u))
            ticksFiveToSeven(e)
            ticksFiveToSeven(r)
            // Then both run on with the encounter rolling: every turn, roll and line the same.
            same("the continuation is identical", continuation(r, 40), continuation(e, 40))
            same("and ends in the same state", r.snapshot(), e.snapshot())
            // The restored encounter's history came along: undo works there too.
            r.undo()
            check("undo after restore", r.snapshot() != e.snapshot())
        }
    }
}

fun twoThreadsAtOnce() {
    ambush().use { e ->
        e.next()
        val start = e.snapshot()
        val depth = e.undoDepth()
        val errors = AtomicInteger(0)
        val go = CountDownLatch(1)
        // One thread steps and undoes; the other reads the sheet and the log meanwhile.
        val stepper = thread {
            go.await()
            try {
                repeat(300) {
                    e.next()
                    e.undo()
                }
            } catch (x: Throwable) {
                errors.incrementAndGet()
                println("stepper: $x")
            }
        }
        val reader = thread {
            go.await()
            try {
                repeat(300) {
                    val sheet = e.tickSheet()
                    if (sheet.isEmpty() || e.combatants().size != 8) errors.incrementAndGet()
                    e.log()
                }
            } catch (x: Throwable) {
                errors.incrementAndGet()
                println("reader: $x")
            }
        }
        go.countDown()
        stepper.join()
        reader.join()
        same("no errors from two threads", errors.get(), 0)
        same("next + undo 300 times leaves the encounter as it was", e.snapshot(), start)
        same("and the undo depth", e.undoDepth(), depth)
    }
    // Two threads adding at once: every combatant gets its own id.
    Encounter(TimingSystem.SimpleRounds, 1uL).use { e ->
        val ids = java.util.Collections.synchronizedList(mutableListOf<UInt>())
        val go = CountDownLatch(1)
        val workers = (0 until 2).map { w ->
            thread {
                go.await()
                repeat(100) { i -> ids += e.addCombatant(CombatantSpec(name = "w$w-$i", action = attack(3))) }
            }
        }
        go.countDown()
        workers.forEach { it.join() }
        same("200 distinct ids", ids.toSet().size, 200)
        same("200 combatants", e.combatants().size, 200)
    }
}

fun everyErrorKind() {
    Encounter(TimingSystem.Continuous(ContinuousConfig()), 5uL).use { fresh ->
        throws<SkirmishException.NothingToUndo>("undo on a fresh encounter") { fresh.undo() }
        throws<SkirmishException.NothingToUndo>("redo on a fresh encounter") { fresh.redo() }
        throws<SkirmishException.NotNow>("next with no combatants") { fresh.next() }
    }
    ambush().use { e ->
        e.next()
        e.expectMoment(3, listOf("Orc #1"))
        val goblin = e.id("Goblin #2")
        e.down(goblin)
        val before = e.snapshot()
        val depth = e.undoDepth()
        throws<SkirmishException.NotFound>("find an unknown name") { e.find("Gobbo") }?.let {
            check("NotFound suggests", it.reason.contains("Goblin")) { it.reason }
        }
        throws<SkirmishException.NotFound>("down an unknown id") { e.down(999u) }
        throws<SkirmishException.NotFound>("declare for an unknown id") { e.declare(UInt.MAX_VALUE, "x", attack(3), null) }
        throws<SkirmishException.NotFound>("end an unknown effect") { e.endEffect(42u) }
        throws<SkirmishException.NotNow>("a downed combatant declares") { e.declare(goblin, "stab", attack(3), null) }
        throws<SkirmishException.NotNow>("a downed combatant delays") { e.delay(goblin, 2u) }
        throws<SkirmishException.NotNow>("down twice") { e.down(goblin) }
        throws<SkirmishException.NotNow>("hold is an Action Blocks rule") { e.hold(e.id("Roland")) }
        // The core refuses a Tick System call in another system as InvalidInput (its
        // tests pin that), unlike hold's NotNow: reported to the tracker's owner.
        throws<SkirmishException.InvalidInput>("free actions are a Tick System rule") { e.freeAction(e.id("Roland"), null, true) }?.let {
            same("the field", it.field, "free_action")
        }
        throws<SkirmishException.InvalidInput>("a 2dF roll of 3") { e.declare(e.id("Orc #1"), "x", attack(3), 3) }?.let {
            // The core names no field for a typed-in roll the dice cannot show (field ""); the reason says it all.
            check("the reason names the dice", it.reason.contains("2dF")) { "field=${it.field} reason=${it.reason}" }
        }
        throws<SkirmishException.InvalidInput>("a negative Time Taken") { e.declare(e.id("Orc #1"), "x", attack(-1), null) }?.let {
            same("the field", it.field, "declaration.time_taken")
            check("the reason names it", it.reason.startsWith("declaration.time_taken")) { it.reason }
        }
        throws<SkirmishException.InvalidInput>("a 4dF initiative roll of 5") { e.setInitiative(e.id("Roland"), InitiativeEntry.Roll(5)) }
        throws<SkirmishException.InvalidInput>("a group of 0") { e.addGroup("Rats", 0u, CombatantSpec(name = "rat", action = attack(1))) }
        throws<SkirmishException.InvalidInput>("an empty name") { e.addCombatant(CombatantSpec(name = " ", action = attack(1))) }
        throws<SkirmishException.InvalidInput>("a rate of fire 0/1") {
            e.addCombatant(CombatantSpec(name = "x", action = attack(1).copy(rateOfFire = RateOfFire(shots = 0u))))
        }?.let { same("the nested field", it.field, "declaration.rate_of_fire.shots") }
        throws<SkirmishException.InvalidInput>("an effect of 0 ticks") { e.addEffect("gas", EffectDuration.Ticks(0uL), null) }
        same("refused calls changed nothing", e.snapshot(), before)
        same("refused calls added no undo step", e.undoDepth(), depth)

        val good = e.snapshot()
        for ((what, bad) in listOf(
            "empty" to "",
            "truncated" to good.substring(0, good.length / 2),
            "not an encounter" to "{\"hello\":1}",
            "another version" to good.replaceFirst(Regex("\"version\":[0-9]+"), "\"version\":99"),
            "another format" to good.replaceFirst("skirmish-encounter", "skirmish-battle"),
            "garbage" to "\u0000\u00ff not json",
        )) {
            throws<SkirmishException.BadSnapshot>("a corrupt snapshot: $what") { Encounter.restore(bad).close() }
        }
    }
    throws<SkirmishException.NotFound>("an unknown weapon") { findWeapon("crosbow") }?.let {
        check("it suggests the crossbows", it.reason.contains("Crossbow, Heavy")) { it.reason }
    }
    throws<SkirmishException.NotFound>("an unknown armor") { findArmor("lether") }
    throws<SkirmishException.NotFound>("an unknown timing system") { timingSystemNamed("initiative dance") }
    throws<SkirmishException.InvalidInput>("a lap of 0 ticks") { Encounter(TimingSystem.Continuous(ContinuousConfig(lap = 0u)), 1uL) }
    throws<SkirmishException.InvalidInput>("a d0 initiative die") {
        Encounter(TimingSystem.TickSystem(TickSystemConfig(initiativeDie = Dice.Standard(1u, 0u))), 1uL)
    }
}

/** Extreme and nonsensical input: every call returns or throws a SkirmishException, none is Internal. */
fun badInputNeverCrashes() {
    val internal = AtomicInteger(0)
    var calls = 0
    fun attempt(block: () -> Unit) {
        calls++
        try {
            block()
        } catch (x: SkirmishException.Internal) {
            internal.incrementAndGet()
            val at = x.stackTrace.firstOrNull { it.className.startsWith("MainKt") && it.methodName.contains("badInput") }
            println("internal error at Main.kt:${at?.lineNumber}: ${x.reason}")
        } catch (x: SkirmishException) {
            // refused: fine
        }
    }
    val systems = timingSystemNames().map { timingSystemNamed(it) }
    for (system in systems) {
        Encounter(system, ULong.MAX_VALUE).use { e ->
            val ints = listOf(Int.MIN_VALUE, -1, 0, 1, 3, Int.MAX_VALUE)
            for (tt in ints) attempt { e.addCombatant(CombatantSpec(name = "tt$tt", action = attack(tt, -tt))) }
            attempt { e.addGroup("Horde", 100u, CombatantSpec(name = "h", action = attack(5))) }
            attempt { e.addGroup("Too many", UInt.MAX_VALUE, CombatantSpec(name = "h", action = attack(5))) }
            attempt { e.addCombatant(CombatantSpec(name = "odd", action = attack(2), timing = ActorTiming(Int.MIN_VALUE, UInt.MAX_VALUE, Int.MAX_VALUE, Int.MIN_VALUE))) }
            val ids = e.combatants().map { it.id } + listOf(UInt.MAX_VALUE, 123456u)
            for (round in 0 until 8) {
                attempt { e.next() }
                for (c in ids.take(4) + ids.takeLast(2)) {
                    attempt { e.setInitiative(c, InitiativeEntry.Total(Long.MIN_VALUE)) }
                    attempt { e.setInitiative(c, InitiativeEntry.Total(Long.MAX_VALUE)) }
                    attempt { e.setInitiative(c, InitiativeEntry.Roll(Int.MAX_VALUE)) }
                    attempt { e.declare(c, "huge", attack(Int.MAX_VALUE, Int.MIN_VALUE).copy(extraPreparation = Int.MAX_VALUE), Int.MIN_VALUE) }
                    attempt { e.declare(c, "far", attack(1).copy(gm = GmTiming.LandingTick(ULong.MAX_VALUE)), null) }
                    attempt { e.declare(c, "ready", attack(1).copy(gm = GmTiming.ReadyTime(UInt.MAX_VALUE), actionTicks = UInt.MAX_VALUE), null) }
                    attempt { e.delay(c, UInt.MAX_VALUE) }
                    attempt { e.freeAction(c, UInt.MAX_VALUE, round % 2 == 0) }
                    attempt { e.interrupt(c, false) }
                    attempt { e.takeHeldTurn(c) }
                    attempt { e.hold(c) }
                    attempt { e.defenseBonus(c) }
                    attempt { e.declaration(c) }
                }
                attempt { e.addEffect("forever", EffectDuration.Ticks(ULong.MAX_VALUE), ids.first()) }
                attempt { e.addEffect("long", EffectDuration.Rounds(UInt.MAX_VALUE), null) }
                attempt { e.endEffect(UInt.MAX_VALUE) }
                attempt { e.tickSheet() }
            }
            attempt { e.remove(ids.first()) }
            repeat(5) { attempt { e.undo() } }
            attempt { Encounter.restore(e.snapshot()).close() }
        }
    }
    for (sr in listOf(Int.MIN_VALUE, -100, 0, 9, Int.MAX_VALUE)) {
        for (dr in listOf(Int.MIN_VALUE, 0, 6, Int.MAX_VALUE)) {
            attempt { strikeOdds(sr, dr, StrikeOptions(true, true, true)) }
        }
    }
    same("no call of $calls crossed as an internal error", internal.get(), 0)
}

fun logPollingAndHiddenCombatants() {
    ambush().use { e ->
        val seen = e.logLen()
        e.next()
        val fresh = e.logSince(seen)
        check("log_since returns what is new", fresh.isNotEmpty() && fresh.first().text.contains("the battle begins")) { "$fresh" }
        same("and log_len counts it", e.logLen(), seen + fresh.size.toULong())
        val shaman = e.id("Shaman")
        e.hide(shaman)
        check("hidden", e.combatants().first { it.id == shaman }.hidden)
        throws<SkirmishException.NotNow>("hide twice") { e.hide(shaman) }
        e.reveal(shaman)
        check("revealed", !e.combatants().first { it.id == shaman }.hidden)
        e.setParty("party")
        throws<SkirmishException.InvalidInput>("an empty party name") { e.setParty(" ") }
        e.setUndoLimit(2u)
        same("the undo limit", e.undoLimit(), 2u)
        check("bounded undo", e.undoDepth() <= 2u) { "${e.undoDepth()}" }
        throws<SkirmishException.InvalidInput>("an absurd undo limit") { e.setUndoLimit(UInt.MAX_VALUE) }
        val hidden = CombatantSpec(name = "Lurker", action = attack(4), hidden = true)
        val lurker = e.addCombatant(hidden)
        check("added hidden", e.combatants().first { it.id == lurker }.hidden)
    }
}

fun rulesHelpers() {
    val odds = strikeOdds(9, 6, null)
    same("Cardiff vs the goblin: 76 of 81 hit", Pair(odds.hit.numerator, odds.hit.denominator), Pair(76uL, 81uL))
    same("nine outcomes, -4 first", odds.byRoll.size, 9)
    same("the roll of -1 hits by 2", odds.byRoll[3], StrikeOutcome.Hit(2L))
    val amazing = strikeOdds(7, 7, StrikeOptions(amazing = true, guaranteedSuccessAndFumble = true))
    check("amazing strikes happen", amazing.amazingStrike.numerator > 0uL)
    same("57 weapons", weapons(null).size, 57)
    same("15 oriental weapons", weapons(Genre.ORIENTAL).size, 15)
    val crossbow = findWeapon("heavy crossbow")
    same("the heavy crossbow", Triple(crossbow.name, crossbow.timeTaken, crossbow.continuousTimeTaken), Triple("Crossbow, Heavy", 8u, 12u))
    same("its rate of fire", crossbow.rateOfFire, RateOfFire(1u, 2u))
    same("it takes 12 in Continuous", weaponDeclaration("heavy crossbow", TimingSystem.Continuous(ContinuousConfig()), 0).timeTaken, 12)
    same("plate", findArmor("plate").defenseRatingBonus, 4)
    same("8 armor rows", armorTable().size, 8)
    // The defaults written in the bindings are the rules' defaults.
    same("Continuous defaults", timingSystemNamed("continuous"), TimingSystem.Continuous(ContinuousConfig()))
    same("Graduated defaults", timingSystemNamed("graduated"), TimingSystem.GraduatedRounds(GraduatedConfig(pastEnd = PastEnd.EXTEND)))
    same("Tick System defaults", timingSystemNamed("tick system"), TimingSystem.TickSystem(TickSystemConfig(initiativeDie = Dice.Standard(1u, 20u))))
    same("Action Blocks defaults", timingSystemNamed("fuzion"), TimingSystem.ActionBlocks(ActionBlocksConfig(die = Dice.Standard(1u, 6u))))
    same("Declaration defaults", defaultDeclaration(), Declaration(kind = ActionKind.Attack))
    same("six systems", timingSystemNames().size, 6)
}

fun main() {
    val sections = listOf(
        "the goblin ambush (Continuous, the text's rolls)" to ::theGoblinAmbush,
        "undo and redo" to ::undoAndRedo,
        "snapshot, restore, identical continuation" to ::snapshotAndRestore,
        "two threads at once" to ::twoThreadsAtOnce,
        "every error kind" to ::everyErrorKind,
        "bad input never crashes" to ::badInputNeverCrashes,
        "log polling, hidden combatants, undo limit" to ::logPollingAndHiddenCombatants,
        "odds and tables" to ::rulesHelpers,
    )
    for ((name, section) in sections) {
        val before = failed
        try {
            section()
        } catch (x: Throwable) {
            failed++
            println("FAIL: $name threw $x")
            x.printStackTrace()
        }
        println("${if (failed == before) "ok  " else "FAIL"} $name")
    }
    println("$passed passed, $failed failed")
    exitProcess(if (failed == 0) 0 else 1)
}
