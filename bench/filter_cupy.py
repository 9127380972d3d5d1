#!/usr/bin/env python3
"""cupyx.scipy.ndimage on bench/filter_bench's cases: the same shapes, precisions, filters and
modes on the same GPU, with the copy bandwidth measured in the same run, so both JSON files give
comparable fractions of the copy roof (bench/filter_report.py prints them side by side).

    python3 bench/filter_cupy.py [--cases a,b,...] [--repeats 7] [--calls 20] [--json FILE]
"""
import argparse
import json
import subprocess
import sys

import cupy as cp
import cupyx.scipy.ndimage as ndi

CASES = ["mean1d", "correlate1d", "gaussian2d_s1", "gaussian2d_s4", "mean3d_s5", "mean3d_s3", "gaussian2d_s8",
         "correlate2d_17", "correlate3d_9"]


def bench_weights(shape):
    """filter_bench's full weights: 1 + cos(0.37 i)/2 normalised, x fastest (numpy's last axis)."""
    count = 1
    for n in shape:
        count *= n
    i = cp.arange(count, dtype=cp.float64)
    w = 1.0 + 0.5 * cp.cos(0.37 * i)
    return (w / w.sum()).reshape(shape)


def time_median(run, repeats, calls=1):
    """Median seconds per call of `repeats` CUDA-event timings of `calls` back-to-back calls of
    run(), after one untimed warm-up (as filter_bench --calls)."""
    run()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeats):
        start.record()
        for _ in range(calls):
            run()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3 / calls)
    times.sort()
    return times[len(times) // 2]


def copy_bandwidth(repeats, calls):
    """Bytes per second of a device-to-device copy of 2 GiB, read plus write (as filter_bench)."""
    n = 2 << 30
    a = cp.ones(n, dtype=cp.uint8)
    b = cp.empty_like(a)
    s = time_median(lambda: cp.copyto(b, a), repeats, calls)
    del a, b
    return 2.0 * n / s


def case(name):
    """(spec, input array, the call on it writing into `out`) for one case."""
    cp.random.seed(1)

    def uniform(shape, dtype):  # in [-1, 1), made in place
        x = cp.random.random_sample(shape, dtype=dtype)
        x *= 2
        x -= 1
        return x

    if name in ("mean1d", "correlate1d"):
        x = uniform(10**7, cp.float64)
        if name == "mean1d":
            spec = {"shape": [10**7], "filter": "mean", "size": 5, "mode": "constant",
                    "call": "uniform_filter1d(x, 5, mode='constant')"}
            return spec, x, lambda out: ndi.uniform_filter1d(x, 5, mode="constant", output=out)
        w = cp.array([0.05, 0.25, 0.4, 0.25, 0.05])
        spec = {"shape": [10**7], "filter": "correlate", "weights": w.get().tolist(), "mode": "reflect",
                "call": "correlate1d(x, w, mode='reflect')"}
        return spec, x, lambda out: ndi.correlate1d(x, w, mode="reflect", output=out)
    if name in ("gaussian2d_s1", "gaussian2d_s4"):
        sigma = 1.0 if name == "gaussian2d_s1" else 4.0
        x = uniform((8192, 8192), cp.float32)
        spec = {"shape": [8192, 8192], "filter": "gaussian", "sigma": sigma, "truncate": 4.0, "mode": "reflect",
                "call": "gaussian_filter(x, %g, mode='reflect', truncate=4.0)" % sigma}
        return spec, x, lambda out: ndi.gaussian_filter(x, sigma, mode="reflect", truncate=4.0, output=out)
    if name in ("mean3d_s5", "mean3d_s3"):
        size = 5 if name == "mean3d_s5" else 3
        x = uniform((512, 512, 512), cp.float32)
        spec = {"shape": [512, 512, 512], "filter": "mean", "size": size, "mode": "reflect",
                "call": "uniform_filter(x, %d, mode='reflect')" % size}
        return spec, x, lambda out: ndi.uniform_filter(x, size, mode="reflect", output=out)
    if name == "gaussian2d_s8":
        x = uniform((8192, 8192), cp.float32)
        spec = {"shape": [8192, 8192], "filter": "gaussian", "sigma": 8.0, "truncate": 4.0, "mode": "reflect",
                "call": "gaussian_filter(x, 8, mode='reflect', truncate=4.0)"}
        return spec, x, lambda out: ndi.gaussian_filter(x, 8.0, mode="reflect", truncate=4.0, output=out)
    if name == "correlate2d_17":
        x = uniform((4096, 4096), cp.float32)
        w = bench_weights((17, 17)).astype(cp.float32)
        spec = {"shape": [4096, 4096], "filter": "correlate", "weights_shape": [17, 17], "mode": "nearest",
                "call": "correlate(x, w17x17, mode='nearest')"}
        return spec, x, lambda out: ndi.correlate(x, w, mode="nearest", output=out)
    if name == "correlate3d_9":
        x = uniform((256, 256, 256), cp.float32)
        w = bench_weights((9, 9, 9)).astype(cp.float32)
        spec = {"shape": [256, 256, 256], "filter": "correlate", "weights_shape": [9, 9, 9], "mode": "reflect",
                "call": "correlate(x, w9x9x9, mode='reflect')"}
        return spec, x, lambda out: ndi.correlate(x, w, mode="reflect", output=out)
    raise SystemExit("filter_cupy: unknown case " + name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20, help="back-to-back calls per timing (as filter_bench)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()

    props = cp.cuda.runtime.getDeviceProperties(0)
    gpu = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    roof = copy_bandwidth(args.repeats, args.calls)
    print("%s: device copy %.0f GB/s (2 GiB, read + write), CuPy %s" % (gpu, roof * 1e-9, cp.__version__))
    results = []
    for name in args.cases.split(","):
        spec, x, call = case(name)
        out = cp.empty_like(x)
        seconds = time_median(lambda: call(out), args.repeats, args.calls)
        moved = 2.0 * x.nbytes
        r = dict(name=name, precision=str(x.dtype), points=int(x.size), bytes_moved=moved, seconds=seconds,
                 effective_GBps=moved / seconds * 1e-9, fraction_of_copy=moved / seconds / roof, **spec)
        results.append(r)
        print("%-14s cupy     %9.1f us %7.0f GB/s %5.1f%% of copy  %s" % (
            name, seconds * 1e6, r["effective_GBps"], 100 * r["fraction_of_copy"], spec["call"]))
        del x, out
        cp.get_default_memory_pool().free_all_blocks()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    result = {"benchmark": "filter_cupy", "gpu": gpu, "gpu_count": 1, "cupy_version": cp.__version__,
              "commit": commit, "command": " ".join(sys.argv), "copy_bandwidth_GBps": roof * 1e-9, "calls_per_timing": args.calls, "cases": results}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
