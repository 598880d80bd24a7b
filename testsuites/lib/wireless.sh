# SPDX-License-Identifier: MIT
# wireless.sh - radios, access points and stations for the wireless suite.
#
# Sourced by a test file after the harness:
#
#	test_description='WPA2-PSK'
#	. ../lib/harness.sh
#	. "$HARNESS_SUITE_DIR/../lib/wireless.sh"  # the harness cd-ed away
#
#	test_expect_success 'a WPA2-PSK station associates and passes data' '
#		wl_setup &&
#		wl_radio ap0 && wl_radio sta0 &&
#		wl_ap ap0 <<-\EOF &&
#		ssid=umlrun
#		wpa=2
#		wpa_key_mgmt=WPA-PSK
#		rsn_pairwise=CCMP
#		wpa_passphrase=correct horse battery
#		EOF
#		wl_sta sta0 <<-\EOF &&
#		network={
#			ssid="umlrun"
#			psk="correct horse battery"
#		}
#		EOF
#		wl_connected sta0 &&
#		wl_ip ap0 10.0.0.1/24 && wl_ip sta0 10.0.0.2/24 &&
#		wl_ping sta0 10.0.0.1
#	'
#	test_done
#
# The model
# ---------
# The guest boots with no radios (mac80211_hwsim.radios=0). `wl_radio NAME`
# makes one radio and gives it a network namespace of its own, both called
# NAME, with one interface, also called NAME, inside: an AP and a station on
# different radios are then two machines, and a ping between them crosses
# the simulated air as real 802.11 data frames (hwsim moves frames between
# radios whatever their namespace). Every other function takes that NAME.
#
# `wl_ap` and `wl_sta` start hostapd or wpa_supplicant on the radio, in its
# namespace, from the configuration the test gives on stdin (usually a
# here-document). A few lines are written before the test's own: the
# interface, the driver, the control socket and, for hostapd, hw_mode=g and
# channel=1; a later line wins, so a test may change any of them. Both
# daemons run in the foreground as children of the test shell, with full
# debug logging, so that the cleanup can stop them and collect their exit
# status; `wl_ap` returns once the AP is enabled, `wl_sta` once the
# supplicant answers on its control socket.
#
# Events come from the daemons' control sockets through `wpactl wait`
# (wl_wait), which attaches before it acts, so nothing is missed: use
# `wl_wait NAME -c CMD EVENT` to send a command and wait for what it causes,
# `-x SHELLCMD` for an action elsewhere (`wl_wait sta0 -x "$(wl_kill_cmd
# ap0)" CTRL-EVENT-DISCONNECTED`), `-s STATUS field=value EVENT` for a state
# that may already hold. Its timeouts are poll() timeouts, i.e. simulated
# seconds under time travel: wait for the real protocol timer, with some
# margin, never sleep in its place. `-T` stamps each event with the uptime;
# wl_intervals checks the spacing of periodic events from those stamps.
#
# A file that sets WL_MONITOR=1 (or a test that calls `wl_monitor NAME`)
# gives each daemon an event monitor, attached before wl_ap or wl_sta
# return: `wpactl monitor` logs every event the daemon sends to
# wlN-NAME.monitor and keeps a cursor there. A wl_wait on NAME then waits
# for the first matching event after the cursor, which the previous
# wl_wait on NAME left after its last match and each wl_ctl to NAME moves
# to its send; so a step and the wait for what it causes are two steps,
# whenever the event comes:
#
#	wl_ctl sta0 REASSOCIATE &&
#	wl_wait sta0 CTRL-EVENT-CONNECTED
#
#	wl_stop ap0 &&
#	wl_wait sta0 CTRL-EVENT-DISCONNECTED
#
# -c, -x and -s keep their meaning (they wait from a mark made before the
# action), and wl_status and wl_authorized leave the cursor alone.
# Monitors are off by default: they change no result, but their system
# calls move the scheduling of what follows, and where a daemon's start
# races the first connection to its control socket a file's simulated
# time moves by a 10 ms tick (docs/wireless.md, "Event monitors").
#
# Every test starts with `wl_setup` and nothing else to clean: wl_setup
# registers wl_cleanup with test_when_finished, which stops every daemon
# the test started, the capture, deletes the radios and the namespaces.
# wl_setup also checks the slate is clean, and cleans (with a diagnostic)
# whatever an earlier, broken test left, so one bad test does not spoil
# the next.
#
# Artifacts, in $UMLRUN_ARTIFACTS (the test file's results folder), named
# after the test's number N in the file (wl_setup counts):
#	wlN.pcap                 the air: every frame of every radio (hwsim0)
#	wlN.tcpdump.log          tcpdump's own messages
#	wlN-NAME.hostapd.conf    the configuration hostapd got
#	wlN-NAME.hostapd.log     hostapd -dd -t: debug log, simulated time
#	wlN-NAME.wpa_supplicant.conf / .log   the same for a station
#	wlN-NAME.events          every wl_wait and wl_ctl on NAME: what it
#	                         sent or waited for, what came back (with -T
#	                         the times), the exit status and the uptime
#	wlN-NAME.monitor         with a monitor: every event NAME's daemon
#	                         sent, stamped with its arrival, and a "# "
#	                         note for each wl_ctl and wl_wait
# docs/wireless.md shows how to read them.
#
# The functions (details above each one)
# -------------
#	wl_setup                      start a test (clean slate, capture, cleanup)
#	wl_radio NAME [OPTS], wl_radios NAME...   radios, namespaces, interfaces
#	wl_iface RADIO NAME           a second interface on RADIO's radio
#	wl_ap NAME [FILE], wl_sta NAME [FILE]     start hostapd, wpa_supplicant
#	wl_net_ap, wl_net_sta NAME KIND SSID [SECRET] [LINE...]   the same, for
#	                              a preset network: open, psk, sae, pmf, eap
#	wl_ctl NAME CMD...            a control command, its reply on stdout
#	wl_wait NAME [OPTS] EVENT...  wait for events (wpactl wait)
#	wl_monitor NAME               an event monitor for NAME (WL_MONITOR=1: all)
#	wl_connected NAME [SECONDS]   station NAME is connected
#	wl_completed NAME [SECONDS]   COMPLETED again (after a rekey: waits)
#	wl_until SECONDS CMD...       CMD succeeds, retried every 0.1 s
#	wl_status NAME FIELD          a field of STATUS
#	wl_authorized AP STA          hostapd lists STA as authorized
#	wl_stop NAME                  stop the daemon of NAME, return its status
#	wl_pid, wl_log, wl_kill_cmd NAME   its pid, its log, a kill command
#	wl_in NAME CMD...             run CMD in the namespace of NAME
#	wl_addr NAME, wl_ip NAME ADDR/LEN   MAC address; add an IP address
#	wl_ping NAME ADDR [N], wl_no_ping NAME ADDR   data over the air
#	wl_range NAME on|off, wl_range_cmd   in or out of range of all others
#	wl_air [FILTER], wl_air_has TEXT, wl_air_lacks TEXT   the capture
#	wl_intervals FILE MIN MAX     spacing of `wl_wait -T` events
#	wl_uptime                     seconds since boot (simulated)
#	wl_bss AP IFNAME              a further BSS (bss=IFNAME) of AP's hostapd
#	wl_group NAME MASK            hwsim group bits of NAME (who hears whom)
#	wl_certs [DIR]                a CA, server and client certificates (openssl)
#	wl_host NAME                  a namespace with no radio (a wired server)
#	wl_link A ADDR B ADDR         a cable (veth pair) between two namespaces
#	wl_radar NAME, wl_radar_cmd   hwsim reports a radar on NAME's channel
#	wl_ap_start NAME [FILE]       hostapd, without waiting for the AP to be up
#	wl_inject NAME HEX            send a forged 802.11 frame from NAME's radio
#
# Function names start with wl_; internal ones with wl__ and internal
# variables with wl__ or WL__.

