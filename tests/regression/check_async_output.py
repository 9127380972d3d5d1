#!/usr/bin/python3
"""check_async_output.py GRIDFLOW MPIEXEC SOURCE_DIR SCRATCH [DEVICE [RANKS...]]: asynchronous output.

1. Asynchronous output (output.async = true, a background writer thread) writes the same files
   as synchronous output: the same file names, every dataset bitwise equal, every attribute equal
   but /Info/wall_time and the /Input keys that name the run's folder and mode, the same XDMF
   index. Heat 2D (inputs/heat2d_filtered.toml: in-situ filters) and Poisson 3D (an in-situ
   filter), both with the spectrum diagnostic on, at each rank count (default 1 and 2).
2. A heat run stopped by SIGTERM (1 rank; SIGUSR1 through mpirun) while writes are in flight (an output every few steps of a grid
   whose files take a while) exits with status 75 and leaves only whole files: every .h5 opens with
   /u and /Info, no partial file, the XDMF index lists exactly the step files, and the checkpoint.
DEVICE: cpu (default) or gpu (device fields: the page-locked snapshot path; 2 ranks share the GPU).
GRIDFLOW and MPIEXEC may be commands with a launcher before them ("bundle/run bundle/bin/gridflow"):
h5diff and h5ls then go through that launcher, and compare the files where h5py is missing."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError:  # a GPU machine without them: the HDF5 command-line tools compare instead
    h5py = None


class CaseFailed(Exception):
    pass


def fail(message):
    raise CaseFailed(message)


def launch(ranks):
    gridflow = shlex.split(GRIDFLOW)
    if ranks == 1:
        return gridflow
    return shlex.split(MPIEXEC) + ["-np", str(ranks), "--oversubscribe", gridflow[-1]]


def run(ranks, args, folder):
    shutil.rmtree(folder, ignore_errors=True)
    p = subprocess.run(launch(ranks) + args + [f"output.dir={folder}"], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail(f"{' '.join(args)} on {ranks} rank(s) exited with {p.returncode}:\n{p.stdout}{p.stderr}")
    return p.stdout


# What differs between two runs by design: the clocks, and the /Input keys naming folder and mode.
DIFFERENT = {"/Info": {"wall_time", "solve_seconds"}, "/Input": {"deck", "output.dir", "output.async", "checkpoint.dir"}}
TIMINGS = {"/residual_history/seconds"}
# On the GPU the residual norms are summed with atomics (kernels/core/reduce_cuda.cuh), so any
# two runs' residual histories may differ in their last bits: compared to rounding there.
ROUNDING_ON_GPU = {"/residual_history/relative_residual"}
ROUNDING = 1e-9


def compare_objects(a, b, where):
    skip = DIFFERENT.get(a.name, set()) | ({"relative_residual"} if DEVICE == "gpu" and a.name == "/Info" else set())
    names_a = {k for k in a.attrs if k not in skip}
    names_b = {k for k in b.attrs if k not in skip}
    if names_a != names_b:
        fail(f"{where}{a.name}: attributes {sorted(names_a ^ names_b)} in one file only")
    for k in names_a:
        va, vb = a.attrs[k], b.attrs[k]
        if not np.array_equal(np.asarray(va), np.asarray(vb)):
            fail(f"{where}{a.name}: attribute {k}: {va!r} != {vb!r}")
    if isinstance(a, h5py.Dataset):
        if a.name in TIMINGS:
            return 0
        if DEVICE == "gpu" and a.name in ROUNDING_ON_GPU:
            if not np.allclose(a[()], b[()], rtol=ROUNDING, atol=0):
                fail(f"{where}{a.name}: values differ by more than rounding")
            return 1
        if a.dtype != b.dtype or a.shape != b.shape:
            fail(f"{where}{a.name}: {a.dtype}{a.shape} != {b.dtype}{b.shape}")
        if a[()].tobytes() != b[()].tobytes():
            fail(f"{where}{a.name}: values differ")
        return 1
    if set(a.keys()) != set(b.keys()):
        fail(f"{where}{a.name}: members {sorted(set(a.keys()) ^ set(b.keys()))} in one file only")
    return sum(compare_objects(a[k], b[k], where) for k in a.keys())


def tool(name):
    return shlex.split(GRIDFLOW)[:-1] + [name]


def structure(path):
    """{object path: its attribute names} from h5ls; fails when the file does not open."""
    p = subprocess.run(tool("h5ls") + ["-v", "-r", path], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"h5ls cannot read {path}: {p.stdout}{p.stderr}")
    objects, current = {}, None
    for line in p.stdout.splitlines():
        m = re.match(r"^(/\S*)\s+(Group|Dataset)", line)
        if m:
            current = m.group(1)
            objects[current] = (m.group(2), set())
        elif current and (m := re.match(r"^\s+Attribute: (\S+)", line)):
            objects[current][1].add(m.group(1))
    return objects


def compare_with_tools(a, b, where):
    sa, sb = structure(a), structure(b)
    if set(sa) != set(sb):
        fail(f"{where} objects {sorted(set(sa) ^ set(sb))} in one file only")
    for path, (kind, names) in sa.items():
        skip = DIFFERENT.get(path, set())
        if names - skip != sb[path][1] - skip:
            fail(f"{where}{path}: attributes {sorted((names ^ sb[path][1]) - skip)} in one file only")
    p = subprocess.run(tool("h5diff") + ["-v", a, b], capture_output=True, text=True)
    if "Not comparable" in p.stdout or p.returncode > 1:
        fail(f"h5diff {a} {b}: {p.stdout[-3000:]}{p.stderr}")
    subject = None
    for line in p.stdout.splitlines():
        if m := re.match(r"^attribute: <(\S+) of <(/\S*)>> and", line):
            subject = (m.group(2), m.group(1))
        elif m := re.match(r"^(dataset|group)\s*: <(/\S*)> and", line):
            subject = (m.group(2), None)
        elif (m := re.match(r"^(\d+) differences? found", line)) and int(m.group(1)) > 0:
            group, attribute = subject
            rounding = DEVICE == "gpu" and (group in ROUNDING_ON_GPU or (group, attribute) == ("/Info", "relative_residual"))
            if not (attribute in DIFFERENT.get(group, set()) if attribute else group in TIMINGS) and not rounding:
                fail(f"{where}{group} {attribute or ''}: {m.group(1)} values differ (h5diff)")
    for path in ROUNDING_ON_GPU & set(sa) if DEVICE == "gpu" else []:
        p = subprocess.run(tool("h5diff") + ["-p", str(ROUNDING), a, b, path, path], capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"{where}{path}: values differ by more than rounding:\n{p.stdout[-2000:]}")
    return sum(1 for kind, _ in sa.values() if kind == "Dataset")


def compare_folders(sync, asyn, name):
    files_s = sorted(n for n in os.listdir(sync) if n.endswith(".h5"))
    files_a = sorted(n for n in os.listdir(asyn) if n.endswith(".h5"))
    if files_s != files_a or not files_s:
        fail(f"synchronous output wrote {files_s}, asynchronous {files_a}")
    datasets = 0
    for n in files_s:
        if h5py is None:
            datasets += compare_with_tools(os.path.join(sync, n), os.path.join(asyn, n), n + ":")
            continue
        with h5py.File(os.path.join(sync, n), "r") as fs, h5py.File(os.path.join(asyn, n), "r") as fa:
            datasets += compare_objects(fs, fa, n + ":")
    with open(os.path.join(sync, name + ".xmf")) as fs, open(os.path.join(asyn, name + ".xmf")) as fa:
        if fs.read() != fa.read():
            fail(f"the XDMF indexes of {sync} and {asyn} differ")
    return len(files_s), datasets


def same_files(label, ranks, args, name, folder):
    out_a = run(ranks, args + ["output.async=true"], folder + "_async")
    run(ranks, args + ["output.async=false"], folder + "_sync")
    background = re.search(r"output writes \(background\) +([0-9.]+)", out_a)  # heat prints its phases
    if "synchronously" in out_a or (background and float(background.group(1)) == 0):
        fail(f"{label}: the asynchronous run did not write in the background:\n{out_a}")
    files, datasets = compare_folders(folder + "_sync", folder + "_async", name)
    print(f"ok: {label} on {ranks} rank(s): {files} files, {datasets} datasets bitwise equal, same XDMF")


def whole_files(folder, name):
    names = os.listdir(folder)
    partial = [n for n in names if n.endswith(".partial")]
    if partial:
        fail(f"partial files left: {partial}")
    steps = sorted(n for n in names if re.fullmatch(re.escape(name) + r"_\d{8}\.h5", n))
    for n in steps:
        if h5py is None:
            objects = structure(os.path.join(folder, n))
            if "/u" not in objects or "/Info" not in objects:
                fail(f"{n} lacks /u or /Info")
            continue
        with h5py.File(os.path.join(folder, n), "r") as f:
            if "u" not in f or "Info" not in f:
                fail(f"{n} lacks /u or /Info")
            f["u"][()]
    with open(os.path.join(folder, name + ".xmf")) as f:
        listed = sorted(set(re.findall(r"([\w.]+\.h5):", f.read())))
    if listed != steps:
        fail(f"the XDMF index lists {listed}, the folder holds {steps}")
    return steps


def stopped_by_sigterm(ranks, device, folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    n = 4095 if device == "gpu" else 1023
    args = [os.path.join(SOURCE, "inputs", "heat2d_small.toml"), f"device={device}", f"grid.n=[{n},{n}]",
            "heat.t_end=1", "output.every=5", "progress.every=5", "tuning.mode=off", "device_sharing=true",
            f"output.dir={folder}", "output.async=true"]
    p = subprocess.Popen(launch(ranks) + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    while len([x for x in os.listdir(folder) if x.endswith(".h5")]) < 3:
        if p.poll() is not None or time.time() > deadline:
            p.kill()
            fail(f"the run wrote fewer than 3 files:\n{p.communicate()[0]}")
        time.sleep(0.01)
    # mpirun ends the job on SIGTERM itself, but forwards SIGUSR1, which stops a run alike.
    sig = signal.SIGTERM if ranks == 1 else signal.SIGUSR1
    p.send_signal(sig)
    text = p.communicate(timeout=120)[0]
    if p.returncode != 75:
        fail(f"{sig.name}: exit status {p.returncode}, not 75:\n{text}")
    steps = whole_files(folder, "heat2d")
    checkpoints = [x for x in os.listdir(folder) if "checkpoint" in x and x.endswith(".h5")]
    if not checkpoints:
        fail(f"no checkpoint written:\n{text}")
    print(f"ok: {sig.name} on {ranks} rank(s) with writes in flight: status 75, {len(steps)} whole files, "
          f"index complete, {checkpoints[0]}")


DEVICE = "cpu"


def main():
    global GRIDFLOW, MPIEXEC, SOURCE, DEVICE
    GRIDFLOW, MPIEXEC, SOURCE, scratch = sys.argv[1:5]
    DEVICE = device = sys.argv[5] if len(sys.argv) > 5 else "cpu"
    rank_counts = [int(r) for r in sys.argv[6:]] or [1, 2]
    spectrum = ["diagnostics[0].kind=spectrum", "diagnostics[0].field=u", "device_sharing=true"]
    heat = [os.path.join(SOURCE, "inputs", "heat2d_filtered.toml"), f"device={device}", "halo.width=1",
            "tuning.mode=off"] + spectrum
    poisson = [os.path.join(SOURCE, "inputs", "poisson3d_small.toml"), f"device={device}", "grid.n=[24,20,28]",
               "filters[0].kind=gaussian", "filters[0].field=u", "filters[0].sigma=[1.0,1.5,1.0]", "tuning.mode=off"] + spectrum
    cases = []
    for ranks in rank_counts:
        cases.append(lambda r=ranks: same_files("heat2d with filters and spectrum", r, heat, "heat2d",
                                                os.path.join(scratch, f"heat_np{r}")))
        cases.append(lambda r=ranks: same_files("poisson3d with a filter and spectrum", r, poisson, "poisson3d",
                                                os.path.join(scratch, f"poisson_np{r}")))
    for ranks in rank_counts:
        cases.append(lambda r=ranks: stopped_by_sigterm(r, device, os.path.join(scratch, f"sigterm_np{r}")))
    failed = 0
    for case in cases:  # every case runs, so one failure does not hide the others
        try:
            case()
        except CaseFailed as e:
            print("FAIL:", e, flush=True)
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
