"""Sweeps: the table and its frames, determinism, seeds, checkpoints,
the GIL released, Ctrl-C, plots and pickling."""

from __future__ import annotations

import json
import math
import os
import pathlib
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import skirmish
from conftest import cli_binary

AXES = {"timing": ["continuous", "tick-system"], "sides.goblinoids.groups.0.count": [1, 2, 3]}


def test_table_shape_and_schema(small_sweep: skirmish.SweepResult) -> None:
    r = small_sweep
    assert len(r) == 6 and r.battles == 60 and r.seed == 11
    assert r.sides == ["party", "goblinoids"]
    assert r.scenario_fingerprint == skirmish.Scenario().fingerprint
    names = list(r.columns)
    assert names[:3] == ["timing", "sides.goblinoids.groups.0.count", "battles"]
    assert names[3:6] == ["win_rate_party", "win_rate_party_low", "win_rate_party_high"]
    assert names[-2:] == ["seed", "scenario_fingerprint"]
    assert r.to_csv().splitlines()[0] == ",".join(names)
    # Counts and rates agree, rows in grid order (first axis slowest).
    wins = np.asarray(r.columns["wins_party"])
    assert np.allclose(np.asarray(r.columns["win_rate_party"]), wins / 60)
    assert r.columns["timing"] == ["continuous"] * 3 + ["tick-system"] * 3
    assert r.columns["sides.goblinoids.groups.0.count"] == ["1", "2", "3"] * 2
    assert r.columns["battles"].dtype == np.uint64
    assert r.columns["win_rate_party"].dtype == np.float64
    assert all((np.asarray(r.columns["win_rate_party_low"]) <= np.asarray(r.columns["win_rate_party"])))
    rows = json.loads(r.to_json())
    assert len(rows) == 6 and rows[0]["timing"] == "continuous" and rows[0]["seed"] == 11
    assert "win party (95%)" in r.summary()


def test_numpy_columns_come_without_a_copy() -> None:
    # The arrays own memory handed over by Rust: NumPy did not allocate
    # them (a copy would own its data), and they are writable.
    r = skirmish.sweep(battles=10, seed=1, progress=False)
    arr = r.columns["win_rate_party"]
    assert isinstance(arr, np.ndarray)
    assert not arr.flags.owndata and arr.base is not None and arr.flags.writeable


def test_pandas_frame_holds_the_python_values(small_sweep: skirmish.SweepResult) -> None:
    df = small_sweep.to_pandas()
    assert list(df["sides.goblinoids.groups.0.count"]) == [1, 2, 3, 1, 2, 3]
    assert df["sides.goblinoids.groups.0.count"].dtype.kind == "i"
    assert list(df["timing"][:1]) == ["continuous"]
    assert df.attrs["seed"] == 11
    assert df.attrs["scenario_fingerprint"] == small_sweep.scenario_fingerprint
    assert df.attrs["axes"] == AXES
    assert df["battles"].sum() == 360
    # More orcs, fewer party wins (common random numbers keep it monotone here).
    cont = df[df["timing"] == "continuous"]["win_rate_party"].to_numpy()
    assert cont[0] >= cont[2]


def test_polars_and_arrow(small_sweep: skirmish.SweepResult) -> None:
    pl_df = small_sweep.to_polars()
    assert pl_df.shape == (6, len(small_sweep.columns))
    assert pl_df["sides.goblinoids.groups.0.count"].to_list() == [1, 2, 3, 1, 2, 3]
    assert pl_df["seed"].to_list() == [11] * 6
    table = small_sweep.to_arrow()
    assert table.num_rows == 6
    assert table.column("timing").to_pylist()[3] == "tick-system"
    meta = table.schema.metadata
    assert meta[b"skirmish.seed"] == b"11"
    assert meta[b"skirmish.scenario_fingerprint"] == small_sweep.scenario_fingerprint.encode()


def test_mixed_axis_values_still_make_frames() -> None:
    axes = {"sides.party.groups.Cardiff.weapon": ["Sword, Long", {"name": "Club", "time_taken": 2}]}
    r = skirmish.sweep(axes=axes, battles=20, seed=3, progress=False)
    df = r.to_pandas()
    assert df["sides.party.groups.Cardiff.weapon"][1] == {"name": "Club", "time_taken": 2}
    assert r.to_csv().splitlines()[1].startswith('"Sword, Long",')
    assert r.to_arrow().num_rows == 2
    assert r.to_polars().height == 2


