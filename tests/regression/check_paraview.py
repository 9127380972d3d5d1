#!/usr/bin/python3
"""What ParaView shows at first open of gridflow's XDMF indexes.

usage: check_paraview.py XMF...   (exit 77, a skip, when pvpython, xvfb-run or xauth is missing)

Runs paraview_probe.py under `xvfb-run -a pvpython`, which opens each index with OpenDataFile and
with each XDMF reader ParaView offers (Xdmf3ReaderS, Xdmf3ReaderT, XDMFReader), shows it in a
render view and reports what it sees. Every reader must give: the time steps of the index (the
files' /Info times), the fields as point arrays, every point at every step, and bounds equal to the
grid's: x and y extents of the grid and a zero z extent for a 2D field (the X-Y plane), the z
extent too for a 3D one. A 2D field must show at first open coloured by its first field, seen
along z; what a 3D one shows first (ParaView draws any 3D structured data set as its outline) is
printed. Debian: paraview, python3-paraview, xvfb, xauth (large; not in bootstrap.sh).
"""
import json
import math
import os
import shutil
import subprocess
import sys

import h5py

from check_xdmf import CheckError, check_index

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paraview_probe.py")


def expected(xmf):
    steps = check_index(xmf)
    with h5py.File(steps[0].path, "r") as f:
        info = f["Info"].attrs
        points = [int(p) for p in info["grid_points"]]
        origin = [float(v) for v in info["origin"]]
        spacing = [float(v) for v in info["spacing"]]
    bounds = []
    for d in range(3):
        if d < len(points):
            bounds += [origin[d], origin[d] + spacing[d] * (points[d] - 1)]
        else:
            bounds += [0.0, 0.0]
    return {"dim": len(points), "times": [s.time for s in steps], "fields": steps[0].fields,
            "points": math.prod(points), "bounds": bounds}


def judge(seen, want):
    problems = []
    if "error" in seen:
        return [seen["error"]]
    close = lambda a, b: all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12) for x, y in zip(a, b)) and len(a) == len(b)
    if not close(seen["times"], want["times"]):
        problems.append(f"time steps {seen['times']}, the files' {want['times']}")
    if seen["point_arrays"] != want["fields"]:
        problems.append(f"point arrays {seen['point_arrays']}, fields {want['fields']}")
    if seen["points"] != want["points"] or any(n != want["points"] for n in seen["points_per_time"]):
        problems.append(f"{seen['points']} points (per step {seen['points_per_time']}), the grid has {want['points']}")
    if not close(seen["bounds"], want["bounds"]):
        problems.append(f"bounds {seen['bounds']}, the grid's {want['bounds']}")
    if want["dim"] == 2:
        if seen["representation"] not in ("Slice", "Surface") or seen["color_by"] != want["fields"][0]:
            problems.append(f"shown as {seen['representation']} coloured by {seen['color_by']!r}, "
                            f"not a surface coloured by {want['fields'][0]}")
        axis = [p - f for p, f in zip(seen["camera_position"], seen["camera_focal_point"])]
        if abs(axis[0]) > 1e-9 * abs(axis[2]) or abs(axis[1]) > 1e-9 * abs(axis[2]) or axis[2] == 0:
            problems.append(f"the camera looks along {axis}, not z")
    return problems


def main():
    for tool in ("pvpython", "xvfb-run", "xauth"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} is not installed (Debian: paraview python3-paraview xvfb xauth)")
            return 77
    files = [os.path.abspath(x) for x in sys.argv[1:]]  # ParaView's XDMF 3 reader wants a directory in the path
    try:
        wanted = {x: expected(x) for x in files}
    except CheckError as e:
        print("FAIL:", e)
        return 1
    # xvfb-run -a takes the first free display from its start number, racing any other xvfb-run
    # started at the same moment (another session, another suite): start at a number of our own,
    # and try once more on a display that went away under us.
    for attempt in range(2):
        server = 100 + (os.getpid() * 7 + attempt * 131) % 800
        run = subprocess.run(["xvfb-run", "-a", "-n", str(server), "pvpython", "--force-offscreen-rendering", PROBE] + files,
                             capture_output=True, text=True, timeout=240)
        if "X server" not in run.stderr:
            break
    lines = [l for l in run.stdout.splitlines() if l.startswith("PROBE ")]
    if run.returncode != 0 or not lines:
        print(f"FAIL: pvpython exited with {run.returncode}\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
        return 1
    failures = 0
    for seen in json.loads(lines[-1][len("PROBE "):]):
        want = wanted[seen["file"]]
        problems = judge(seen, want)
        label = f"{os.path.basename(seen['file'])} with {seen['opened_with']} ({seen['reader']})"
        if problems:
            failures += 1
            print(f"FAIL: {label}: " + "; ".join(problems))
        else:
            print(f"ok: {label}: {seen['data_type']}, {seen['points']} points, bounds {seen['bounds']}, "
                  f"arrays {seen['point_arrays']}, {len(seen['times'])} time steps; first shown as "
                  f"{seen['representation']} coloured by {seen['color_by']!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
