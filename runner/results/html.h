/* SPDX-License-Identifier: MIT */
/*
 * html.h - report.html, a run's results as one self-contained page.
 *
 * The page has inline CSS and an inline SVG chart, no script and no
 * external resource (a Content-Security-Policy forbids both), so it opens
 * as it is from a copied or archived results folder:
 *
 *   header      mode, start time, kernel, exit code, totals per verdict,
 *               simulated against wall seconds
 *   table       one row per test file: verdict, simulated and wall
 *               seconds, their ratio, the reason, links to console.log,
 *               ktap.log, cmdline.txt and every *.pcap and *.log under
 *               artifacts/; under it, its KTAP subtests in a <details>
 *   chart       simulated and wall time per test, log scale
 *   excerpts    for every test that did not pass, the last lines of its
 *               console.log (and the kernel's panic line if earlier)
 *
 * Links are relative to the run folder, where the page lives; the
 * artifacts folders are scanned when the page is written. Everything a
 * test provides (ids, titles, reasons, console text, file names) is
 * HTML-escaped, and hrefs are percent-encoded as well. A file is read or
 * linked only when it is a regular file reached through no symbolic link
 * below the run folder: a test's folder came from a guest, or for a
 * merge from another machine.
 */
#ifndef UMLRUN_HTML_H
#define UMLRUN_HTML_H

#include "report.h"

/* Writes path atomically: 0, or -1 with e filled (EXIT_INFRA). */
int report_write_html(const char *path, const char *run_dir, const struct run_info *ri,
		      const struct record *r, size_t n, struct uerr *e);

#endif
