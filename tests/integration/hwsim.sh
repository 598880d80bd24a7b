#!/bin/sh
# Integration tests of `umlrun hwsim` (docs/hwsim.md): hostap's own
# tests/hwsim suite, from the hostap snapshot the project's checks use
# (../shared/hostap/hostap-*.tar.xz beside the checkout, or
# $UMLRUN_HOSTAP_TARBALL): bad input, a few real cases of each kind (pass,
# skip with a reason; with --tshark where the host has tshark), and a tree with a module of our own whose first case
# spins (the guest is stopped, the case failed, the next case goes on in a
# fresh guest) and whose last case fails (run again alone, still failing);
# a module that imports Crypto as hostap's before 2023 did, and one whose
# import fails.
#
# Prints TAP; exits 1 if any check failed. Builds hostap's programs and the
# hwsim kernel once (cached): about 15 minutes on 2 cores the first time.
. "$(dirname "$0")/lib.sh"
# A failed case's log runs longer: more of it after a failed check.
tap_tail=12

tarball=${UMLRUN_HOSTAP_TARBALL:-}
if [ -z "$tarball" ]; then
	for t in "$top"/../shared/hostap/hostap-*.tar.xz /work/shared/hostap/hostap-*.tar.xz; do
		[ -f "$t" ] && tarball=$t && break
	done
fi
if [ -z "$tarball" ]; then
	echo "1..0 # SKIP no hostap snapshot (set UMLRUN_HOSTAP_TARBALL to a hostap-*.tar.xz)"
	exit 0
fi
tar -xJf "$tarball" -C "$work" || {
	echo "Bail out! cannot unpack $tarball"
	exit 1
}
tree=$work/hostap

# ---- bad input: one line, exit 2, nothing built ----
run "$umlrun" hwsim --hostap="$work/nonexistent"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "no such folder" "$work/err"
check "hwsim --hostap of a missing folder exits 2 with one line"
run "$umlrun" hwsim --hostap="$TMPDIR"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "not a hostap tree" "$work/err"
check "hwsim --hostap of a folder that is not hostap exits 2 with one line"
run "$umlrun" hwsim --hostap="$tree" no_such_case
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "'no_such_case'" "$work/err"
check "hwsim with an unknown case exits 2 naming it"
run "$umlrun" hwsim --hostap="$tree" --module=no_such_module
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "test_no_such_module.py" "$work/err"
check "hwsim with an unknown module exits 2 naming its file"
run "$umlrun" hwsim
[ $rc -eq 2 ] && grep -q -- "--hostap=TREE" "$work/err"
check "hwsim without --hostap exits 2 saying how to give it"
# --tshark on a host without tshark's packages (a list naming one that is
# not installed stands for them): one line naming the command, exit 3,
# before anything is built or written.
printf 'umlrun-absent-tshark\ttshark\n' >"$work/packages"
ls -A "$real_cache/rootfs" >"$work/roots.before" 2>/dev/null
run env UMLRUN_PACKAGES="$work/packages" "$umlrun" hwsim --hostap="$tree" --tshark \
	--results="$work/nores" ap_open
