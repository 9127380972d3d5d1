"""The deck keys the README documents, by problem, with the kind of value each takes: the fuzzer
mutates keys the sample decks set and keys they leave at their defaults alike."""

# kind: int, number, bool, string (a free word), choice, expr (a muParser formula), path
# (a file or folder, kept inside the case's folder), name (a file name prefix), ints:N, numbers:N,
# int_or_duration, number_or_duration.
COMMON = {
    "problem": "choice",
    "precision": "choice",
    "device": "choice",
    "device_sharing": "bool",
    "halo.width": "int",
    "halo.transport": "choice",
    "output.dir": "path",
    "output.name": "name",
    "output.every": "int",
    "output.enabled": "bool",
    "output.async": "bool",
    "expressions.device": "bool",
    "progress.every": "int",
    "checkpoint.every": "int_or_duration",
    "checkpoint.keep": "int",
    "checkpoint.dir": "path",
    "restart": "path",
    "run.wall_limit": "number_or_duration",
    "run.wall_margin": "number_or_duration",
    "tuning.mode": "choice",
    "tuning.cache": "path",
    "tuning.strategy": "choice",
    "tuning.budget": "int",
    "tuning.repeats": "int",
    "diagnostics[0].kind": "choice",
    "diagnostics[0].field": "choice",
    "diagnostics[0].every": "int",
    "filters[0].method": "choice",
}

HEAT2D = dict(COMMON, **{
    "decomposition": "ints:2",
    "grid.n": "ints:2",
    "grid.length": "numbers:2",
    "grid.origin": "numbers:2",
    "heat.a": "number",
    "heat.t_end": "number",
    "heat.steps": "int",
    "heat.dt": "number",
    "heat.safety": "number",
    "heat.initial": "expr",
    "heat.boundary.left": "expr",
    "heat.boundary.right": "expr",
    "heat.boundary.bottom": "expr",
    "heat.boundary.top": "expr",
})

POISSON3D = dict(COMMON, **{
    "solver": "choice",
    "decomposition": "ints:3",
    "grid.n": "ints:3",
    "grid.length": "numbers:3",
    "grid.origin": "numbers:3",
    "poisson.rhs": "expr",
    "poisson.exact": "expr",
    "poisson.boundary.x_low": "expr",
    "poisson.boundary.x_high": "expr",
    "poisson.boundary.y_low": "expr",
    "poisson.boundary.y_high": "expr",
    "poisson.boundary.z_low": "expr",
    "poisson.boundary.z_high": "expr",
    "poisson.tolerance": "number",
    "poisson.max_iterations": "int",
    "poisson.check_every": "int",
    "multigrid.cycle": "choice",
    "multigrid.smoother": "choice",
    "multigrid.pre_smooth": "int",
    "multigrid.post_smooth": "int",
    "multigrid.symmetric_cycle": "bool",
    "multigrid.jacobi_weight": "number",
    "multigrid.coarse_points": "int",
    "multigrid.full_multigrid": "bool",
    "multigrid.out_of_place_smoother": "bool",
    "multigrid.mixed_precision": "bool",
})

CHOICES = {
    "problem": ["heat2d", "poisson3d"],
    "precision": ["float", "double"],
    "device": ["cpu", "gpu", "auto"],
    "halo.transport": ["mpi", "nccl", "auto"],
    "tuning.mode": ["online", "cached", "off"],
    "tuning.strategy": ["auto", "exhaustive", "local"],
    "diagnostics[0].kind": ["spectrum"],
    "diagnostics[0].field": ["u"],
    "filters[0].method": ["direct", "fft", "auto"],
    "solver": ["jacobi", "multigrid", "spectral", "cg-mg"],
    "multigrid.cycle": ["V", "F"],
    "multigrid.smoother": ["jacobi", "rbgs"],
}


def keys_of(problem):
    return POISSON3D if problem == "poisson3d" else HEAT2D
