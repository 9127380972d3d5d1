#!/usr/bin/python3
"""In-situ [[filters]] through the real executable.

  check_insitu_filters.py heat    GRIDFLOW MPIEXEC SCRATCH MAX_RANKS   inputs/heat2d_filtered.toml + every kind x mode
  check_insitu_filters.py poisson GRIDFLOW MPIEXEC SCRATCH MAX_RANKS   inputs/poisson3d_small.toml (small grid) + the same
  check_insitu_filters.py errors  GRIDFLOW MPIEXEC SCRATCH MAX_RANKS   bad blocks: refused, key named, nothing written

heat and poisson run the deck with mean, gaussian and correlate filters in every boundary mode
(constant with cval 0 and 0.25, nearest, reflect, mirror, wrap; gaussian and correlate also with
method = "fft" in every mode but wrap) on 1, 2, 3 and 4 ranks (at most
MAX_RANKS) in double, and on 1 and 3 ranks in float. Every file of every run must hold every
filtered dataset, bit for bit the same at every rank count, equal to scipy.ndimage applied to the
/u of the same file (max |diff| / max |scipy| < 1e-12 in double, 1e-5 in float), and listed in
the XDMF index of that step; /u must be bitwise that of a run without filters. heat adds a whiten
block (memory 3): bitwise the same at every rank count, /u itself in the first file, smaller than
/u in the others.
"""
import glob
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import scipy.ndimage as ndi

PART, GRIDFLOW, MPIEXEC, SCRATCH, MAX_RANKS = sys.argv[1:6]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = [("constant", 0.0), ("constant", 0.25), ("nearest", None), ("reflect", None), ("mirror", None), ("wrap", None)]
failures = []


def fail(message):
    print("FAIL:", message)
    failures.append(message)


def command(ranks, deck, *overrides):
    args = [GRIDFLOW, deck, *overrides]
    return args if ranks == 1 else [MPIEXEC, "-np", str(ranks), "--oversubscribe", *args]


