#!/bin/sh
# t-shell.sh - umlrun shell, driven through a terminal.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# wait_screen TEXT: until the shell's screen shows TEXT (at most 30 s).
wait_screen() {
	i=0
	while ! tmux -L umlrun-itest capture-pane -p -t sh 2>/dev/null | grep -q "$1"; do
		[ $i -ge 150 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}
tmux -L umlrun-itest new-session -d -s sh -x 100 -y 30 \
	"$umlrun shell --suite-dir=$suites; echo shell-exit=\$?; sleep 30"
wait_screen '/suite #' && tmux -L umlrun-itest send-keys -t sh 'echo marker-$((6*7)); ls' Enter &&
	wait_screen 'marker-42' && tmux -L umlrun-itest send-keys -t sh 'exit' Enter &&
	wait_screen 'shell-exit=0' && tmux -L umlrun-itest capture-pane -p -t sh | grep -q itest
check "umlrun shell gives an interactive shell in /suite that exits cleanly"
tmux -L umlrun-itest kill-server 2>/dev/null
nothing_left
check "nothing is left behind after the shell"

# umlrun shell on a terminal (script(1) gives it one): a guest that panics
# leaves the terminal as it found it, echo and line editing on.
(sleep 3; echo 'echo c >/proc/sysrq-trigger'; sleep 4) |
	timeout 60 script -qc "sh -c '\"$umlrun\" shell >\"$work/shell.out\" 2>&1; stty -a'" /dev/null >"$work/tty" 2>&1
grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$work/shell.out" &&
	grep -q ' icanon' "$work/tty" && grep -q ' echo ' "$work/tty" && nothing_left
check "umlrun shell: a guest that panics leaves the terminal's settings as they were"

tap_done
