#!/usr/bin/python3
"""Checkpoint/restart through the real executable.

  check_restart.py heat     GRIDFLOW MPIEXEC SCRATCH   1000 steps straight vs 500 + restart + 500
  check_restart.py poisson  GRIDFLOW MPIEXEC SCRATCH   each iterative solver, restarted mid-solve
  check_restart.py signal   GRIDFLOW MPIEXEC SCRATCH   SIGTERM / SIGUSR1 / a time limit at a random step
  check_restart.py errors   GRIDFLOW MPIEXEC SCRATCH   missing, corrupt and mismatched checkpoints

Rank pairs (ranks of the first part -> ranks of the restart): 1 -> 1, 2 -> 3, 4 -> 1. Fields are
compared bit for bit; multigrid and CG-multigrid, whose sums follow the decomposition, must match
an uninterrupted run on the restart's rank count as closely as two uninterrupted runs on the two
rank counts match each other (bitwise on one rank count). The output series must hold every
output step once, and the XDMF index must reference existing datasets of the right shape.
"""
import glob
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import h5py
import numpy as np

MODE, GRIDFLOW, MPIEXEC, SCRATCH = sys.argv[1:5]
PAIRS = [(1, 1), (2, 3), (4, 1)]
HEAT_DECK = """problem = "heat2d"
device = "cpu"
[grid]
n = [40, 30]
[heat]
steps = 1000
initial = "sin(pi*x) * sin(pi*y)"
[heat.boundary]
left = "y*t"
[output]
every = 100
"""
POISSON_DECK = """problem = "poisson3d"
device = "cpu"
[grid]
n = [12, 10, 14]
[poisson]
rhs = "-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)"
tolerance = 1e-10
"""
failures = []


def fail(message):
    print("FAIL:", message)
    failures.append(message)


def command(ranks, deck, *overrides):
    args = [GRIDFLOW, deck, *overrides]
    if ranks == 1:
        return args
    return [MPIEXEC, "-np", str(ranks), "--oversubscribe", *args]


