#!/bin/sh
# A misbehaving engine for sigil-match's tests: it answers the handshake,
# then exits with status 3 as soon as it is asked to think (a crash).
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name crash"; echo "uciok" ;;
        ugi) echo "id name crash"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
