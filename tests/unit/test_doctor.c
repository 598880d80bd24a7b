// SPDX-License-Identifier: MIT
/* test_doctor.c - the pure parts of `umlrun doctor`: the package list, dpkg's answer, disk. */
#define _GNU_SOURCE
#include "doctor.h"

#include <stdio.h>

#include "tap.h"

static char *joined(char **v)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; v[i]; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", v[i]);
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

static void test_parse(void)
{
	static const char text[] = "# a comment\n"
				   "\n"
				   "gcc\t\tbuild\n"
				   "  hostapd   guest   # the access point\n"
				   "chromium\tcheck\n"
				   "bare\n"
				   "last\tkernel";
	char **run = doctor_packages_parse(text, "build check");
	char **all = doctor_packages_parse(text, "");
	char *a = joined(run), *b = joined(all);
	char **none = doctor_packages_parse("# nothing\n", "");

	is_str(a, "hostapd bare last", "the list without the build and check packages");
	is_str(b, "gcc hostapd chromium bare last", "the list with them");
	ok(none[0] == NULL, "a list of comments is empty");
	free(a);
	free(b);
	strv_free(run);
	strv_free(all);
	strv_free(none);
}

static void test_missing(void)
{
	char *names[] = { "gcc", "hostapd", "iw", "iw-extra", NULL };
	/* dpkg-query prints nothing for a name it never heard of (iw-extra). */
	char *m = doctor_packages_missing(names, "gcc ii \nhostapd rc \niw ii \n");
	char *none = doctor_packages_missing(names, "gcc ii \nhostapd ii \niw ii \niw-extra ii \n");

	is_str(m, "hostapd iw-extra",
	       "removed and unknown packages are missing; a prefix is no match");
	ok(none == NULL, "nothing missing: NULL");
	free(m);
}

static void test_disk_and_exit(void)
{
	struct doctor_report r = { 0 };

	doctor_disk_result(&r, "/c", 10ULL << 30);
	doctor_disk_result(&r, "/c", (5ULL << 30) - 1);
	is_int(r.v[0].level, DOCTOR_OK, "10 GB free is ok");
	is_str(r.v[0].what, "free disk in /c: 10.0 GB", "the free space is named");
	is_int(r.v[1].level, DOCTOR_WARN, "just below 5 GB warns");
	has_str(r.v[1].detail, "1.5 GB", "the warning says what a build takes");
	is_int(doctor_exit_code(&r), EXIT_PASS, "warnings alone exit 0");
	doctor_add(&r, DOCTOR_FAIL, "x", "fix it");
	is_int(doctor_exit_code(&r), EXIT_INFRA, "one failure exits 3");
	is_str(doctor_level_name(DOCTOR_OK), "ok  ", "levels print in one width");
	doctor_report_free(&r);
	ok(r.n == 0 && r.v == NULL, "a freed report is empty");
}

int main(void)
{
	plan(13);
	test_parse();
	test_missing();
	test_disk_and_exit();
	return done_testing();
}
