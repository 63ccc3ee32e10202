"""A sweep spread over a Dask cluster (here a local one): the same table
as skirmish.sweep, byte for byte."""

from __future__ import annotations

from distributed import Client, LocalCluster

import skirmish
import skirmish.dask


def main() -> None:
    axes: dict[str, list[object]] = {"timing": ["continuous", "tick-system"], "sides.goblinoids.groups.0.count": [1, 2, 3]}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address="127.0.0.1:0") as cluster:
        with Client(cluster) as client:
            spread = skirmish.dask.sweep(client, axes=axes, battles=200, seed=3, progress=False)
    local = skirmish.sweep(axes=axes, battles=200, seed=3, progress=False)
    assert spread.to_csv() == local.to_csv()
    print(spread.summary())


if __name__ == "__main__":
    main()