# ---- Settings -----------------------------------------------------------------

WL_ART=${UMLRUN_ARTIFACTS:-${TMPDIR:-/tmp}}
WL_HOSTAPD_DIR=/run/hostapd
WL_WPAS_DIR=/run/wpa_supplicant
# The sockets of the daemons' event monitors (wl_monitor), one per
# daemon, and the fifo on which each says it is attached. WL_MONITOR=1,
# set by a test file (before or after sourcing this library), gives every
# daemon it starts a monitor; wl_monitor NAME gives one daemon one.
WL__MON_DIR=/run/wpactl
WL__MON_FIFO=/run/wpactl.ready
: "${WL_MONITOR:=0}"
# Seconds (simulated) a daemon gets to come up, and a station to connect.
WL_START_TIMEOUT=20
WL_CONNECT_TIMEOUT=60
# Radios a test may make (a runaway loop stops here, not in the kernel).
: "${WL_MAX_RADIOS:=8}"

# iproute2's ip: `ip netns` is not in busybox's ip applet, which may come
# first in PATH.
if ip -V 2>/dev/null | grep -q iproute2; then
	WL_IP=ip
else
	WL_IP=/usr/bin/ip
fi

# The air (tcpdump on hwsim0, artifacts/wlN.pcap) is captured in the tests
# of a file that reads it (wl_air, wl_air_has, wl_air_lacks: the file's
# text is searched once, here). WL_CAPTURE=1 set before this library is
# sourced captures every test of the file, WL_CAPTURE=0 none. A capture
# costs about a tenth of a file's wall time (docs/wireless.md).
if [ -z "${WL_CAPTURE-}" ]; then
	WL_CAPTURE=1
	wl__self=$HARNESS_SUITE_DIR/${0##*/}
	if [ -r "$wl__self" ] && ! grep -q 'wl_air' "$wl__self"; then
		WL_CAPTURE=0
	fi
fi

WL__N=0		# tests that called wl_setup: the N of the artifact names
WL__MACS=0	# radios made by this file: their MAC addresses
WL_TAG=		# "wlN" of the current test
WL__RADIOS=	# radios (and namespaces) of the current test
WL__DAEMONS=	# radios with a daemon the current test started
WL__ALIASES=	# further BSSes (wl_bss) of the current test
WL__CAP_PID=	# tcpdump and the reader of its stderr
WL__CAP_CAT=

# ---- Internal helpers ---------------------------------------------------------

# A message on the console (the body's stderr), not on the result channel.
wl__note () {
	printf '# wireless: %s\n' "$*" >&2
}

wl__check_name () {
	case $1 in
	'' | *[!a-z0-9]*)
		say "wireless: bad radio name '$1' (want [a-z0-9]+)"
		return 1 ;;
	esac
}

wl__known () {
	case " $WL__RADIOS " in
	*" $1 "*) return 0 ;;
	esac
	say "wireless: no radio '$1' in this test (wl_radio makes one)"
	return 1
}

# Shows the end of a daemon's log as diagnostics of the current test.
wl__show_log () {
	say "wireless: the end of $1:"
	if [ -s "$1" ]; then
		say "$(tail -n "${2:-12}" "$1")"
	else
		say "(empty)"
	fi
}

# wl__ctrl_dir NAME: sets wl__d to the control socket folder of NAME's
# daemon (a variable, not output: $(...) would cost a fork).
wl__ctrl_dir () {
	eval "wl__kind=\${WL__KIND_$1-}"
	case $wl__kind in
	hostapd) wl__d=$WL_HOSTAPD_DIR ;;
	wpa_supplicant) wl__d=$WL_WPAS_DIR ;;
	*)
		say "wireless: no daemon runs on '$1'"
		return 1 ;;
	esac
}

# ---- Radios -------------------------------------------------------------------

# wl_radio NAME [hwsimctl new OPTIONS]: a radio NAME in a network namespace
# NAME, holding one managed interface NAME.
wl_radio () {
	wl__check_name "$1" || return 1
	wl__name=$1
	shift
	case " $WL__RADIOS " in
	*" $wl__name "*)
		say "wireless: radio '$wl__name' exists already"
		return 1 ;;
	esac
	wl__count=0
	for wl__r in $WL__RADIOS; do
		wl__count=$((wl__count + 1))
	done
	if [ "$wl__count" -ge "$WL_MAX_RADIOS" ]; then
		say "wireless: radio '$wl__name' would be radio $((wl__count + 1)) of this test;" \
			"WL_MAX_RADIOS allows $WL_MAX_RADIOS"
		return 1
	fi
	# The MAC address: 02:00:00:HH:LL:00 from a counter of this test
	# file, unless the test chose one. Known without asking the guest
	# (wl_addr), and the same in every run whatever ran before.
	WL__MACS=$((WL__MACS + 1))
	wl__mac=$(printf '02:00:00:%02x:%02x:00' $((WL__MACS / 256 % 256)) $((WL__MACS % 256)))
	wl__a= wl__own=
	for wl__o; do
		[ "$wl__a" = --perm-addr ] && wl__mac=$wl__o wl__own=t
		wl__a=$wl__o
	done
	[ -n "$wl__own" ] || set -- --perm-addr "$wl__mac" "$@"
	# One process makes the namespace (lo up), the radio (in the initial
	# namespace: hwsim only lets radios made in the same namespace hear
	# each other), moves it in and adds the interface. Each process costs
	# tens of milliseconds in the guest; this was five.
	if ! hwsimctl new --netns --name "$wl__name" "$@" >/dev/null \
		2>"$HARNESS_TRASH_DIR/radio.err"; then
		say "wireless: cannot make radio '$wl__name': $(cat "$HARNESS_TRASH_DIR/radio.err")"
		return 1
	fi
	WL__RADIOS="$WL__RADIOS $wl__name"
	eval "WL__MAC_$wl__name=\$wl__mac"
}

