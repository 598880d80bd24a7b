#!/bin/sh
# A hostile test: every way out of the guest's stage that hostfs offers.
# Each "ok" means the attempt was refused; the first two checks are the
# controls (the same mounts do work where the guest may go), so a refusal
# is the confinement's and not a broken mount. Raw KTAP, no harness.
# The host side (tests/integration/t-confine.sh) also looks for the canary files.
up=../../../../../../../../../..
n=0
say() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
# refused CMD...: ok when CMD fails.
refused() {
	if "$@" 2>/dev/null; then return 1; else return 0; fi
}
hmount() {
	mkdir -p "$1" && mount -t hostfs none "$1" -o "$2" 2>/dev/null
}
canary() {
	echo "escaped" >"$1/umlrun-escape-canary" 2>/dev/null
}

# The stage's suite folder as the host named it (relative to hostfs=), and
# so the stage itself.
suite=$(sed -n 's/.*umlrun\.suite=\([^ ]*\).*/\1/p' /proc/cmdline)
stage=${suite%suite}.

echo "KTAP version 1"
echo "1..10"
hmount /tmp/suite "$suite" && test -f /tmp/suite/iconfine/t0001-escape.sh
say $? "control: a hostfs mount of the stage's suite folder works"
echo x >/results/plain.txt && test "$(cat /results/plain.txt)" = x
say $? "control: a plain file in /results is written and read back"

# The host's /etc, by .. and by an absolute path.
if hmount /tmp/etc "$up/etc" && grep -q '^root:' /tmp/etc/passwd 2>/dev/null; then r=1; else r=0; fi
say $r "reading the host's /etc/passwd through .. is refused"
if hmount /tmp/abs /etc && grep -q '^root:' /tmp/abs/passwd 2>/dev/null; then r=1; else r=0; fi
say $r "reading /etc/passwd by an absolute mount path is refused"
# Writing outside: the host's /tmp, and the folder that holds the stage.
if hmount /tmp/htmp "$up/tmp" && canary /tmp/htmp; then r=1; else r=0; fi
say $r "writing into the host's /tmp through .. is refused"
if hmount /tmp/above "$stage/.." && canary /tmp/above; then r=1; else r=0; fi
say $r "writing beside the stage (its parent folder) is refused"
# The stage itself: kernel, root and suite are read-only.
hmount /tmp/stage "$stage" >/dev/null 2>&1
refused sh -c 'echo x >/tmp/stage/root/umlrun-escape-canary' &&
	refused sh -c 'echo x >/tmp/stage/suite/umlrun-escape-canary' &&
	refused sh -c 'echo x >>/tmp/stage/linux'
say $? "the kernel, root and suite folders refuse writes, whatever the mount"
# Links out of /results: the host moves what is there into the run folder,
# where a user (or a CI job's artifact upload) may follow them. The guest
# itself resolves a link it reads through hostfs, inside the guest.
refused ln -s /etc/passwd /results/abs-link &&
	refused ln -s "$up/etc/passwd" /results/rel-link
say $? "symbolic links in /results are refused"
ok=0
for g in /tmp/stage/g*; do
	ln /tmp/stage/linux "$g/results/hard-link" 2>/dev/null && ok=1
done
refused ln /tmp/suite/iconfine/t0001-escape.sh /results/hard-link2 && [ $ok = 0 ]
say $? "hard links into /results from elsewhere are refused"
refused mkfifo /results/fifo && refused mknod /results/dev c 1 3
say $? "FIFOs and devices in /results are refused"
