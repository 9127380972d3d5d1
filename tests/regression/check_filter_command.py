#!/usr/bin/env python3
"""check_filter_command.py PART GRIDFLOW MPIEXEC DIR [--device cpu|gpu]: `gridflow filter` through the
real executable (--device gpu: the device path, exit status 77 where no GPU is visible).

PART:
  scipy   1D, 2D and 3D float64 data, every built-in (mean, gaussian, correlate with weights from a
          file), every mode, --frames, --method fft and auto, against scipy.ndimage (max relative
          difference < 1e-12);
          float32 kept (and close to scipy), integers in -> float64 out.
  ranks   1, 2 and 3 ranks, and chunks of a few rows (--buffer-mb), give bitwise equal files.
  whiten  a star field moved by known shifts: the shifts written, frame 0 unchanged, the sky removed;
          1 vs 2 ranks and chunks bitwise; float32 kept.
  errors  each bad argument: exit status 2, one message naming it, no output file (an older one kept).
The scipy part also runs in two halves, for a machine without scipy (the GPU machine):
  prepare DIR            inputs and the case list (needs h5py, numpy)
  run GRIDFLOW DIR ...   runs every case (standard library only)
  check DIR              compares with scipy
"""
import json
import os
import subprocess
import sys

TOLERANCE = 1e-12
MODES = [("reflect", 0.0), ("constant", 0.0), ("constant", 0.5), ("nearest", 0.0), ("mirror", 0.0), ("wrap", 0.0)]


def need_numpy():
    try:
        import h5py  # noqa: F401
        import numpy  # noqa: F401
        import scipy.ndimage  # noqa: F401
    except ImportError as e:
        sys.exit("check_filter_command: %s; use Debian's /usr/bin/python3 with python3-h5py and python3-scipy" % e)


# ---- inputs and cases -------------------------------------------------------------------------

def write_inputs(folder):
    import h5py
    import numpy as np
    rng = np.random.default_rng(14)
    with h5py.File(os.path.join(folder, "in.h5"), "w") as f:
        f["d1"] = rng.uniform(-1, 1, 101)
        f["group/d2"] = rng.uniform(-1, 1, (23, 19))
        f["d3"] = rng.uniform(-1, 1, (13, 12, 11))
        f["frames1"] = rng.uniform(-1, 1, (6, 40))
        f["frames2"] = rng.uniform(-1, 1, (5, 17, 14))
        f["single"] = rng.uniform(-1, 1, (31, 29)).astype(np.float32)
        f["int16"] = rng.integers(-500, 500, (21, 18)).astype(np.int16)
        f["uint8"] = rng.integers(0, 255, (40,)).astype(np.uint8)
        f["two_rows"] = rng.uniform(-1, 1, (2, 30))
        f["d4"] = np.zeros((2, 2, 2, 2))
        f["big2"] = rng.uniform(-1, 1, (150, 131))
    with h5py.File(os.path.join(folder, "weights.h5"), "w") as f:
        f["w1"] = rng.uniform(-1, 1, 4)
        f["w2"] = rng.uniform(-1, 1, (3, 4))
        f["w3"] = rng.uniform(-1, 1, (3, 4, 2))
        f["deep/w2"] = rng.uniform(-1, 1, (2, 5))
        f["tall"] = rng.uniform(-1, 1, (6, 3))
        f["w9"] = rng.uniform(-1, 1, (9, 8))


