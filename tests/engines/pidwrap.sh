#!/bin/sh
# Runs the real engine ($SIGIL_BIN) under this script's pid after noting the
# pid, so that sigil-match's tests can kill the engine in the middle of a game.
[ -n "$SIGIL_TEST_PIDFILE" ] && echo $$ >> "$SIGIL_TEST_PIDFILE"
exec "$SIGIL_BIN" "$@"
