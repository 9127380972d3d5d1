"""One fuzz case run to its end (or its timeout), and what passing means (issue 16): no crash, no
hang, no non-zero exit without a message, no exit 0 with a non-finite or negative figure, no
output for a rejected deck."""

import hashlib
import json
import math
import os
import re
import resource
import signal
import subprocess
import time

# Raw dumps that are never the message a user should get.
DUMPS = ["HDF5-DIAG", "terminate called", "Segmentation", "MPI_ABORT", "core dumped", "Aborted", "double free",
         "free(): ", "malloc(): ", "stack smashing", "AddressSanitizer", "Floating point exception",
         "exited on signal", "Bus error", "Illegal instruction"]
# Exit statuses: 0 done, 1 failure during the run, 2 bad input, 75 stopped early with a checkpoint.
STOPPED = 75
BAD_INPUT = 2
# A figure that is not one: nan, -nan, inf, -inf as a word of the printed lines.
NOT_FINITE_WORD = re.compile(r"(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)
NEGATIVE_FIGURE = re.compile(r"(?<![\w.\-^*/e])-\d")
OUTPUT_SUFFIXES = (".h5", ".xmf", ".csv", ".json", ".partial")

class Outcome:
    def __init__(self, status, output, seconds, timed_out):
        self.status, self.output, self.seconds, self.timed_out = status, output, seconds, timed_out


def _limit_memory():
    # A huge grid must fail in allocation, not push the shared machine into swap or the OOM killer.
    limit = int(os.environ.get("GRIDFLOW_FUZZ_MEMORY_MB", "4096")) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(argv, cwd, env, timeout):
    """Runs argv in its own process group; on timeout the whole group is killed."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_limit_memory)
    try:
        out, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        timed_out = True
    return Outcome(proc.returncode, out.decode("utf-8", "replace"), time.monotonic() - start, timed_out)


def output_files(folder, exclude=()):
    found = []
    for root, dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            if os.path.relpath(path, folder) in exclude:
                continue
            if name.endswith(OUTPUT_SUFFIXES) or ".h5" in name:
                found.append(os.path.relpath(path, folder))
    return sorted(found)


def summary_problems(path):
    """Every number in the --summary JSON finite, and none negative (counts, seconds, rates)."""
    def refuse(token):
        raise ValueError("the JSON holds %s" % token)
    try:
        with open(path) as f:
            summary = json.load(f, parse_constant=refuse)
    except (OSError, ValueError) as e:
        return ["--summary %s unreadable: %s" % (path, e)]
    problems = []

    def walk(value, where):
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            if not math.isfinite(value):
                problems.append("summary %s = %r is not finite" % (where, value))
            elif value < 0:
                problems.append("summary %s = %r is negative" % (where, value))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, where + "." + k if where else k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, "%s[%d]" % (where, i))
    walk(summary, "")
    for key in ("steps", "wall_seconds", "ranks"):
        if key not in summary:
            problems.append("summary lacks %s" % key)
    return problems


def printed_figure_problems(output):
    """Lines that report figures (done:, converged:, step k/n) with a non-finite or negative one."""
    problems = []
    for line in output.splitlines():
        if not re.match(r"^(done:|converged:|step \d|  a = |  restart from)", line):
            continue
        if NOT_FINITE_WORD.search(line):
            problems.append("non-finite figure printed: %s" % line.strip()[:160])
        elif line.startswith(("done:", "converged:")) and NEGATIVE_FIGURE.search(line):
            problems.append("negative figure printed: %s" % line.strip()[:160])
    return problems


def field_problems(paths, unreadable_ok=False):
    """The files of a run that exited 0 hold finite numbers (h5py: every floating dataset and
    attribute)."""
    import numpy as np
    import h5py
    problems = []
    for path in paths:
        try:
            with h5py.File(path, "r") as f:
                bad = []

                def finite_attributes(name, obj):
                    for key, value in obj.attrs.items():
                        value = np.asarray(value)
                        if value.dtype.kind == "f" and not np.all(np.isfinite(value)):
                            bad.append("%s@%s" % (name, key))

                def visit(name, obj):
                    if isinstance(obj, h5py.Dataset) and obj.dtype.kind == "f" and obj.size:
                        if not np.all(np.isfinite(obj[()])):
                            bad.append(name)
                    finite_attributes(name, obj)
                finite_attributes("/", f)
                f.visititems(visit)
                if bad:
                    problems.append("%s: non-finite values in %s" % (os.path.basename(path), ", ".join(bad)))
        except OSError as e:
            if not unreadable_ok:
                problems.append("%s: unreadable after exit 0: %s" % (os.path.basename(path), e))
    return problems


def judge(outcome, case_dir, inputs=(), summary=None, finite_fields=True):
    """The failures of one case: a list of reasons, empty when it passed.
    inputs: files of the case folder that existed before the run (not output)."""
    failures = []
    text = outcome.output
    if outcome.timed_out:
        failures.append("no exit within %.0f s (a hang)" % outcome.seconds)
        return failures
    status = outcome.status
    if status < 0 or status in (134, 136, 137, 139) or (status > 128 and status != 130):
        failures.append("died by a signal (status %d)" % status)
    dumps = [d for d in DUMPS if d in text]
    if dumps:
        failures.append("raw dump in the output: %s" % ", ".join(dumps))
    if status != 0 and not text.strip():
        failures.append("exit status %d without a message" % status)
    outputs = output_files(case_dir, exclude=inputs)
    if status == BAD_INPUT and outputs:
        failures.append("rejected (status 2) but left output: %s" % ", ".join(outputs[:5]))
    if status == 0:
        failures += printed_figure_problems(text)
        if summary is not None:
            if os.path.exists(summary):
                failures += summary_problems(summary)
            else:
                failures.append("exit 0 without the --summary file")
        if finite_fields:
            failures += field_problems([os.path.join(case_dir, p) for p in outputs if p.endswith(".h5")
                                        and "checkpoint" not in p])
    if status not in (0, BAD_INPUT) and finite_fields:  # the output a failed run leaves is still good
        failures += ["written before the failure: " + p for p in field_problems(
            [os.path.join(case_dir, p) for p in outputs if p.endswith(".h5") and "checkpoint" not in p], unreadable_ok=True)]
    if status == STOPPED and "stopped at step" not in text:
        failures.append("status 75 without the 'stopped at step' line")
    if status not in (0, 1, BAD_INPUT, STOPPED, 130) and not failures:
        failures.append("unexpected exit status %d" % status)
    return failures


def file_hashes(folder, names):
    hashes = {}
    for name in names:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                hashes[name] = hashlib.sha256(f.read()).hexdigest()
    return hashes


def changed_inputs(folder, before, writable, status):
    """Input files a case changed or removed: none may be, but those in `writable` by a run that
    exited 0 (the --out target)."""
    after = file_hashes(folder, before)
    problems = []
    for name, digest in before.items():
        if after.get(name) == digest or (status == 0 and name in writable):
            continue
        problems.append("input file %s was %s (status %d)" % (name, "removed" if name not in after else "changed", status))
    return problems


def _same(given, used):
    if isinstance(given, bool) or isinstance(used, bool):
        return given is used
    if isinstance(given, (int, float)) and isinstance(used, (int, float)):
        return float(given) == float(used) or (math.isnan(float(given)) and math.isnan(float(used)))
    if isinstance(given, list) and isinstance(used, list):
        return len(given) == len(used) and all(_same(g, u) for g, u in zip(given, used))
    return given == used


def recorded_deck_problems(case_dir, given):
    """A run that exited 0 read every key it was given: each is in the files' /Input deck (the deck
    as used) with the value given. `given`: dotted key -> value; formulas given as numbers are
    recorded as their text, and are only looked up."""
    import tomllib
    import h5py
    import deck_tree
    files = [p for p in output_files(case_dir) if p.endswith(".h5") and "checkpoint" not in p]
    if not files:
        return []
    try:
        with h5py.File(os.path.join(case_dir, files[-1]), "r") as f:
            text = f["Input"].attrs["deck"]
        used = tomllib.loads(text.decode() if isinstance(text, bytes) else str(text))
    except (OSError, KeyError, ValueError) as e:
        return ["%s: no readable /Input deck: %s" % (files[-1], e)]
    problems = []
    for key, value in given.items():
        marker = object()
        recorded = deck_tree.get(used, key, marker)
        if recorded is marker:
            problems.append("key %s = %r was accepted but is not in /Input (ignored?)" % (key, value))
        elif not isinstance(recorded, str) or not isinstance(value, (int, float)) or isinstance(value, bool):
            if not _same(value, recorded):
                problems.append("key %s = %r was recorded in /Input as %r" % (key, value, recorded))
    return problems