def scipy_cases():
    """(name, dataset, arguments) for the scipy part."""
    data = [("d1", 1, False), ("group/d2", 2, False), ("d3", 3, False), ("frames1", 1, True), ("frames2", 2, True)]
    sizes = {1: "5", 2: "3,4", 3: "3,4,5"}
    sigmas = {1: "1.5", 2: "1.0,0.7", 3: "1.0,0.7,1.3"}
    weights = {1: "w1", 2: "w2", 3: "w3"}
    cases = []
    for dataset, spatial, frames in data:
        extra = ["--frames"] if frames else []
        for mode, cval in MODES:
            m = ["--mode", mode] + (["--cval", str(cval)] if cval else [])
            tag = "%s_%s%s" % (dataset.replace("/", "_"), mode, "_c" if cval else "")
            cases.append(("mean_" + tag, dataset, ["--filter", "mean", "--size", sizes[spatial]] + m + extra))
            cases.append(("gauss_" + tag, dataset, ["--filter", "gaussian", "--sigma", sigmas[spatial]] + m + extra))
            cases.append(("corr_" + tag, dataset, ["--filter", "correlate", "--weights", "weights.h5:/" + weights[spatial]] + m + extra))
        cases.append(("gauss_t3_" + dataset.replace("/", "_"), dataset,
                      ["--filter", "gaussian", "--sigma", "0.8", "--truncate", "3"] + extra))
    cases.append(("mean_scalar_d3", "d3", ["--filter", "mean", "--size", "3", "--mode", "nearest"]))
    cases.append(("corr_deep_d2", "group/d2", ["--filter", "correlate", "--weights", "weights.h5:/deep/w2", "--mode", "mirror"]))
    cases.append(("float32", "single", ["--filter", "gaussian", "--sigma", "1.2,0.9"]))
    cases.append(("int16", "int16", ["--filter", "mean", "--size", "3", "--mode", "constant", "--cval", "7"]))
    cases.append(("uint8", "uint8", ["--filter", "gaussian", "--sigma", "2", "--mode", "wrap"]))
    # The FFT variant (--method fft; auto may choose it): every non-wrap mode, tiles of the default
    # size and larger filters over several of them.
    for mode, cval in MODES[:-1]:
        m = ["--mode", mode] + (["--cval", str(cval)] if cval else [])
        tag = "%s%s" % (mode, "_c" if cval else "")
        cases.append(("fft_gauss1d_" + tag, "d1", ["--filter", "gaussian", "--sigma", "4", "--method", "fft"] + m))
        cases.append(("fft_corr2d_" + tag, "group/d2", ["--filter", "correlate", "--weights", "weights.h5:/w2", "--method", "fft"] + m))
        cases.append(("fft_mean3d_" + tag, "d3", ["--filter", "mean", "--size", "3,4,5", "--method", "fft"] + m))
        cases.append(("fft_big2d_" + tag, "big2", ["--filter", "correlate", "--weights", "weights.h5:/w9", "--method", "fft"] + m))
    cases.append(("fft_frames2", "frames2", ["--filter", "gaussian", "--sigma", "1.5", "--method", "fft", "--frames"]))
    cases.append(("fft_float32", "single", ["--filter", "gaussian", "--sigma", "3", "--method", "fft"]))
    cases.append(("auto_big2d", "big2", ["--filter", "gaussian", "--sigma", "6", "--method", "auto"]))
    cases.append(("auto_wrap", "big2", ["--filter", "gaussian", "--sigma", "6", "--method", "auto", "--mode", "wrap"]))
    return cases


def prepare(folder):
    os.makedirs(folder, exist_ok=True)
    write_inputs(folder)
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump([{"name": n, "dataset": d, "args": a} for n, d, a in scipy_cases()], f, indent=1)


def run_case(gridflow, launch, folder, dataset, args, out, device):
    command = launch + [gridflow, "filter", "in.h5", "--dataset", dataset, "--out", out] + args + ["--device", device]
    p = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout, command


def run_all(gridflow, folder, launch, device):
    with open(os.path.join(folder, "cases.json")) as f:
        cases = json.load(f)
    failures = []
    for c in cases:
        status, output, command = run_case(gridflow, launch, folder, c["dataset"], c["args"], "out_%s.h5" % c["name"], device)
        if status != 0:
            failures.append("%s: exit %d\n%s\n%s" % (c["name"], status, " ".join(command), output))
    print("check_filter_command: ran %d cases on %s" % (len(cases), device))
    if failures:
        sys.exit("\n".join(failures))


def parse_args(args):
    """The command's arguments back as a dict (option -> value, flags -> True)."""
    out, i = {}, 0
    while i < len(args):
        if args[i] == "--frames":
            out["frames"] = True
            i += 1
        else:
            out[args[i][2:]] = args[i + 1]
            i += 2
    return out


def reference(folder, dataset, args):
    import h5py
    import numpy as np
    import scipy.ndimage as ndi
    a = parse_args(args)
    with h5py.File(os.path.join(folder, "in.h5")) as f:
        x = f[dataset][...].astype(np.float64)
    mode, cval = a.get("mode", "reflect"), float(a.get("cval", 0))
    numbers = lambda text, cast: [cast(v) for v in text.split(",")]

    def one(v):
        if a["filter"] == "mean":
            size = numbers(a["size"], int)
            return ndi.uniform_filter(v, size=size if len(size) > 1 else size[0], mode=mode, cval=cval)
        if a["filter"] == "gaussian":
            sigma = numbers(a["sigma"], float)
            return ndi.gaussian_filter(v, sigma=sigma if len(sigma) > 1 else sigma[0], truncate=float(a.get("truncate", 4)),
                                       mode=mode, cval=cval)
        file, path = a["weights"].rsplit(":", 1)
        with h5py.File(os.path.join(folder, file)) as f:
            w = f[path][...]
        return ndi.correlate(v, w, mode=mode, cval=cval)

    if a.get("frames"):
        return x, np.stack([one(v) for v in x])
    return x, one(x)


