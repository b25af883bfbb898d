#!/bin/sh
# An engine for sigil-match's tests that notes every line it is sent into
# $SIGIL_TEST_INPUT, says something on its standard error, lists one option
# and answers every `go` with the null move (illegal in Salto: it loses).
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
echo "recorder $$ starts" >&2
while IFS= read -r line; do
    [ -n "$SIGIL_TEST_INPUT" ] && echo "$line" >> "$SIGIL_TEST_INPUT"
    case "$line" in
        uci) echo "id name recorder"; echo "option name Style type string default plain"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove 0000" ;;
        quit) exit 0 ;;
    esac
done