# wl_radios NAME...: one default radio for each NAME.
wl_radios () {
	for wl__r; do
		wl_radio "$wl__r" || return 1
	done
}

# wl_iface RADIO NAME: a second managed interface NAME on the radio of RADIO,
# in RADIO's namespace (/run/netns/NAME names the same one), with a MAC
# address of its own: a station beside an AP on one radio set. NAME then
# takes wl_sta, wl_ap, wl_ctl, wl_wait, wl_ip and wl_in as a radio does;
# what the radio can do at once (one channel, or more with `wl_radio RADIO
# --channels 2`) is the kernel's to say. It goes with RADIO's radio.
wl_iface () {
	wl__known "$1" && wl__check_name "$2" || return 1
	case " $WL__RADIOS " in
	*" $2 "*)
		say "wireless: '$2' exists already"
		return 1 ;;
	esac
	WL__MACS=$((WL__MACS + 1))
	wl__mac=$(printf '02:00:00:%02x:%02x:00' $((WL__MACS / 256 % 256)) $((WL__MACS % 256)))
	if ! wl_in "$1" iw dev "$1" interface add "$2" type managed addr "$wl__mac" \
		2>"$HARNESS_TRASH_DIR/iface.err"; then
		say "wireless: cannot add interface '$2' on '$1': $(cat "$HARNESS_TRASH_DIR/iface.err")"
		return 1
	fi
	: >"/run/netns/$2" && mount --bind "/run/netns/$1" "/run/netns/$2" || return 1
	WL__RADIOS="$WL__RADIOS $2"
	eval "WL__MAC_$2=\$wl__mac"
}

# wl_in NAME CMD...: run CMD in NAME's namespace.
wl_in () {
	wl__known "$1" || return 1
	wl__ns=$1
	shift
	# nsexec: ip netns exec in a small static program (a dynamic ip costs
	# the loader its libraries on every call; rootfs/helpers/nsexec.c).
	nsexec "$wl__ns" "$@"
}

# wl_addr NAME: the MAC address of NAME's interface.
wl_addr () {
	wl__known "$1" || return 1
	eval "echo \"\$WL__MAC_$1\""
}

# wl_ip NAME ADDR/PREFIX: give NAME's interface an address.
wl_ip () {
	wl__known "$1" && $WL_IP -n "$1" addr add "$2" dev "$1"
}

# wl_ping NAME ADDR [COUNT]: COUNT (3) echo requests from NAME's namespace,
# all answered. Each waits up to 2 s (simulated).
wl_ping () {
	wl_in "$1" ping -c "${3:-3}" -W 2 "$2" >"$HARNESS_TRASH_DIR/ping.out" 2>&1 && return 0
	say "wireless: ping from $1 to $2 failed:"
	say "$(cat "$HARNESS_TRASH_DIR/ping.out")"
	return 1
}

# wl_no_ping NAME ADDR: ADDR must not answer from NAME (one request, 2 s).
wl_no_ping () {
	if wl_in "$1" ping -c 1 -W 2 "$2" >/dev/null 2>&1; then
		say "wireless: $2 answered a ping from $1"
		return 1
	fi
}

# ---- Daemons ------------------------------------------------------------------

# wl__start NAME KIND LOG CMD...: run CMD in NAME's namespace in the
# background, logging to LOG, and remember it. fds 6 and 7 belong to the
# harness and stdout is the result channel: the daemon gets none of them.
wl__start () {
	wl__n=$1 wl__k=$2 wl__l=$3
	shift 3
	read -r wl__u _ </proc/uptime
	printf '\n%s: %s\n' "$wl__u" "$*" >>"$wl__l"
	nsexec "$wl__n" "$@" >>"$wl__l" 2>&1 </dev/null 6>&- 7>&- &
	eval "WL__PID_$wl__n=\$! WL__KIND_$wl__n=\$wl__k WL__LOG_$wl__n=\$wl__l"
	case " $WL__DAEMONS " in
	*" $wl__n "*) ;;
	*) WL__DAEMONS="$WL__DAEMONS $wl__n" ;;
	esac
}

# wl__monitor NAME: start the event monitor of NAME's daemon, once the
# daemon answers (under WL_MONITOR=1, wl_ap, wl_ap_start, wl_sta and wl_bss
# call it before they return), and return once it is attached. `wpactl
# monitor` appends every event, with its uptime, to wlN-NAME.monitor until
# the daemon exits or wl_stop detaches it; wl_ctl and wl_wait go through
# its socket (-M): a wait starts at the cursor the monitor keeps, so an
# event that came before the wait started is not lost. It says "attached"
# on a fifo read here: no process and no polling. It starts only once the
# control socket is there, so that it never waits for it with inotify:
# closing an inotify instance costs a 10 ms tick of simulated time, which
# the readiness checks pay as they always have. Its own messages go to
# its log.
wl__monitor () {
	wl__ctrl_dir "$1" || return 1
	eval "wl__p=\$WL__PID_$1"
	wl__m=$WL_ART/$WL_TAG-$1.monitor
	[ -p "$WL__MON_FIFO" ] || mkfifo "$WL__MON_FIFO" || return 1
	wpactl -p "$wl__d" -i "$1" -P "$wl__p" monitor "$WL__MON_DIR/$1" "$wl__m" \
		>"$WL__MON_FIFO" 2>>"$wl__m" </dev/null 6>&- 7>&- &
	eval "WL__MON_$1=\$!"
	# Both opens of the fifo block until the other side comes; a monitor
	# that fails closes it without a word.
	wl__ml=
	IFS= read -r wl__ml <"$WL__MON_FIFO"
	[ "$wl__ml" = attached ] && return 0
	say "wireless: no event monitor attached to $1 (see $wl__m)"
	return 1
}

# wl__auto_monitor NAME: wl__monitor NAME under WL_MONITOR=1.
wl__auto_monitor () {
	[ "$WL_MONITOR" != 1 ] || wl__monitor "$1"
}

# wl_monitor NAME: an event monitor for the daemon running on NAME, from
# now on (WL_MONITOR=1 gives one to every daemon as it starts). With it, a
# wl_wait NAME EVENT starts at NAME's cursor, not at the moment it is
# called: `wl_ctl NAME CMD && wl_wait NAME EVENT` cannot miss what CMD
# caused, however quickly it came. Off by default: its few system calls
# move the scheduling of what follows by microseconds, and where a
# daemon's start races the first connection to its control socket, by a
# 10 ms tick (docs/wireless.md, "Event monitors").
wl_monitor () {
	wl__running "$1" || { say "wireless: no daemon runs on '$1'"; return 1; }
	eval "wl__mp=\${WL__MON_$1-}"
	[ -z "$wl__mp" ] || { say "wireless: '$1' has a monitor already"; return 1; }
	wl__monitor "$1"
}

