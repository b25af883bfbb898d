#!/bin/sh
# A misbehaving engine for sigil-match's tests: it reads its input but never
# completes the handshake (no uciok).
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci|ugi) echo "id name noshake" ;;
        quit) exit 0 ;;
    esac
done
