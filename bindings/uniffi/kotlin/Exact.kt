// The exact engine from Kotlin (a section of Main.kt's checks, compiled with
// it): the hand-checked duel of docs/rules.md in fractions, as
// crates/skirmish-sim/src/exact/mod.rs and python/tests/test_exact.py have it,
// and the engine's refusals as typed exceptions naming the field.

import dev.skirmish.*

/** Two fighters of one hit point, SR 5 against DR 5: docs/rules.md's hand-checked duel. */
private val EXACT_DUEL = """
    name = "duel"
    timing = "simultaneous"
    damage = { model = "hit_points", max_hp = 1 }
    [[sides]]
    name = "A"
    groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
    [[sides]]
    name = "B"
    groups = [{ name = "b", strike_rating = 5, defense_rating = 5 }]
""".trimIndent()

/** `exact`: two fighters of one hit point, SR 5 against DR 5 (each hits on 31 rolls of the 81). */
fun exactOutcomes() {
    val duel = EXACT_DUEL
    fun query(vararg set: Pair<String, String>, maxStates: ULong? = null) = ExactQuery(
        scenario = ScenarioSource.Toml(duel), set = set.map { FieldSetting(it.first, it.second) },
        maxStates = maxStates, maxExactStates = null,
    )
    val found = exact(query())
    // A wins if A hits and B misses at the first exchange where anyone hits: 31 x 50 of 81^2 - 50^2 = 50/131.
    same("each side's win", found.wins.map { it.side to it.chance.fraction }, listOf("A" to "50/131", "B" to "50/131"))
    same("a draw: both hit at once", found.draw.fraction, "31/131")
    same("it always ends", found.neverEnds.fraction, "0")
    check("exact, with no error", found.exact && found.errorBound == 0.0) { "$found" }
    check("the value is the fraction's double", Math.abs(found.wins[0].chance.value - 50.0 / 131.0) < 1e-15) { "$found" }
    throws<SkirmishException.InvalidInput>("parries are not modelled") { exact(query("sides.A.groups.0.parry" to "always")) }
        ?.let { same("the field", it.field, "sides[0].groups[0].parry") }
    throws<SkirmishException.InvalidInput>("over the state budget") { exact(query("damage.max_hp" to "5", maxStates = 2uL)) }
        ?.let { same("the field", it.field, "max_states") }
    throws<SkirmishException.InvalidInput>("a budget of 0") { exact(query(maxStates = 0uL)) }
        ?.let { same("the field", it.field, "max_states") }
}

/** `balance` on exact chances: the duel above, B's Strike Rating from 1 to 12, where A wins 30%. */
fun exactBalance() {
    val duel = EXACT_DUEL
    fun query(method: BalanceMethod, vararg set: Pair<String, String>) = BalanceQuery(
        scenario = ScenarioSource.Toml(duel), set = set.map { FieldSetting(it.first, it.second) },
        field = "sides.B.groups.0.strike_rating", low = 1.0, high = 12.0, target = 0.3, side = null,
        seed = 1uL, battles = 250uL, maxBattles = 16000uL, tolerance = null, method = method,
    )
    val found = balance(query(BalanceMethod.AUTO))
    same("exact, no battle fought", Triple(found.method, found.notExact, found.points.sumOf { it.battles }), Triple(BalanceMethod.EXACT, null, 0uL))
    same("the answer", Triple(found.below, found.above, found.at), Triple(6.0, 5.0, null))
    same("SR 5 against SR 5 is the duel above", found.points.first { it.value == 5.0 }.let { Triple(it.exact, it.fraction, it.verdict) }, Triple(true, "50/131", "above"))
    check("why it stopped", found.stopped.startsWith("exact: at 6 the win rate is 0.1918 (961/5011) below 0.3")) { found.stopped }
    // Surprise is not modelled: AUTO samples and says why, EXACT refuses naming the method.
    val sampled = balance(query(BalanceMethod.AUTO, "sides.A.groups.0.unaware_for" to "1"))
    same("sampled", sampled.method, BalanceMethod.SAMPLED)
    check("why not exact", sampled.notExact?.contains("sides[0].groups[0].unaware_for: surprise") == true) { "${sampled.notExact}" }
    throws<SkirmishException.InvalidInput>("EXACT of a fight it cannot solve") { balance(query(BalanceMethod.EXACT, "sides.A.groups.0.unaware_for" to "1")) }
        ?.let {
            same("the field", it.field, "method")
            check("the reason names the rule", it.reason.contains("sides[0].groups[0].unaware_for: surprise")) { it.reason }
        }
}