# wl__unmonitor NAME: the monitor of NAME detaches from the daemon and
# ends (SIGTERM; it answers for itself), and is reaped. Before the daemon
# is stopped: wpa_supplicant waits 100 ms before it exits while a monitor
# is attached, which would move every stop by that much simulated time.
wl__unmonitor () {
	eval "wl__mp=\${WL__MON_$1-}"
	[ -n "$wl__mp" ] || return 0
	kill -TERM "$wl__mp" 2>/dev/null
	wait "$wl__mp"
	eval "WL__MON_$1="
}

# wl__config NAME KIND [FILE]: the config file of NAME's daemon: defaults,
# then FILE or stdin. Sets wl__conf to its path.
wl__config () {
	wl__conf=$WL_ART/$WL_TAG-$1.$2.conf
	case $2 in
	hostapd)
		printf '%s\n' "# wl_ap defaults; the test's lines follow and win" \
			"interface=$1" driver=nl80211 \
			"ctrl_interface=$WL_HOSTAPD_DIR" hw_mode=g channel=1 ;;
	wpa_supplicant)
		printf '%s\n' "# wl_sta defaults; the test's lines follow" \
			"ctrl_interface=$WL_WPAS_DIR" ;;
	esac >"$wl__conf" || return 1
	# The shell's read instead of cat: one process fewer per daemon start
	# (about 290 in a run of the wireless suite).
	if [ -n "${3-}" ]; then
		wl__lines <"$3" >>"$wl__conf"
	else
		wl__lines >>"$wl__conf"
	fi
}

# wl__lines: copy stdin to stdout, line by line, a last line without its
# newline included.
wl__lines () {
	while IFS= read -r wl__l || [ -n "$wl__l" ]; do
		printf '%s\n' "$wl__l"
	done
}

# wl__hostapd NAME [FILE]: start hostapd on radio NAME with its configuration
# (wl__config), its log in the artifacts; wl_ap and wl_ap_start wait on it.
wl__hostapd () {
	wl__idle "$1" || return 1
	wl__config "$1" hostapd "${2-}" || return 1
	wl__ap_conf=$wl__conf
	wl__ap_log=$WL_ART/$WL_TAG-$1.hostapd.log
	{ [ -d "$WL_HOSTAPD_DIR" ] || mkdir -p "$WL_HOSTAPD_DIR"; } &&
	wl__start "$1" hostapd "$wl__ap_log" \
		hostapd -dd -t -f "$wl__ap_log" "$wl__ap_conf" || return 1
}

# wl_ap NAME [FILE]: start hostapd on radio NAME with the configuration on
# stdin (or in FILE); return once the AP is enabled. On failure, hostapd's
# own error is shown from its log, and the test fails.
wl_ap () {
	wl__hostapd "$@" || return 1
	# hostapd exits when its interface fails (AP-DISABLED), which ends the
	# wait at once; the state line or event tells which way it went.
	wl__got=$(wl_wait "$1" -w "$WL_START_TIMEOUT" -t "$WL_START_TIMEOUT" \
		-s STATUS state=ENABLED state=DISABLED AP-ENABLED AP-DISABLED)
	case $wl__got in
	*DISABLED*) ;;
	*ENABLED*) wl__auto_monitor "$1" && return 0 ;;
	esac
	say "wireless: hostapd on $1 did not come up"
	wl__show_log "$wl__ap_log"
	return 1
}

# wl_sta NAME [FILE]: start wpa_supplicant on radio NAME with the
# configuration (global lines, then network blocks) on stdin or in FILE;
# return once it answers on its control socket.
wl_sta () {
	wl__idle "$1" || return 1
	wl__config "$1" wpa_supplicant "${2-}" || return 1
	wl__sta_conf=$wl__conf
	wl__sta_log=$WL_ART/$WL_TAG-$1.wpa_supplicant.log
	{ [ -d "$WL_WPAS_DIR" ] || mkdir -p "$WL_WPAS_DIR"; } &&
	wl__start "$1" wpa_supplicant "$wl__sta_log" \
		wpa_supplicant -i "$1" -D nl80211 -c "$wl__sta_conf" \
		-dd -t -f "$wl__sta_log" || return 1
	if ! wl_ctl "$1" -w "$WL_START_TIMEOUT" PING >/dev/null; then
		say "wireless: wpa_supplicant on $1 did not come up"
		wl__show_log "$wl__sta_log"
		return 1
	fi
	wl__auto_monitor "$1"
}

# ---- Network presets ---------------------------------------------------------
#
# The common networks in one line each, after hostap's own tests
# (hostapd.wpa2_params): the AP and its station share KIND, SSID and
# SECRET, and further LINEs go after the preset's (a later line wins):
#
#	wl_net_ap ap0 psk umlrun-gtk "group keys rotate" wpa_group_rekey=30 &&
#	wl_net_sta sta0 psk umlrun-gtk "group keys rotate" &&
#	wl_connected sta0
#
# KIND      SECRET      hostapd                 the station's network block
# open      (none)      ssid only               key_mgmt=NONE
# psk       passphrase  WPA2-PSK, CCMP          key_mgmt=WPA-PSK, psk
# sae       password    WPA3-SAE, CCMP, MFP     key_mgmt=SAE, ieee80211w=2,
#                       required                sae_password
# pmf       passphrase  WPA2-PSK and -SHA256,   key_mgmt=WPA-PSK WPA-PSK-SHA256
#                       CCMP (ieee80211w= is    (ieee80211w= a LINE)
#                       a LINE)
# eap       (none)      WPA2-Enterprise, CCMP,  key_mgmt=WPA-EAP (the method
#                       hostapd's own EAP       and identity are LINEs)
#                       server (its user file
#                       and certificates are
#                       LINEs)
#
# A station's LINEs go inside its network block (disabled=1, bssid=...); a
# station that needs global lines too uses wl_sta with a here-document.
# The files are written with the shell's printf: no process is started
# that wl_ap and wl_sta would not start. They are kept as
# wlN-NAME.hostapd.conf and wlN-NAME.wpa_supplicant.conf, as wl_ap's are.

