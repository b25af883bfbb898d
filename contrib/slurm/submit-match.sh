#!/bin/bash
# Submit a sigil-match tournament to Slurm: a job array of N shards and a
# merge job that starts when every shard has succeeded.
#
#   submit-match.sh [-n N] [-d DIR] [-p PGN] [-m SIGIL_MATCH] [-s "SBATCH OPTIONS"] -- ARGS...
#
#   -n N       shards (array tasks 1..N; default 16)
#   -d DIR     shared folder for the result files, the report and the job
#              logs (default ./sigil-run); created if missing
#   -p PGN     the merged records (-pgnout PGN of the merge)
#   -m PATH    sigil-match (default: the one on PATH), the same path on every node
#   -s OPTS    more sbatch options for both jobs (e.g. "--partition=long")
#   ARGS       sigil-match's arguments, as for one run on one machine (every
#              shard gets the same; -shard, -results and -quiet are added)
#
# Prints the two job ids ("array JOBID", "merge JOBID").  The report is
# DIR/report.txt when the merge job has ended; see doc/sigil-match.md,
# "Running on a cluster".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shards=16 dir=./sigil-run pgn='' match='' extra=''
while getopts n:d:p:m:s: opt; do
    case $opt in
    n) shards=$OPTARG ;;
    d) dir=$OPTARG ;;
    p) pgn=$OPTARG ;;
    m) match=$OPTARG ;;
    s) extra=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
case $shards in '' | *[!0-9]* | 0) echo "submit-match.sh: -n wants a number >= 1" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "submit-match.sh: no sigil-match arguments after --" >&2; exit 2; }
[ -n "$match" ] || match=$(command -v sigil-match) ||
    { echo "submit-match.sh: sigil-match not on PATH (use -m)" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# shellcheck disable=SC2086 # $extra is a list of sbatch options
array=$(sbatch --parsable $extra --array="1-$shards" --output="$dir/shard-%a.log" \
    "$here/match-shard.sbatch" "$shards" "$dir" "$match" "$@")
array=${array%%;*}
merge_args=()
[ -n "$pgn" ] && merge_args=(-pgnout "$pgn")
# shellcheck disable=SC2086
merge=$(sbatch --parsable $extra --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$dir/merge.log" "$here/match-merge.sbatch" "$shards" "$dir" "$match" \
    "${merge_args[@]}")
merge=${merge%%;*}
echo "array $array"
echo "merge $merge"
