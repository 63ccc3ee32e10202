// The exact engine from Kotlin (a section of Main.kt's checks, compiled with
// it): the hand-checked duel of docs/rules.md in fractions, as
// crates/skirmish-sim/src/exact/mod.rs and python/tests/test_exact.py have it,
// and the engine's refusals as typed exceptions naming the field.

import dev.skirmish.*

/** `exact`: two fighters of one hit point, SR 5 against DR 5 (each hits on 31 rolls of the 81). */
fun exactOutcomes() {
    val duel = """
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
