# hwsim.sh - hostap's own tests/hwsim cases in a umlrun guest.
#
# Sourced by the test files `umlrun hwsim` writes (runner/run/hwsim.c),
# one file per batch of cases:
#
#	HWSIM_RADIOS=7 HWSIM_CHANNELS=1
#	HWSIM_PY_CRYPTO=alias    (a tree whose cases import Crypto: below)
#	. ../lib/hwsim.sh
#	hwsim_cases ap_open ap_open_unknown_action ...
#
# It sets the guest up as hostap's tests/hwsim/vm/inside.sh does for
# vm-run.sh (writable /etc with the groups the cases expect, the sudo
# stub, hostap's regdb, a system bus, loopback up), lays the tree out
# writable (the user's tree, read-only at /mnt/hostap, under an overlay
# with the built programs at /mnt/hostap-build on top of it), starts the
# daemons with hostap's own start.sh, runs the cases with hostap's own
# run-tests.py and turns its lines into KTAP: one result per case, in the
# order given, a skip with run-tests.py's reason. The logs of a case that
# did not pass go to /results/CASE/ (the run folder's artifacts); a
# passing case's are dropped.
#
# POSIX sh (busybox ash runs it); stdout is the result channel.

HWSIM_TREE=${HWSIM_TREE:-/mnt/hostap}
HWSIM_BUILD=${HWSIM_BUILD:-/mnt/hostap-build}
HWSIM_RADIOS=${HWSIM_RADIOS:-7}
HWSIM_CHANNELS=${HWSIM_CHANNELS:-1}
# Where the tree is writable, and run-tests.py's --logdir (tmpfs: the
# daemons' debug logs are written line by line).
hwsim__top=/tmp/hostap
hwsim__logs=/tmp/logs
hwsim__libdir=/usr/lib/x86_64-linux-gnu

hwsim__say() {
	echo "# $*"
}

# The guest's uptime: in simulated seconds, the wall's under --time-travel=basic.
hwsim__at() {
	hwsim__say "$* (at $(cut -d' ' -f1 /proc/uptime) s)"
}

# The guest as inside.sh leaves it; stderr (the console) gets the noise.
hwsim__setup_etc() {
	mkdir -p /tmp/etc.orig &&
		cp -a /etc/. /tmp/etc.orig/ &&
		mount -t tmpfs tmpfs /etc &&
		cp -a /tmp/etc.orig/. /etc/ || return 1
	# Some cases need the adm or admin group; run-tests.py runs as root.
	cat >/etc/group <<-'EOF'
		root:x:0:
		adm:x:0:
		admin:x:0:
		messagebus:x:106:
		nogroup:x:65534:
	EOF
	cat >/etc/passwd <<-'EOF'
		root:x:0:0:root:/tmp:/bin/bash
		messagebus:x:102:106::/var/run/dbus:/bin/false
		nobody:x:65534:65534:nobody:/nonexistent:/bin/false
	EOF
	printf 'IPv4\t0800\tip ip4\nARP\t0806\tether-arp\nIPv6\t86DD\tip6\n' >/etc/ethertypes
}

# The tree, writable: the user's under the built programs, a tmpfs on top.
hwsim__setup_tree() {
	mkdir -p /tmp/ov/up /tmp/ov/work "$hwsim__top" &&
		mount -t overlay overlay \
			-o "lowerdir=$HWSIM_BUILD/tree:$HWSIM_TREE,upperdir=/tmp/ov/up,workdir=/tmp/ov/work" \
			"$hwsim__top"
}

