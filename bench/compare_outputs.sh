#!/usr/bin/env bash
# compare_outputs.sh OLD_DIR NEW_DIR NAME: compares two gridflow output folders written by two
# builds from the same deck: the same .h5 files, every dataset bitwise (h5diff, no tolerance), and
# the /Input group (the deck as used) as text with the runs' own paths masked: MASK_OLD and
# MASK_NEW (default: the two folders) are the prefixes that differ between the two decks.
# INPUT=0 leaves /Input out. Prints
# "same NAME: ..." or one "FAIL NAME: ..." line per difference; exits 1 on any.
set -uo pipefail
old=$1 new=$2 name=$3
for tool in h5ls h5diff h5dump; do
  command -v $tool > /dev/null || { echo "compare_outputs: $tool is needed (Debian: hdf5-tools)" >&2; exit 2; }
done
files=0 diffs=0
for f in "$old"/*.h5; do
  [ -e "$f" ] || continue
  g="$new/$(basename "$f")"
  files=$((files + 1))
  [ -e "$g" ] || { echo "FAIL $name: $(basename "$f") missing in the new run"; diffs=$((diffs + 1)); continue; }
  datasets=$(h5ls -r "$f" | awk '$2 == "Dataset" {print $1}')
  [ -n "$datasets" ] || { echo "FAIL $name: no dataset found in $(basename "$f") (h5ls)"; diffs=$((diffs + 1)); }
  for d in $datasets; do
    h5diff -q "$f" "$g" "$d" "$d" > /dev/null 2>&1 || { echo "FAIL $name: $(basename "$f") $d differs"; diffs=$((diffs + 1)); }
  done
  if [ "${INPUT:-1}" != 0 ]; then
    cmp -s <(h5dump -A -g /Input "$f" | tail -n +2 | sed "s#${MASK_OLD:-$old}#OUT#g") \
           <(h5dump -A -g /Input "$g" | tail -n +2 | sed "s#${MASK_NEW:-$new}#OUT#g") ||
      { echo "FAIL $name: $(basename "$f") /Input differs"; diffs=$((diffs + 1)); }
  fi
done
new_files=$(ls "$new"/*.h5 2> /dev/null | wc -l)
[ "$new_files" -eq "$files" ] || { echo "FAIL $name: $files files before, $new_files after"; diffs=$((diffs + 1)); }
[ $files -gt 0 ] || { echo "FAIL $name: no output file"; diffs=$((diffs + 1)); }
[ $diffs -eq 0 ] && echo "same $name: $files files, every dataset bitwise"
[ $diffs -eq 0 ]
