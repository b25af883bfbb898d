#!/bin/sh
# A misbehaving engine for sigil-match's tests: it answers the handshake,
# then, asked to think, closes its output and stays alive (until killed):
# its record must say it closed its output, not that it was killed.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name closeout"; echo "uciok" ;;
        ugi) echo "id name closeout"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*) exec 1>&-; while :; do sleep 1; done ;;
        quit) exit 0 ;;
    esac
done