hwsim__setup() {
	hwsim__setup_etc || {
		hwsim__say "cannot make /etc writable"
		return 1
	}
	hwsim__setup_tree || {
		hwsim__say "cannot lay out the hostap tree (overlay of $HWSIM_BUILD/tree on $HWSIM_TREE)"
		return 1
	}
	[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
	# The sudo stub: everything runs as root already.
	mkdir -p /tmp/bin &&
		printf '#!/bin/sh\nexec "$@"\n' >/tmp/bin/sudo &&
		chmod +x /tmp/bin/sudo || return 1
	export PATH="/tmp/bin:/usr/sbin:$PATH"
	# VM=VM as run-all.sh --vm gives it: the cases that change the
	# system's state (require_under_vm) run, in a guest of their own.
	export HOME=/tmp USER=0 LOGDIR="$hwsim__logs" VM=VM
	# The libraries the built programs need, where the loader looks
	# whatever the environment (cases start them with env={...}).
	mount -t overlay overlay -o "lowerdir=$HWSIM_BUILD/lib:$hwsim__libdir" "$hwsim__libdir" || {
		hwsim__say "cannot lay $HWSIM_BUILD/lib over $hwsim__libdir"
		return 1
	}
	# hostap's regulatory database (its test keys), read again.
	if [ -d "$hwsim__top/tests/hwsim/vm/regdb" ]; then
		mount --bind "$hwsim__top/tests/hwsim/vm/regdb" /lib/firmware &&
			iw reg reload 2>/dev/null
	fi
	ip link set lo up
	mkdir -p "$hwsim__logs" /var/run/dbus
	if [ -r "$hwsim__top/tests/hwsim/vm/dbus.conf" ] && command -v dbus-daemon >/dev/null; then
		touch /var/run/dbus/hwsim-test
		chown messagebus:messagebus /var/run/dbus
		dbus-daemon --config-file="$hwsim__top/tests/hwsim/vm/dbus.conf" --fork >&2 ||
			hwsim__say "dbus-daemon did not start: the D-Bus cases will skip"
	fi
	# The radios run-tests.py expects: wlan0-wlan6 and hwsim0.
	i=0
	while [ "$i" -lt "$HWSIM_RADIOS" ]; do
		hwsimctl new --channels "$HWSIM_CHANNELS" >/dev/null || {
			hwsim__say "cannot create radio $i"
			return 1
		}
		i=$((i + 1))
	done
}

# hwsim__keep CASE: its logs to /results/CASE/ (run-tests.py names them
# CASE.*, and CASE.log).
hwsim__keep() {
	set -- "$1" "$hwsim__logs/$1".*
	[ -e "$2" ] || return 0
	mkdir -p "/results/$1" && mv "$@" "/results/$1/" 2>/dev/null
	return 0
}

hwsim__drop() {
	rm -f "$hwsim__logs/$1".*
}

# hwsim__ktap CASE...: read run-tests.py -q's lines; print one KTAP result
# per case.
#   START name i/n | PASS name secs date | FAIL name secs date
#   SKIP name secs date, then REASON text
# The cases print to the same stdout: a START counts only while no case
# is running, a result only for the case running, once. Any other line, a
# case's own PASS for another case among them, is a diagnostic. (Checking
# each START against the cases given, too, moved simulated seconds of
# the suite: the hostap suite's times follow the harness's own work.)
hwsim__ktap() {
	n=0
	held=
	ran=
	cur=
	todo=" $* "
	while IFS= read -r line || [ -n "$line" ]; do
		if [ -n "$held" ]; then
			case $line in
			'REASON '*)
				echo "ok $n $held # SKIP ${line#REASON }"
				held=
				continue
				;;
			esac
			echo "ok $n $held # SKIP"
			held=
		fi
		case $line in
		'START '*)
			# shellcheck disable=SC2086 # the words of the line
			set -- $line
			if [ -z "$cur" ]; then
				cur=$2
				ran="$ran $2"
			fi
			hwsim__say "$line"
			;;
		'PASS '* | 'FAIL '* | 'SKIP '*)
			# shellcheck disable=SC2086 # the words of the line
			set -- $line
			if [ -z "$cur" ] || [ "$2" != "$cur" ]; then
				hwsim__say "$line"
				continue
			fi
			cur=
			n=$((n + 1))
			echo "# $2: $3 simulated s"
			case $1 in
			PASS)
				hwsim__drop "$2"
				echo "ok $n $2"
				;;
			FAIL)
				hwsim__keep "$2"
				# The cases before it in this guest may be why.
				echo "# replay: umlrun hwsim --hostap=TREE$ran"
				echo "not ok $n $2"
				;;
			SKIP)
				hwsim__drop "$2"
				held=$2
				;;
			esac
			;;
		*) hwsim__say "$line" ;;
		esac
	done
	[ -z "$held" ] || echo "ok $n $held # SKIP"
	if [ -n "$cur" ]; then
		# run-tests.py stopped in it (killed, out of memory): the cases
		# after it go on in a fresh guest (umlrun's follow-up).
		n=$((n + 1))
		hwsim__keep "$cur"
		hwsim__say "run-tests.py ended in this case, before its result (console.log says how)"
		echo "not ok $n $cur"
	elif [ "$n" -eq 0 ]; then
		# It stopped before its first case (an import that failed): each
		# case fails here, rather than one guest after another.
		hwsim__say "run-tests.py reported no case: its error is in console.log"
		for c in $todo; do
			n=$((n + 1))
			echo "not ok $n $c"
		done
	fi
}

# hwsim_cases CASE...: run them, one KTAP result each.
hwsim_cases() {
	echo 'KTAP version 1'
	echo "1..$#"
	if ! hwsim__setup >&2; then
		hwsim__say "the guest could not be set up as hostap's inside.sh does (console.log)"
		exit 1
	fi
	hwsim__at "the guest is set up"
	# The modules umlrun byte-compiled beforehand (runner/run/hwsim_pyc.h).
	hwsim__say "tests/hwsim: $(ls "$HWSIM_BUILD/tree/tests/hwsim/__pycache__" 2>/dev/null |
		wc -l) modules byte-compiled beforehand"
	cd "$hwsim__top/tests/hwsim" || exit 1
	if ! ./start.sh VM channels="$HWSIM_CHANNELS" >&2; then
		hwsim__say "hostap's start.sh failed (console.log)"
		exit 1
	fi
	hwsim__at "hostap's daemons are started (start.sh)"
	# hostap's cases before 2023 import pycryptodome as Crypto only;
	# Debian's package names it Cryptodome. umlrun says when a tree does.
	if [ "${HWSIM_PY_CRYPTO:-}" = alias ]; then
		mkdir -p /tmp/hwsim-python &&
			ln -s /usr/lib/python3/dist-packages/Cryptodome /tmp/hwsim-python/Crypto &&
			export PYTHONPATH=/tmp/hwsim-python${PYTHONPATH:+:$PYTHONPATH}
	fi
	# --long as vm-run.sh gives it under UML: time travel makes them cheap.
	./run-tests.py -D --long --logdir "$hwsim__logs" -q "$@" 2>&2 | hwsim__ktap "$@"
	./stop.sh >/dev/null 2>&1
	exit 0
}