def run(ranks, deck, *overrides, expect=0):
    p = subprocess.run(command(ranks, deck, *overrides), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if p.returncode != expect:
        fail(f"{' '.join(command(ranks, deck, *overrides))}: exit {p.returncode}, expected {expect}\n{p.stdout[-3000:]}")
    return p


def write_deck(name, text):
    os.makedirs(SCRATCH, exist_ok=True)
    path = os.path.join(SCRATCH, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def fresh(name):
    path = os.path.join(SCRATCH, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def field(path, name="u"):
    with h5py.File(path, "r") as f:
        return f[name][...]


def same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def output_files(folder):
    return sorted(f for f in os.listdir(folder) if re.fullmatch(r".+_\d{8}\.h5", f) and "_checkpoint_" not in f)


def check_xdmf(folder, basename, steps):
    """The index lists `steps` in order, each once, each referencing an existing dataset of the
    declared shape."""
    path = os.path.join(folder, basename + ".xmf")
    try:
        root = ET.parse(path).getroot()
    except Exception as e:  # noqa: BLE001 - any parse failure is the finding
        fail(f"{path}: not valid XML: {e}")
        return
    listed = []
    for grid in root.iter("Grid"):
        if grid.get("GridType") == "Collection":
            continue
        time_el = grid.find("Time")
        for item in grid.iter("DataItem"):
            if item.get("Format") != "HDF":
                continue
            file_name, dataset = item.text.strip().split(":")
            dims = [int(d) for d in item.get("Dimensions").split()]
            h5 = os.path.join(folder, file_name)
            if not os.path.exists(h5):
                fail(f"{path}: references missing {file_name}")
                continue
            with h5py.File(h5, "r") as f:
                if dataset.lstrip("/") not in f:
                    fail(f"{path}: {file_name} has no {dataset}")
                    continue
                shape = f[dataset].shape
                if int(np.prod(shape)) != int(np.prod(dims)):
                    fail(f"{path}: {file_name}:{dataset} has shape {shape}, the index says {dims}")
                listed.append(int(f["Info"].attrs["step"]))
        assert time_el is not None
    if listed != steps:
        fail(f"{path}: lists steps {listed}, expected {steps}")


def heat():
    deck = write_deck("restart_heat.toml", HEAT_DECK)
    straight = fresh("restart_heat_straight")
    run(1, deck, f"output.dir={straight}")
    steps = list(range(0, 1001, 100))
    for first, second in PAIRS:
        out = fresh(f"restart_heat_{first}to{second}")
        run(first, deck, f"output.dir={out}", "heat.steps=500", "checkpoint.every=500")
        checkpoint = os.path.join(out, "heat2d_checkpoint_00000500.h5")
        if not os.path.exists(checkpoint):
            fail(f"no checkpoint {checkpoint}")
            continue
        # restart=auto is restart=latest when there is a checkpoint.
        p = run(second, deck, f"output.dir={out}", "restart=latest" if first != 4 else "restart=auto")
        if "restart from" not in p.stdout:
            fail(f"{first}->{second}: the restart does not say where it starts")
        names = output_files(out)
        if names != output_files(straight):
            fail(f"heat {first}->{second}: files {names}, expected {output_files(straight)}")
        for name in names:
            if not same_bits(field(os.path.join(out, name)), field(os.path.join(straight, name))):
                fail(f"heat {first}->{second}: {name} differs from the uninterrupted run")
        check_xdmf(out, "heat2d", steps)
        print(f"heat {first} -> {second} ranks: {len(names)} outputs compared")


def fresh_name(solver, ranks):
    return os.path.join(SCRATCH, f"restart_{solver}_straight_np{ranks}")


def poisson():
    deck = write_deck("restart_poisson.toml", POISSON_DECK)
    for solver, every in [("jacobi", 50), ("multigrid", 3), ("cg-mg", 2)]:
        # Jacobi's on-line tuning may take the whole of so small a solve before the loop steps.
        deck = write_deck("restart_poisson.toml", POISSON_DECK + ('[tuning]\nmode = "off"\n' if solver == "jacobi" else ""))
        straight = {}
        for ranks in sorted({r for pair in PAIRS for r in pair}):
            out = fresh(fresh_name(solver, ranks))
            run(ranks, deck, f"solver={solver}", f"output.dir={out}")
            (name,) = output_files(out)
            straight[ranks] = (name, field(os.path.join(out, name)))
        for first, second in PAIRS:
            out = fresh(f"restart_{solver}_{first}to{second}")
            run(first, deck, f"solver={solver}", f"output.dir={out}", f"checkpoint.every={every}", "checkpoint.keep=1000")
            checkpoint = os.path.join(out, f"poisson3d_checkpoint_{every:08d}.h5")
            if not os.path.exists(checkpoint):
                fail(f"{solver}: no checkpoint {checkpoint}")
                continue
            for old in output_files(out):  # the restart must write the solution again
                os.remove(os.path.join(out, old))
            run(second, deck, f"solver={solver}", f"output.dir={out}", f"restart={checkpoint}")
            names = output_files(out)
            expected_name, expected = straight[second]
            if names != [expected_name]:
                fail(f"{solver} {first}->{second}: files {names}, expected [{expected_name}]")
                continue
            got = field(os.path.join(out, names[0]))
            if solver == "jacobi" or first == second:
                ok = same_bits(got, expected)
                how = "bitwise"
            else:
                # Sums over the decomposition round differently: the restarted run takes its first
                # iterations in the first decomposition's rounding and the rest in the second's, so it
                # lies about as far from either straight run as they lie from each other; twice that
                # (CG carries an early difference through its later iterations, and may grow it).
                difference = np.abs(straight[first][1] - expected).max()
                allowed = 2 * difference
                ok = np.abs(got - expected).max() <= allowed
                how = f"within {allowed:.1e} (twice the {first}- vs {second}-rank difference)"
            if not ok:
                fail(f"{solver} {first}->{second}: differs from the uninterrupted {second}-rank run by "
                     f"{np.abs(got - expected).max():.3e}, expected {how}")
            check_xdmf(out, "poisson3d", [int(expected_name[-11:-3])])
            with h5py.File(os.path.join(out, names[0]), "r") as f, \
                    h5py.File(os.path.join(fresh_name(solver, second), expected_name), "r") as g:
                history = list(f["residual_history/iteration"][()])
                if history != list(g["residual_history/iteration"][()]):
                    fail(f"{solver} {first}->{second}: residual checks at {history}, uninterrupted at "
                         f"{list(g['residual_history/iteration'][()])}")
            print(f"{solver} {first} -> {second} ranks: {how}")


def interrupted(ranks, deck, out, sig, overrides, delay, env=None):
    """Starts a run and, once it prints its first progress line (it is stepping), sends `sig`
    after `delay` more seconds (to mpirun, which forwards SIGUSR1, or to the one process).
    Returns its exit status and output."""
    p = subprocess.Popen(command(ranks, deck, f"output.dir={out}", *overrides), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=None if env is None else {**os.environ, **env})
    text = ""
    if sig is not None:
        for line in p.stdout:
            text += line
            if line.startswith("step "):
                time.sleep(delay)
                p.send_signal(sig)
                break
    try:
        rest, _ = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        p.kill()
        rest, _ = p.communicate()
        fail("an interrupted run did not stop within 300 s")
    return p.returncode, text + rest


def signals():
    """A long run stopped at a random step s; the restart then runs to s + 200, and every output of
    the series must equal an uninterrupted run of s + 200 steps (dt does not depend on the count)."""
    deck = write_deck("restart_signal.toml", HEAT_DECK.replace("steps = 1000", "steps = 10000000").replace("every = 100", "every = 1000")
                      + "[progress]\nevery = 1000\n")
    seed = int(os.environ.get("GRIDFLOW_TEST_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"seed {seed} (GRIDFLOW_TEST_SEED reproduces it)")
    cases = [("SIGTERM", 1, signal.SIGTERM, [], None), ("SIGUSR1 through mpirun", 2, signal.SIGUSR1, [], None),
             ("run.wall_limit", 1, None, ["run.wall_limit=2s", "run.wall_margin=1.5s"], None),
             ("SLURM_JOB_END_TIME", 1, None, ["run.wall_margin=1.5s"],
              {"SLURM_JOB_ID": "1", "SLURM_JOB_END_TIME": str(int(time.time()) + 2)})]
    for what, ranks, sig, extra, env in cases:
        out = fresh("signal_" + what.split()[0].replace(".", "_"))
        status, text = interrupted(ranks, deck, out, sig, extra, rng.uniform(0.0, 0.3), env)
        lines = [l for l in text.splitlines() if l.startswith("stopped at step")]
        if status != 75 or not lines:
            fail(f"{what}: exit {status}, expected 75 with a 'stopped at step' line\n{text[-2000:]}")
            continue
        if "restart=latest" not in lines[-1] or text.rstrip().splitlines()[-1] != lines[-1] and ranks == 1:
            fail(f"{what}: the last line does not say why it stopped and how to continue: {text.rstrip().splitlines()[-1]}")
        step = int(re.match(r"stopped at step (\d+)", lines[-1]).group(1))
        checkpoints = glob.glob(os.path.join(out, "heat2d_checkpoint_*.h5"))
        if [os.path.basename(c) for c in checkpoints] != [f"heat2d_checkpoint_{step:08d}.h5"]:
            fail(f"{what}: checkpoints {checkpoints}, expected the one of step {step}")
            continue
        with h5py.File(checkpoints[0], "r") as f:
            if int(f.attrs["step"]) != step or f["Fields/u"].shape != (31, 41):
                fail(f"{what}: checkpoint holds step {f.attrs['step']} and u of shape {f['Fields/u'].shape}")
        if glob.glob(os.path.join(out, ".*partial")):
            fail(f"{what}: temporary files left behind")
        end = step + 200
        run(ranks, deck, f"output.dir={out}", "restart=latest", f"heat.steps={end}")
        straight = fresh("signal_straight")
        run(1, deck, f"output.dir={straight}", f"heat.steps={end}")
        for name in output_files(straight):
            if not same_bits(field(os.path.join(out, name)), field(os.path.join(straight, name))):
                fail(f"{what}: {name} after the restart differs from the uninterrupted run")
        if output_files(out) != output_files(straight):
            fail(f"{what}: files {output_files(out)}, expected {output_files(straight)}")
        check_xdmf(out, "heat2d", list(range(0, end, 1000)) + [end])
        print(f"{what}: stopped at step {step}, exit 75, restart to step {end} identical")

    # Checkpoints by the wall clock, only the newest kept; the time limit ends the run.
    out = fresh("signal_timed")
    p = run(1, deck, f"output.dir={out}", 'checkpoint.every="0.3s"', "checkpoint.keep=1", "run.wall_limit=2s",
            "run.wall_margin=0.5", expect=75)
    written = [l for l in p.stdout.splitlines() if l.startswith("checkpoint: step")]
    kept = glob.glob(os.path.join(out, "*_checkpoint_*.h5"))
    if len(written) < 2 or len(kept) != 1 or not written[-1].endswith(kept[0]):
        fail(f"checkpoint.every = 0.3 s, keep = 1: wrote {written}, kept {kept}")
    else:
        print(f"checkpoint.every = 0.3 s: {len(written)} written, the last one kept")


def errors():
    deck = write_deck("restart_errors.toml", HEAT_DECK)
    out = fresh("restart_errors")
    run(1, deck, f"output.dir={out}", "heat.steps=200", "checkpoint.every=100")
    good = os.path.join(out, "heat2d_checkpoint_00000200.h5")
    corrupt = os.path.join(out, "corrupt.h5")
    with open(good, "rb") as f:
        data = f.read()
    with open(corrupt, "wb") as f:
        f.write(data[: len(data) // 2])
    not_hdf5 = write_deck("not_a_checkpoint.h5", "hello")
    empty = fresh("restart_errors_empty")
    os.makedirs(empty)
    cases = [
        ([f"restart={os.path.join(out, 'missing.h5')}"], "missing.h5"),
        ([f"restart={corrupt}"], "corrupt.h5"),
        ([f"restart={not_hdf5}"], "not_a_checkpoint.h5"),
        ([f"restart={good}", "grid.n=[40,32]"], "'grid.n'"),
        ([f"restart={good}", 'heat.initial="0"'], "'heat.initial'"),
        ([f"restart={good}", "heat.dt=1e-5"], "'heat.dt'"),
        ([f"restart={good}", "precision=float"], "'precision'"),
        ([f"restart=latest", f"output.dir={empty}"], "latest"),
        (["checkpoint.every=0"], "'checkpoint.every'"),
        (['checkpoint.every="ten minutes"'], "'checkpoint.every'"),
        (['run.wall_limit="1x"'], "'run.wall_limit'"),
    ]
    for overrides, named in cases:
        args = [f"output.dir={out}"] + overrides if not any(o.startswith("output.dir") for o in overrides) else overrides
        p = run(1, deck, *args, expect=2)
        if named not in p.stdout or "gridflow: error:" not in p.stdout:
            fail(f"{overrides}: the message does not name {named}:\n{p.stdout[-1000:]}")
        else:
            print(f"{overrides}: {p.stdout.strip().splitlines()[-1]}")
    # restart=auto without a checkpoint starts afresh (the first job of a chain).
    fresh_dir = fresh("restart_auto_fresh")
    p = run(1, deck, f"output.dir={fresh_dir}", "restart=auto", "heat.steps=10")
    if "restart from" in p.stdout or not os.path.exists(os.path.join(fresh_dir, "heat2d_00000010.h5")):
        fail(f"restart=auto in an empty folder did not start afresh:\n{p.stdout[-1000:]}")
    # A Poisson checkpoint does not restart a heat run.
    pdeck = write_deck("restart_errors_poisson.toml", POISSON_DECK)
    pout = fresh("restart_errors_poisson")
    run(1, pdeck, f"output.dir={pout}", "solver=jacobi", "checkpoint.every=50")
    p = run(1, deck, f"output.dir={out}", f"restart={os.path.join(pout, 'poisson3d_checkpoint_00000050.h5')}", expect=2)
    if "'problem'" not in p.stdout:
        fail(f"a Poisson checkpoint for a heat run: {p.stdout[-500:]}")


{"heat": heat, "poisson": poisson, "signal": signals, "errors": errors}[MODE]()
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all passed")
