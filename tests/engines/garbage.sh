#!/bin/sh
# A misbehaving engine for sigil-match's tests: it mixes binary junk, an
# over-long line and malformed info lines into its output, and answers `go`
# with a garbage move.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
long=xxxxxxxxxxxxxxxx
i=0
while [ $i -lt 11 ]; do long="$long$long"; i=$((i + 1)); done   # 32768 bytes
while IFS= read -r line; do
    case "$line" in
        uci|ugi)
            printf '\001\002\377\376 junk\r\n'
            echo "$long"
            echo "id name garbage"
            echo "option name"
            echo "option"
            echo "${line}ok" ;;
        isready) printf 'readyo\nreadyok\n' ;;
        go*)
            echo "info depth zz score cp"
            echo "info score mate"
            echo "$long"
            printf 'info string \377\001\033[31m\n'
            printf 'bestmove \377{}"\\\001junk\n' ;;
        quit) exit 0 ;;
    esac
done