def check(folder):
    import h5py
    import numpy as np
    with open(os.path.join(folder, "cases.json")) as f:
        cases = json.load(f)
    worst, failures, kinds = 0.0, [], set()
    for c in cases:
        x, want = reference(folder, c["dataset"], c["args"])
        with h5py.File(os.path.join(folder, "out_%s.h5" % c["name"])) as f:
            got = f[c["dataset"]][...]
        with h5py.File(os.path.join(folder, "in.h5")) as f:
            stored = f[c["dataset"]].dtype
        expect_type = np.float32 if stored == np.float32 else np.float64
        if got.dtype != expect_type or got.shape != x.shape:
            failures.append("%s: got %s %s, expected %s %s" % (c["name"], got.dtype, got.shape, np.dtype(expect_type), x.shape))
            continue
        rel = float(np.max(np.abs(got.astype(np.float64) - want)) / np.max(np.abs(want)))
        tolerance = 1e-5 if got.dtype == np.float32 else TOLERANCE
        if got.dtype == np.float64:
            worst = max(worst, rel)
        kinds.add((x.ndim, parse_args(c["args"])["filter"], parse_args(c["args"]).get("mode", "reflect")))
        if not rel < tolerance:
            failures.append("%s: max relative difference %.3g (tolerance %g)" % (c["name"], rel, tolerance))
    print("check_filter_command: %d cases (%d rank x kind x mode), worst relative difference in double %.3g"
          % (len(cases), len(kinds), worst))
    if failures:
        sys.exit("check_filter_command: %d of %d cases differ from scipy.ndimage:\n%s" % (len(failures), len(cases), "\n".join(failures)))


# ---- rank counts ------------------------------------------------------------------------------

RANK_CASES = [
    ("gauss3d_wrap", "d3", ["--filter", "gaussian", "--sigma", "1.0,0.7,1.3", "--mode", "wrap"]),
    ("mean2d_reflect", "group/d2", ["--filter", "mean", "--size", "5,3"]),
    ("corr2d_constant", "group/d2", ["--filter", "correlate", "--weights", "weights.h5:/w2", "--mode", "constant", "--cval", "0.5"]),
    ("corr3d_wrap", "d3", ["--filter", "correlate", "--weights", "weights.h5:/w3", "--mode", "wrap"]),
    ("gauss1d_mirror", "d1", ["--filter", "gaussian", "--sigma", "3", "--mode", "mirror"]),
    ("frames_nearest", "frames2", ["--filter", "gaussian", "--sigma", "1", "--mode", "nearest", "--frames"]),
    ("two_rows", "two_rows", ["--filter", "mean", "--size", "2,3"]),
    ("float32_wrap", "single", ["--filter", "gaussian", "--sigma", "2", "--mode", "wrap"]),
    ("fft_corr2d", "big2", ["--filter", "correlate", "--weights", "weights.h5:/w9", "--method", "fft", "--mode", "mirror"]),
    ("fft_gauss3d", "d3", ["--filter", "gaussian", "--sigma", "1.0,0.7,1.3", "--method", "fft", "--mode", "constant", "--cval", "0.5"]),
]


def ranks(gridflow, mpiexec, folder, device):
    import h5py
    import numpy as np
    os.makedirs(folder, exist_ok=True)
    write_inputs(folder)
    failures = []
    for name, dataset, args in RANK_CASES:
        runs = [("np1", [], []), ("np2", [mpiexec, "-np", "2", "--oversubscribe"], []),
                ("np3", [mpiexec, "-np", "3", "--oversubscribe"], []),
                ("np3_chunks", [mpiexec, "-np", "3", "--oversubscribe"], ["--buffer-mb", "0.0001"]),
                ("np1_chunks", [], ["--buffer-mb", "0.0001"])]
        results = {}
        for tag, launch, extra in runs:
            out = "out_%s_%s.h5" % (name, tag)
            status, output, command = run_case(gridflow, launch, folder, dataset, args + extra, out, device)
            if status != 0:
                failures.append("%s %s: exit %d\n%s\n%s" % (name, tag, status, " ".join(command), output))
                continue
            if "chunks" in tag and " 1 chunk " in output and name != "two_rows":  # 1 row per rank: 1 chunk
                failures.append("%s %s: --buffer-mb did not split the work into chunks:\n%s" % (name, tag, output))
            with h5py.File(os.path.join(folder, out)) as f:
                results[tag] = f[dataset][...]
        for tag, v in results.items():
            if "np1" in results and not (v.dtype == results["np1"].dtype and v.tobytes() == results["np1"].tobytes()):
                failures.append("%s: %s differs from np1 (max %.3g)" % (name, tag, np.max(np.abs(v - results["np1"]))))
    print("check_filter_command: %d cases on 1, 2, 3 ranks and in chunks" % len(RANK_CASES))
    if failures:
        sys.exit("\n".join(failures))


