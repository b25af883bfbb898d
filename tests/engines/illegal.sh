#!/bin/sh
# A misbehaving engine for sigil-match's tests: it answers the handshake and
# every `go` with a well-formed but illegal move.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name illegal"; echo "uciok" ;;
        ugi) echo "id name illegal"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) echo "info depth 1 score cp 12 pv a1a1"; echo "bestmove a1a1" ;;
        quit) exit 0 ;;
    esac
done
