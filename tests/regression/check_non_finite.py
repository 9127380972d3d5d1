#!/usr/bin/env python3
"""Runs a heat deck whose boundary value turns NaN at time T (a command after `--`) and checks how
it ends: a non-zero exit without MPI_Abort, one message from rank 0 naming the first step k past T
(k = floor(T / dt) + 1, dt from the run's own header line), its time, a point on the expected face;
the output series holds exactly the steps before k that output.every asks for, every file finite,
no temporary file left, and the XDMF index lists exactly those files.

Usage: check_non_finite.py DIR NAME EVERY T FACE [--gpu] -- gridflow ARGS...
(--gpu: exit 77, a skip, when the run finds no GPU, unless GRIDFLOW_TEST_REQUIRE_GPU=1)
"""
import glob
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        fail(__doc__)
    split = args.index("--")
    out_dir, name, every, bad_from, face = args[:5]
    on_gpu = "--gpu" in args[5:split]
    every, bad_from = int(every), float(bad_from)
    run = subprocess.run(args[split + 1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    text = run.stdout
    print(text)
    if run.returncode == 0:
        fail("the run exited with status 0")
    if on_gpu and "error: key 'device'" in text and os.environ.get("GRIDFLOW_TEST_REQUIRE_GPU") != "1":
        print("SKIP: no GPU for device=gpu")
        sys.exit(77)
    if "MPI_ABORT was invoked" in text:
        fail("the run ended in MPI_Abort")
    if re.search(r"^done:", text, re.M):
        fail("the run printed its success line")
    dt = float(re.search(r"dt = ([0-9.eE+-]+)", text).group(1))
    ratio = bad_from / dt
    if abs(ratio - round(ratio)) < 1e-3:
        fail(f"T / dt = {ratio} is too close to a whole step for an exact expectation")
    step = math.floor(ratio) + 1
    errors = re.findall(r"^gridflow: error: (.*)$", text, re.M)
    if len(errors) != 1:
        fail(f"expected one error line from rank 0, got {len(errors)}")
    m = re.search(r"first NaN or infinite value appeared at step (\d+) \(t = ([0-9.eE+-]+)\), global point \((\d+), (\d+)\)"
                  r" at \([^)]*\), on the boundary ([^;]+);", errors[0])
    if not m:
        fail("the message does not name the step, time, point and boundary: " + errors[0])
    if int(m.group(1)) != step:
        fail(f"the message names step {m.group(1)}, the boundary value turns NaN at step {step}")
    if abs(float(m.group(2)) - step * dt) > 1e-6 * step * dt:
        fail(f"the message names t = {m.group(2)}, step {step} is at t = {step * dt:.6e}")
    if m.group(5).strip() != face:
        fail(f"the point is on the boundary {m.group(5)!r}, not {face!r}")
    if "inside the stability bound" not in errors[0]:
        fail("the message lost the hint about dt and the expressions")

    files = sorted(glob.glob(os.path.join(out_dir, name + "_*.h5")))
    written = [int(re.search(r"_(\d+)\.h5$", f).group(1)) for f in files]
    expected = list(range(0, step, every))
    if written != expected:
        fail(f"files for steps {written}, expected {expected} (every {every} steps before step {step})")
    leftovers = [f for f in os.listdir(out_dir) if not (f.endswith(".h5") or f.endswith(".xmf"))]
    if leftovers:
        fail(f"files left beside the series: {leftovers}")
    try:
        import h5py
        import numpy as np
    except ImportError:
        h5py = None
        print("h5py missing: the files' values are not read")
    if h5py:
        for f in files:
            with h5py.File(f, "r") as h5:
                if not np.all(np.isfinite(h5["u"][...])):
                    fail(f"{f} holds values that are not finite")
    xmf = os.path.join(out_dir, name + ".xmf")
    listed = [item.text.split(":")[0].strip() for item in ET.parse(xmf).iter("DataItem") if item.get("Format") == "HDF"]
    if listed != [os.path.basename(f) for f in files]:
        fail(f"the XDMF index lists {listed}, the series holds {[os.path.basename(f) for f in files]}")
    print(f"OK: stopped at step {step} (t = {step * dt:.6e}) on the boundary {face}; {len(files)} finite files, "
          f"the newest step {written[-1] if written else None}")


if __name__ == "__main__":
    main()