# wl__preset KIND WHO SSID SECRET: the preset's lines for WHO (ap or sta);
# sets wl__nsec to the number of the caller's arguments it takes: 2 (KIND
# and SSID) or 3 (and the SECRET; open and eap have none).
wl__preset () {
	wl__nsec=3
	case $1 in
	open | eap) wl__nsec=2 ;;
	psk | sae | pmf)
		if [ -z "$4" ]; then
			say "wireless: the $1 preset needs an SSID and a secret"
			return 2
		fi ;;
	*)
		say "wireless: no network preset '$1' (open, psk, sae, pmf, eap)"
		return 2 ;;
	esac
	if [ -z "$3" ]; then
		say "wireless: the $1 preset needs an SSID"
		return 2
	fi
	case $2.$1 in
	ap.open) printf '%s\n' "ssid=$3" ;;
	ap.psk) printf '%s\n' "ssid=$3" wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP \
		"wpa_passphrase=$4" ;;
	ap.sae) printf '%s\n' "ssid=$3" wpa=2 wpa_key_mgmt=SAE rsn_pairwise=CCMP \
		ieee80211w=2 "sae_password=$4" ;;
	ap.pmf) printf '%s\n' "ssid=$3" wpa=2 "wpa_key_mgmt=WPA-PSK WPA-PSK-SHA256" \
		rsn_pairwise=CCMP "wpa_passphrase=$4" ;;
	ap.eap) printf '%s\n' "ssid=$3" wpa=2 wpa_key_mgmt=WPA-EAP rsn_pairwise=CCMP \
		ieee8021x=1 eap_server=1 ;;
	sta.open) printf '\t%s\n' "ssid=\"$3\"" key_mgmt=NONE ;;
	sta.psk) printf '\t%s\n' "ssid=\"$3\"" key_mgmt=WPA-PSK "psk=\"$4\"" ;;
	sta.sae) printf '\t%s\n' "ssid=\"$3\"" key_mgmt=SAE ieee80211w=2 \
		"sae_password=\"$4\"" ;;
	sta.pmf) printf '\t%s\n' "ssid=\"$3\"" "key_mgmt=WPA-PSK WPA-PSK-SHA256" \
		"psk=\"$4\"" ;;
	sta.eap) printf '\t%s\n' "ssid=\"$3\"" key_mgmt=WPA-EAP ;;
	esac
}

# wl_net_ap NAME KIND SSID [SECRET] [LINE...]: wl_ap with the preset
# KIND's configuration (the table above), then the LINEs.
wl_net_ap () {
	wl__x=$1
	shift
	wl__f=$HARNESS_TRASH_DIR/net-$wl__x.hostapd.conf
	wl__preset "$1" ap "${2-}" "${3-}" >"$wl__f" || return
	shift "$wl__nsec"
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >>"$wl__f" || return 1
	fi
	wl_ap "$wl__x" "$wl__f"
}

# wl_net_sta NAME KIND SSID [SECRET] [LINE...]: wl_sta with one network
# block, the preset KIND's (the table above) and the LINEs in it.
wl_net_sta () {
	wl__x=$1
	shift
	wl__f=$HARNESS_TRASH_DIR/net-$wl__x.wpa_supplicant.conf
	{
		printf '%s\n' "network={" &&
		wl__preset "$1" sta "${2-}" "${3-}"
	} >"$wl__f" || return
	shift "$wl__nsec"
	{
		if [ $# -gt 0 ]; then
			printf '\t%s\n' "$@"
		fi &&
		printf '%s\n' "}"
	} >>"$wl__f" || return 1
	wl_sta "$wl__x" "$wl__f"
}

# wl__idle NAME: a radio of this test, with no daemon on it yet.
wl__idle () {
	wl__known "$1" || return 1
	wl__running "$1" || return 0
	say "wireless: a daemon runs on '$1' already (wl_stop it first)"
	return 1
}

wl__running () {
	eval "wl__p=\${WL__PID_$1-}"
	[ -n "$wl__p" ]
}

# wl_pid NAME: the pid of NAME's daemon.
wl_pid () {
	eval "wl__p=\${WL__PID_$1-}"
	[ -n "$wl__p" ] || { say "wireless: no daemon runs on '$1'"; return 1; }
	echo "$wl__p"
}

# wl_log NAME: the path of NAME's daemon log.
wl_log () {
	eval "wl__p=\${WL__LOG_$1-}"
	[ -n "$wl__p" ] || { say "wireless: no daemon ran on '$1'"; return 1; }
	echo "$wl__p"
}

# wl__names_of PID: sets wl__ns to the names whose daemon is PID: a
# radio's, and those of its further BSSes (wl_bss).
wl__names_of () {
	wl__ns=
	for wl__x in $WL__DAEMONS $WL__ALIASES; do
		eval "wl__q=\${WL__PID_$wl__x-}"
		[ "$wl__q" != "$1" ] || wl__ns="$wl__ns $wl__x"
	done
}

# wl_kill_cmd NAME: a shell command that sends SIGTERM to NAME's daemon, for
# `wl_wait OTHER -x`; reap it afterwards with wl_stop. Its monitors, if
# any, detach first (`wpactl -M SOCKET detach`, see wl__unmonitor).
wl_kill_cmd () {
	wl__p=$(wl_pid "$1") || return 1
	wl__names_of "$wl__p"
	wl__c=
	for wl__x in $wl__ns; do
		eval "wl__mp=\${WL__MON_$wl__x-}"
		[ -z "$wl__mp" ] ||
			wl__c="${wl__c}wpactl -M $WL__MON_DIR/$wl__x detach 2>/dev/null; "
	done
	echo "${wl__c}kill -TERM $wl__p"
}

# wl_stop NAME: stop NAME's daemon (SIGTERM: hostapd deauthenticates its
# stations, wpa_supplicant disconnects) and reap it. Returns its exit status.
# Its monitors, if any, detach and end first: the daemon's last events are
# not logged (wl__unmonitor says why).
wl_stop () {
	eval "wl__p=\${WL__PID_$1-}"
	[ -n "$wl__p" ] || { say "wireless: no daemon runs on '$1'"; return 1; }
	wl__names_of "$wl__p"
	for wl__x in $wl__ns; do
		wl__unmonitor "$wl__x"
	done
	# A daemon that died on its own is a zombie: kill succeeds, wait
	# returns its status.
	kill -TERM "$wl__p" 2>/dev/null
	wait "$wl__p"
	wl__st=$?
	eval "WL__PID_$1="
	return $wl__st
}

# wl__via NAME: sets wl__o to the wpactl options that reach NAME's daemon:
# its pid (-P: a daemon that exits ends a wait at once) and, while it has
# one, its monitor (-M).
wl__via () {
	eval "wl__p=\${WL__PID_$1-} wl__mp=\${WL__MON_$1-}"
	wl__o=
	[ -z "$wl__p" ] || wl__o="-P $wl__p"
	[ -z "$wl__p" ] || [ -z "$wl__mp" ] || wl__o="$wl__o -M $WL__MON_DIR/$1"
}

# wl_ctl NAME [wpactl OPTIONS] CMD...: a control command to NAME's daemon;
# prints the reply. A FAIL reply (or no reply) fails, with a diagnostic.
# With a monitor on NAME, the command is marked in its log and the cursor
# moves to it: a `wl_wait NAME EVENT` after it sees what the command
# caused, whenever it came, and nothing from before.
wl_ctl () {
	wl__i=$1
	shift
	wl__send "$wl__i" mark "$@"
}

# wl__query NAME CMD...: wl_ctl for the library's own questions (wl_status,
# wl_authorized): the cursor stays where it is, so asking about the state
# between an action and the wait for its event loses nothing.
wl__query () {
	wl__i=$1
	shift
	wl__send "$wl__i" "" "$@"
}

# wl__send NAME MARK CMD...: wl_ctl (MARK not empty) or wl__query.
wl__send () {
	wl__ctrl_dir "$1" || return 1
	wl__i=$1
	wl__via "$1"
	[ -n "$2" ] || wl__o=${wl__p:+-P $wl__p}
	shift 2
	# The reply goes straight to stdout; -L keeps the exchange for the
	# reader of the artifacts.
	wpactl -p "$wl__d" -i "$wl__i" $wl__o -L "$WL_ART/$WL_TAG-$wl__i.events" \
		"$@" 2>"$HARNESS_TRASH_DIR/ctl.err" && return 0
	wl__st=$?
	say "wireless: '$*' to $wl__i failed: $(cat "$HARNESS_TRASH_DIR/ctl.err")"
	return $wl__st
}

# wl_wait NAME [-w S] [wait OPTIONS] EVENT...: `wpactl wait` on NAME's
# daemon (see rootfs/helpers/wpactl.c): -t SECONDS, -n COUNT, -T, -c CMD,
# -x SHELLCMD, -s CMD. Prints the matching events as they come. Without a
# monitor on NAME, the events from the moment it attaches. With one, those
# of the monitor's log after the cursor: after the last event the previous
# wl_wait on NAME matched, or the last wl_ctl to it, or the monitor's
# start; with -c, -x or -s, after a mark made before the action. The
# cursor then moves past the last match. A daemon that exits meanwhile
# ends the wait at once. On a timeout the last events seen become
# diagnostics of the test.
wl_wait () {
	wl__ctrl_dir "$1" || return 1
	wl__i=$1
	wl__via "$1"
	shift
	if [ "${1-}" = -w ]; then
		wl__o="$wl__o -w $2" # after wl__via's: this one wins
		shift 2
	fi
	# -L: what was waited for, what came, with the uptime, kept in
	# wlN-NAME.events for the reader of the artifacts.
	wpactl -p "$wl__d" -i "$wl__i" $wl__o \
		-L "$WL_ART/$WL_TAG-$wl__i.events" wait "$@" \
		2>"$HARNESS_TRASH_DIR/wait.err" && return 0
	wl__st=$?
	say "wireless: waiting on $wl__i for $*: $(cat "$HARNESS_TRASH_DIR/wait.err")"
	return $wl__st
}

# wl_authorized AP STA: hostapd on AP lists station STA as authorized
# (associated, and through its 4-way handshake or 802.1X).
wl_authorized () {
	wl__mac=$(wl_addr "$2") &&
	wl__query "$1" STA "$wl__mac" >"$HARNESS_TRASH_DIR/sta" || return 1
	grep -q "^flags=.*\[AUTHORIZED\]" "$HARNESS_TRASH_DIR/sta" && return 0
	# The flags only: the rest of the reply holds counters and a random
	# session id, which would make an expected failure's output differ
	# from run to run (on 6.1 the guest's random numbers are not all seeded).
	say "wireless: $1 does not list $2 ($wl__mac) as authorized: $(grep "^flags=" "$HARNESS_TRASH_DIR/sta" || echo "no flags= line")"
	return 1
}

# wl_connected NAME [SECONDS]: station NAME has completed its connection
# (now, or within SECONDS).
wl_connected () {
	wl_wait "$1" -t "${2:-$WL_CONNECT_TIMEOUT}" \
		-s STATUS wpa_state=COMPLETED CTRL-EVENT-CONNECTED >/dev/null
}

# wl_completed NAME [SECONDS]: NAME's wpa_state is COMPLETED, or becomes
# so within SECONDS (default 10): after a rekey or a reauthentication the
# station's 4-way handshake may still be on the air when the test looks
# (under basic time travel, CPU time passes in between). No
# CTRL-EVENT-CONNECTED comes then: the handshake's own line is awaited.
wl_completed () {
	wl_wait "$1" -t "${2:-10}" -s STATUS wpa_state=COMPLETED \
		"WPA: Key negotiation completed" >/dev/null
}

# wl_until SECONDS CMD...: run CMD every 0.1 s until it succeeds, for up to
# SECONDS: for a state with no event to wait for (a line in a daemon's log,
# a process running), which under basic time travel may come a little
# after the step that causes it.
wl_until () {
	case $1 in
	'' | *[!0-9]*)
		say "wireless: wl_until SECONDS CMD...: SECONDS is a whole number, not '$1'"
		return 2
		;;
	esac
	wl__tries=$(($1 * 10))
	shift
	until "$@"; do
		wl__tries=$((wl__tries - 1))
		if [ "$wl__tries" -le 0 ]; then
			say "wireless: still not true after waiting: $*"
			return 1
		fi
		sleep 0.1
	done
}

