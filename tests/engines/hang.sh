#!/bin/sh
# A misbehaving engine for sigil-match's tests: it answers the handshake,
# then hangs on `go` (a child process sleeps; neither answers stop or quit
# nor SIGTERM).  sigil-match must kill both.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
trap '' TERM INT
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name hang"; echo "uciok" ;;
        ugi) echo "id name hang"; echo "ugiok" ;;
        isready) echo "readyok" ;;
        go*)
            echo "info depth 1 score cp 0"
            sleep 1000 &
            [ -n "$SIGIL_TEST_PIDFILE" ] && echo $! >> "$SIGIL_TEST_PIDFILE"
            wait
            ;;
        quit) exit 0 ;;
    esac
done
