#!/usr/bin/python3
"""check_output_lock.py GRIDFLOW MPIEXEC SOURCE_DIR SCRATCH: two runs into one output folder.

A long heat run holds <output.dir>/heat2d.lock; a second run into the same folder (on 2 ranks)
is refused at start (exit status 2) with a message naming the lock file and the holder's pid, and
changes nothing in the folder. The first run is then killed with SIGKILL: its lock file stays
behind, unheld, and the next run takes it over, runs to the end and removes it."""
import os
import shutil
import signal
import subprocess
import sys
import time


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def listing(directory):
    return {n: os.stat(os.path.join(directory, n)).st_mtime_ns for n in os.listdir(directory)}


def main():
    gridflow, mpiexec, source, scratch = sys.argv[1:5]
    out = os.path.join(scratch, "output_lock")
    shutil.rmtree(out, ignore_errors=True)
    deck = [os.path.join(source, "inputs", "heat2d_small.toml"), "device=cpu", "output.dir=" + out]
    lock = os.path.join(out, "heat2d.lock")
    first = subprocess.Popen([gridflow] + deck + ["grid.n=[128,128]", "heat.t_end=100", "output.every=100000000"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while not os.path.exists(os.path.join(out, "heat2d.xmf")):  # step 0 written: it holds the lock
            if first.poll() is not None:
                fail(f"the first run ended early with status {first.returncode}")
            if time.time() > deadline:
                fail("the first run wrote no step 0 within 60 s")
            time.sleep(0.05)
        with open(lock) as f:
            holder = f.read()
        if f"pid {first.pid}," not in holder:
            fail(f"{lock} does not name the first run (pid {first.pid}): {holder!r}")
        before = listing(out)
        second = subprocess.run([mpiexec, "-np", "2", "--oversubscribe", gridflow] + deck + ["output.every=7"],
                                capture_output=True, text=True, timeout=120)
        text = second.stdout + second.stderr
        if second.returncode != 2:
            fail(f"the second run exited with {second.returncode}, not 2:\n{text}")
        for needle in (f"{lock} is locked by", f"pid {first.pid},", "key 'output.dir'"):
            if needle not in text:
                fail(f"the refusal does not say {needle!r}:\n{text}")
        if listing(out) != before:
            fail(f"the refused run changed the folder: {sorted(before)} -> {sorted(listing(out))}")
        if text.count("is locked by") != 1:
            fail(f"the refusal should be said once, by rank 0:\n{text}")
        print("refused:", next(line for line in text.splitlines() if "is locked by" in line))
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    if not os.path.exists(lock):
        fail("the killed run left no lock file: the take-over of a stale one is not tested")
    third = subprocess.run([gridflow] + deck + ["grid.n=[32,32]"], capture_output=True, text=True, timeout=120)
    if third.returncode != 0:
        fail(f"the run after the killed one did not take its lock over (status {third.returncode}):\n"
             f"{third.stdout}{third.stderr}")
    if os.path.exists(lock):
        fail(f"{lock} is left after a run that ended normally")
    print("ok: refused while held, taken over after SIGKILL, removed at the end")


if __name__ == "__main__":
    main()
