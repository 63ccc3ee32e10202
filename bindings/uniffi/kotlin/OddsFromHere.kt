// Odds from here solved exactly (a section of Main.kt's checks, compiled
// with it): mid-duel under Simultaneous Combat after a hit, the fractions of
// the exact engine for the duel that starts with that damage (as
// crates/skirmish-sim/tests/it/exact_from_here.rs and
// python/tests/test_odds_from_here.py have them); sampled, with the reason,
// when the exact engine does not model the moment; sampled on demand.

import dev.skirmish.*

/** A duel of SR 5 against DR 5 under `timing`, with 5 hit points each (`bHp` for b). */
fun duelToml(timing: String, bHp: Int = 5) = """
    name = "duel"
    timing = "$timing"
    damage = { model = "hit_points", max_hp = 5 }
    [[sides]]
    name = "A"
    groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
    [[sides]]
    name = "B"
    groups = [{ name = "b", strike_rating = 5, defense_rating = 5, hit_points = $bHp }]
""".trimIndent()

fun exactOddsFromHere() {
    Encounter.fromScenarioToml(duelToml("simultaneous"), 3uL).use { e ->
        e.next()
        e.next()
        // a rolls +3: 3 off b's 5 hit points; b rolls -2: a miss.
        same("a's hit", e.hit("a", "b", 3).damage, 3)
        e.hit("b", "a", -2)
        val odds = e.oddsFromHere(1000uL, 1uL)
        same("how", Triple(odds.method, odds.exact, odds.battles), Triple(OddsMethod.EXACT, true, 0uL))
        same("exact in fractions", Pair(odds.errorBound, odds.reason), Pair(0.0, null))
        same("no length", Pair(odds.meanTicks, odds.meanRounds), Pair(null, null))
        // The exact engine's answer for the duel that starts with b at 2 hit points.
        val solved = exact(ExactQuery(
            scenario = ScenarioSource.Toml(duelToml("simultaneous", bHp = 2)), set = emptyList(),
            maxStates = null, maxExactStates = null,
        ))
        same("each side's fraction", odds.sides.map { it.name to it.fraction }, solved.wins.map { it.side to it.chance.fraction })
        same("the draw's", odds.drawFraction, solved.draw.fraction)
        same("it always ends", odds.timeoutFraction, "0")
        check("A is the favourite", odds.sides[0].winRate > odds.sides[1].winRate) { "$odds" }
        // Sampled on demand: the exact chance inside the sampled interval.
        val sampled = e.sampledOddsFromHere(20_000uL, 1uL)
        same("sampled as asked", Triple(sampled.method, sampled.exact, sampled.reason), Triple(OddsMethod.SAMPLED, false, null))
        val a = sampled.sides[0]
        check("within the interval", a.low <= odds.sides[0].winRate && odds.sides[0].winRate <= a.high) { "$sampled vs $odds" }
        same("no fraction when sampled", a.fraction, null)
    }
    // Simple Rounds with the round's initiative rolled: sampled, and why.
    Encounter.fromScenarioToml(duelToml("simple-rounds"), 9uL).use { e ->
        same("before the first round: exact", e.oddsFromHere(100uL, 1uL).method, OddsMethod.EXACT)
        e.next()
        val odds = e.oddsFromHere(100uL, 1uL)
        same("within a round: sampled", Pair(odds.method, odds.battles), Pair(OddsMethod.SAMPLED, 100uL))
        check("the reason names the scheduler", odds.reason?.startsWith("scheduler: round 1 under way") == true) { "${odds.reason}" }
    }
}
