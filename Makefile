# umlrun - run timer-bound Linux test suites in User-Mode Linux under time travel.
#
#   make            build/umlrun and the static guest programs in build/guest/
#   make check      the project's own tests (unit, harness, integration)
#   make bench      the benchmarks in bench/ (print their figures)
#   make install    into $(DESTDIR)$(PREFIX): bin/, share/umlrun, man pages, completion
#   make man        the man pages (scdoc) in build/man
#   make clean
#
# The kernel and the guest's root folder are not built here: umlrun builds
# and caches them under $XDG_CACHE_HOME/umlrun (see docs/kernel.md).

PREFIX ?= /usr/local
DATADIR ?= $(PREFIX)/share/umlrun
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR ?= $(PREFIX)/share/doc/umlrun
CC ?= gcc
WARN := -Wall -Wextra -Werror -Wmissing-prototypes -Wshadow -Wformat=2
CFLAGS ?= -O2 -g
CFLAGS += $(WARN) -std=gnu11
GUEST_CFLAGS := -O2 $(WARN) -std=gnu11 -static -pthread

B := build
# V=1 shows the whole commands.
Q := $(if $(V),,@)
say = $(if $(V),,@printf "  %-8s %s\n" $(1) $(2))
# runner/ is grouped by what each part owns, in layers, lowest first (the
# folders of one line stand side by side):
#   util           util.h and runner/util/: messages, errors, memory, output
#                  queues, text, files, hashing, the cache folder, child
#                  processes, the host
#   core           the data model: records, verdicts, exit codes, the guest's
#                  outcome and its console marks, the pure parsers (KTAP,
#                  suites, --start, --profile, --shard's K/N)
#   cache, guest   the kernel and root folder, built once; one guest: its
#                  boot, confinement and supervision
#   results        the reports, results.json read back, merge
#   run, doctor    scheduling, shards' durations, the other test runners;
#                  what the host lacks
#   cli            the command layer
# A file includes headers of its own folder and of the layers below it,
# never of a layer above nor of a folder beside it (make layer-check).
# Headers are included by name: every folder is on the quote path
# (-iquote: run/sched.h must not hide <sched.h>).
LAYERS := util core cache+guest results run+doctor cli
RUNNER_DIRS := runner $(patsubst %/,%,$(wildcard runner/*/))
RUNNER_INC := $(addprefix -iquote ,$(RUNNER_DIRS))
RUNNER_HDRS := $(wildcard $(addsuffix /*.h,$(RUNNER_DIRS)))
RUNNER_SRCS := $(filter-out runner/cli/umlrun.c,$(wildcard $(addsuffix /*.c,$(RUNNER_DIRS))))
RUNNER_OBJS := $(RUNNER_SRCS:runner/%.c=$(B)/obj/%.o)
HELPER_SRCS := $(wildcard rootfs/helpers/*.c)
GUEST_BINS := $(B)/guest/init $(HELPER_SRCS:rootfs/helpers/%.c=$(B)/guest/%)

NL_CFLAGS = $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS = $(shell pkg-config --static --libs libnl-genl-3.0 2>/dev/null)
JSON_CFLAGS = $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS = $(shell pkg-config --libs json-c 2>/dev/null)
LIBS = -lcrypto $(JSON_LIBS)

.PHONY: hwsim-check profiles-check all check check-installed suites-check unit-check harness-check integration-check html-check header-check layer-check format-check \
	format bench install clean deps fuzz fuzz-check man man-check completion-check install-check deb-check FORCE

all: $(B)/umlrun $(GUEST_BINS)

deps:
	@sh tests/deps.sh

$(B)/obj/%.o: runner/%.c $(RUNNER_HDRS) | $(B)/obj
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(RUNNER_INC) $(JSON_CFLAGS) -DUMLRUN_DATADIR='"$(DATADIR)"' -c -o $@ $<

# DATADIR is compiled into session.o (find_project): another PREFIX or DATADIR rebuilds it.
$(B)/obj/cli/session.o: $(B)/datadir
$(B)/datadir: FORCE
	@mkdir -p $(B); echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
FORCE:

# CPPFLAGS and LDFLAGS as make's conventions have them: a Debian build
# brings its hardening there (-D_FORTIFY_SOURCE, -z now; debian/rules).
$(B)/umlrun: $(B)/obj/cli/umlrun.o $(RUNNER_OBJS)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# The guest programs that run most often link musl where musl-gcc is
# installed (musl-tools): the wireless library runs wpactl and nsexec a
# thousand times a suite, and in a guest a musl program starts in about
# half the time of a static glibc one (glibc probes the CPU with some 70
# CPUID instructions, each a trip to the hypervisor, and faults in more
# pages; bench/percall.sh). Without musl-gcc they link glibc statically
# and behave the same. hwsimctl needs libnl, built for glibc, and
# timerprobe stands for the programs under test: both stay on glibc.
MUSL_CC := $(shell command -v musl-gcc 2>/dev/null)
GUEST_CC = $(or $(MUSL_CC),$(CC))
# Which compiler that was: installing musl-tools later rebuilds them.
$(B)/guest-cc: FORCE
	@mkdir -p $(B); echo '$(GUEST_CC)' | cmp -s - $@ || echo '$(GUEST_CC)' >$@

# init stays on glibc: it runs once a guest, and moving it to musl moved
# the boot's simulated timeline enough that timers/t0008-race.sh's five
# runs in one guest no longer interleaved alike (docs/timers.md).
$(B)/guest/init: rootfs/init.c rootfs/die.h | $(B)/guest
	$(call say,CC,$@)
	$(Q)$(CC) $(GUEST_CFLAGS) -o $@ $<

# Static libnl pulls in glibc's NSS lookups, which warn when linked
# statically: rootfs/static-nss.c stands in for exactly those (see there).
NSS_WRAP := -Wl,--wrap=getprotobyname,--wrap=getprotobynumber,--wrap=getaddrinfo

$(B)/guest/hwsimctl: rootfs/helpers/hwsimctl.c rootfs/static-nss.c rootfs/netns-exec.c rootfs/netns-exec.h rootfs/die.h | $(B)/guest
	$(call say,CC,$@)
	$(Q)$(CC) $(GUEST_CFLAGS) $(NL_CFLAGS) -o $@ $(filter %.c,$^) $(NL_LIBS) $(NSS_WRAP)

$(B)/guest/nsexec: rootfs/helpers/nsexec.c rootfs/netns-exec.c rootfs/netns-exec.h $(B)/guest-cc | $(B)/guest
	$(call say,CC,$@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^)

$(B)/guest/wpactl: rootfs/helpers/wpactl.c rootfs/die.h $(B)/guest-cc | $(B)/guest
	$(call say,CC,$@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $<

# timerprobe stays on glibc: it is the timers suite's stand-in for the
# programs under test, and calls glibc's newer timer APIs (epoll_pwait2).
$(B)/guest/%: rootfs/helpers/%.c rootfs/die.h | $(B)/guest
	$(call say,CC,$@)
	$(Q)$(CC) $(GUEST_CFLAGS) -o $@ $< -lrt

$(B)/obj $(B)/guest $(B)/tests:
	$(Q)mkdir -p $@

# Unit tests: each tests/unit/test_X.c links the runner's modules.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

$(B)/tests/%: tests/unit/%.c tests/unit/tap.h $(RUNNER_OBJS) | $(B)/tests
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(JSON_CFLAGS) $(RUNNER_INC) -o $@ $< $(RUNNER_OBJS) $(LIBS)

unit-check: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "# $$t"; $$t; done

harness-check:
	sh tests/harness/run.sh

# Every header compiles on its own (the kernel's header-test idea).
header-check: | $(B)/obj
	@set -e; for h in $(RUNNER_HDRS); do \
		echo "#include \"$$h\"" | $(CC) $(CFLAGS) -I. $(RUNNER_INC) -x c -fsyntax-only - || \
			{ echo "not self-contained: $$h"; exit 1; }; \
	done; echo "ok headers are self-contained"

# No include runs up a layer (LAYERS): for each #include "NAME.h" in
# runner/, the folder that holds NAME.h (the includer's own first, as the
# compiler looks) must be the includer's or on a lower layer. And no call:
# each function or object an object file uses from another of runner/ (nm)
# must be defined in its own folder or on a lower layer.
layer-check: $(RUNNER_OBJS) $(B)/obj/cli/umlrun.o
	@awk -v layers='$(LAYERS)' -v headers='$(RUNNER_HDRS)' ' \
	function dir(p) { sub(/\/[^\/]*$$/, "", p); sub(/^runner\/?/, "", p); return p == "" ? "util" : p } \
	function path(d, f) { return d == "util" ? (f == "util.h" ? "runner/" f : "runner/util/" f) : "runner/" d "/" f } \
	BEGIN { \
		n = split(layers, l, " "); \
		for (i = 1; i <= n; i++) { m = split(l[i], s, "+"); for (j = 1; j <= m; j++) rank[s[j]] = i } \
		n = split(headers, h, " "); \
		for (i = 1; i <= n; i++) { f = h[i]; sub(/.*\//, "", f); has[dir(h[i]), f] = 1; if (!(f in home)) home[f] = dir(h[i]) } \
	} \
	FNR == 1 { d = dir(FILENAME); if (!(d in rank)) { print FILENAME ": " path(d, "") " is on no layer: add it to LAYERS"; bad = 1 } } \
	/^#[ \t]*include[ \t]*"/ { \
		inc = $$0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc); \
		if (!(d in rank) || (d, inc) in has || !(inc in home) || rank[home[inc]] < rank[d]) next; \
		print FILENAME ":" FNR ": includes " path(home[inc], inc) ": " home[inc] "/ is " \
			(rank[home[inc]] > rank[d] ? "above " : "beside ") d "/"; \
		bad = 1 \
	} \
	END { if (bad) { print "layer-check: a file may include its own folder and the layers below (LAYERS in the Makefile)"; exit 1 } \
		print "ok no include runs up a layer" }' \
	$(RUNNER_SRCS) runner/cli/umlrun.c $(RUNNER_HDRS)
	@nm -A -g --defined-only $(RUNNER_OBJS) $(B)/obj/cli/umlrun.o >$(B)/layer-defs.txt
	@nm -A -u $(RUNNER_OBJS) $(B)/obj/cli/umlrun.o >$(B)/layer-uses.txt
	@awk -v layers='$(LAYERS)' -v obj='$(B)/obj/' ' \
	function dir(p) { p = substr(p, length(obj) + 1); return p ~ /\// ? substr(p, 1, index(p, "/") - 1) : "util" } \
	BEGIN { \
		n = split(layers, l, " "); \
		for (i = 1; i <= n; i++) { m = split(l[i], s, "+"); for (j = 1; j <= m; j++) rank[s[j]] = i } \
	} \
	NR == FNR { sub(/:[^:]*$$/, "", $$1); home[$$NF] = $$1; next } \
	{ \
		sub(/:[^:]*$$/, "", $$1); d = dir($$1); f = $$NF; \
		if (!(f in home) || dir(home[f]) == d || rank[dir(home[f])] < rank[d]) next; \
		print $$1 ": calls " f " of " home[f] ": " dir(home[f]) "/ is " \
			(rank[dir(home[f])] > rank[d] ? "above " : "beside ") d "/"; \
		bad = 1 \
	} \
	END { if (bad) { print "layer-check: a file may call its own folder and the layers below (LAYERS in the Makefile)"; exit 1 } \
		print "ok no call runs up a layer" }' \
	$(B)/layer-defs.txt $(B)/layer-uses.txt

format-check:
	@clang-format --dry-run --Werror $(RUNNER_SRCS) runner/cli/umlrun.c $(RUNNER_HDRS) rootfs/*.c rootfs/*.h rootfs/helpers/*.c \
		tests/unit/*.c tests/unit/*.h && echo "ok formatting"

format:
	clang-format -i $(RUNNER_SRCS) runner/cli/umlrun.c $(RUNNER_HDRS) rootfs/*.c rootfs/*.h rootfs/helpers/*.c tests/unit/*.c tests/unit/*.h

# Every test file, one after another: each runs alone and prints its own
# TAP (tests/integration/lib.sh). All run; the check fails if one did.
integration-check: all
	@failed=; for t in tests/integration/t-*.sh tests/integration/debug.sh; do \
		echo "# $$t"; B=$(B) sh $$t || failed="$$failed $$t"; \
	done; \
	[ -z "$$failed" ] || { echo "integration-check: failed:$$failed" >&2; exit 1; }

# The debug kernel profiles (--profile): each a kernel build of its own,
# so not in make check; PROFILES= to choose (default all four).
PROFILES ?= hardened kasan lockdep gcov
profiles-check: all
	sh tests/profiles/check.sh $(PROFILES)

# The suites themselves, in the guest: smoke always; timers and wireless too
# (SUITES= to choose), under both time-travel modes for smoke, and for the
# wireless files that need the regulatory database (under basic, the
# kernel's own load at boot came before the root: hwsimctl sweep reloads it).
SUITES ?= smoke timers wireless stall
suites-check: all
	./build/umlrun run -q --results=$(B)/check-results smoke
	./build/umlrun run -q --results=$(B)/check-results --time-travel=basic smoke
	./build/umlrun run -q --results=$(B)/check-results $(filter-out smoke,$(SUITES))
	$(if $(filter wireless,$(SUITES)),./build/umlrun run -q --results=$(B)/check-results \
		--time-travel=basic wireless/t0009-regulatory.sh wireless/t0023-dfs.sh)

# hostap's own tests/hwsim suite (umlrun hwsim, docs/hwsim.md) on the
# project's hostap snapshot: a few cases, a spinning one, bad input. It
# builds hostap's programs and the hwsim kernel once (cached).
hwsim-check: all
	B=$(B) sh tests/integration/hwsim.sh
# The HTML report, loaded in a real headless browser (Debian's chromium).
html-check: all
	sh tests/html/check.sh

# Man pages: scdoc sources in man/ (umlrun(1), umlrun-CMD(1) per command,
# umlrun-harness(7)) turned into roff in $(B)/man. man-check: each page's
# OPTIONS are the options its command takes (`umlrun help --options CMD`,
# from the table in runner/cli/options.c), no more and no fewer.
MAN_SRCS := $(wildcard man/*.scd)
MAN_PAGES := $(MAN_SRCS:man/%.scd=$(B)/man/%)

man: $(MAN_PAGES)

$(B)/man/%: man/%.scd
	$(call say,SCDOC,$@)
	@mkdir -p $(dir $@)
	$(Q)scdoc <$< >$@.tmp && mv $@.tmp $@

man-check: all man
	sh tests/man/check.sh $(B)/umlrun

# make install into a temporary PREFIX, then the installed umlrun lists and
# runs the smoke suite from / (no checkout): tests/install/check.sh.
install-check:
	sh tests/install/check.sh

# The Debian package (debian/): dpkg-buildpackage on a copy in build/deb,
# lintian, then the .deb unpacked (dpkg -x) runs the smoke suite from /
# with the cached kernel: tests/deb/check.sh. The .deb stays in build/deb.
deb-check:
	sh tests/deb/check.sh

# The bash completion (completion/umlrun.bash), driven through COMP_WORDS.
completion-check: all
	sh tests/completion/check.sh $(B)/umlrun

# Fuzzing the readers of untrusted text (tests/fuzz/fuzz_*.c) with libFuzzer,
# under ASan and UBSan: `make fuzz` runs each harness FUZZ_SECONDS
# (FUZZ_SECONDS=300 on the command line for longer), fuzz-check 10 s each.
# New inputs go to $(B)/fuzz/corpus/NAME (the checked-in seeds in
# tests/fuzz/corpus/NAME are only read), crashes to $(B)/fuzz/crashes/.
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
# clang's -Wformat=2 also flags vprintf wrappers, which gcc (the build's
# compiler) leaves alone.
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all $(WARN) -std=gnu11 -Wno-format-nonliteral
FUZZ_OBJS := $(RUNNER_SRCS:runner/%.c=$(B)/fuzz/obj/%.o)
# The guest programs' harnesses include their .c file (main renamed).
FUZZ_GUEST := $(B)/fuzz/fuzz_init $(B)/fuzz/fuzz_wpactl
FUZZ_BINS := $(patsubst tests/fuzz/fuzz_%.c,$(B)/fuzz/fuzz_%,$(wildcard tests/fuzz/fuzz_*.c))

$(B)/fuzz/obj/%.o: runner/%.c $(RUNNER_HDRS) | $(B)/fuzz/obj
	$(call say,FUZZCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(RUNNER_INC) $(JSON_CFLAGS) \
		-DUMLRUN_DATADIR='"$(DATADIR)"' -c -o $@ $<

$(filter-out $(FUZZ_GUEST),$(FUZZ_BINS)): $(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJS)
	$(call say,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(JSON_CFLAGS) $(RUNNER_INC) -o $@ $< \
		$(FUZZ_OBJS) $(LIBS)

$(B)/fuzz/fuzz_init: rootfs/init.c rootfs/die.h
$(B)/fuzz/fuzz_wpactl: rootfs/helpers/wpactl.c rootfs/die.h
$(FUZZ_GUEST): $(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h | $(B)/fuzz/obj
	$(call say,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $<

# The unit tests of the guest programs' parsers include their .c file too.
$(B)/tests/test_init: rootfs/init.c rootfs/die.h
$(B)/tests/test_wpactl: rootfs/helpers/wpactl.c rootfs/die.h

$(B)/fuzz/obj:
	mkdir -p $@

fuzz: $(FUZZ_BINS)
	@sh tests/fuzz/run.sh $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

fuzz-check: $(FUZZ_BINS)
	@FUZZ_SEED=1 sh tests/fuzz/run.sh $(B)/fuzz 10 $(FUZZ_BINS)

# deps first, in its own make: the flags above come from pkg-config, which
# only knows the libraries once deps has installed them.
check: deps
	$(MAKE) --no-print-directory check-installed

check-installed: all header-check layer-check format-check unit-check fuzz-check harness-check integration-check html-check \
	suites-check hwsim-check man-check completion-check install-check deb-check

bench: all
	sh bench/run.sh

# The launcher in bin/; what it reads at run time in $(DATADIR), laid out
# as in a checkout (find_project in runner/cli/session.c): the static guest
# programs in build/guest/, uml-config/, the root folder's manifest and
# scripts, the suites and the package list (umlrun doctor); the docs,
# man pages and bash completion where the FHS puts them.
install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/build/guest $(DESTDIR)$(DATADIR)/rootfs
	install -m 755 $(B)/umlrun $(DESTDIR)$(PREFIX)/bin/umlrun
	install -m 755 $(GUEST_BINS) $(DESTDIR)$(DATADIR)/build/guest/
	install -m 644 rootfs/manifest rootfs/manifest.hwsim rootfs/manifest.tshark $(DESTDIR)$(DATADIR)/rootfs/
	install -m 644 debian-packages $(DESTDIR)$(DATADIR)/
	install -m 755 rootfs/mkrootfs.sh rootfs/overlay.sh $(DESTDIR)$(DATADIR)/rootfs/
	cp -R uml-config testsuites $(DESTDIR)$(DATADIR)/
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(filter %.7,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man7/
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 completion/umlrun.bash $(DESTDIR)$(BASHCOMPDIR)/umlrun

clean:
	rm -rf $(B)
