#!/usr/bin/python3
"""check_disk_full.py GRIDFLOW MPIEXEC SOURCE_DIR SCRATCH: runs whose output folder fills up.

Each run writes into a 3 MiB tmpfs until the disk is full: it must stop with a non-zero status and
a message naming the file, "No space left on device (errno 28)" and what to do, without HDF5's
error stack, and leave no partial file and no file that looks complete but is not (every .h5 with
its final name opens, the XDMF index lists exactly the step files there). Cases: the output series
on 1 and on 2 ranks (written on a background thread), on 1 rank written synchronously, and
checkpoints. Mounting needs root and a container that allows it: without them the test exits 77,
which CTest reports as skipped, saying why."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import h5py

SKIP = 77


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def clear(directory):
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def check_run(launch, args, directory, file_pattern, folder_key):
    r = subprocess.run(launch + args, capture_output=True, text=True, timeout=300)
    text = r.stdout + r.stderr
    if r.returncode == 0:
        fail(f"{' '.join(args)}: the run succeeded on a full disk:\n{text}")
    pattern = (rf"writing {re.escape(directory)}/{file_pattern} failed: No space left on device \(errno 28\); "
               rf"free space in {re.escape(folder_key)} or choose another folder")
    if not re.search(pattern, text):
        fail(f"no message matching {pattern!r}:\n{text}")
    if "HDF5-DIAG" in text:
        fail(f"HDF5's error stack was printed:\n{text}")
    names = os.listdir(directory)
    partial = [n for n in names if n.endswith(".partial")]
    if partial:
        fail(f"partial files left: {partial}")
    steps = sorted(n for n in names if n.endswith(".h5"))
    for n in steps:
        with h5py.File(os.path.join(directory, n), "r") as f:  # whole, or it would not open
            if "checkpoint" in n:
                if f.attrs.get("format") is None:
                    fail(f"{n} has no format attribute: not written to the end")
            elif "u" not in f or "Info" not in f:
                fail(f"{n} lacks /u or /Info")
    xmf = [n for n in names if n.endswith(".xmf")]
    for n in xmf:
        listed = sorted({m.group(1) for m in re.finditer(r"([\w.]+\.h5):", open(os.path.join(directory, n)).read())})
        ET.parse(os.path.join(directory, n))  # a whole document
        series = [s for s in steps if "checkpoint" not in s]
        if listed != series:
            fail(f"{n} lists {listed}, the folder holds {series}")
    print(f"ok: {' '.join(args[-3:])}: refused with {re.search(pattern, text).group(0)!r}; {len(steps)} whole files kept")


def main():
    gridflow, mpiexec, source, scratch = sys.argv[1:5]
    if os.geteuid() != 0:
        print("SKIP: mounting a small tmpfs needs root")
        sys.exit(SKIP)
    disk = os.path.join(scratch, "disk_full")
    os.makedirs(disk, exist_ok=True)
    subprocess.run(["umount", disk], capture_output=True)
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", disk], capture_output=True, text=True)
    if mount.returncode != 0:
        print(f"SKIP: cannot mount a tmpfs on {disk} (a container without CAP_SYS_ADMIN?): {mount.stderr.strip()}")
        sys.exit(SKIP)
    try:
        deck = [os.path.join(source, "inputs", "heat2d_small.toml"), "device=cpu", "output.dir=" + disk]
        # 257^2 doubles: ~0.5 MiB a file, the disk is full at the 6th.
        check_run([gridflow], deck, disk, r"heat2d_\d{8}\.h5", "output.dir")
        clear(disk)
        check_run([mpiexec, "-np", "2", "--oversubscribe", gridflow], deck, disk, r"heat2d_\d{8}\.h5", "output.dir")
        clear(disk)
        # The runs above write on a background thread (output.async's default); this one does not.
        check_run([gridflow], deck + ["output.async=false"], disk, r"heat2d_\d{8}\.h5", "output.dir")
        clear(disk)
        check_run([gridflow], deck + ["output.every=1000000", "checkpoint.every=1000", "checkpoint.keep=100"], disk,
                  r"heat2d_checkpoint_\d{8}\.h5", "checkpoint.dir")
    finally:
        subprocess.run(["umount", disk])


if __name__ == "__main__":
    main()