def test_same_seed_same_bytes_on_any_thread_count() -> None:
    runs = [
        skirmish.sweep(axes=AXES, battles=80, seed=99, threads=t, progress=False) for t in (1, 2, 3, None)
    ]
    for r in runs[1:]:
        assert r.to_csv() == runs[0].to_csv()
        assert r.to_json() == runs[0].to_json()
    other = skirmish.sweep(axes=AXES, battles=80, seed=100, progress=False)
    assert other.to_csv() != runs[0].to_csv()


def test_seed_none_is_drawn_recorded_and_replays() -> None:
    a = skirmish.sweep(battles=50, progress=False)
    b = skirmish.sweep(battles=50, progress=False)
    assert a.seed != b.seed and 0 <= a.seed < 2**64
    again = skirmish.sweep(battles=50, seed=a.seed, progress=False)
    assert again.to_csv() == a.to_csv()
    assert a.to_pandas().attrs["seed"] == a.seed


def test_same_as_the_cli(tmp_path: pathlib.Path) -> None:
    cli = cli_binary()
    if cli is None:
        pytest.skip("the skirmish CLI is not built (scripts/test-python builds it)")
    out = tmp_path / "cli.csv"
    subprocess.run(
        [str(cli), "sweep", "--vary", "timing=continuous,tick-system", "--vary",
         'sides.party.groups.Cardiff.weapon=Dagger,Spear,Club', "--battles", "150", "--seed", "7",
         "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = skirmish.sweep(
        axes={"timing": ["continuous", "tick-system"], "sides.party.groups.Cardiff.weapon": ["Dagger", "Spear", "Club"]},
        battles=150, seed=7, progress=False,
    )
    assert out.read_text() == r.to_csv()


def test_one_battle_is_battle_i_of_every_cell() -> None:
    r = skirmish.sweep(battles=30, seed=5, progress=False)
    winners = [skirmish.battle(seed=5, index=i, trace=False).winner for i in range(30)]
    assert winners.count("party") == int(r.columns["wins_party"][0])
    assert winners.count("goblinoids") == int(r.columns["wins_goblinoids"][0])


def row_check(header: str, line: str) -> str:
    """The documented row check of a checkpoint row: 64-bit FNV-1a."""
    value = 0xCBF29CE484222325
    for byte in f"skirmish sweep row v1\n{header}\n{line}".encode():
        value = ((value ^ byte) * 0x100000001B3) % 2**64
    return f"{value:016x}"


def test_the_row_check_and_the_grid_order_are_rusts() -> None:
    # The Dask sweep takes both from the Rust sweep (skirmish_sim::sweep):
    # the row check is the documented hash, and the grid order the table's.
    header, line = "timing,battles", "continuous,10"
    assert skirmish._core.row_check(header, line) == row_check(header, line)
    assert skirmish._core.row_check(header, line + "1") != row_check(header, line)
    r = skirmish.sweep(axes=AXES, battles=5, seed=2, progress=False)
    lengths = [len(v) for v in AXES.values()]
    assert skirmish._core.grid_cells(lengths) == len(r) == 6 and skirmish._core.grid_cells([]) == 1
    for cell in range(len(r)):
        position = skirmish._core.grid_position(lengths, cell)
        assert [str(v[i]) for v, i in zip(AXES.values(), position)] == [r.columns[p][cell] for p in AXES]
    assert skirmish._sweep.cell_values(AXES, 4) == ["tick-system", 2]
    assert skirmish._sweep.cells_of({"a": [1, 2], "b": []}) == 0
    for bad in [(lengths, 6), ([2, 0], 0)]:
        with pytest.raises(skirmish.InvalidSweepError):
            skirmish._core.grid_position(*bad)


def with_checks(lines: list[str]) -> str:
    """The checkpoint a sweep in progress holds for these final lines."""
    header = lines[0]
    return "".join([f"{header},row_check\n"] + [f"{line},{row_check(header, line)}\n" for line in lines[1:]])


def test_checkpoint_and_resume(tmp_path: pathlib.Path) -> None:
    cp = tmp_path / "sweep.csv"
    full = skirmish.sweep(axes=AXES, battles=40, seed=3, progress=False, checkpoint=cp)
    assert cp.read_text() == full.to_csv()
    # A checkpoint of the header and two finished rows, plus a torn line.
    lines = cp.read_text().splitlines()
    checkpoint = with_checks(lines[:3])
    cp.write_text(checkpoint + with_checks(lines[:1] + lines[3:4]).splitlines()[1][:10])
    resumed = skirmish.sweep(axes=AXES, battles=40, progress=False, checkpoint=cp, resume=True)
    assert resumed.seed == 3  # taken from the checkpoint
    assert resumed.to_csv() == full.to_csv() == cp.read_text()
    # A checkpoint of another seed is refused, naming the line.
    cp.write_text(checkpoint)
    with pytest.raises(skirmish.CheckpointError) as e:
        skirmish.sweep(axes=AXES, battles=40, seed=4, progress=False, checkpoint=cp, resume=True)
    assert e.value.line == 2 and "seed" in str(e.value)
    # Another sweep's header.
    with pytest.raises(skirmish.CheckpointMismatchError) as e2:
        skirmish.sweep(axes={"timing": ["graduated"]}, battles=40, seed=3, progress=False, checkpoint=cp, resume=True)
    assert isinstance(e2.value, skirmish.CheckpointError) and e2.value.found.startswith("timing,sides")
    with pytest.raises(skirmish.CheckpointIOError) as e3:
        skirmish.sweep(battles=5, seed=1, progress=False, checkpoint=tmp_path / "no" / "such" / "dir.csv")
    assert isinstance(e3.value, OSError) and "dir.csv" in (e3.value.path or "") and e3.value.errno == 2


def test_edit_errors_name_the_cell_and_field() -> None:
    with pytest.raises(skirmish.SweepEditError) as e:
        skirmish.sweep(axes={"sides.party.groups.Cardif.weapon": ["Dagger"]}, battles=5, progress=False)
    assert e.value.path == "sides.party.groups.Cardif.weapon" and e.value.cell == 0
    assert isinstance(e.value.__cause__, skirmish.FieldPathError)
    with pytest.raises(skirmish.SweepEditError) as e2:
        skirmish.sweep(axes={"timing": ["continuous", "no-such-timing"]}, battles=5, progress=False)
    assert e2.value.cell == 1 and e2.value.value == "no-such-timing"
    assert isinstance(e2.value.__cause__, skirmish.ScenarioError)
    with pytest.raises(skirmish.InvalidSweepError) as e3:
        skirmish.sweep(axes={"timing": ["graduated", "graduated-rounds"]}, battles=5, progress=False)
    assert "same scenario" in str(e3.value)


def test_progress_bar_runs_without_and_with_tqdm(capsys: pytest.CaptureFixture[str]) -> None:
    r = skirmish.sweep(axes={"timing": ["continuous", "tick-system"]}, battles=3000, seed=1, progress=True)
    assert len(r) == 2
    err = capsys.readouterr().err
    assert "battle" in err  # tqdm wrote its bar


def test_the_gil_is_released_during_a_sweep() -> None:
    ticks: list[float] = []
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        # A sweep long enough to tell (over 0.4 s): the engine's speed
        # differs from machine to machine and release to release, so the
        # battles grow until one is.
        battles = 60000
        while True:
            start = time.perf_counter()
            skirmish.sweep(axes={"timing": ["continuous", "tick-system", "simple-rounds"]}, battles=battles,
                           seed=1, progress=False)
            end = time.perf_counter()
            if end - start > 0.4 or battles >= 60000 * 256:
                break
            battles *= 4
    finally:
        stop.set()
        t.join()
    during = [x for x in ticks if start <= x <= end]
    took = end - start
    assert took > 0.4, "the sweep was too short to tell"
    # The other thread ran all through the sweep: with the GIL held, it
    # would have stood still from start to end. (Loose bounds: the machine
    # may be busy with other work.)
    assert len(during) > 20
    gaps = np.diff([start, *during, end])
    assert gaps.max() < 0.5 * took


def test_a_sweep_runs_from_another_thread() -> None:
    out: list[skirmish.SweepResult] = []
    t = threading.Thread(target=lambda: out.append(skirmish.sweep(battles=50, seed=2, progress=False)))
    t.start()
    t.join()
    assert out[0].to_csv() == skirmish.sweep(battles=50, seed=2, progress=False).to_csv()


CHILD = textwrap.dedent(
    """
    import signal, sys, time
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import skirmish
    try:
        skirmish.sweep(axes={AXES!r}, battles={BATTLES}, seed=5, progress=False, checkpoint=sys.argv[1])
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(3)
    print("finished", flush=True)
    """
)


def test_ctrl_c_stops_a_sweep_promptly_and_leaves_a_resumable_checkpoint(tmp_path: pathlib.Path) -> None:
    axes = {"timing": ["continuous", "tick-system", "simple-rounds", "graduated-rounds"]}
    # Long enough that the sweep is still running when the first row is
    # seen (the engine is ~4x faster than when this was 60,000).
    battles = 240_000
    cp = tmp_path / "cp.csv"
    code = CHILD.replace("{AXES!r}", repr(axes)).replace("{BATTLES}", str(battles))
    child = subprocess.Popen([sys.executable, "-c", code, str(cp)], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if cp.exists() and len(cp.read_text().splitlines()) >= 2:
            break
        if child.poll() is not None:
            pytest.fail("the sweep ended before it could be interrupted")
        time.sleep(0.01)
    else:
        child.kill()
        pytest.fail("no cell finished in 60 s")
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    took = time.monotonic() - sent
    assert child.returncode == 3 and out.strip() == "interrupted"
    assert took < 1.0, f"Ctrl-C took {took:.2f} s"
    # The checkpoint's rows end with their row check, which the final table
    # does not have.
    kept = [line.rsplit(",", 1)[0] for line in cp.read_text().splitlines()]
    assert 2 <= len(kept) <= 4, "every finished cell is kept, the rest is not"
    # Resume: the kept rows are reused as they are, and the rest is fought.
    r = skirmish.sweep(axes=axes, battles=battles, progress=False, checkpoint=cp, resume=True)
    assert r.seed == 5
    assert r.to_csv().splitlines()[: len(kept)] == kept
    assert cp.read_text() == r.to_csv()


def test_finished_cells_are_not_overwritten_without_resume_or_force(tmp_path: pathlib.Path) -> None:
    cp = tmp_path / "sweep.csv"
    full = skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=cp)
    finished = cp.read_text()
    assert finished == full.to_csv()
    # Like the command without --resume or --force: refused, file untouched.
    with pytest.raises(skirmish.CheckpointIOError) as e:
        skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=cp)
    message = str(e.value)
    assert "finished cells" in message and "resume=True" in message and "force=True" in message
    assert isinstance(e.value, OSError)
    assert cp.read_text() == finished
    # Anything else in the file is not replaced either.
    notes = tmp_path / "notes.csv"
    notes.write_text("keep me\n")
    with pytest.raises(skirmish.CheckpointIOError, match="not this sweep's checkpoint"):
        skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=notes)
    assert notes.read_text() == "keep me\n"
    # A finished output cannot be resumed (its rows carry no row check):
    # refused before any battle, the file byte for byte as it was.
    before = cp.read_bytes()
    with pytest.raises(skirmish.CheckpointError) as e4:
        skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=cp, resume=True)
    assert e4.value.line == 1 and "without row checks" in str(e4.value) and "force=True" in str(e4.value)
    assert cp.read_bytes() == before
    # force=True starts over (same bytes); a checkpoint is resumed.
    again = skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=cp, force=True)
    assert again.to_csv() == finished == cp.read_text()
    cp.write_text(with_checks(finished.splitlines()[:2]))
    resumed = skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=cp, resume=True)
    assert resumed.to_csv() == finished == cp.read_text()
    # A missing or empty file is no loss.
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert skirmish.sweep(axes=AXES, battles=20, seed=3, progress=False, checkpoint=empty).to_csv() == finished


