"""info: what a run holds: steps and times, fields, /Info attributes, run figures."""
import json

import numpy as np

from .. import common

NAME = "info"
HELP = "steps, times, fields, attributes and run figures (residual history) of a run"
DESCRIPTION = """Prints the output steps with their times, the fields and other datasets of the files, the
/Info attributes of the last step, the deck's problem and grid, and the run's figures when it
has them (the Poisson solver's iterations, final residual and residual history)."""


def add_arguments(p):
    common.add_run_argument(p)
    p.add_argument("--all-steps", action="store_true",
                   help="list every step (default: the first and last 5 of long runs)")
    p.add_argument("--json", action="store_true", help="print everything as one JSON object instead")


def summary(run):
    """Everything info reports, as plain JSON-able values."""
    last = run.steps[-1]
    grid = run.grid()
    datasets = run.datasets()
    fields = run.fields()
    out = {
        "source": run.source,
        "name": run.name,
        "index": run.xmf,
        "steps": [{"step": s.step, "time": s.time, "file": s.path} for s in run.steps],
        "grid": {"points": list(grid.points), "spacing": list(grid.spacing), "origin": list(grid.origin)},
        "fields": {n: {"shape": list(datasets[n][0]), "dtype": str(datasets[n][1])} for n in fields},
        "other_datasets": {n: {"shape": list(s), "dtype": str(d)} for n, (s, d) in sorted(datasets.items())
                           if n not in fields},
        "info": {k: _jsonable(v) for k, v in run.info().items()},
        "last_step_file": last.path,
    }
    history = run.residual_history()
    if history is not None:
        out["residual_history"] = {
            "source": history.source,
            "entries": len(history.relative_residual),
            "iterations": _jsonable(history.iteration[-1]),
            "first": _jsonable(history.relative_residual[0]),
            "final": _jsonable(history.relative_residual[-1]),
            "mean_reduction_per_iteration": history.mean_reduction(),
        }
    return out


def _jsonable(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    return v


def run(args):
    r = common.open_run(args)
    s = summary(r)
    if args.json:
        print(json.dumps(s, indent=2))
        return 0
    info = s["info"]
    steps = s["steps"]
    print(f"run        {r.xmf or r.source}  ({r.name}, {len(steps)} output step{'s' * (len(steps) != 1)})")
    what = [f"{k} {info[k]}" for k in ("problem", "precision", "solver", "device", "ranks") if k in info]
    if "decomposition" in info:
        what.append("decomposition " + " x ".join(str(d) for d in np.atleast_1d(info["decomposition"])))
    if what:
        print("           " + ", ".join(what))
    print(f"grid       {r.grid().describe()}")
    first, last = steps[0], steps[-1]
    print(f"steps      {first['step']} .. {last['step']}, t = {first['time']:.9g} .. {last['time']:.9g}")
    shown = steps if args.all_steps or len(steps) <= 12 else steps[:5] + [None] + steps[-5:]
    print("           step          time  file")
    for st in shown:
        if st is None:
            print(f"           ... {len(steps) - 10} more (--all-steps lists them)")
        else:
            print(f"           {st['step']:>8}  {st['time']:>12.6g}  {st['file']}")
    def listed(datasets):
        return ", ".join(f"{n} {tuple(v['shape'])} {v['dtype']}" for n, v in datasets.items())
    print("fields     " + (listed(s["fields"]) or "none"))
    if s["other_datasets"]:
        print("datasets   " + listed(s["other_datasets"]))
    print(f"/Info      of {s['last_step_file']}")
    for k, v in info.items():
        if k.startswith("residual_history_"):
            v = f"[{len(v)} values]"
        print(f"           {k} = {v}")
    if "residual_history" in s:
        h = s["residual_history"]
        rate = h["mean_reduction_per_iteration"]
        print(f"residual   {h['entries']} entries ({h['source']}): relative residual {h['first']:.3e} -> "
              f"{h['final']:.3e} in {h['iterations']:g} iterations"
              + (f", {rate:.3g} per iteration on average" if rate is not None else ""))
    return 0
