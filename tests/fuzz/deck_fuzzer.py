#!/usr/bin/python3
"""Deck fuzzer (issue 16): random mutations of every sample deck in inputs/, of key=value
overrides and of the `gridflow filter` arguments, each run through mpirun (a few at 2 ranks)
and judged by case_checks.judge.

    deck_fuzzer.py GRIDFLOW MPIEXEC INPUTS_DIR SCRATCH_DIR

Environment:
    GRIDFLOW_FUZZ_SEED     master seed (default: from the clock); printed first and in every failure
    GRIDFLOW_FUZZ_CASES    run only these case numbers ("17", "3,17,40-45"), e.g. to reproduce one
    GRIDFLOW_FUZZ_BUDGET   seconds for the whole run (default 150); no case starts after it
    GRIDFLOW_FUZZ_MAX      most cases (default 400)
    GRIDFLOW_FUZZ_TIMEOUT  seconds one case may take before it counts as a hang (default 30)
    GRIDFLOW_FUZZ_KEEP     1: keep every case's folder (failing ones are always kept)
    GRIDFLOW_FUZZ_VERBOSE  1: a line for every case that passed too

Case n depends on the seed and n alone, so GRIDFLOW_FUZZ_SEED=S GRIDFLOW_FUZZ_CASES=n repeats it.
Cases 0..D-1 are the D sample decks unmutated (shrunk): they must pass, or the fuzzer itself is
broken. Exit status 0 when every case passed, 1 otherwise."""

import collections
import copy
import glob
import os
import random
import resource
import shutil
import sys
import time
import tomllib
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import case_checks  # noqa: E402
import deck_mutations  # noqa: E402
import filter_arguments  # noqa: E402
import toml_text  # noqa: E402


# One case: what it changed (words), the command, its folder (the working directory), the files
# put there before it ran, the --summary path (None: no run expected to write one), whether its
# output must be finite, the files an exit 0 may change, and the deck keys given with their
# values (None where not known).
Case = collections.namedtuple("Case", "what argv folder inputs summary finite writable given")


def parse_cases(text):
    chosen = set()
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            chosen.update(range(int(lo), int(hi) + 1))
        elif part:
            chosen.add(int(part))
    return sorted(chosen)


# The batch job every case runs in ends this many seconds after its start (SLURM_JOB_END_TIME,
# which gridflow stops for with a checkpoint, status 75), well inside GRIDFLOW_FUZZ_TIMEOUT.
JOB_SECONDS = 8