def test_plot_and_html(small_sweep: skirmish.SweepResult) -> None:
    import matplotlib

    matplotlib.use("Agg")
    ax = small_sweep.plot("sides.goblinoids.groups.0.count", by="timing")
    assert len(ax.get_lines()) == 2
    assert ax.get_legend().get_title().get_text() == "timing"
    ax2 = small_sweep.plot("timing", fixed={"sides.goblinoids.groups.0.count": 2}, side="goblinoids")
    assert len(ax2.get_lines()) == 1 and "goblinoids" in ax2.get_ylabel()
    with pytest.raises(ValueError):
        small_sweep.plot("timing")  # the orc count varies too
    with pytest.raises(KeyError):
        small_sweep.plot("no.such.axis")
    html = small_sweep._repr_html_()
    assert "seed 11" in html and html.count("<tr>") == 7
    assert "SweepResult(6 cells x 60 battles, seed=11" in repr(small_sweep)
    assert small_sweep.metadata()["sides"] == ["party", "goblinoids"]
    assert small_sweep.axis_column("timing")[3] == "tick-system"


def test_result_pickles(small_sweep: skirmish.SweepResult) -> None:
    back = pickle.loads(pickle.dumps(small_sweep))
    assert back.to_csv() == small_sweep.to_csv()
    assert back.to_pandas().equals(small_sweep.to_pandas())
    assert math.isclose(float(back.columns["mean_ticks"][0]), float(small_sweep.columns["mean_ticks"][0]))