def run(ranks, deck, *overrides):
    p = subprocess.run(command(ranks, deck, *overrides), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    return p


def toml_list(values):
    return "[" + ", ".join(repr(v) for v in values) + "]"


def filter_blocks(dim):
    """Every kind in every mode, with even and odd lengths and weights that do not sum to 1.
    Returns the TOML text and, per dataset name, (kind, parameters, mode, cval)."""
    rng = np.random.default_rng(14)
    size = [3, 4, 2][:dim]
    sigma = [1.0, 0.7, 1.3][:dim]
    shape = [3, 2, 3][:dim]
    weights = [round(float(w), 6) for w in rng.uniform(-1, 1, int(np.prod(shape)))]
    text, blocks = "", {}
    for m, (mode, cval) in enumerate(MODES):
        kinds = [("mean", {"size": size}), ("gaussian", {"sigma": sigma, "truncate": 3.0}),
                 ("correlate", {"shape": shape, "weights": weights})]
        if mode != "wrap":  # the FFT variant (method = "fft"), bitwise on any rank count too
            kinds += [("gaussian", {"sigma": sigma, "method": "fft"}), ("correlate", {"shape": shape, "weights": weights, "method": "fft"})]
        for kind, params in kinds:
            name = f"{kind}_{mode}{m}" + ("_fft" if "method" in params else "")
            text += f'\n[[filters]]\nkind = "{kind}"\nfield = "u"\nname = "{name}"\nmode = "{mode}"\n'
            if cval is not None:
                text += f"cval = {cval}\n"
            for key, value in params.items():
                text += f"{key} = {toml_list(value) if isinstance(value, list) else repr(value) if isinstance(value, str) else value}\n"
            blocks[name] = (kind, params, mode, cval or 0.0)
    return text, blocks


def scipy_filter(u, kind, params, mode, cval):
    """scipy.ndimage on a dataset stored slowest axis first: per-axis parameters (x first in the
    deck) reversed, weights (x fastest) reshaped to the reversed shape."""
    u = u.astype(np.float64)
    if kind == "mean":
        return ndi.uniform_filter(u, size=params["size"][::-1], mode=mode, cval=cval)
    if kind == "gaussian":
        return ndi.gaussian_filter(u, sigma=params["sigma"][::-1], truncate=params.get("truncate", 4.0), mode=mode, cval=cval)
    w = np.array(params["weights"], dtype=np.float64).reshape(params["shape"][::-1])
    return ndi.correlate(u, w, mode=mode, cval=cval)


def xdmf_fields(xmf):
    """step -> the attribute names of that step's grid, each checked to reference its own dataset."""
    out = {}
    for grid in ET.parse(xmf).getroot().iter("Grid"):
        if grid.get("GridType") != "Uniform":
            continue
        step = int(grid.get("Name").split()[-1])
        names = []
        for attribute in grid.iter("Attribute"):
            item = attribute.find("DataItem")
            reference = item.text.strip() if item is not None and item.text else ""
            if not reference.endswith(":/" + attribute.get("Name")):
                fail(f"{xmf}: step {step} attribute {attribute.get('Name')} references {reference!r}")
            names.append(attribute.get("Name"))
        out[step] = names
    return out


def check_series(name, runs, blocks, reference_names, tolerance, plain_dir):
    """runs: ranks -> output directory. The first is the reference for bitwise equality."""
    first = runs[min(runs)]
    files = sorted(glob.glob(os.path.join(first, name + "_*.h5")))
    if len(files) < (2 if name == "heat2d" else 1):  # heat writes a series, Poisson its solution
        fail(f"{first}: {len(files)} output files")
        return
    steps = xdmf_fields(os.path.join(first, name + ".xmf"))
    worst = {}
    for path in files:
        with h5py.File(path, "r") as f:
            step = int(f["Info"].attrs["step"])
            missing = [n for n in blocks if n not in f]
            if missing:
                fail(f"{path}: no dataset {missing}")
                continue
            u = f["u"][()]
            for n, (kind, params, mode, cval) in blocks.items():
                got = f[n][()]
                if got.shape != u.shape or got.dtype != u.dtype:
                    fail(f"{path}: /{n} is {got.shape} {got.dtype}, /u {u.shape} {u.dtype}")
                    continue
                if kind == "whiten":  # frame 0 has no predecessor; the others are rank-independent (below)
                    if path == files[0] and not np.array_equal(got, u):
                        fail(f"{path}: /{n} of the first output is not /u (the first frame has no predecessor)")
                    if path != files[0] and not np.max(np.abs(got)) < np.max(np.abs(u)):
                        fail(f"{path}: /{n} is not smaller than /u: the prediction from earlier frames took nothing away")
                    continue
                want = scipy_filter(u, kind, params, mode, cval)
                rel = np.max(np.abs(got.astype(np.float64) - want)) / max(np.max(np.abs(want)), 1e-300)
                worst[n] = max(worst.get(n, 0.0), rel)
                if rel >= tolerance:
                    fail(f"{path}: /{n} ({kind}, mode {mode}, cval {cval}) differs from scipy.ndimage by {rel:.3e} (relative)")
            if sorted(set(blocks) | set(reference_names)) != sorted(steps.get(step, [])):
                fail(f"{name}.xmf: step {step} lists {steps.get(step)}, expected u and every filter {sorted(blocks)}")
        for ranks, directory in runs.items():
            other = os.path.join(directory, os.path.basename(path))
            if not os.path.exists(other):
                fail(f"{other} is missing ({os.path.basename(path)} was written on {min(runs)} rank(s))")
                continue
            with h5py.File(path, "r") as a, h5py.File(other, "r") as b:
                for n in list(blocks) + ["u"]:
                    if not np.array_equal(a[n][()], b[n][()]) or a[n].dtype != b[n].dtype:
                        fail(f"{other}: /{n} differs from the {min(runs)}-rank run's (bitwise)")
        if plain_dir:
            same_ranks = os.path.join(runs[max(runs)], os.path.basename(path))
            with h5py.File(same_ranks, "r") as a, h5py.File(os.path.join(plain_dir, os.path.basename(path)), "r") as b:
                if not np.array_equal(a["u"][()], b["u"][()]):
                    fail(f"{same_ranks}: /u differs from the run without filters: the filters changed the solver's field")
    print(f"  {name}: {len(files)} files x {len(blocks)} filters on {sorted(runs)} ranks; worst relative difference to scipy "
          f"{max(worst.values()):.2e} ({max(worst, key=worst.get)})")


def filtered_runs(part, deck_text, name, precision, rank_counts, tolerance, overrides):
    dim = 2 if part == "heat" else 3
    text, blocks = filter_blocks(dim)
    if part == "heat":  # whitening: 2D only, the last 3 output frames
        text += '\n[[filters]]\nkind = "whiten"\nfield = "u"\nname = "u_whitened"\nmemory = 3\n'
    deck = os.path.join(SCRATCH, f"{part}_{precision}.toml")
    with open(deck, "w") as f:
        f.write(deck_text + text)
    runs = {}
    for ranks in rank_counts:
        out = os.path.join(SCRATCH, f"{part}_{precision}_np{ranks}")
        p = run(ranks, deck, f"output.dir={out}", f"precision={precision}", *overrides)
        if p.returncode != 0:
            fail(f"{' '.join(command(ranks, deck))}: exit {p.returncode}\n{p.stdout[-3000:]}")
            return
        runs[ranks] = out
    plain = None
    if precision == "double":  # /u without any filter, to show the filters leave it alone
        plain_deck = os.path.join(SCRATCH, f"{part}_plain.toml")
        with open(plain_deck, "w") as f:
            f.write(deck_text.split("\n[[filters]]\n")[0])
        plain = os.path.join(SCRATCH, f"{part}_plain_np{max(rank_counts)}")
        p = run(max(rank_counts), plain_deck, f"output.dir={plain}", *overrides)
        if p.returncode != 0:
            fail(f"the run without filters: exit {p.returncode}\n{p.stdout[-3000:]}")
            return
    # The sample deck's own filters are checked like the generated ones.
    if part == "heat":
        blocks["u_whitened"] = ("whiten", {}, None, 0.0)
        blocks.update({"u_smooth": ("gaussian", {"sigma": [2.0, 1.5]}, "reflect", 0.0),
                       "u_mean": ("mean", {"size": [5, 3]}, "wrap", 0.0),
                       "u_laplacian": ("correlate", {"shape": [3, 3], "weights": [0, 1, 0, 1, -4, 1, 0, 1, 0]}, "nearest", 0.0)})
    check_series(name, runs, blocks, ["u"], tolerance, plain)


def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    ranks = [r for r in (1, 2, 3, 4) if r <= int(MAX_RANKS)]
    if PART == "heat":
        with open(os.path.join(SOURCE, "inputs", "heat2d_filtered.toml")) as f:
            deck = f.read()
        for precision, counts, tolerance in (("double", ranks, 1e-12), ("float", [r for r in (1, 3) if r in ranks], 1e-5)):
            filtered_runs("heat", deck, "heat2d", precision, counts, tolerance, ["device=cpu"])
    elif PART == "poisson":
        with open(os.path.join(SOURCE, "inputs", "poisson3d_small.toml")) as f:
            deck = f.read()
        # Jacobi: its iterate is bitwise the same at every rank count (multigrid's sums are not)
        overrides = ["device=cpu", "solver=jacobi", "grid.n=[12,10,14]", "poisson.tolerance=1e-6"]
        for precision, counts, tolerance in (("double", ranks, 1e-12), ("float", [r for r in (1, 3) if r in ranks], 1e-5)):
            filtered_runs("poisson", deck, "poisson3d", precision, counts, tolerance, overrides)
    elif PART == "errors":
        check_errors()
    else:
        fail(f"unknown part {PART}")
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("OK")


def check_errors():
    deck = os.path.join(SOURCE, "inputs", "heat2d_small.toml")
    ok = ["filters[0].field=u", "filters[0].kind=mean", "filters[0].size=[3,3]"]
    cases = [
        (["filters[0].kind=median", "filters[0].field=u"], "filters[0].kind", "not one of"),
        (["filters[0].kind=whiten", "filters[0].field=u", "filters[0].memory=0"], "filters[0].memory", "out of range"),
        (["filters[0].kind=mean", "filters[0].field=v", "filters[0].size=[3,3]"], "filters[0].field", "not one of"),
        (["filters[0].kind=gaussian", "filters[0].field=u", "filters[0].sigma=[1.0,0]"], "filters[0].sigma", "must be > 0"),
        (["filters[0].kind=gaussian", "filters[0].field=u", "filters[0].sigma=[1.0,3.0]", "grid.n=[20,8]"], "filters[0].sigma",
         "radius larger than an axis"),
        (["filters[0].kind=correlate", "filters[0].field=u", "filters[0].shape=[2,2]", "filters[0].weights=[1,2,3]"],
         "filters[0].weights", "array of 4 numbers"),
        (ok + ["filters[0].mode=periodic"], "filters[0].mode", "not one of"),
        (ok + ["filters[0].cval=1"], "filters[0].cval", "only mode"),
        (ok + ["filters[0].name=u"], "filters[0].name", "field the run writes"),
        (ok + ["filters[1].field=u", "filters[1].kind=gaussian", "filters[1].sigma=[1,1]", "filters[1].name=u_mean"],
         "filters[1].name", "earlier [[filters]] block"),
        (ok + ["filters[0].sigma=[1,1]"], "filters[0].sigma", "unknown key"),
    ]
    for ranks in (1, 2):
        for overrides, key, reason in cases:
            out = os.path.join(SCRATCH, "refused")
            shutil.rmtree(out, ignore_errors=True)
            p = run(ranks, deck, f"output.dir={out}", "device=cpu", *overrides)
            said = p.stdout.strip().splitlines()
            if p.returncode == 0:
                fail(f"{overrides} on {ranks} rank(s) ran (exit 0)")
            elif key not in p.stdout or reason not in p.stdout:
                fail(f"{overrides} on {ranks} rank(s): the message does not name '{key}' with '{reason}':\n{p.stdout[-2000:]}")
            elif sum(key in line for line in said) != 1:
                fail(f"{overrides} on {ranks} rank(s): the error is reported {sum(key in line for line in said)} times, not once")
            if os.path.exists(out) and os.listdir(out):
                fail(f"{overrides}: refused, yet wrote {os.listdir(out)}")
    print(f"  {len(cases)} bad blocks refused on 1 and 2 ranks, key named once, nothing written")


if __name__ == "__main__":
    main()
