#!/usr/bin/python3
"""Checks that a tuned multi-rank heat2d run reports its ghost width one way everywhere.

usage: check_ghost_width_report.py RUN_DIR NAME

RUN_DIR holds the output files (NAME_*.h5), summary.json (--summary) and stdout.txt (what rank 0
printed). The run must have tuned its ghost width (halo.width unset, tuning on, several ranks).

- /Input halo.width, and halo.width.requested in /Info, the summary, the set-up line and the final
  line, are one value;
- halo.width.chosen, .ran, .allocated and halo.exchanges are the same in the last file's /Info,
  the summary and the final line; chosen is what the tuner's own report (/Info
  autotune.chosen.ghost_width) chose, one of the candidates the set-up line lists, and allocated
  is the widest of them;
- ran is the width the exchanges used: the run's steps after the tuning took as many exchanges as
  steps of that width need (up to one more per stretch the run loop advanced in: outputs,
  progress lines), which another width would not;
- a file written before the tuning ended (step 0) knows only requested and allocated; every
  later one names the same chosen and ran.
"""
import glob
import json
import math
import os
import re
import sys

import h5py

WIDTH_KEYS = ["halo.width.requested", "halo.width.chosen", "halo.width.ran", "halo.exchanges",
              "halo.width.allocated"]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def printed(line):
    """{'halo.width.requested': 1, ...} from a printed 'name = value, name = value' line."""
    return {k: int(v) for k, v in re.findall(r"(halo\.[a-z.]+) = (\d+)", line)}


def main():
    directory, name = sys.argv[1], sys.argv[2]
    with open(os.path.join(directory, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(directory, "stdout.txt")) as f:
        lines = f.read().splitlines()
    setup = [l for l in lines if l.startswith("  halo.width.requested")]
    final = [l for l in lines if l.startswith("halo.width.requested")]
    if len(setup) != 1 or len(final) != 1:
        fail(f"expected one set-up and one final ghost-width line, got {setup} and {final}")
    setup_values, final_values = printed(setup[0]), printed(final[0])
    match = re.search(r"the tuner chooses among ([\d, ]+)\)", setup[0])
    if not match:
        fail(f"the set-up line does not list the tuner's candidates (is the width tuned?): {setup[0]}")
    candidates = [int(w) for w in match.group(1).split(",")]

    files = sorted(glob.glob(os.path.join(directory, name + "_*.h5")))
    if len(files) < 3:
        fail(f"expected step 0, outputs during the run and the final step, found {files}")
    infos = []
    for path in files:
        with h5py.File(path, "r") as f:
            infos.append((path, {k: v for k, v in f["Info"].attrs.items()}, dict(f["Input"].attrs)))
    last_path, last_info, last_input = infos[-1]

    # What the deck asked for, everywhere.
    requested = int(last_input["halo.width"])
    for where, value in [("summary", summary.get("halo.width.requested")), ("set-up line", setup_values.get("halo.width.requested")),
                         ("final line", final_values.get("halo.width.requested"))] + \
                        [(p, info.get("halo.width.requested")) for p, info, _ in infos]:
        if value is None or int(value) != requested:
            fail(f"/Input halo.width = {requested} but {where} says halo.width.requested = {value}")

    # The run's report: the last file, the summary and the final line agree on every name.
    for key in WIDTH_KEYS:
        values = {"last file": last_info.get(key), "summary": summary.get(key), "final line": final_values.get(key)}
        if any(v is None for v in values.values()) or len({int(v) for v in values.values()}) != 1:
            fail(f"{key} differs between the reports: {values}")
    chosen, ran = int(summary["halo.width.chosen"]), int(summary["halo.width.ran"])
    allocated, exchanges = int(summary["halo.width.allocated"]), int(summary["halo.exchanges"])
    if setup_values.get("halo.width.allocated") != allocated:
        fail(f"the set-up line allocates {setup_values.get('halo.width.allocated')}, the reports say {allocated}")

    # chosen is the tuner's choice, among its candidates; the fields hold the widest.
    if "autotune.chosen.ghost_width" not in last_info or int(last_info["autotune.from_cache"]) != 0:
        fail("the ghost width was not measured by the tuner in this run: the test would prove nothing")
    if int(last_info["autotune.chosen.ghost_width"]) != chosen:
        fail(f"the tuner chose ghost_width = {last_info['autotune.chosen.ghost_width']}, the reports say {chosen}")
    if chosen not in candidates or allocated != max(candidates):
        fail(f"chosen {chosen} / allocated {allocated} against the candidates {candidates}")

    # ran is the width the exchanges after the tuning used: every exchange serves at most `ran`
    # steps, and only the stretches the run loop advances in can end a cycle early.
    after_tuning = int(summary["steps"]) - int(summary["tuning_steps"])
    deck = last_input
    stretches = 2 + after_tuning // int(deck["output.every"]) + after_tuning // int(deck["progress.every"])
    least = math.ceil(after_tuning / ran)
    if after_tuning <= 0 or not least <= exchanges <= least + stretches:
        fail(f"{exchanges} exchanges for the {after_tuning} steps after the tuning: not what width {ran} takes "
             f"({least} to {least + stretches})")
    if ran != chosen:
        fail(f"the run settled on width {chosen} but its exchanges used {ran}")

    # Files written as the run went: before the tuning ended only what the plan knows.
    for path, info, _ in infos:
        tuned = "halo.width.chosen" in info
        if int(info["step"]) == 0 and tuned:
            fail(f"{path}: written before the tuning, but names a chosen width")
        if int(info["step"]) > 0 and (not tuned or int(info["halo.width.chosen"]) != chosen
                                      or int(info["halo.width.ran"]) != ran):
            fail(f"{path}: chosen/ran {info.get('halo.width.chosen')}/{info.get('halo.width.ran')}, the run's {chosen}/{ran}")
        if int(info["halo.width.allocated"]) != allocated:
            fail(f"{path}: halo.width.allocated = {info['halo.width.allocated']}, not {allocated}")

    print(f"ok: requested {requested}, chosen {chosen} of {candidates}, ran {ran} ({exchanges} exchanges for "
          f"{after_tuning} steps), allocated {allocated}, in {len(files)} files, the summary and the printed lines")


if __name__ == "__main__":
    main()