def test_sweep_accepts_every_kind_of_scenario(tmp_path: pathlib.Path) -> None:
    p = tmp_path / "a.json"
    p.write_text(skirmish.Scenario().to_json())
    expected = skirmish.sweep(battles=20, seed=1, progress=False).to_csv()
    for source in (None, "goblin-ambush", skirmish.Scenario(), skirmish.Scenario().to_dict(), p, str(p)):
        assert skirmish.sweep(source, battles=20, seed=1, progress=False).to_csv() == expected


def test_durations_that_compare_across_timing_systems(small_sweep: skirmish.SweepResult) -> None:
    r = small_sweep
    names = list(r.columns)
    # The comparable duration comes before each system's own ticks.
    assert names.index("mean_seconds") < names.index("mean_ticks") < names.index("mean_rounds")
    assert names.index("total_seconds") < names.index("total_ticks")
    seconds = np.asarray(r.columns["total_seconds"])
    ticks = np.asarray(r.columns["total_ticks"])
    assert seconds.dtype == np.float64 and r.columns["mean_seconds"].dtype == np.float64
    # Continuous (the first three cells): a tick is a second.
    assert np.array_equal(seconds[:3], ticks[:3].astype(np.float64))
    assert np.allclose(np.asarray(r.columns["mean_seconds"])[:3], ticks[:3] / 60)
    # The Tick System's text gives its ticks no length: no seconds.
    assert np.isnan(seconds[3:]).all() and np.isnan(np.asarray(r.columns["mean_seconds"])[3:]).all()
    assert r.to_pandas()["mean_seconds"].isna().tolist() == [False] * 3 + [True] * 3
    assert r.to_polars()["total_seconds"].is_nan().to_list() == [False] * 3 + [True] * 3
    rows = json.loads(r.to_json())
    assert rows[0]["total_seconds"] == int(ticks[0]) and rows[3]["total_seconds"] is None
    csv_rows = r.to_csv().splitlines()
    at = names.index("total_seconds")
    assert csv_rows[1].split(",")[at] == str(int(ticks[0])) and csv_rows[4].split(",")[at] == ""
    text = r.summary()
    assert "mean seconds  mean rounds  mean ticks" in text and "no set length of time" in text
    assert "<th>mean seconds</th>" in r._repr_html_()


def test_a_schema_1_checkpoint_is_refused_by_name(tmp_path: pathlib.Path) -> None:
    axes = {"sides.goblinoids.groups.0.count": [1, 2, 3]}
    done = skirmish.sweep(axes=axes, battles=20, seed=3, progress=False).to_csv().splitlines()
    header = done[0].split(",")
    keep = [
        i for i, name in enumerate(header)
        if name not in ("mean_seconds", "total_seconds")
        and not name.startswith(("retreat_rate_", "surrender_rate_", "retreats_", "surrenders_"))
    ]
    old = [",".join(line.split(",")[i] for i in keep) for line in done[:3]]
    cp = tmp_path / "schema-1.csv"
    text = f"{old[0]},row_check\n" + "".join(f"{row},{skirmish._core.row_check(old[0], row)}\n" for row in old[1:])
    cp.write_text(text)
    with pytest.raises(skirmish.CheckpointError, match="sweep schema 1") as e:
        skirmish.sweep(axes=axes, battles=20, seed=3, progress=False, checkpoint=cp, resume=True)
    assert e.value.line == 1
    assert cp.read_text() == text