# wl_status NAME FIELD: one field of NAME's STATUS reply.
wl_status () {
	wl__query "$1" STATUS >"$HARNESS_TRASH_DIR/status" || return 1
	while IFS= read -r wl__l; do
		case $wl__l in
		"$2="*) printf '%s\n' "${wl__l#*=}" ;;
		esac
	done <"$HARNESS_TRASH_DIR/status"
}

# wl_intervals FILE MIN MAX: FILE holds `wl_wait -T` output; every gap
# between consecutive events is within [MIN, MAX] seconds.
wl_intervals () {
	[ -r "$1" ] || { say "wireless: wl_intervals: no file '$1' (wl_wait -T ... >FILE makes it)"; return 2; }
	awk -v min="$2" -v max="$3" '
		NR > 1 {
			gap = $1 - prev
			if (gap < min || gap > max) {
				printf "gap %.3f s before line %d is outside [%s, %s]\n",
					gap, NR, min, max
				bad = 1
			}
		}
		{ prev = $1 }
		END { exit bad }
	' "$1" >"$HARNESS_TRASH_DIR/intervals" && return 0
	say "wireless: $(cat "$HARNESS_TRASH_DIR/intervals")"
	say "$(cat "$1")"
	return 1
}

# wl_range_cmd NAME on|off: a shell command that puts radio NAME in or out
# of range of every other radio (hwsim's "group" in debugfs: frames only
# pass between radios sharing a group bit). Out of range, the radio
# neither hears nor is heard, and nothing tells its peers: it is gone, as a
# laptop that walked away. For `wl_wait OTHER -x`.
wl_range_cmd () {
	wl__known "$1" || return 1
	wl__g=/sys/kernel/debug/ieee80211/$1/hwsim/group
	[ -w "$wl__g" ] || { say "wireless: no $wl__g (debugfs?)"; return 1; }
	case $2 in
	on) echo "echo 1 >$wl__g" ;;
	off) echo "echo 0 >$wl__g" ;;
	*) say "wireless: wl_range_cmd NAME on|off, not '$2'"; return 1 ;;
	esac
}

# wl_range NAME on|off: the same, done now.
wl_range () {
	wl__c=$(wl_range_cmd "$1" "$2") && eval "$wl__c"
}

