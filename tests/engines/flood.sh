#!/bin/sh
# A misbehaving engine for sigil-match's tests: on `go` it prints info lines
# without end and never a bestmove (its output never pauses, so a reader
# that only times out on silence would wait forever).
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name flood"; echo "uciok" ;;
        ugi) echo "id name flood"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) while :; do echo "info depth 1 score cp 0 nodes 1 pv a1a1"; done ;;
        quit) exit 0 ;;
    esac
done
