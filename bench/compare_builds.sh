#!/usr/bin/env bash
# compare_builds.sh OLD_EXE NEW_EXE OUT_DIR "RANKS" [override...]
# Runs every sample deck (Poisson once per solver) with two gridflow executables at each rank
# count and compares what they wrote (compare_outputs.sh: every dataset bitwise, the /Input group
# as text). Prints one line per run and exits non-zero when anything differs. Used to prove a
# change of code shape changed no number, e.g.:
#   bench/compare_builds.sh /tmp/old/gridflow build/gridflow /tmp/cmp "1 2 4" device=cpu
# DECKS=TEXT runs only the decks whose path contains TEXT. SHRINK_LARGE=1 runs the *_large decks
# on smaller grids (heat 1024^2 for 200 steps, Poisson 65^3), where full sizes take too long (CPU).
set -uo pipefail
old=$1 new=$2 out=$3 ranks=$4; shift 4
overrides=("$@")
for tool in h5ls h5diff h5dump; do
  command -v $tool > /dev/null || { echo "compare_builds: $tool is needed (Debian: hdf5-tools)" >&2; exit 2; }
done
mpirun_env=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
here=$(cd "$(dirname "$0")/.." && pwd)
cases=()
for deck in "$here"/inputs/*.toml; do
  shrink=""
  if [ "${SHRINK_LARGE:-0}" = 1 ] && [[ $deck == *_large.toml ]]; then
    grep -q 'problem = "poisson3d"' "$deck" && shrink="grid.n=[64,64,64]" || shrink="grid.n=[1023,1023] heat.steps=200"
  fi
  if grep -q 'problem = "poisson3d"' "$deck"; then
    for s in jacobi multigrid cg-mg spectral; do cases+=("$deck solver=$s $shrink"); done
  else
    cases+=("$deck $shrink")
  fi
done
failed=0
for c in "${cases[@]}"; do
  read -r deck case_overrides <<< "$c"
  read -r -a extra <<< "$case_overrides"
  extra+=("${overrides[@]}")
  [[ $deck == *${DECKS:-}* ]] || continue
  for n in $ranks; do
    name=$(basename "$deck" .toml)$(printf '%s' "${extra[*]}" | tr -c 'A-Za-z0-9=.\n-' '_' | sed 's/^/_/;s/_$//')-np$n
    for tag in old new; do
      exe=$old; [ $tag = new ] && exe=$new
      rm -rf "$out/$tag/$name"; mkdir -p "$out/$tag/$name"
      "${mpirun_env[@]}" mpirun -np "$n" --oversubscribe "$exe" "$deck" "${extra[@]}" output.dir="$out/$tag/$name" \
        tuning.cache="$out/$tag/tuning-cache.json" > "$out/$tag/$name/log.txt" 2>&1 ||
        { echo "FAIL $name: the $tag run failed (see $out/$tag/$name/log.txt)"; touch "$out/$tag/$name/failed"; }
    done
    [ -e "$out/old/$name/failed" ] || [ -e "$out/new/$name/failed" ] && { failed=1; continue; }
    MASK_OLD="$out/old" MASK_NEW="$out/new" bash "$here/bench/compare_outputs.sh" "$out/old/$name" "$out/new/$name" "$name" ||
      failed=1
  done
done
exit $failed