# wl_uptime: seconds since boot (simulated under time travel).
wl_uptime () {
	read -r wl__u _ </proc/uptime && echo "$wl__u"
}

# wl_bss AP IFNAME: IFNAME is a further BSS of the hostapd running on AP
# (a `bss=IFNAME` section of its configuration): wl_ctl, wl_wait and
# wl_log then take IFNAME as well. The alias ends with the test.
wl_bss () {
	wl__known "$1" && wl__check_name "$2" || return 1
	wl__running "$1" || { say "wireless: no daemon runs on '$1'"; return 1; }
	eval "WL__KIND_$2=hostapd WL__PID_$2=\$WL__PID_$1 WL__LOG_$2=\$WL__LOG_$1"
	WL__ALIASES="$WL__ALIASES $2"
	# Its own control socket, its own events: its own monitor, if the
	# AP has one.
	eval "wl__mp=\${WL__MON_$1-}"
	[ -n "$wl__mp" ] || return 0
	wl__monitor "$2"
}

# wl_group NAME MASK: set the hwsim group bits of radio NAME to MASK
# (1-255): frames pass between radios whose masks share a bit. With A=1,
# B=3, C=2, B hears A and C, and A and C do not hear each other: a line
# of three, for forwarding through the middle one.
wl_group () {
	wl__known "$1" || return 1
	case $2 in
	'' | *[!0-9]* | 0*) wl__m=0 ;;
	*) wl__m=$2 ;;
	esac
	if [ "$wl__m" -lt 1 ] || [ "$wl__m" -gt 255 ]; then
		say "wireless: wl_group NAME MASK: MASK is 1 to 255, not '$2'"
		return 2
	fi
	wl__g=/sys/kernel/debug/ieee80211/$1/hwsim/group
	[ -w "$wl__g" ] || { say "wireless: no $wl__g (debugfs?)"; return 1; }
	# Read as decimal (kstrtoull, base 0), shown back in hex.
	echo "$wl__m" >"$wl__g"
}

# wl_certs [DIR]: certificates for EAP, made now with openssl (EC P-256,
# valid ten years from the guest's clock), in DIR (default: the current
# folder): ca.pem, server.pem + server.key (CN server.umlrun.example),
# client.pem + client.key (CN client.umlrun.example), signed by ca.pem,
# and other-ca.pem, a CA that signed nothing: the wrong CA for a station.
wl_certs () {
	(
		cd "${1:-.}" &&
		for wl__c in ca other-ca; do
			openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
				-keyout $wl__c.key -out $wl__c.pem -days 3650 -subj "/CN=umlrun $wl__c" || exit 1
		done &&
		for wl__c in server client; do
			openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
				-keyout $wl__c.key -out $wl__c.csr -subj "/CN=$wl__c.umlrun.example" &&
			openssl x509 -req -in $wl__c.csr -CA ca.pem -CAkey ca.key -set_serial 0x$(echo $wl__c | od -An -tx1 | tr -d " \n") \
				-days 3650 -out $wl__c.pem || exit 1
		done
	) >"$HARNESS_TRASH_DIR/certs.log" 2>&1 && return 0
	say "wireless: cannot make certificates: $(tail -n 5 "$HARNESS_TRASH_DIR/certs.log")"
	return 1
}

# wl_host NAME: a network namespace NAME with no radio (lo up), for a
# machine on the wire only, such as a RADIUS server: `wl_ap NAME` starts
# a hostapd there (give it driver=none), wl_in and wl_link take NAME.
wl_host () {
	wl__check_name "$1" || return 1
	case " $WL__RADIOS " in
	*" $1 "*)
		say "wireless: '$1' exists already"
		return 1 ;;
	esac
	$WL_IP netns add "$1" && $WL_IP -n "$1" link set lo up || return 1
	WL__RADIOS="$WL__RADIOS $1"
}

# wl_link A ADDR_A B ADDR_B: a cable between the namespaces A and B (a veth
# pair: eth-B in A, eth-A in B), up, with the addresses ADDR_A and ADDR_B
# (ADDR/PREFIX). hwsim radios have no wire; this one is the distribution
# system of an AP and its RADIUS server. Names of at most 11 characters.
wl_link () {
	wl__known "$1" && wl__known "$3" || return 1
	$WL_IP -n "$1" link add "eth-$3" type veth peer name "eth-$1" netns "$3" &&
	printf 'addr add %s dev eth-%s\nlink set eth-%s up\n' "$2" "$3" "$3" |
		$WL_IP -n "$1" -b - &&
	printf 'addr add %s dev eth-%s\nlink set eth-%s up\n' "$4" "$1" "$1" |
		$WL_IP -n "$3" -b -
}

# wl_ap_start NAME [FILE]: start hostapd as wl_ap does, but return once it
# answers on its control socket, whatever the state of the AP: an AP on a
# DFS channel listens for radars (state=DFS, the CAC) before it beacons,
# and ACS scans first. Wait for AP-ENABLED yourself.
wl_ap_start () {
	wl__hostapd "$@" || return 1
	wl_ctl "$1" -w "$WL_START_TIMEOUT" PING >/dev/null && wl__auto_monitor "$1" && return 0
	say "wireless: hostapd on $1 did not come up"
	wl__show_log "$wl__ap_log"
	return 1
}

# wl_inject NAME HEX: send the 802.11 frame HEX (from its frame control
# field on, no FCS) from the radio of NAME as it is: no encryption, no
# protection, the addresses as written. A monitor interface mon-NAME is
# added on the radio the first time (it follows the radio's channel) and
# `hwsimctl inject` writes the frame there. How a test plays an attacker,
# e.g. a deauthentication that claims to come from the AP:
#	wl_inject ap0 "c0000000$(wl_hex sta0)$(wl_hex ap0)$(wl_hex ap0)00000700"
wl_inject () {
	wl__known "$1" || return 1
	if ! wl_in "$1" test -e "/sys/class/net/mon-$1"; then
		wl_in "$1" iw dev "$1" interface add "mon-$1" type monitor &&
		wl_in "$1" $WL_IP link set "mon-$1" up || {
			say "wireless: cannot add a monitor interface to $1"
			return 1
		}
	fi
	wl_in "$1" hwsimctl inject "mon-$1" "$2"
}

# wl_hex NAME: NAME's MAC address as 12 hex digits, for wl_inject.
wl_hex () {
	wl__h=$(wl_addr "$1") || return 1
	echo "$wl__h" | tr -d :
}

# wl_radar_cmd NAME: a shell command with which hwsim reports a radar on
# the channel radio NAME operates on (debugfs dfs_simulate_radar), as
# hardware that detected one would: hostapd gets DFS-RADAR-DETECTED. For
# `wl_wait AP -x`.
wl_radar_cmd () {
	wl__g=/sys/kernel/debug/ieee80211/$1/hwsim/dfs_simulate_radar
	[ -w "$wl__g" ] || { say "wireless: no $wl__g (debugfs?)"; return 1; }
	echo "echo 1 >$wl__g"
}

