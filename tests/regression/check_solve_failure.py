#!/usr/bin/env python3
"""Runs a Poisson deck whose solve fails (a command after `--`) and checks that it ends cleanly: a
non-zero exit without MPI_Abort, no success line, one error line from rank 0 that matches every
--expect regular expression, and no file in DIR whose /Info claims convergence.

Usage: check_solve_failure.py DIR [--expect REGEX ...] [--no-files] -- gridflow ARGS...
(--no-files: no HDF5 file may be written at all)
"""
import glob
import os
import re
import subprocess
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        fail(__doc__)
    split = args.index("--")
    out_dir, options = args[0], args[1:split]
    expected = [options[i + 1] for i in range(len(options)) if options[i] == "--expect"]
    no_files = "--no-files" in options
    run = subprocess.run(args[split + 1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    text = run.stdout
    print(text)
    if run.returncode == 0:
        fail("the run exited with status 0")
    if "MPI_ABORT was invoked" in text:
        fail("the run ended in MPI_Abort")
    if re.search(r"^converged:", text, re.M):
        fail("the run printed the success line")
    errors = re.findall(r"^gridflow: error: (.*)$", text, re.M)
    if len(errors) != 1:
        fail(f"expected one error line from rank 0, got {len(errors)}")
    for pattern in expected:
        if not re.search(pattern, errors[0]):
            fail(f"the message does not match {pattern!r}: {errors[0]}")
    try:
        import h5py
    except ImportError:
        h5py = None
    if no_files and glob.glob(os.path.join(out_dir, "*.h5")):
        fail(f"files of a failed solve in {out_dir}: {os.listdir(out_dir)}")
    for f in sorted(glob.glob(os.path.join(out_dir, "*.h5"))):
        if h5py:
            with h5py.File(f, "r") as h5:
                if bool(h5["Info"].attrs.get("converged", False)):
                    fail(f"{f} claims a converged solve")
    print("OK: " + errors[0])


if __name__ == "__main__":
    main()
