#!/usr/bin/python3
"""check_poisson_output.py OUTPUT_DIR NAME EXACT [MIN_RECORDS]: a poisson3d run's files as
post-processing sees them. The solution /u (stored z, y, x) matches EXACT(x, y, z) (numpy syntax)
to 1e-8; /Info holds the solver and convergence, the /residual_history datasets the residual
history (at least MIN_RECORDS entries), which falls, and <NAME>_residual.csv holds the same history; the XDMF names the file's dataset with a 3D co-rectilinear mesh."""
import csv
import glob
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    directory, name, exact = sys.argv[1:4]
    min_records = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    files = sorted(glob.glob(os.path.join(directory, name + "_*.h5")))
    if len(files) != 1:
        fail(f"expected one solution file, found {files}")
    with h5py.File(files[0], "r") as f:
        info = f["Info"].attrs
        u = f["u"][()]
        if not info["converged"]:
            fail("/Info says the solve did not converge")
        nz, ny, nx = u.shape
        if list(info["grid_points"]) != [nx, ny, nz]:
            fail(f"grid_points {list(info['grid_points'])} against dataset shape {u.shape}")
        x = info["origin"][0] + info["spacing"][0] * np.arange(nx)[None, None, :]
        y = info["origin"][1] + info["spacing"][1] * np.arange(ny)[None, :, None]
        z = info["origin"][2] + info["spacing"][2] * np.arange(nz)[:, None, None]
        err = np.max(np.abs(u - eval(exact, {"np": np, "x": x, "y": y, "z": z})))
        if err > 1e-8:
            fail(f"solution differs from {exact} by {err:.3e}")
        if any(k.startswith("residual_history") for k in info):
            fail("the residual history is in /Info attributes (64 KiB at most), not in datasets")
        history = f["residual_history/relative_residual"][()]
        if len(history) < min_records or not np.all(np.diff(history) < 0):
            fail(f"the residual history has fewer than {min_records} records or does not fall: {history}")
    with open(os.path.join(directory, name + "_residual.csv")) as f:
        rows = list(csv.DictReader(f))
    if [float(r["relative_residual"]) for r in rows] != list(history):
        fail("the CSV and the HDF5 residual histories differ")
    root = ET.parse(os.path.join(directory, name + ".xmf")).getroot()
    if root.find(".//Topology").get("TopologyType") != "3DCoRectMesh":
        fail("the XDMF does not describe a 3D co-rectilinear mesh")
    print(f"ok: error {err:.2e}, {len(history)} residual records, final {history[-1]:.2e}")


if __name__ == "__main__":
    main()
