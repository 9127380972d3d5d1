#!/usr/bin/env bash
# bench/spectral_poisson.sh GRIDFLOW OUT [REPEATS]: the spectral Poisson solve of 513^3 points in
# double on one GPU (issue 13's case: inputs/poisson3d_small.toml's manufactured problem, a direct
# solve), REPEATS separate runs (default 5), each writing OUT/run_<i>.json (gridflow --summary);
# OUT/spectral_poisson.json gets the median run's solve time, its phases and their shares, and the
# spread over the runs. The same for float beside it (2 runs; tolerance 1e-2: a float direct
# solve of this size leaves a relative residual near 4e-3).
set -uo pipefail
gridflow=$1 out=$2 repeats=${3:-5}
mkdir -p "$out"
args=(inputs/poisson3d_small.toml device=gpu output.enabled=false poisson.tolerance=1e-8 solver=spectral "grid.n=[512,512,512]")
for i in $(seq 1 "$repeats"); do
  mpirun -np 1 "$gridflow" "${args[@]}" precision=double --summary "$out/run_$i.json" > "$out/run_$i.log" 2>&1 || echo "run $i failed"
done
for i in 1 2; do
  mpirun -np 1 "$gridflow" "${args[@]}" precision=float poisson.tolerance=1e-2 --summary "$out/float_$i.json" > "$out/float_$i.log" 2>&1 || echo "float run $i failed"
done
python3 - "$out" "mpirun -np 1 $(basename "$gridflow") ${args[*]} precision=double --summary OUT.json" <<'PY'
import glob, json, os, re, sys
out, command = sys.argv[1], sys.argv[2]

def residual(log):
    m = re.search(r"relative residual ([0-9.eE+-]+)", open(log).read())
    return float(m.group(1)) if m else None

def summary(pattern):
    runs = []
    for p in sorted(glob.glob(os.path.join(out, pattern))):
        s = json.load(open(p))
        s["relative_residual"] = residual(p[:-len(".json")] + ".log")
        runs.append(s)
    runs.sort(key=lambda s: s["phases"]["solve"])
    if not runs:
        return None, []
    return runs[len(runs) // 2], [s["phases"]["solve"] for s in runs]

def figures(median, times):
    phases = {k[len("solve."):]: v for k, v in median["phases"].items() if k.startswith("solve.")}
    total = median["phases"]["solve"]
    return {"solve_seconds": total, "runs": len(times), "solve_seconds_min": min(times), "solve_seconds_max": max(times),
            "relative_residual": median["relative_residual"],
            "phases_seconds": phases, "phase_share": {k: v / total for k, v in phases.items()}}

double, dt = summary("run_*.json")
single, st = summary("float_*.json")
if double is None:
    sys.exit("spectral_poisson.sh: no run finished")
result = {"benchmark": "spectral Poisson 513^3, one GPU, direct solve (median of separate runs)",
          "gpu": double["device"], "gpu_count": 1, "commit": double["commit"], "command": command,
          "goal": "double: at most 8 ms on one H200 (issue 13)", "double": figures(double, dt)}
if single is not None:
    result["float"] = figures(single, st)
json.dump(result, open(os.path.join(out, "spectral_poisson.json"), "w"), indent=1)
d = result["double"]
print(f"spectral 513^3 double: median {1e3 * d['solve_seconds']:.3f} ms of {len(dt)} runs "
      f"({1e3 * min(dt):.3f}..{1e3 * max(dt):.3f}); " +
      ", ".join(f"{k} {1e3 * v:.3f} ms ({100 * d['phase_share'][k]:.0f}%)" for k, v in d["phases_seconds"].items()))
if single is not None:
    print(f"spectral 513^3 float: median {1e3 * result['float']['solve_seconds']:.3f} ms")
PY
