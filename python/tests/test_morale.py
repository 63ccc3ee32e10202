"""Morale: retreats and surrenders in battle reports, sweep frames (pandas,
polars, Arrow), the Dask path and the checkpoint's schema."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import skirmish

ROUT = """
name = "rout"
timing = "simple_rounds"
[[sides]]
name = "party"
morale = { break_below = 0.5 }
groups = [
  { name = "Cardiff", strike_rating = 9, defense_rating = 7 },
  { name = "guard", count = 3, strike_rating = 6, defense_rating = 6 },
]
[[sides]]
name = "goblins"
morale = { leader = "Shaman", outcome = "surrender" }
groups = [
  { name = "Goblin", count = 4, strike_rating = 6, defense_rating = 6 },
  { name = "Shaman", strike_rating = 4, defense_rating = 5 },
]
"""

AXES = {"sides.party.morale.break_below": [0.0, 0.9]}

MORALE_COLUMNS = [
    "retreat_rate_party",
    "retreat_rate_party_low",
    "retreat_rate_party_high",
    "surrender_rate_party",
    "surrender_rate_party_low",
    "surrender_rate_party_high",
    "retreat_rate_goblins",
    "retreat_rate_goblins_low",
    "retreat_rate_goblins_high",
    "surrender_rate_goblins",
    "surrender_rate_goblins_low",
    "surrender_rate_goblins_high",
    "retreats_party",
    "surrenders_party",
    "retreats_goblins",
    "surrenders_goblins",
]


def rout() -> skirmish.Scenario:
    return skirmish.Scenario.from_toml(ROUT, "rout.toml")


@pytest.fixture(scope="module")
def result() -> skirmish.SweepResult:
    return skirmish.sweep(rout(), AXES, battles=200, seed=5, progress=False)


def test_a_report_says_who_broke_and_how() -> None:
    seen = set()
    for index in range(60):
        b = skirmish.battle(rout(), seed=5, index=index, trace=True)
        for side, how in b.broke.items():
            seen.add((side, how))
            assert any(t["text"].startswith(f"{side} break (") and t["text"].endswith(how) for t in b.trace)
            assert b.winner != side
        assert set(b.summary) == {"ticks", "rounds", "actions", "hits", "amazing_strikes", "amazing_defenses", "disruptions"}
    assert ("goblins", "surrender") in seen


def test_the_frames_carry_the_morale_columns(result: skirmish.SweepResult) -> None:
    names = list(result.columns)
    at = names.index("total_disruptions") + 1
    assert names[at : at + len(MORALE_COLUMNS)] == MORALE_COLUMNS
    assert names[-2:] == ["seed", "scenario_fingerprint"]
    retreats = np.asarray(result.columns["retreats_party"])
    assert retreats.dtype == np.uint64 and retreats[0] == 0 and retreats[1] > 0
    assert np.allclose(np.asarray(result.columns["retreat_rate_party"]), retreats / 200)
    low, rate, high = (np.asarray(result.columns[f"surrender_rate_goblins{s}"]) for s in ("_low", "", "_high"))
    assert (low <= rate).all() and (rate <= high).all() and rate[0] > 0
    # Every battle is won by one side, a draw or a timeout; a side that
    # broke did not win.
    wins = np.asarray(result.columns["wins_party"]) + np.asarray(result.columns["wins_goblins"])
    assert (wins + np.asarray(result.columns["draws"]) + np.asarray(result.columns["timeouts"]) == 200).all()
    for side in ("party", "goblins"):
        ended = sum(np.asarray(result.columns[f"{k}_{side}"]) for k in ("wins", "retreats", "surrenders"))
        assert (ended <= 200).all()
    df = result.to_pandas()
    assert list(df.columns) == names
    assert df["retreats_party"].tolist() == retreats.tolist()
    assert result.to_polars()["surrenders_goblins"].to_list() == result.columns["surrenders_goblins"].tolist()
    assert result.to_arrow().column("retreat_rate_party_high").to_pylist() == result.columns["retreat_rate_party_high"].tolist()
    head = result.summary().splitlines()[0]
    assert "retreat party" in head and "surrender goblins" in head


def test_a_scenario_without_morale_keeps_the_columns_but_not_the_table() -> None:
    r = skirmish.sweep(battles=30, seed=1, progress=False)
    morale = [c for c in r.columns if c.startswith(("retreat", "surrender")) and not c.endswith("_high")]
    assert len(morale) == 12 and all(r.columns[c].sum() == 0 for c in morale)
    assert "retreat" not in r.summary()


def test_bad_morale_is_a_typed_error_naming_the_field() -> None:
    with pytest.raises(skirmish.ScenarioError, match=r"sides\[1\]\.morale\.break_below: 2 is outside 0\.\.=1"):
        rout().with_field("sides.goblins.morale.break_below", 2)
    with pytest.raises(skirmish.ScenarioError, match=r"sides\[0\]\.morale\.leader: \"Bob\" names no group"):
        rout().with_field("sides.party.morale.leader", "Bob")
    with pytest.raises(skirmish.ScenarioError, match=r"sides\[0\]\.morale\.outcome"):
        rout().with_field("sides.party.morale.outcome", "flee")


def test_the_dask_path_gives_the_same_columns(result: skirmish.SweepResult) -> None:
    distributed = pytest.importorskip("distributed")
    import skirmish.dask

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address="127.0.0.1:0"
    ) as cluster, distributed.Client(cluster) as client:
        r = skirmish.dask.sweep(client, rout(), AXES, battles=200, seed=5, progress=False)
    assert r.to_csv() == result.to_csv()
    assert list(r.columns) == list(result.columns)
    assert r.columns["surrenders_goblins"].tolist() == result.columns["surrenders_goblins"].tolist()


def test_a_checkpoint_of_schema_1_is_refused_naming_its_schema(tmp_path: pathlib.Path, result: skirmish.SweepResult) -> None:
    lines = result.to_csv().splitlines()
    header = lines[0].split(",")
    keep = [i for i, h in enumerate(header) if h not in MORALE_COLUMNS and h not in ("mean_seconds", "total_seconds")]
    old = "".join(",".join(line.split(",")[i] for i in keep) + "\n" for line in lines)
    path = tmp_path / "old.csv"
    path.write_text(old)
    with pytest.raises(skirmish.CheckpointError, match="the file is of sweep schema 1, this sweep writes schema 2"):
        skirmish.sweep(rout(), AXES, battles=200, seed=5, progress=False, checkpoint=path, resume=True)
    assert path.read_text() == old