ls -A "$real_cache/rootfs" >"$work/roots.after" 2>/dev/null
[ $rc -eq 3 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "hwsim --tshark: .*'apt-get install umlrun-absent-tshark'" "$work/err" &&
	[ ! -e "$work/nores" ] && cmp -s "$work/roots.before" "$work/roots.after"
check "hwsim --tshark without tshark's packages exits 3, one line naming apt-get, nothing written"
run "$umlrun" hwsim --hostap="$tree" --list
[ $rc -eq 0 ] && [ "$(wc -l <"$work/out")" -gt 4000 ] && grep -qx "ap_open ap_open" "$work/out"
check "hwsim --list names every case of the tree, MODULE CASE a line, without a guest"
sort "$work/out" >"$work/all"
all=$(wc -l <"$work/all")
run "$umlrun" hwsim --hostap="$tree" --list -j2 --shard=1/2
cp "$work/out" "$work/shard1"
run "$umlrun" hwsim --hostap="$tree" --list -j2 --shard=2/2
[ $rc -eq 0 ] && [ -s "$work/shard1" ] && [ -s "$work/out" ] &&
	[ "$(sort "$work/shard1" "$work/out")" = "$(cat "$work/all")" ]
check "hwsim --list --shard=K/N lists that shard's cases: the shards share them out, none twice"
run "$umlrun" hwsim --hostap="$tree" --list -j2 --filter='hwsim/t0001-*'
kept=$(wc -l <"$work/out")
run "$umlrun" hwsim --hostap="$tree" --list -j2 --exclude='hwsim/t0001-*'
[ $rc -eq 0 ] && [ "$kept" -gt 0 ] && [ "$kept" -lt "$all" ] &&
	[ "$(wc -l <"$work/out")" -eq $((all - kept)) ]
check "hwsim --list --filter, --exclude: the cases of the batches they keep, no others"
"$umlrun" hwsim --hostap="$tree" --list | head -n 1 >/dev/null
nothing_left
check "hwsim --list whose reader stops at the first line leaves no generated suite"

# ---- real cases: pass, skip with run-tests.py's reason ----
run "$umlrun" hwsim --hostap="$tree" -j2 --results="$results" \
	ap_open ap_wpa2_psk sae sigma_dut_basic ap_open_drop_duplicate
[ $rc -eq 0 ] && [ ! -e "$tree/hostapd/hostapd" ] && [ ! -e "$tree/tests/hwsim/logs" ]
check "hwsim runs real cases and passes; the tree stays as it was (no build, no logs in it)"
k=$results/latest/ktap.txt
grep -q "^    ok [0-9]* ap_open$" "$k" && grep -q "^    ok [0-9]* ap_wpa2_psk$" "$k" &&
	grep -q "^    ok [0-9]* sae$" "$k"
check "each case is a KTAP result of its batch"
grep -q "^    ok [0-9]* sigma_dut_basic # SKIP .*sigma_dut" "$k"
check "a case run-tests.py skips is a skip with its reason"
grep -q "^    ok [0-9]* ap_open_drop_duplicate # SKIP No tshark available$" "$k"
check "without --tshark the root has no tshark: its cases skip, as run-tests.py says"
grep -q '"start": 17' "$results/latest/results.json" &&
	grep -q "<testcase classname=\"hwsim/t[0-9]*-[a-z_0-9-]*.sh\" name=\"ap_open\"" \
		"$results/latest/junit.xml"
check "results.json records the start, junit.xml a testcase per case"
grep -q "^    # ap_open: [0-9.]* simulated s$" "$k"
check "each case's simulated seconds are a diagnostic"
# pycs NUMBER-OF-A-KTAP: how many modules the guests found byte-compiled.
pycs() {
	sed -n 's/^    # tests\/hwsim: \([0-9]*\) modules byte-compiled beforehand$/\1/p' "$1" | sort -u
}
n1=$(pycs "$k")
[ -n "$n1" ] && [ "$n1" -gt 100 ] && [ "$(echo "$n1" | wc -l)" -eq 1 ]
check "every guest finds the tree's modules byte-compiled beforehand, the same set"

# ---- --tshark: tshark in the guests' root (opt-in, so only where installed) ----
if [ "$(dpkg-query -W -f='${db:Status-Abbrev}' tshark 2>/dev/null)" != "ii " ]; then
	skip "hwsim --tshark runs a case that reads its capture with tshark" \
		"no tshark on this host (apt-get install tshark)"
else
	run "$umlrun" hwsim --hostap="$tree" --tshark --results="$results" ap_open_drop_duplicate
	k=$results/latest/ktap.txt
	[ $rc -eq 0 ] && grep -q "^    ok [0-9]* ap_open_drop_duplicate$" "$k" &&
		! grep -q "No tshark available" "$k"
	check "hwsim --tshark runs a case that reads its capture with tshark (not skipped for lack of it)"
fi

# ---- a case that spins, one after it, one that fails ----
cat >"$tree/tests/hwsim/test_umlrun_stuck.py" <<'EOF'
def test_umlrun_stuck_first(dev, apdev):
    """passes: the limit after it is a case's"""
    pass

def test_umlrun_stuck_spin(dev, apdev):
    """spins in user space: simulated time stands still"""
    while True:
        pass

def test_umlrun_stuck_after(dev, apdev):
    """runs after the spin, in a fresh guest"""
    pass

def test_umlrun_stuck_fail(dev, apdev):
    """fails every time"""
    raise Exception("fails on purpose")
EOF
run "$umlrun" hwsim --hostap="$tree" --wall-timeout=20 --results="$results" --module=umlrun_stuck
k=$results/latest/ktap.txt
[ $rc -eq 124 ] && grep -q "^    ok 1 umlrun_stuck_first$" "$k" && grep -q "^    not ok 2 umlrun_stuck_spin$" "$k" &&
	grep -q "TIMEOUT no result for 20 s of wall time" "$k"
check "a case that spins stops its guest after --wall-timeout and fails (exit 124)"
[ "$(pycs "$k")" = $((n1 + 1)) ]
check "a module added to the tree: a new byte-compiled set, with it"
grep -q "^    ok 1 umlrun_stuck_after$" "$k" && grep -q "after-umlrun_stuck_spin.sh" "$k"
check "the cases after a stuck one go on in a fresh guest"
grep -q "^    not ok 2 umlrun_stuck_fail$" "$k" && grep -q "retry.sh" "$k" &&
	[ -s "$(find "$results/latest/" -path '*artifacts/umlrun_stuck_fail/umlrun_stuck_fail.log' | head -1)" ]
check "a failed case runs again alone, fails again, and its logs are kept as artifacts"
run "$umlrun" hwsim --hostap="$tree" --results="$results" --rerun-failed --list
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = "umlrun_stuck umlrun_stuck_spin
umlrun_stuck umlrun_stuck_fail" ]
check "--rerun-failed selects the cases the last run failed (the stuck one too), each once"
run "$umlrun" hwsim --hostap="$tree" --results="$results" --retry=0 --seeds=1-2 umlrun_stuck_fail
replay=$(sed -n 's/^# replay the first: //p' "$work/out")
[ $rc -eq 1 ] && case $replay in
"umlrun hwsim --hostap=$tree --results=$results --retry=0 --random-seed=1 --filter=hwsim/t0001-umlrun_stuck.sh -j"[0-9]*" umlrun_stuck_fail") ;;
*) false ;;
esac
check "hwsim --seeds replays the failed batch with this command: its seed, --filter=ID, the same cases and -j"
# shellcheck disable=SC2086 # the printed command, as a user pastes it
run "$umlrun" ${replay#umlrun }
[ $rc -eq 1 ] && [ "$(grep -c "^\(not \)\{0,1\}ok [0-9]" "$work/out")" -eq 1 ] &&
	grep -q "^    not ok 1 umlrun_stuck_fail$" "$results/latest/ktap.txt" &&
	grep -q '"random_seed": 1,\{0,1\}$' "$results/latest/results.json"
check "the printed hwsim replay runs that batch alone, under that seed, and fails again"

# ---- a case that kills run-tests.py; a case that forges another's result ----
cat >"$tree/tests/hwsim/test_umlrun_kill.py" <<'EOF'
import os

def test_umlrun_kill_first(dev, apdev):
    """passes, and prints a result line for a case after it"""
    print("PASS umlrun_kill_after 1.0 2024-01-01 00:00:00.000000")

def test_umlrun_kill_self(dev, apdev):
    """takes run-tests.py down with it"""
    os.kill(os.getpid(), 9)

def test_umlrun_kill_after(dev, apdev):
    """runs after it, in a fresh guest"""
    pass
EOF
run "$umlrun" hwsim --hostap="$tree" --results="$results" --module=umlrun_kill
k=$results/latest/ktap.txt
[ $rc -eq 1 ] && grep -q "^    ok 1 umlrun_kill_first$" "$k" && grep -q "^    not ok 2 umlrun_kill_self$" "$k" &&
	grep -q "run-tests.py ended in this case, before its result" "$k" &&
	grep -q "^    ok 1 umlrun_kill_after$" "$k" && grep -q "after-umlrun_kill_self.sh" "$k" &&
	[ "$(grep -c "^    \(not \)\{0,1\}ok [0-9]* umlrun_kill_after$" "$k")" -eq 1 ]
check "a case that kills run-tests.py fails; the cases after it run in a fresh guest, none lost"
grep -q "^    # PASS umlrun_kill_after" "$k"
check "a case's own line that reads as another case's result is a diagnostic, not a result"
rm -f "$tree/tests/hwsim/test_umlrun_kill.py"
mkdir "$work/co:lon" && mv "$tree" "$work/co:lon/hostap"
run "$umlrun" hwsim --hostap="$work/co:lon/hostap" ap_open
mv "$work/co:lon/hostap" "$tree"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "holds a ':'" "$work/err" &&
	! grep -q "building hostap" "$work/err"
check "a tree whose path holds ':' exits 2 before the build, naming why"

# ---- a tree of before 2023: its cases import pycryptodome as Crypto ----
cat >"$tree/tests/hwsim/test_umlrun_crypto.py" <<'EOF'
from Crypto.Cipher import AES

def test_umlrun_crypto_aes(dev, apdev):
    """imports pycryptodome as Crypto, as hostap's cases did before 2023"""
    if AES.new(b'k' * 16, AES.MODE_ECB).encrypt(b'p' * 16) == b'p' * 16:
        raise Exception("AES did nothing")
EOF
run "$umlrun" hwsim --hostap="$tree" --results="$results" --module=umlrun_crypto
[ $rc -eq 0 ] && grep -q "^    ok 1 umlrun_crypto_aes$" "$results/latest/ktap.txt"
check "a module that imports Crypto (Debian names it Cryptodome) runs its case"
rm -f "$tree/tests/hwsim/test_umlrun_crypto.py"
echo "import umlrun_no_such_module" >"$tree/tests/hwsim/test_umlrun_import.py"
run "$umlrun" hwsim --hostap="$tree" --results="$results" --retry=0 ap_open
[ $rc -eq 1 ] &&
	grep -q "^    # run-tests.py reported no case: its error is in console.log$" "$results/latest/ktap.txt" &&
	grep -q "^    not ok 1 ap_open$" "$results/latest/ktap.txt" &&
	grep -q "No module named 'umlrun_no_such_module'" "$(find "$results/latest/" -name console.log | head -1)"
check "run-tests.py that fails at an import: the batch fails, its KTAP points at console.log"
rm -f "$tree/tests/hwsim/test_umlrun_import.py"

nothing_left
check "no guest or stage of these runs is left"

tap_done