# wl_radar NAME: the same, done now.
wl_radar () {
	wl__c=$(wl_radar_cmd "$1") && eval "$wl__c"
}

# ---- The air ------------------------------------------------------------------

# wl__capture: tcpdump on hwsim0, the monitor interface that sees every
# frame of every radio, into wlN.pcap, packet-buffered (-U) so the file is
# complete at any point and can be read while the test runs. Returns once
# tcpdump listens: its "listening on" line is read from a fifo.
wl__capture () {
	WL_PCAP=$WL_ART/$WL_TAG.pcap
	[ "$WL_CAPTURE" = 1 ] || return 0
	# Captured to tmpfs, copied to the artifacts when the capture stops: a
	# write per frame to /results (hostfs) is a host system call per frame,
	# and beacons alone are ten a second for every AP.
	WL__CAP_TMP=/tmp/$WL_TAG.pcap
	wl__fifo=$HARNESS_TRASH_DIR/tcpdump.fifo
	rm -f "$wl__fifo" && mkfifo "$wl__fifo" || return 1
	# Up once per boot; reading its flags costs no process.
	read -r wl__f </sys/class/net/hwsim0/flags || return 1
	[ $((wl__f & 1)) = 1 ] || $WL_IP link set hwsim0 up || return 1
	# -Z root: Debian's tcpdump drops to a user the guest does not have.
	# -w - and the shell opening the file: tcpdump would chown a file it
	# opened itself, which hostfs (/results) refuses. --immediate-mode: by
	# default libpcap takes frames from the kernel a block at a time, a
	# block being handed over when full or a second after it began, so the
	# last second of the air was missing from a capture read right away.
	tcpdump -Z root -i hwsim0 --immediate-mode -U -w - \
		>"$WL__CAP_TMP" 2>"$wl__fifo" </dev/null 6>&- 7>&- &
	WL__CAP_PID=$!
	# Both opens of the fifo block until the other side comes.
	exec 8<"$wl__fifo"
	IFS= read -r wl__line <&8
	# The rest (tcpdump's statistics at exit) goes to its log; the reader
	# gets end of file when tcpdump exits.
	cat <&8 >>"$WL_ART/$WL_TAG.tcpdump.log" 2>&1 6>&- 7>&- &
	WL__CAP_CAT=$!
	exec 8<&-
	rm -f "$wl__fifo"
	printf '%s\n' "$wl__line" >>"$WL_ART/$WL_TAG.tcpdump.log"
	case $wl__line in
	*"listening on hwsim0"*) return 0 ;;
	esac
	say "wireless: tcpdump did not start: $wl__line"
	return 1
}

wl__stop_capture () {
	[ -n "$WL__CAP_PID" ] || return 0
	kill -TERM "$WL__CAP_PID" 2>/dev/null
	wait "$WL__CAP_PID"
	wl__cst=$?
	wait "$WL__CAP_CAT"
	cp "$WL__CAP_TMP" "$WL_PCAP" && rm -f "$WL__CAP_TMP" ||
		wl__note "cannot copy the capture to $WL_PCAP"
	WL__CAP_PID= WL__CAP_CAT=
	# tcpdump exits 0 on SIGTERM once it has written everything.
	[ "$wl__cst" = 0 ] || wl__note "tcpdump exited with status $wl__cst"
}

# wl_air [tcpdump filter]: the capture so far, decoded, one frame a line
# (-e: with the 802.11 addresses).
wl_air () {
	if [ "$WL_CAPTURE" != 1 ]; then
		say "wireless: the air is not captured in this file: set WL_CAPTURE=1 before sourcing wireless.sh"
		return 1
	fi
	tcpdump -Z root -r "${WL__CAP_TMP:-$WL_PCAP}" -n -e "$@" 2>"$HARNESS_TRASH_DIR/air.err" && return 0
	say "wireless: cannot read the capture: $(cat "$HARNESS_TRASH_DIR/air.err")"
	return 1
}

# wl_air_has TEXT: some frame of the capture so far shows TEXT (a fixed
# string, as in `tcpdump -e` output).
wl_air_has () {
	wl_air >"$HARNESS_TRASH_DIR/air" || return 1
	grep -qF -- "$1" "$HARNESS_TRASH_DIR/air" && return 0
	say "wireless: no frame in $WL_PCAP shows '$1'"
	return 1
}

# wl_air_lacks TEXT: no frame of the capture so far shows TEXT.
wl_air_lacks () {
	wl_air >"$HARNESS_TRASH_DIR/air" || return 1
	grep -F -- "$1" "$HARNESS_TRASH_DIR/air" >"$HARNESS_TRASH_DIR/air.hits" || return 0
	say "wireless: frames in $WL_PCAP show '$1':"
	say "$(head -n 3 "$HARNESS_TRASH_DIR/air.hits")"
	return 1
}

# ---- Test setup and cleanup ----------------------------------------------------

# wl_setup: start a wireless test: check (and make) a clean slate, start
# capturing the air (if WL_CAPTURE), register wl_cleanup.
wl_setup () {
	WL__N=$((WL__N + 1))
	WL_TAG=wl$WL__N
	WL__RADIOS= WL__DAEMONS=
	test_when_finished wl_cleanup || return 1
	# `hwsimctl sweep` kills what runs in leftover namespaces, deletes
	# every radio and namespace and puts the world regulatory domain back,
	# naming each thing it had to remove: after a clean test, nothing.
	if ! wl__left=$(hwsimctl sweep 2>&1); then
		say "wireless: cannot clean what an earlier test left: $wl__left"
		return 1
	fi
	[ -z "$wl__left" ] ||
		say "wireless: an earlier test left these behind (now removed): $wl__left"
	wl__note "test $WL__N: artifacts $WL_ART/$WL_TAG*"
	wl__capture
}

# wl_cleanup: stop what the test started, delete its radios and
# namespaces, restore the world regulatory domain. Registered by wl_setup;
# a failure here fails the test (the harness reports it).
wl_cleanup () {
	wl__rc=0
	for wl__d in $WL__DAEMONS; do
		eval "wl__p=\${WL__PID_$wl__d-}"
		[ -n "$wl__p" ] || continue
		wl_stop "$wl__d"
		wl__s=$?
		eval "wl__k=\${WL__KIND_$wl__d-}"
		# 0 is a clean exit on SIGTERM; other statuses are for the log.
		[ "$wl__s" = 0 ] || wl__note "$wl__k on $wl__d exited with status $wl__s"
	done
	WL__DAEMONS=
	for wl__d in $WL__ALIASES; do
		eval "WL__PID_$wl__d= WL__KIND_$wl__d="
	done
	WL__ALIASES=
	wl__stop_capture
	# What the test made is expected here: only a failure is news.
	hwsimctl sweep >/dev/null || wl__rc=1
	WL__RADIOS=
	return $wl__rc
}
