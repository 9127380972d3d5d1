"""diff: how the fields of two runs (or two files) differ, step by step."""
import sys

from .. import common
from ..run import Run
from ..stats import field_difference

NAME = "diff"
HELP = "per field and step, max abs and L2 differences of two runs or files; exit 1 beyond --tolerance"
DESCRIPTION = """Pairs the output steps of A and B by step number (a single .h5 file pairs with the same step
of the other side) and, for every field both hold (or --field), prints max |a - b| and the grid
L2 norm of a - b, sqrt(h_x h_y [h_z] sum (a - b)^2). Exit status 0 when every difference is
within --tolerance, 1 when one is not or when the runs differ in their steps or times, 2 on
an error. The default tolerance 0 asks for bitwise identical fields (the same type, sign of zero
and NaNs), as runs on different rank counts, ghost widths or transports must give."""


def add_arguments(p):
    p.add_argument("a", metavar="A", help="a run: output folder, .xmf file or .h5 file")
    p.add_argument("b", metavar="B", help="the run to compare it with")
    p.add_argument("--field", action="append",
                   help="compare only this field (repeatable; default: every field both hold)")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="largest accepted difference (default 0: bitwise identical)")
    p.add_argument("--relative", action="store_true",
                   help="hold max|a-b| / max|a| to the tolerance instead of max|a-b|")
    p.add_argument("--csv", help="also write the table as CSV: step, time, field, max_abs, l2, relative "
                                 "('-': standard output)")


def pair_steps(a, b):
    """[(step of A, step of B)] and the problems that make the runs' steps differ. Two .h5 files
    pair whatever their steps; one .h5 file pairs with the same step of the other run."""
    file_a, file_b = a.source.endswith(".h5"), b.source.endswith(".h5")
    if file_a and file_b:
        return [(a.steps[0], b.steps[0])], []
    if file_a or file_b:
        one, other = (a, b) if file_a else (b, a)
        pair = (one.steps[0], other.step(one.steps[0].step))
        pairs = [pair if file_a else pair[::-1]]
    else:
        numbers_a = {s.step: s for s in a.steps}
        numbers_b = {s.step: s for s in b.steps}
        pairs = [(numbers_a[n], numbers_b[n]) for n in sorted(set(numbers_a) & set(numbers_b))]
    problems = []
    for label, mine, theirs in (("A", a, b), ("B", b, a)):
        if not (file_a or file_b):
            only = sorted({s.step for s in mine.steps} - {s.step for s in theirs.steps})
            if only:
                problems.append(f"steps only in {label}: {', '.join(map(str, only))}")
    for sa, sb in pairs:
        if sa.time != sb.time:
            problems.append(f"step {sa.step}: t = {sa.time!r} in A, {sb.time!r} in B")
    return pairs, problems


def run(args):
    if args.tolerance < 0:
        raise common.PostError("--tolerance must be >= 0")
    a, b = Run(args.a), Run(args.b)
    pairs, problems = pair_steps(a, b)
    if not pairs:
        raise common.PostError("A and B have no output step in common")
    rows, failed, worst = [], 0, 0.0
    text = sys.stderr if args.csv == "-" else sys.stdout  # keep a CSV on standard output clean
    print(f"{'step':>8}  {'time':>12}  {'field':<10}  {'max abs':>10}  {'L2':>10}  {'relative':>10}  verdict",
          file=text)
    for sa, sb in pairs:
        fields_a, fields_b = a.fields(sa.step), b.fields(sb.step)
        names = args.field or sorted(set(fields_a) | set(fields_b))
        for name in names:
            if name not in fields_a or name not in fields_b:
                where = "A" if name not in fields_a else "B"
                problems.append(f"step {sa.step}: no field '{name}' in {where}")
                continue
            d = field_difference(sa.path, sb.path, name)
            relative = d.max_abs / d.max_ref if d.max_ref > 0 else (0.0 if d.max_abs == 0 else float("inf"))
            measured = relative if args.relative else d.max_abs
            worst = max(worst, measured)
            if args.tolerance == 0:
                ok = d.bitwise
                verdict = "identical" if ok else "DIFFERENT"
                if not ok and d.max_abs == 0:
                    verdict += " (equal values, other bits)"
            else:
                ok = measured <= args.tolerance
                verdict = "ok" if ok else "DIFFERENT"
            if d.note:
                verdict += f" ({d.note})"
            failed += not ok
            rows.append((sa.step, sa.time, name, d.max_abs, d.l2, relative))
            print(f"{sa.step:>8}  {sa.time:>12.6g}  {name:<10}  {d.max_abs:>10.3e}  {d.l2:>10.3e}  "
                  f"{relative:>10.3e}  {verdict}", file=text)
    if args.csv:
        common.write_csv(args.csv, ["step", "time", "field", "max_abs", "l2", "relative"], rows)
    for problem in problems:
        print(f"gridflow_post diff: {problem}", file=sys.stderr)
    kind = "relative" if args.relative else "absolute"
    if failed or problems:
        why = f"{failed} of {len(rows)} field(s) differ" if failed else "the runs do not match"
        print(f"FAIL: {why}; largest {kind} difference {worst:.3e}, tolerance {args.tolerance:g}", file=text)
        return 1
    print(f"ok: {len(rows)} field(s) in {len(pairs)} step(s), largest {kind} difference {worst:.3e}, "
          f"tolerance {args.tolerance:g}", file=text)
    return 0
