#!/bin/bash
# Build the Solomon endgame tables across the nodes of a Slurm cluster: one
# job per pair of tables (a material and its colour swap), each started when
# the jobs of the pairs its moves lead to (captures, crownings) have
# succeeded, as `sigil-tbgen --list-materials` lists them.
#
#   tablebases.sh [-v VARIANT] [-n PIECES] [-d DIR] [-t THREADS] [-g SIGIL_TBGEN] [-s "SBATCH OPTIONS"]
#
#   -v VARIANT  solomon, solomon-chain or both (default both)
#   -n PIECES   tables of up to PIECES pieces (default 7)
#   -d DIR      the shared folder of the tables (default ./tablebases);
#               valid tables already there are kept (their jobs end at once)
#   -t THREADS  threads per job (--cpus-per-task; default 1)
#   -g PATH     sigil-tbgen (default: the one on PATH), the same on every node
#   -s OPTS     more sbatch options for every job (e.g. "--mem=8G")
#
# Prints one line per job ("JOBID VARIANT PAIR"), the last job last; the
# build is done when every job has ended COMPLETED.  See doc/tablebases.md,
# "Building across nodes".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
variant=both pieces=7 dir=./tablebases threads=1 tbgen='' extra=''
while getopts v:n:d:t:g:s: opt; do
    case $opt in
    v) variant=$OPTARG ;;
    n) pieces=$OPTARG ;;
    d) dir=$OPTARG ;;
    t) threads=$OPTARG ;;
    g) tbgen=$OPTARG ;;
    s) extra=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
[ -n "$tbgen" ] || tbgen=$(command -v sigil-tbgen) ||
    { echo "tablebases.sh: sigil-tbgen not on PATH (use -g)" >&2; exit 2; }
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
list=$("$tbgen" --list-materials --variant "$variant" --pieces "$pieces")
declare -A job
while read -r v pair needs; do
    deps=
    for need in $needs; do
        deps="$deps:${job[$v/$need]}"
    done
    # shellcheck disable=SC2086 # $extra is a list of sbatch options
    id=$(sbatch --parsable $extra ${deps:+--dependency=afterok$deps --kill-on-invalid-dep=yes} \
        --cpus-per-task="$threads" --job-name="tb-$v-$pair" --output="$dir/logs/$v-$pair.log" \
        "$here/tablebase-pair.sbatch" "$tbgen" "$v" "$pair" "$dir" "$threads")
    id=${id%%;*}
    job[$v/$pair]=$id
    echo "$id $v $pair"
done <<< "$list"