# ---- whitening ------------------------------------------------------------------------------

def star_field(frames=24, ny=64, nx=72, seed=14):
    """Gaussian stars on a smooth sky, frame t the sky moved by o_t (analytic, so exact), noise 1.
    Returns the stack and the true shift of each frame's content against frame 0."""
    import numpy as np
    rng = np.random.default_rng(seed)
    n = 40
    sy, sx, amp = rng.uniform(0, ny, n), rng.uniform(0, nx, n), rng.uniform(40, 400, n)
    offset = rng.uniform(-1, 1, (frames, 2))
    y, x = np.mgrid[0:ny, 0:nx].astype(np.float64)
    stack = np.empty((frames, ny, nx))
    for t in range(frames):
        yy, xx = y - offset[t, 0], x - offset[t, 1]
        v = 100 + 15 * np.sin(2 * np.pi * yy / (1.3 * ny)) * np.cos(2 * np.pi * xx / (1.7 * nx)) + 0.05 * xx
        for k in range(n):
            v = v + amp[k] * np.exp(-((yy - sy[k]) ** 2 + (xx - sx[k]) ** 2) / (2 * 1.5 ** 2))
        stack[t] = v + rng.normal(0, 1, (ny, nx))
    return stack, offset - offset[0]


def whiten(gridflow, mpiexec, folder, device):
    import h5py
    import numpy as np
    os.makedirs(folder, exist_ok=True)
    stack, truth = star_field()
    with h5py.File(os.path.join(folder, "stack.h5"), "w") as f:
        f["sky/frames"] = stack
        f["frames32"] = stack.astype(np.float32)
    failures = []
    runs = [("np1", [], "sky/frames", []), ("np2", [mpiexec, "-np", "2", "--oversubscribe"], "sky/frames", []),
            ("chunks", [], "sky/frames", ["--buffer-mb", "0.1"]), ("float32", [], "frames32", [])]
    results = {}
    for tag, launch, dataset, extra in runs:
        out = "whiten_%s.h5" % tag
        command = launch + [gridflow, "filter", "stack.h5", "--dataset", dataset, "--out", out, "--filter", "whiten",
                            "--memory", "4", "--device", device] + extra
        p = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            failures.append("%s: exit %d\n%s\n%s" % (tag, p.returncode, " ".join(command), p.stdout))
            continue
        if tag == "chunks" and " 1 chunk " in p.stdout:
            failures.append("chunks: --buffer-mb did not split the stack:\n" + p.stdout)
        with h5py.File(os.path.join(folder, out)) as f:
            results[tag] = (f[dataset][...], f["shifts"][...])
    if "np1" in results:
        out, shifts = results["np1"]
        if out.dtype != np.float64 or out.shape != stack.shape or shifts.shape != (stack.shape[0], 2):
            failures.append("np1: output %s %s, shifts %s" % (out.dtype, out.shape, shifts.shape))
        else:
            if out[0].tobytes() != stack[0].tobytes():
                failures.append("frame 0 is not written unchanged")
            error = np.max(np.abs(shifts - truth))
            if not error < 0.05:
                failures.append("shifts differ from the true ones by up to %.3f px (want < 0.05)" % error)
            inner = (slice(None), slice(4, -4), slice(4, -4))
            before, after = np.std(stack[1:][inner]), np.std(out[1:][inner])
            if not after < 3.0:  # the noise is 1; the stars and the sky are ~50
                failures.append("whitened frames keep a standard deviation of %.3g (input %.3g)" % (after, before))
            print("check_filter_command: whiten shifts within %.4f px of the truth, std %.3g -> %.3g" % (error, before, after))
        for tag in ("np2", "chunks"):
            if tag not in results:
                continue
            if device == "gpu":  # the CUDA variant sums with atomics: equal to rounding, not bitwise
                same = all(np.max(np.abs(a - b)) <= 1e-10 * np.max(np.abs(b)) for a, b in zip(results[tag], results["np1"]))
            else:
                same = all(a.tobytes() == b.tobytes() for a, b in zip(results[tag], results["np1"]))
            if not same:
                failures.append("%s: differs from np1" % tag)
    if "float32" in results:
        out32, shifts32 = results["float32"]
        if out32.dtype != np.float32 or np.max(np.abs(shifts32 - truth)) >= 0.05:
            failures.append("float32: output %s, shifts off by %.3f px" % (out32.dtype, np.max(np.abs(shifts32 - truth))))
    if failures:
        sys.exit("\n".join(failures))