class Fuzzer:
    def __init__(self, gridflow, mpiexec, inputs, scratch, seed):
        self.gridflow, self.mpiexec, self.scratch, self.seed = gridflow, mpiexec, scratch, seed
        self.decks = {}
        for path in sorted(glob.glob(os.path.join(inputs, "*.toml"))):
            with open(path, "rb") as f:
                self.decks[os.path.basename(path)] = deck_mutations.shrink(tomllib.load(f))
        self.names = sorted(self.decks)
        self.timeout = float(os.environ.get("GRIDFLOW_FUZZ_TIMEOUT", "30"))
        self.env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                        OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none",
                        # Open MPI waits 2 s before it kills the rest of a job whose rank exited
                        # non-zero; gridflow's ranks all exit with the status: do not wait.
                        OMPI_MCA_odls_base_sigkill_timeout="0")
        self.filter_reason = self._filter_available()
        self.filter_inputs = os.path.join(scratch, "filter_inputs")
        if self.filter_reason is None:
            filter_arguments.make_inputs(self.filter_inputs)

    def _filter_available(self):
        """None when `gridflow filter --help` works; otherwise why the filter cases are skipped."""
        try:
            o = case_checks.run([self.gridflow, "filter", "--help"], self.scratch, self.env, 30)
        except OSError as e:
            return "cannot start %s: %s" % (self.gridflow, e)
        # CLI11 prints the top-level help for --help after an unknown positional, so exit 0 alone
        # does not prove the subcommand exists: its help names its options.
        if o.status == 0 and "--dataset" in o.output:
            return None
        return "`gridflow filter --help` does not describe a filter command (status %d)" % o.status

    def launch(self, ranks):
        return [self.mpiexec, "-np", str(ranks), "--oversubscribe", self.gridflow]

    def case(self, n):
        """Builds case n, from the seed and n alone."""
        rng = random.Random("%d:%d" % (self.seed, n))
        case_dir = os.path.join(self.scratch, "case_%05d" % n)
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        summary = os.path.join(case_dir, "summary.json")
        ranks = 2 if rng.random() < 0.15 else 1
        if n < len(self.names):  # the sample decks as they are (shrunk): the baseline
            name = self.names[n]
            what = ["%s unmutated" % name]
            data = toml_text.dumps(self.decks[name]).encode()
            overrides = []
            given = deck_mutations.given_keys(self.decks[name], [])
        else:
            kind = rng.choice(["tree"] * 5 + ["text"] * 2 + ["override"] * 2 + ["filter"] * 2)
            if kind == "filter":
                return self._filter_case(rng, n, case_dir)
            name = rng.choice(self.names)
            deck = copy.deepcopy(self.decks[name])
            what, overrides = [name], []
            given = None  # text mutations: what the reader makes of the bytes is not known here
            if kind == "tree":
                what += deck_mutations.mutate_tree(rng, deck)
                data = toml_text.dumps(deck).encode()
                given = deck_mutations.given_keys(deck, [])
            elif kind == "text":
                data, change = deck_mutations.mutate_text(rng, toml_text.dumps(deck))
                what.append(change)
            else:
                data = toml_text.dumps(deck).encode()
                overrides = [deck_mutations.override(rng, deck) for _ in range(rng.choice([1, 1, 2]))]
                overrides = [o.replace("\x00", "") for o in overrides]  # argv cannot carry NUL
                what += ["override %r" % (o if len(o) < 80 else o[:60] + "...(%d chars)" % len(o)) for o in overrides]
                given = deck_mutations.given_keys(deck, overrides)
        with open(os.path.join(case_dir, "deck.toml"), "wb") as f:
            f.write(data)
        what.append("%d rank(s)" % ranks)
        if n >= len(self.names) and rng.random() < 0.1:  # the tune subcommand reads the same decks
            what.append("gridflow tune")
            argv = self.launch(ranks) + ["tune", "deck.toml"] + overrides
            return Case(what, argv, case_dir, set(), None, True, set(), None)
        argv = self.launch(ranks) + ["--summary", summary, "deck.toml"] + overrides
        if any(o.startswith(("--help", "--version")) for o in overrides):
            summary = None  # the help or the version, and no run
        return Case(what, argv, case_dir, set(), summary, True, set(), given)

    def _filter_case(self, rng, n, case_dir):
        if self.filter_reason is not None:
            return Case(["filter case skipped: " + self.filter_reason], None, case_dir, set(), None, False, set(), None)
        for name in os.listdir(self.filter_inputs):
            shutil.copy(os.path.join(self.filter_inputs, name), case_dir)
        args, what, infile, writable = filter_arguments.mutate(rng)
        finite = infile in filter_arguments.finite_inputs() and not any("wnan" in a for a in args)
        argv = self.launch(1) + ["filter"] + args
        return Case(what + ["1 rank(s)"], argv, case_dir, set(os.listdir(case_dir)), None, finite, writable, None)

    def reproduce_line(self, n, inputs):
        return "GRIDFLOW_FUZZ_SEED=%d GRIDFLOW_FUZZ_CASES=%d %s %s %s %s %s %s" % (
            self.seed, n, sys.executable, os.path.abspath(__file__), self.gridflow, self.mpiexec, inputs, self.scratch)


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    gridflow, mpiexec, inputs, scratch = sys.argv[1:]
    seed = int(os.environ.get("GRIDFLOW_FUZZ_SEED", str(int(time.time() * 1000) % 2**31)))
    budget = float(os.environ.get("GRIDFLOW_FUZZ_BUDGET", "150"))
    most = int(os.environ.get("GRIDFLOW_FUZZ_MAX", "400"))
    only = parse_cases(os.environ["GRIDFLOW_FUZZ_CASES"]) if os.environ.get("GRIDFLOW_FUZZ_CASES") else None
    keep = os.environ.get("GRIDFLOW_FUZZ_KEEP") == "1"
    verbose = os.environ.get("GRIDFLOW_FUZZ_VERBOSE") == "1"
    # A bug of the fuzzer that allocates without bound fails here, not the machine (its cases
    # set their own limit in case_checks.run).
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    scratch = os.path.abspath(scratch)
    os.makedirs(scratch, exist_ok=True)
    print("deck fuzzer: seed %d (repeat with GRIDFLOW_FUZZ_SEED=%d), budget %.0f s, at most %d cases"
          % (seed, seed, budget, len(only) if only else most), flush=True)
    fuzzer = Fuzzer(os.path.abspath(gridflow), mpiexec, os.path.abspath(inputs), scratch, seed)
    print("decks: %s" % ", ".join(fuzzer.names))
    if fuzzer.filter_reason:
        print("filter cases: skipped, %s" % fuzzer.filter_reason)
    start = time.monotonic()
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    statuses = {}
    for n in (only if only is not None else range(most)):
        if only is None and time.monotonic() - start > budget:
            break
        try:
            case = fuzzer.case(n)
        except Exception:  # a bug of the fuzzer: reported like a failing case, and the run goes on
            counts["failed"] += 1
            print("FAIL case %d (seed %d): the fuzzer could not build it\n  %s\n  reproduce: %s"
                  % (n, seed, traceback.format_exc().strip().replace("\n", "\n  "),
                     fuzzer.reproduce_line(n, os.path.abspath(inputs))), flush=True)
            continue
        if case.argv is None:
            counts["skipped"] += 1
            shutil.rmtree(case.folder, ignore_errors=True)
            continue
        hashes = case_checks.file_hashes(case.folder, case.inputs)
        # A tuning cache per case: what one case stores cannot change another. And a batch job's
        # end a few seconds away, a bound that no mutation of the deck can lift: the shrunk deck's
        # run.wall_limit can be mutated into a valid long limit, or removed, beside a valid huge
        # heat.steps, and the run is then long but no hang.
        env = dict(fuzzer.env, GRIDFLOW_TUNING_CACHE=os.path.join(case.folder, "tuning-cache.json"),
                   SLURM_JOB_END_TIME=str(int(time.time()) + JOB_SECONDS))
        outcome = case_checks.run(case.argv, case.folder, env, fuzzer.timeout)
        try:
            failures = case_checks.judge(outcome, case.folder, case.inputs, case.summary, case.finite)
            failures += case_checks.changed_inputs(case.folder, hashes, case.writable, outcome.status)
            if outcome.status == 0 and case.given is not None:
                failures += case_checks.recorded_deck_problems(case.folder, case.given)
        except Exception:
            failures = ["the fuzzer could not judge it:\n  " + traceback.format_exc().strip().replace("\n", "\n  ")]
        statuses[outcome.status] = statuses.get(outcome.status, 0) + 1
        head = "case %d (seed %d): %s" % (n, seed, "; ".join(case.what))
        if failures:
            counts["failed"] += 1
            last_lines = "\n    ".join(outcome.output.strip().splitlines()[-12:])
            print("FAIL %s\n  %s\n  status %s after %.1f s; folder %s\n  reproduce: %s\n  output (last lines):\n    %s"
                  % (head, "\n  ".join(failures), outcome.status, outcome.seconds, case.folder,
                     fuzzer.reproduce_line(n, os.path.abspath(inputs)), last_lines), flush=True)
            continue
        counts["passed"] += 1
        if verbose:
            print("pass %s: status %d in %.1f s" % (head, outcome.status, outcome.seconds), flush=True)
        elif only is not None:
            print("pass %s: status %d in %.1f s" % (head, outcome.status, outcome.seconds))
            print("    " + "\n    ".join(outcome.output.strip().splitlines()[:40]))
        if not keep:
            shutil.rmtree(case.folder, ignore_errors=True)
    ran = counts["passed"] + counts["failed"]
    print("deck fuzzer: seed %d, %d cases in %.0f s: %d passed, %d failed, %d skipped (filter); exit statuses %s"
          % (seed, ran, time.monotonic() - start, counts["passed"], counts["failed"], counts["skipped"],
             dict(sorted(statuses.items()))))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
