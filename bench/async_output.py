#!/usr/bin/python3
"""async_output.py GRIDFLOW FOLDER OUT.json [--n 20480] [--steps 1000] [--every 100] [--device gpu] [--deck D]

Output off the critical path (issue 17), measured with the real executable in one go:
heat 2D float, N^2 points, STEPS steps, on one rank:
  - no_output:   output.enabled = false (steps in the chunks of an output every EVERY steps): the
                 stepping time without output; it also tunes and fills the tuning cache the
                 other runs reuse, so all of them step with the same kernels;
  - async/sync:  an output every EVERY steps written on the background thread or synchronously:
                 what the outputs add to the stepping (the loop's stepping time plus the time the
                 stepping waited for outputs, against no_output's stepping time);
  - final_async/final_sync: the final state only: that write's bandwidth (field bytes / the
                 write's seconds: the background write's time, or the synchronous output phase);
  - dd:          sequential write bandwidth of FOLDER with dd, 64 MiB blocks, the field's size,
                 into the page cache as HDF5 writes (no sync) and with conv=fdatasync.
GRIDFLOW may carry a launcher ("bundle/run bundle/bin/gridflow"). Each run's files are removed
after it (a 20480^2 float series every 100 steps is 18 GB)."""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import time


def dd_bandwidth(folder, size_bytes, sync):
    path = os.path.join(folder, "dd.bin")
    block = 64 << 20
    count = max(1, size_bytes // block)
    args = ["dd", "if=/dev/zero", f"of={path}", f"bs={block}", f"count={count}"] + (["conv=fdatasync"] if sync else [])
    started = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    os.remove(path)
    m = re.search(r"(\d+) bytes .* copied, ([0-9.e+-]+) s", p.stderr)
    if m:
        return {"bytes": int(m.group(1)), "seconds": float(m.group(2)), "gb_per_s": int(m.group(1)) / float(m.group(2)) / 1e9}
    return {"bytes": block * count, "seconds": seconds, "gb_per_s": block * count / seconds / 1e9, "dd": p.stderr.strip()}


def phase(summary, name):
    return summary["phases"].get(name, 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gridflow")
    ap.add_argument("folder")
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=20480)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--device", default="gpu")
    ap.add_argument("--deck", default="inputs/heat2d_large.toml")
    a = ap.parse_args()
    os.makedirs(a.folder, exist_ok=True)
    env = dict(os.environ, GRIDFLOW_TUNING_CACHE=os.path.join(a.folder, "tuning.json"))
    field_bytes = a.n * a.n * 4
    common = [a.deck, f"grid.n=[{a.n - 1},{a.n - 1}]", f"heat.steps={a.steps}", "precision=float",
              f"device={a.device}", f"progress.every={a.steps}"]
    result = {"benchmark": f"heat 2D {a.n}^2 float, {a.steps} steps, output every {a.every} steps: synchronous and "
                           "asynchronous output, stepping without output, the final write against dd",
              "gpu_count": 1, "field_bytes": field_bytes, "folder": os.path.abspath(a.folder), "runs": {}}
    result["dd_page_cache"] = dd_bandwidth(a.folder, field_bytes, sync=False)
    result["dd_fdatasync"] = dd_bandwidth(a.folder, field_bytes, sync=True)
    runs = [("no_output", ["output.enabled=false", f"output.every={a.every}"]),
            ("async", [f"output.every={a.every}", "output.async=true"]),
            ("sync", [f"output.every={a.every}", "output.async=false"]),
            ("final_async", ["output.every=0", "output.async=true"]),
            ("final_sync", ["output.every=0", "output.async=false"])]
    for name, keys in runs:
        out_dir = os.path.join(a.folder, name)
        summary_path = os.path.join(a.folder, name + ".json")
        command = shlex.split(a.gridflow) + common + keys + [f"output.dir={out_dir}", "--summary", summary_path]
        started = time.perf_counter()
        p = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        print(f"== {name}: status {p.returncode}, {wall:.2f} s\n" + "\n".join(p.stdout.splitlines()[-16:]), flush=True)
        if p.returncode != 0:
            print(p.stderr)
            result["runs"][name] = {"status": p.returncode, "stderr": p.stderr[-2000:]}
            continue
        with open(summary_path) as f:
            s = json.load(f)
        files = sorted(x for x in os.listdir(out_dir) if x.endswith(".h5")) if os.path.isdir(out_dir) else []
        shutil.rmtree(out_dir, ignore_errors=True)
        waited = phase(s, "output (stepping waited)")
        background = phase(s, "output writes (background)")
        result["runs"][name] = {
            "command": "gridflow " + " ".join(common + keys),
            "process_seconds": wall, "wall_seconds": s["wall_seconds"], "stepping_seconds": s["stepping_seconds"],
            "output_waited_seconds": waited, "output_background_seconds": background,
            "stepping_plus_waits_seconds": s["stepping_seconds"] + waited, "files": len(files),
            "gcell_per_s": s["cell_updates_per_second"] * 1e-9, "device": s.get("device"), "phases": s["phases"]}
        result["gpu"] = s.get("device")
    r = result["runs"]
    if all(k in r and "stepping_seconds" in r[k] for k in ("no_output", "async", "sync")):
        # The runs time different step counts (no_output's tuning takes steps): no_output's time
        # for a run's timed steps is the run's stepping time scaled by the two rates.
        base_rate = r["no_output"]["gcell_per_s"]
        result["added_to_stepping"] = {}
        for k in ("async", "sync"):
            base = r[k]["stepping_seconds"] * r[k]["gcell_per_s"] / base_rate
            r[k]["no_output_seconds_same_steps"] = base
            result["added_to_stepping"][k] = r[k]["stepping_plus_waits_seconds"] / base - 1
        result["goal_added_at_most"] = 0.05
    for k, seconds_key in (("final_async", "output_background_seconds"), ("final_sync", "output_waited_seconds")):
        if k in r and seconds_key in r[k] and r[k][seconds_key] > 0:
            bw = field_bytes / r[k][seconds_key] / 1e9
            r[k]["final_write_gb_per_s"] = bw
            r[k]["of_dd_page_cache"] = bw / result["dd_page_cache"]["gb_per_s"]
            r[k]["of_dd_fdatasync"] = bw / result["dd_fdatasync"]["gb_per_s"]
    result["goal_final_write_of_dd_at_least"] = 0.8
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=1))


if __name__ == "__main__":
    main()
