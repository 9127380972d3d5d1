#!/usr/bin/python3
"""What meshio (python3-meshio, 7.x) reads of gridflow's XDMF indexes.

usage: check_meshio.py XMF...   (exit 77, a skip, when meshio cannot be imported)

meshio.xdmf.TimeSeriesReader must open each index (it refuses XDMF 2.0), count its steps, and
give every step's time and point data: each field with one value per mesh point, equal to the
HDF5 dataset. meshio 7 has no reader for structured XDMF meshes (any *CoRectMesh, *RectMesh or
*SMesh topology: it needs explicit XYZ points and cell connectivity), so read_points_cells()
raises ReadError; the check expects that and says so. Should a meshio read the mesh, its point
count must be the grid's.
"""
import sys

import h5py
import numpy as np

from check_xdmf import CheckError, check_index


def main():
    try:
        import meshio
        from meshio.xdmf import TimeSeriesReader
    except ImportError as e:
        print(f"SKIP: meshio is not importable with {sys.executable} ({e}); Debian: apt-get install python3-meshio")
        return 77
    print(f"meshio {getattr(meshio, '__version__', '?')} from {meshio.__file__}")
    failures = []
    for xmf in sys.argv[1:]:
        try:
            steps = check_index(xmf)
        except CheckError as e:
            failures.append(str(e))
            continue
        with h5py.File(steps[0].path, "r") as f:
            points = int(np.prod(f["Info"].attrs["grid_points"]))
        with TimeSeriesReader(xmf) as reader:
            if reader.num_steps != len(steps):
                failures.append(f"{xmf}: meshio counts {reader.num_steps} steps, the index has {len(steps)}")
                continue
            try:
                mesh_points, _ = reader.read_points_cells()
                if len(mesh_points) != points:
                    failures.append(f"{xmf}: meshio reads {len(mesh_points)} points, the grid has {points}")
                print(f"{xmf}: meshio reads the mesh, {len(mesh_points)} points")
            except meshio.ReadError:
                print(f"{xmf}: meshio reads no structured mesh (3DCoRectMesh): points and cells come from /Info")
                reader.cells = []  # read_data wants the cells read first; a structured mesh has none here
            for k, step in enumerate(steps):
                time, point_data, _ = reader.read_data(k)
                if time != step.time:
                    failures.append(f"{xmf}: step {k}: meshio time {time!r}, the file's {step.time!r}")
                if sorted(point_data) != sorted(step.fields):
                    failures.append(f"{xmf}: step {k}: meshio point data {sorted(point_data)}, fields {step.fields}")
                    continue
                with h5py.File(step.path, "r") as f:
                    for name in step.fields:
                        values = np.asarray(point_data[name])
                        if values.size != points or not np.array_equal(values.ravel(), f[name][()].ravel()):
                            failures.append(f"{xmf}: step {k}: meshio's {name} ({values.size} values) is not the "
                                            f"dataset ({points} points)")
        print(f"{xmf}: {len(steps)} steps, times and point data {steps[0].fields} as in the HDF5 files")
    for message in failures:
        print("FAIL:", message)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
