/* SPDX-License-Identifier: MIT */
/*
 * trace.h - kernel tracing from boot: --trace-event and --kprobe-event.
 *
 * The kernel reads both from its command line (trace_event=, kprobe_event=,
 * 5.3 and later), so events are on before the guest's init runs. The guest
 * init (rootfs/init.c, umlrun.trace=1) stops tracing when the job ends and
 * copies the buffer to /results/trace.txt: each test's artifacts/trace.txt.
 * Timestamps come from trace_clock=mono, the kernel's monotonic clock: under
 * time travel that is the simulated clock, to the nanosecond.
 *
 *	char *ev = trace_event_param(o->trace_events, o->ntrace_events);
 *	if (trace_check_kernel(config_text, release, ev != NULL, nkprobes > 0, &err) < 0) ...
 */
#ifndef UMLRUN_TRACE_H
#define UMLRUN_TRACE_H

#include "util.h"

/* trace_event='s value: the lists joined by commas; NULL for none. */
char *trace_event_param(char *const *lists, size_t n);
/*
 * kprobe_event='s value: each probe as the kprobe_events file takes it,
 * spaces turned into commas, probes separated by ';' (the kernel's
 * boot-time syntax); NULL for none.
 */
char *kprobe_event_param(char *const *specs, size_t n);
/*
 * Whether the kernel (its .config text) can do what was asked: event
 * tracing (CONFIG_EVENT_TRACING), kprobe events (CONFIG_KPROBE_EVENTS,
 * which UML never has: arch/um selects no HAVE_KPROBES). Exit 2 naming
 * why when it cannot.
 */
int trace_check_kernel(const char *config, const char *release, bool events, bool kprobes,
		       struct uerr *e);

/*
 * Whether the trace at path (a trace file as the init copies it) lost
 * events: its header's "entries-in-buffer/entries-written: KEPT/WRITTEN"
 * with KEPT below WRITTEN, the ring buffer having overwritten the oldest.
 */
bool trace_overflowed(const char *path, unsigned long long *kept, unsigned long long *written);

#endif
