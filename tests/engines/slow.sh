#!/bin/sh
# A misbehaving engine for sigil-match's tests: it ignores the clock and only
# answers `go` once it is told to `stop` (sigil-match sends stop when the time
# is up), so it always loses on time.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name slow"; echo "uciok" ;;
        ugi) echo "id name slow"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) IFS= read -r next; echo "bestmove 0000" ;;
        quit) exit 0 ;;
    esac
done
