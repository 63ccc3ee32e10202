"""skirmish.dask: the same result as the local sweep, byte for byte, on a
threaded cluster and on worker processes (which also proves pickling)."""

from __future__ import annotations

import pathlib
import pickle
from collections.abc import Iterator

import pytest

distributed = pytest.importorskip("distributed")

import skirmish  # noqa: E402
import skirmish.dask  # noqa: E402

AXES = {
    "timing": ["continuous", "tick-system", "graduated-rounds"],
    "sides.goblinoids.groups.0.count": [1, 2],
}


@pytest.fixture(scope="module")
def local() -> skirmish.SweepResult:
    return skirmish.sweep(axes=AXES, battles=120, seed=21, progress=False)


@pytest.fixture(scope="module")
def threaded_client() -> Iterator[distributed.Client]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address="127.0.0.1:0"
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def _same(a: skirmish.SweepResult, b: skirmish.SweepResult) -> None:
    assert a.to_csv() == b.to_csv()
    assert a.to_json() == b.to_json()
    assert a.seed == b.seed and a.scenario_fingerprint == b.scenario_fingerprint
    fa, fb = a.to_pandas(), b.to_pandas()
    assert fa.equals(fb) and fa.attrs == fb.attrs


def test_threaded_cluster_same_bytes(threaded_client: distributed.Client, local: skirmish.SweepResult) -> None:
    r = skirmish.dask.sweep(threaded_client, axes=AXES, battles=120, seed=21, progress=False)
    _same(r, local)
    # Several cells per task, and more threads per task: still the same.
    r2 = skirmish.dask.sweep(
        threaded_client, axes=AXES, battles=120, seed=21, cells_per_task=4, threads_per_task=2, progress=False
    )
    _same(r2, local)


def test_run_cells_gives_the_local_rows(local: skirmish.SweepResult) -> None:
    texts = [(path, [skirmish.value_text(v) for v in values]) for path, values in AXES.items()]
    rows = skirmish.dask.run_cells(skirmish.Scenario(), texts, [5, 0, 3], 120, 21)
    lines = local.to_csv().splitlines()
    assert rows == [lines[6], lines[1], lines[4]]


def test_dask_checkpoint_and_resume(
    threaded_client: distributed.Client, local: skirmish.SweepResult, tmp_path: pathlib.Path
) -> None:
    cp = tmp_path / "dask.csv"
    r = skirmish.dask.sweep(threaded_client, axes=AXES, battles=120, seed=21, checkpoint=cp, progress=False)
    assert cp.read_text() == local.to_csv()
    # A finished output carries no row checks: resume cannot verify its
    # rows and refuses, leaving the file as it is.
    with pytest.raises(skirmish.CheckpointError, match="row_check"):
        skirmish.dask.sweep(threaded_client, axes=AXES, battles=120, checkpoint=cp, resume=True, progress=False)
    assert cp.read_text() == local.to_csv()
    # A checkpoint of a sweep cut short: the header and three rows, each
    # with the row check the Dask sweep writes (Rust verifies it on resume).
    lines = cp.read_text().splitlines()
    header = lines[0]
    cp.write_text(
        f"{header},row_check\n"
        + "".join(f"{row},{skirmish._core.row_check(header, row)}\n" for row in lines[1:4])
    )
    resumed = skirmish.dask.sweep(threaded_client, axes=AXES, battles=120, checkpoint=cp, resume=True, progress=False)
    _same(resumed, r)
    assert cp.read_text() == local.to_csv()
    # force=True starts a finished file over.
    again = skirmish.dask.sweep(
        threaded_client, axes=AXES, battles=120, seed=21, checkpoint=cp, force=True, progress=False
    )
    _same(again, r)


def test_dask_refuses_a_schema_1_checkpoint_by_name(
    threaded_client: distributed.Client, local: skirmish.SweepResult, tmp_path: pathlib.Path
) -> None:
    # The same sweep's checkpoint as schema 1 wrote it: no seconds columns.
    lines = local.to_csv().splitlines()
    header = lines[0].split(",")
    keep = [
        i for i, name in enumerate(header)
        if name not in ("mean_seconds", "total_seconds")
        and not name.startswith(("retreat_rate_", "surrender_rate_", "retreats_", "surrenders_"))
    ]
    old = [",".join(line.split(",")[i] for i in keep) for line in lines[:4]]
    cp = tmp_path / "schema-1.csv"
    text = f"{old[0]},row_check\n" + "".join(f"{row},{skirmish._core.row_check(old[0], row)}\n" for row in old[1:])
    cp.write_text(text)
    with pytest.raises(skirmish.CheckpointError, match="sweep schema 1"):
        skirmish.dask.sweep(threaded_client, axes=AXES, battles=120, checkpoint=cp, resume=True, progress=False)
    assert cp.read_text() == text


def test_errors_are_raised_before_any_task(threaded_client: distributed.Client) -> None:
    with pytest.raises(skirmish.SweepEditError):
        skirmish.dask.sweep(threaded_client, axes={"timing": ["no-such"]}, battles=10, progress=False)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.dask.sweep(threaded_client, battles=0, progress=False)
    with pytest.raises(skirmish.InvalidSweepError):
        skirmish.dask.sweep(threaded_client, battles=10, cells_per_task=0, progress=False)


def test_seed_none_is_recorded(threaded_client: distributed.Client) -> None:
    r = skirmish.dask.sweep(threaded_client, battles=40, progress=False)
    assert r.to_csv() == skirmish.sweep(battles=40, seed=r.seed, progress=False).to_csv()


@pytest.mark.slow
def test_worker_processes_same_bytes(local: skirmish.SweepResult) -> None:
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0",
    ) as cluster, distributed.Client(cluster) as client:
        r = skirmish.dask.sweep(client, axes=AXES, battles=120, seed=21, progress=False)
        _same(r, local)
        # The objects cross process boundaries as pickles.
        scenario = skirmish.Scenario().with_field("timing", "tick-system")
        assert client.submit(lambda s: s.fingerprint, scenario).result() == scenario.fingerprint
        remote = client.submit(skirmish.sweep, scenario, battles=30, seed=4, progress=False).result()
        assert remote.to_csv() == skirmish.sweep(scenario, battles=30, seed=4, progress=False).to_csv()
        # An error raised on a worker comes back as its own class with its fields.
        fut = client.submit(skirmish.Scenario.builtin, "goblin-ambsh")
        with pytest.raises(skirmish.UnknownScenarioError) as e:
            fut.result()
        assert e.value.kind == "unknown_builtin"
    assert pickle.loads(pickle.dumps(r)).to_csv() == local.to_csv()
