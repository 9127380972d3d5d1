"""spectrum: the radially binned power spectrum gridflow writes with a [[diagnostics]] block."""
import sys

import h5py
import numpy as np

from .. import common

NAME = "spectrum"
HELP = "the power spectrum written by a [[diagnostics]] spectrum block: log-log plot (-o) and/or CSV (--csv)"
DESCRIPTION = """The radially binned power spectrum gridflow writes into the output files a [[diagnostics]] block
with kind = "spectrum" applies to: /spectrum/k (bins 0..K) and /spectrum/power (the sum of
|U(k)|^2 / N^2 over the wavevectors whose length rounds to the bin, U the DFT of the field on all
N points). Prints each step's total power and strongest non-zero bin; draws power against k on
log-log axes, one line per step (-o; bin 0, the mean's power, is left off the log axis), and/or
writes a CSV (--csv: step, time, k, power). --step picks steps (repeat it); the default is every
step whose file holds a spectrum."""


def add_arguments(p):
    common.add_run_argument(p)
    common.add_step_argument(p, repeat=True)
    p.add_argument("-o", "--output", help="image file of the plot (default without --csv: NAME_spectrum.png here)")
    p.add_argument("--csv", help="CSV file: step, time, k, power ('-': standard output)")
    common.add_figure_arguments(p, "800x600")


def read_spectrum(path):
    """(k, power) of one file, or None when it holds no spectrum."""
    with h5py.File(path, "r") as f:
        if "spectrum/k" not in f or "spectrum/power" not in f:
            return None
        return np.asarray(f["spectrum/k"][()]), np.asarray(f["spectrum/power"][()], dtype=np.float64)


def spectra(run, steps):
    """[(Step, k, power)] of the chosen steps (None: every step with a spectrum)."""
    chosen = [run.step(n) for n in steps] if steps else run.steps
    found = []
    for s in chosen:
        try:
            spectrum = read_spectrum(s.path)
        except OSError as e:
            raise common.PostError(f"cannot read {s.path}: {e}")
        if spectrum is None:
            if steps:
                raise common.PostError(f"{s.path} (step {s.step}) holds no /spectrum: its run's [[diagnostics]] "
                                       "block did not apply to it (see its 'every')")
            continue
        found.append((s, *spectrum))
    if not found:
        raise common.PostError(f"{run.source}: no output file holds /spectrum/k and /spectrum/power: add a "
                               "[[diagnostics]] block with kind = \"spectrum\" and field = \"u\" to the deck")
    return found


def spectrum_field(run):
    """The field the deck's spectrum block names ("u" when the deck cannot be read)."""
    try:
        blocks = run.deck().get("diagnostics", [])
    except common.PostError:
        return "u"
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict) and block.get("kind") == "spectrum":
            return block.get("field", "u")
    return "u"


def run(args):
    r = common.open_run(args)
    found = spectra(r, args.step)
    summary = sys.stderr if args.csv == "-" else sys.stdout  # keep a CSV on standard output clean
    for s, k, power in found:
        strongest = int(k[1:][np.argmax(power[1:])]) if len(k) > 1 else 0
        print(f"step {s.step} (t = {s.time:g}): K = {int(k[-1])}, total power {power.sum():.6e}, "
              f"mean's (k = 0) {power[0]:.6e}, strongest k > 0: {strongest}", file=summary)
    written = []
    if args.csv:
        rows = [(s.step, s.time, int(kb), pb) for s, k, power in found for kb, pb in zip(k, power)]
        common.write_csv(args.csv, ["step", "time", "k", "power"], rows)
        if args.csv != "-":
            written.append(args.csv)
    if args.output or not args.csv:
        fig, axes = common.new_figure(args)
        ax = axes[0][0]
        drawn = 0
        for s, k, power in found:
            keep = (k > 0) & (power > 0)
            if keep.any():
                ax.loglog(k[keep], power[keep], "o-" if keep.sum() <= 40 else "-", label=f"step {s.step}, t = {s.time:g}")
                drawn += 1
        if not drawn:
            raise common.PostError("every spectrum chosen has no power at k > 0: nothing to draw on log axes")
        ax.set_xlabel("k (wavevector length, bin)")
        ax.set_ylabel("power: sum |U(k)|^2 / N^2")
        ax.set_title(f"power spectrum of {spectrum_field(r)}, {r.name}")
        ax.grid(True, which="both", alpha=0.3)
        if drawn <= 12:
            ax.legend()
        path = common.default_output(args, r, "spectrum.png")
        common.save_figure(fig, path)
        written.append(path)
    for path in written:
        common.wrote(path)
    return 0