# ---- bad arguments ----------------------------------------------------------------------------

ERROR_CASES = [
    # (name, input, dataset, arguments, ranks, message)
    ("missing_dataset", "in.h5", "nope", ["--filter", "mean", "--size", "3"], 1, "dataset 'nope' in 'in.h5': no such dataset"),
    ("missing_input", "absent.h5", "d1", ["--filter", "mean", "--size", "3"], 1, "input file 'absent.h5': no such file"),
    ("not_hdf5", "cases.txt", "d1", ["--filter", "mean", "--size", "3"], 1, "not an HDF5 file"),
    ("wrong_rank", "in.h5", "d4", ["--filter", "mean", "--size", "3"], 1, "rank 4"),
    ("frames_of_1d", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--frames"], 1, "rank 1 with --frames"),
    ("whiten_rank", "in.h5", "group/d2", ["--filter", "whiten"], 1, "whiten takes a stack of 2D frames"),
    ("radius", "in.h5", "two_rows", ["--filter", "mean", "--size", "7"], 1, "radius 3 along spatial axis 0 is larger than the axis (extent 2)"),
    ("radius_gauss", "in.h5", "two_rows", ["--filter", "gaussian", "--sigma", "1,1"], 1, "--sigma 1,1: radius 4"),
    ("radius_weights", "in.h5", "two_rows", ["--filter", "correlate", "--weights", "weights.h5:/tall"], 1,
     "--weights 'weights.h5:/tall': radius 3"),
    ("sigma_zero", "in.h5", "d1", ["--filter", "gaussian", "--sigma", "0"], 1, "--sigma 0: gaussian sigma must be > 0"),
    ("sigma_negative", "in.h5", "group/d2", ["--filter", "gaussian", "--sigma", "1,-2"], 2, "--sigma 1,-2: gaussian sigma must be > 0"),
    ("sigma_count", "in.h5", "d3", ["--filter", "gaussian", "--sigma", "1,2"], 1, "--sigma: 2 values for data of 3 spatial axes"),
    ("sigma_for_mean", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--sigma", "1"], 1, "--sigma: applies to --filter gaussian only"),
    ("size_missing", "in.h5", "d1", ["--filter", "mean"], 1, "--size: required by --filter mean"),
    ("size_zero", "in.h5", "d1", ["--filter", "mean", "--size", "0"], 1, "--size 0: mean size must be >= 1"),
    ("memory_zero", "in.h5", "frames2", ["--filter", "whiten", "--memory", "0"], 1, "--memory 0: must be >= 1"),
    ("memory_negative", "in.h5", "frames2", ["--filter", "whiten", "--memory", "-2"], 2, "--memory -2: must be >= 1"),
    ("whiten_mode", "in.h5", "frames2", ["--filter", "whiten", "--mode", "wrap"], 1, "--mode: whiten has no boundary mode"),
    ("unknown_mode", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--mode", "periodic"], 1, "--mode 'periodic': unknown mode"),
    ("unknown_kind", "in.h5", "d1", ["--filter", "median"], 1, "--filter 'median': unknown kind"),
    ("weights_missing_file", "in.h5", "d1", ["--filter", "correlate", "--weights", "none.h5:/w1"], 1,
     "--weights 'none.h5:/w1': input file 'none.h5': no such file"),
    ("weights_no_path", "in.h5", "d1", ["--filter", "correlate", "--weights", "weights.h5"], 1, "expected FILE.h5:/dataset"),
    ("weights_rank", "in.h5", "d1", ["--filter", "correlate", "--weights", "weights.h5:/w2"], 1, "weights of rank 2 for data of 1 spatial axes"),
    ("unknown_device", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--device", "tpu"], 1, "--device 'tpu': one of cpu, gpu, auto"),
    ("gpu_missing", "in.h5", "d1", ["--filter", "mean", "--size", "3", "device=gpu"], 2, "--device 'gpu': "),
    ("unknown_setting", "in.h5", "d1", ["--filter", "mean", "--size", "3", "colour=red"], 1, "'colour=red': unknown argument"),
    ("out_folder", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--out", "no/such/out.h5"], 1, "folder 'no/such' does not exist"),
    ("out_is_input", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--out", "./in.h5"], 2, "is an input file of this command"),
    ("out_is_weights", "in.h5", "d1", ["--filter", "correlate", "--weights", "weights.h5:/w1", "--out", "weights.h5"], 1,
     "is an input file of this command"),
    ("out_name_too_long", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--out", "o" * 300 + ".h5"], 2, "file name too long"),
    ("method_unknown", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--method", "fast"], 1, "--method 'fast': one of direct, fft, auto"),
    ("method_fft_wrap", "in.h5", "group/d2", ["--filter", "mean", "--size", "3", "--method", "fft", "--mode", "wrap"], 2,
     "--method fft: does not take --mode wrap"),
    ("method_whiten", "in.h5", "frames2", ["--filter", "whiten", "--method", "fft"], 1, "--method: whiten has one method"),
    ("tune_unknown", "in.h5", "d1", ["--filter", "mean", "--size", "3", "--tune", "always"], 1, "--tune 'always': one of online, cached, off"),
]


def gpu_visible():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
        return p.returncode == 0 and "GPU" in p.stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


def errors(gridflow, mpiexec, folder, device):
    global ERROR_CASES
    if device == "gpu" or gpu_visible():  # asking for a GPU that is there is no error
        ERROR_CASES = [c for c in ERROR_CASES if c[0] != "gpu_missing"]
    os.makedirs(folder, exist_ok=True)
    write_inputs(folder)
    with open(os.path.join(folder, "cases.txt"), "w") as f:
        f.write("not HDF5\n")
    failures = []
    for name, infile, dataset, args, nranks, message in ERROR_CASES:
        out = "out_%s.h5" % name
        with open(os.path.join(folder, out), "w") as f:
            f.write("an older result\n")  # must survive the failed run
        launch = [mpiexec, "-np", str(nranks), "--oversubscribe"] if nranks > 1 else []
        command = launch + [gridflow, "filter", infile, "--dataset", dataset] + (["--out", out] if "--out" not in args else []) + args
        if "--device" not in args and "=" not in "".join(args):
            command += ["--device", device]
        p = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        problems = []
        if p.returncode != 2:
            problems.append("exit status %d, expected 2" % p.returncode)
        if message not in p.stdout:
            problems.append("message should contain %r" % message)
        if p.stdout.count("error:") != 1 or "[rank" in p.stdout:
            problems.append("expected one error line from rank 0, no abort")
        with open(os.path.join(folder, out)) as f:
            if f.read() != "an older result\n":
                problems.append("the existing output file was changed")
        if any(e.endswith(".partial") for e in os.listdir(folder)):
            problems.append("a temporary file was left")
        if problems:
            failures.append("%s: %s\n%s\n%s" % (name, "; ".join(problems), " ".join(command), p.stdout))
    print("check_filter_command: %d bad-argument cases" % len(ERROR_CASES))
    if failures:
        sys.exit("\n".join(failures))


def main():
    argv = sys.argv[1:]
    device = "cpu"
    if "--device" in argv:
        i = argv.index("--device")
        device = argv[i + 1]
        del argv[i:i + 2]
    part = argv[0]
    if part == "prepare":
        need_numpy()
        return prepare(argv[1])
    if part == "run":
        return run_all(argv[1], argv[2], [], device)
    if part == "check":
        need_numpy()
        return check(argv[1])
    gridflow, mpiexec, folder = argv[1], argv[2], argv[3]
    need_numpy()
    if device == "gpu" and not gpu_visible():
        print("check_filter_command: no GPU visible; skipped")
        sys.exit(77)
    if part == "scipy":
        prepare(folder)
        run_all(gridflow, folder, [], device)
        check(folder)
    elif part == "ranks":
        ranks(gridflow, mpiexec, folder, device)
    elif part == "whiten":
        whiten(gridflow, mpiexec, folder, device)
    elif part == "errors":
        errors(gridflow, mpiexec, folder, device)
    else:
        sys.exit("check_filter_command: unknown part " + part)


if __name__ == "__main__":
    main()
