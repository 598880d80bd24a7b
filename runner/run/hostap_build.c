// SPDX-License-Identifier: MIT
/* hostap_build.c - hostap's test programs from a user's tree, cached by content. */
#define _GNU_SOURCE
#include "hostap_build.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

/* Part of the cache key: a changed recipe (the steps below, the environment) rebuilds. */
#define HOSTAP_RECIPE_VERSION 2

/*
 * A line added to each .config of the copy. hostap's src/utils/trace.c
 * (CONFIG_WPA_TRACE_BFD, which the example configs set) cast to libbfd's
 * bfd_hostptr_t until 2023-11-30 (its commit "trace: binutils replaces
 * bfd_hostptr_t with uintptr_t"); Debian 12's binutils 2.40 no longer has
 * the type, so every tree before that, v2.10 among them, failed to build
 * here. The name means nothing to a later tree.
 */
static const char config_extra[] = "CFLAGS += -Dbfd_hostptr_t=uintptr_t\n";

/*
 * What is built, in the order of hostap's tests/hwsim/build.sh, each in
 * its folder of the copy. The programs are make's targets and what the
 * cache keeps (none listed: make's default, and every lib*.so it made).
 */
static const struct hb_step {
	const char *name;     /* what the progress line and the errors say */
	const char *dir;      /* relative to the tree */
	const char *config;   /* tests/hwsim/FILE that becomes DIR/.config, or NULL */
	const char *make_arg; /* one more argument to make, or NULL */
	const char *const programs[4];
	bool optional; /* its failure is noted in build.log, not fatal */
} steps[] = {
	{ "tnc", "tests/hwsim/tnc", NULL, NULL, { NULL }, false },
	{ "wlantest", "wlantest", NULL, NULL, { "wlantest", "wlantest_cli" }, false },
	/* Without a browser, as build.sh; it needs libcurl's and libxml2's headers. */
	{ "hs20-osu-client",
	  "hs20/client",
	  NULL,
	  "CONFIG_NO_BROWSER=1",
	  { "hs20-osu-client" },
	  true },
	{ "hostapd",
	  "hostapd",
	  "example-hostapd.config",
	  NULL,
	  { "hostapd", "hostapd_cli", "hlr_auc_gw" },
	  false },
	{ "wpa_supplicant",
	  "wpa_supplicant",
	  "example-wpa_supplicant.config",
	  NULL,
	  { "wpa_supplicant", "wpa_cli", "eapol_test" },
	  false },
};
#define N_STEPS (sizeof(steps) / sizeof(steps[0]))

/* The build inputs: every regular file below these folders, and these files. */
static const char *const input_dirs[] = { "src",      "hostapd", "wpa_supplicant",
					  "wlantest", "hs20",	 "tests/hwsim/tnc" };
static const char *const input_files[] = { "tests/hwsim/example-hostapd.config",
					   "tests/hwsim/example-wpa_supplicant.config" };

/* What hostap_tree_check wants, in the order it names what is missing. */
static const char *const tree_marks[] = { "tests/hwsim/run-tests.py", "hostapd/Makefile",
					  "wpa_supplicant/Makefile",
					  "tests/hwsim/example-hostapd.config",
					  "tests/hwsim/example-wpa_supplicant.config" };

#define tell(o, transient, ...) say_through((o)->say, (o)->say_ctx, transient, __VA_ARGS__)

int hostap_tree_check(const char *tree, struct uerr *e)
{
	if (!is_dir(tree))
		return uerr_set(e, EXIT_USAGE,
				"--hostap=%s: no such folder; give a hostap checkout", tree);
	for (size_t i = 0; i < sizeof(tree_marks) / sizeof(tree_marks[0]); i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", tree, tree_marks[i]);

		if (!path_exists(path))
			return uerr_set(e, EXIT_USAGE,
					"--hostap=%s: %s is not a hostap tree (no %s); give a "
					"hostap checkout",
					tree, tree, tree_marks[i]);
	}
	return 0;
}

/* ---- the inputs and the key ----------------------------------------- */

/*
 * What a build in the user's own tree leaves, which must not change the
 * key: objects, libraries, coverage data, .config (the copy gets the
 * example configs), the programs themselves, and the systemd and D-Bus
 * .service files wpa_supplicant's make generates from its .service.in
 * (hostap writes no .service file by hand). Any ELF file too (is_elf_at).
 */
static bool output_name(const char *rel, const char *name)
{
	static const char *const endings[] = { ".o",	".d",	 ".a",	  ".so",
					       ".gcno", ".gcda", ".gcov", ".service" };

	if (!strcmp(name, ".config"))
		return true;
	for (size_t i = 0; i < sizeof(endings) / sizeof(endings[0]); i++)
		if (ends_with(name, endings[i]))
			return true;
	for (size_t i = 0; i < N_STEPS; i++) {
		size_t dl = strlen(steps[i].dir);

		if (strncmp(rel, steps[i].dir, dl) || rel[dl] != '/')
			continue;
		for (const char *const *p = steps[i].programs; *p; p++)
			if (!strcmp(rel + dl + 1, *p))
				return true;
	}
	return false;
}

static bool is_elf_at(int dfd, const char *name)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char magic[4];

	return fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);
}

/* A walk of one input folder: the relative paths of its inputs. */
#define MAX_DEPTH 32
struct collect {
	const char *top;
	char *parents[MAX_DEPTH]; /* the folder being walked at each depth */
	char **v;
	size_t n;
};

static enum walk_step collect_one(int dfd, const char *name, const struct stat *st, int depth,
				  void *ctx)
{
	struct collect *c = ctx;
	struct strbuf rel = { 0 };

	if (depth >= MAX_DEPTH)
		return WALK_NEXT;
	if (S_ISDIR(st->st_mode)) {
		free(c->parents[depth]);
		c->parents[depth] = xstrdup(name);
		return WALK_ENTER;
	}
	if (!S_ISREG(st->st_mode))
		return WALK_NEXT;
	sb_adds(&rel, c->top);
	for (int d = 1; d < depth; d++)
		sb_printf(&rel, "/%s", c->parents[d]);
	sb_printf(&rel, "/%s", name);
	if (output_name(rel.buf, name) || is_elf_at(dfd, name)) {
		sb_release(&rel);
		return WALK_NEXT;
	}
	c->v = xrealloc(c->v, (c->n + 2) * sizeof(*c->v));
	c->v[c->n++] = sb_detach(&rel);
	c->v[c->n] = NULL;
	return WALK_NEXT;
}

static int strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The inputs of tree, relative paths in strcmp order (a NULL-terminated vector). */
static int input_list(const char *tree, char ***v, size_t *n, struct uerr *e)
{
	struct collect c = { 0 };
	int r = 0;

	for (size_t i = 0; i < sizeof(input_dirs) / sizeof(input_dirs[0]) && !r; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", tree, input_dirs[i]);
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0) {
			/* An older tree without hs20/: nothing of it to build. */
			if (errno != ENOENT)
				r = uerr_sys(e, EXIT_INFRA, "hostap: cannot read %s", path);
			continue;
		}
		c.top = input_dirs[i];
		if (walk_at(fd, collect_one, &c) < 0)
			r = uerr_set(e, EXIT_INFRA, "hostap: cannot read every folder of %s", path);
	}
	for (size_t i = 0; i < sizeof(input_files) / sizeof(input_files[0]); i++) {
		c.v = xrealloc(c.v, (c.n + 2) * sizeof(*c.v));
		c.v[c.n++] = xstrdup(input_files[i]);
		c.v[c.n] = NULL;
	}
	for (size_t d = 0; d < MAX_DEPTH; d++)
		free(c.parents[d]);
	if (r < 0) {
		strv_free(c.v);
		return r;
	}
	qsort(c.v, c.n, sizeof(*c.v), strcmp_p);
	*v = c.v;
	*n = c.n;
	return 0;
}

/* SHA-256 over each input's path, length and content, in list order. */
static int content_hash(const char *tree, char *const *v, size_t n, char hex[65], struct uerr *e)
{
	struct hasher *h = hasher_new();

	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", tree, v[i]);
		_cleanup_free_ char *data = NULL;
		char len_text[32];
		size_t len = 0;
		int r = read_file(path, &data, &len);

		if (r < 0) {
			hasher_final(h, hex);
			return uerr_set(e, EXIT_INFRA, "hostap: cannot read %s: %s", path,
					read_file_error(r));
		}
		snprintf(len_text, sizeof(len_text), "%zu", len);
		hasher_add_str(h, v[i]);
		hasher_add_str(h, len_text);
		hasher_add(h, data, len);
	}
	hasher_final(h, hex);
	return 0;
}

/* The recipe in words, from the steps: part of the key and of inputs.txt. */
static char *recipe_text(void)
{
	struct strbuf sb = { 0 };

	sb_printf(&sb, "hostap-build %d: make -jN CC=gcc FIPSLD_CC=gcc in a copy;",
		  HOSTAP_RECIPE_VERSION);
	for (size_t i = 0; i < N_STEPS; i++) {
		const struct hb_step *s = &steps[i];

		sb_printf(&sb, "%s %s", i ? "," : "", s->dir);
		if (s->config)
			sb_printf(&sb, " with tests/hwsim/%s + %.*s", s->config,
				  (int)strlen(config_extra) - 1, config_extra);
		if (s->make_arg)
			sb_printf(&sb, " %s", s->make_arg);
		for (const char *const *p = s->programs; *p; p++)
			sb_printf(&sb, " %s", *p);
		if (s->optional)
			sb_adds(&sb, " (optional)");
	}
	return sb_detach(&sb);
}

/*
 * The versions of the libraries the programs build against (their -dev
 * packages; absent ones are left out): a library installed later builds
 * what needed it (hs20-osu-client wants libcurl's), a new one relinks.
 */
static char *library_versions(void)
{
	char *argv[] = { "dpkg-query",
			 "-W",
			 "-f=${Package} ${db:Status-Abbrev}${Version}\n",
			 "libssl-dev",
			 "libnl-3-dev",
			 "libnl-genl-3-dev",
			 "libnl-route-3-dev",
			 "libdbus-1-dev",
			 "libpcap-dev",
			 "libsqlite3-dev",
			 "libcurl4-openssl-dev",
			 "libxml2-dev",
			 "binutils-dev",
			 NULL };
	int st;
	char *out = capture_argv(argv, &st);

	return out ? out : xstrdup("");
}

/* What a build's key is made of; *text, when asked for, is inputs.txt. */
struct hb_inputs {
	char **v; /* the input files, relative */
	size_t n;
	char content[65];
	char key[17];
};

static int inputs_of(const char *tree, struct hb_inputs *in, char **text, struct uerr *e)
{
	_cleanup_free_ char *cc = compiler_version();
	_cleanup_free_ char *recipe = recipe_text();
	_cleanup_free_ char *libs = library_versions();
	_cleanup_free_ char *keyed = NULL;
	struct hasher *h;
	char hex[65];

	memset(in, 0, sizeof(*in));
	if (input_list(tree, &in->v, &in->n, e) < 0)
		return -1;
	if (content_hash(tree, in->v, in->n, in->content, e) < 0) {
		strv_free(in->v);
		in->v = NULL;
		return -1;
	}
	/* The tree's path is not keyed: two checkouts alike share a build. */
	keyed = xasprintf("content: %s\ncompiler: %s\nrecipe: %s\nlibraries:\n%s", in->content, cc,
			  recipe, libs);
	h = hasher_new();
	hasher_add_str(h, keyed);
	hasher_final(h, hex);
	snprintf(in->key, sizeof(in->key), "%.16s", hex);
	if (text)
		*text = xasprintf(
		    "tree: %s\nfiles: %zu (under %s, %s, %s, %s, %s, %s; and %s, %s)\n%s", tree,
		    in->n, input_dirs[0], input_dirs[1], input_dirs[2], input_dirs[3],
		    input_dirs[4], input_dirs[5], input_files[0], input_files[1], keyed);
	return 0;
}

int hostap_build_key(const char *tree, char out[17], struct uerr *e)
{
	struct hb_inputs in;

	if (inputs_of(tree, &in, NULL, e) < 0)
		return -1;
	memcpy(out, in.key, 17);
	strv_free(in.v);
	return 0;
}

/* ---- copying -------------------------------------------------------- */

/*
 * from to a new file to, with its permission bits and extra (or NULL) after
 * its content; to's folder made as needed.
 */
static int copy_file(const char *from, const char *to, const char *extra, struct uerr *e)
{
	_cleanup_free_ char *data = NULL;
	_cleanup_free_ char *parent = xstrdup(to);
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t len = 0;
	int r;

	if (stat(from, &st) < 0)
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot read %s", from);
	if ((r = read_file(from, &data, &len)) < 0)
		return uerr_set(e, EXIT_INFRA, "hostap: cannot read %s: %s", from,
				read_file_error(r));
	*strrchr(parent, '/') = '\0';
	if ((r = mkdir_p(parent, 0755)) < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", parent);
	}
	fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (st.st_mode & 0777) | 0600);
	if (fd < 0)
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", to);
	if ((r = write_all(fd, data, len)) < 0 ||
	    (extra && len && data[len - 1] != '\n' && (r = write_all(fd, "\n", 1)) < 0) ||
	    (extra && (r = write_all(fd, extra, strlen(extra))) < 0) || close(steal_fd(&fd)) < 0) {
		if (r < 0)
			errno = -r;
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot write %s", to);
	}
	return 0;
}

/*
 * The inputs into work/, the folder make runs in. What was copied is
 * hashed again: a tree edited meanwhile would otherwise be cached under
 * the key of content it no longer has.
 */
static int copy_inputs(const char *tree, const struct hb_inputs *in, const char *work,
		       struct uerr *e)
{
	char **v = NULL;
	size_t n = 0;
	char hex[65];
	int r;

	for (size_t i = 0; i < in->n; i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", tree, in->v[i]);
		_cleanup_free_ char *to = xasprintf("%s/%s", work, in->v[i]);

		if (copy_file(from, to, NULL, e) < 0)
			return -1;
	}
	if (input_list(work, &v, &n, e) < 0)
		return -1;
	r = content_hash(work, v, n, hex, e);
	strv_free(v);
	if (r < 0)
		return -1;
	if (strcmp(hex, in->content))
		return uerr_set(e, EXIT_INFRA,
				"hostap: %s changed while it was copied for the build; run again",
				tree);
	for (size_t i = 0; i < N_STEPS; i++) {
		_cleanup_free_ char *from = NULL;
		_cleanup_free_ char *to = NULL;

		if (!steps[i].config)
			continue;
		from = xasprintf("%s/tests/hwsim/%s", work, steps[i].config);
		to = xasprintf("%s/%s/.config", work, steps[i].dir);
		if (copy_file(from, to, config_extra, e) < 0)
			return -1;
	}
	return 0;
}

/* ---- make ----------------------------------------------------------- */

static void child_env(void)
{
	/*
	 * hostap's Makefiles take these from the environment: the build must
	 * be the recipe's whatever the user's shell exports (BUILDDIR would
	 * move the objects out of the scratch folder), and the compiler the
	 * key names.
	 */
	static const char *const drop[] = { "MAKEFLAGS", "MFLAGS",	"MAKELEVEL", "CFLAGS",
					    "CPPFLAGS",	 "LDFLAGS",	"LIBS",	     "EXTRA_CFLAGS",
					    "BUILDDIR",	 "OUT",		"V",	     "QUIET",
					    "LDO",	 "CONFIG_FILE", "DESTDIR" };

	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		unsetenv(drop[i]);
	setenv("CC", "gcc", 1);
	setenv("FIPSLD_CC", "gcc", 1); /* as build.sh */
}

struct hb_progress {
	const struct hostap_build_opts *o;
	const char *step;
	size_t i;
	time_t t0, last;
	unsigned long files;
	char cur[80];
};

/* hostap's rules print "  CC path" per compiled file, "  LD prog" per link. */
static void hb_line(void *ctx, const char *line)
{
	struct hb_progress *p = ctx;
	const char *name, *slash;

	if (strncmp(line, "  CC ", 5) && strncmp(line, "  LD ", 5))
		return;
	p->files++;
	name = line + 5 + strspn(line + 5, " ");
	if ((slash = strrchr(name, '/')))
		name = slash + 1;
	snprintf(p->cur, sizeof(p->cur), "%s", name);
}

static void hb_tick(void *ctx)
{
	struct hb_progress *p = ctx;
	const struct hostap_build_opts *o = p->o;
	time_t now = time(NULL);

	if (o->progress) {
		tell(o, true, "building hostap: %s (%zu of %zu) [%lu files, %lds] %s", p->step,
		     p->i + 1, N_STEPS, p->files, (long)(now - p->t0), p->cur);
	} else if (now - p->last >= 60) {
		p->last = now;
		tell(o, false, "building hostap: %s (%zu of %zu), %lds", p->step, p->i + 1, N_STEPS,
		     (long)(now - p->t0));
	}
}

/*
 * make in the step's folder, its output appended to log_fd. Not QUIET=1
 * (build.sh's): with it hostap's rules print nothing but warnings, and
 * the progress line would stand still for minutes; without it they print
 * one short line a file, not the compiler's command lines (V=1 does).
 */
static int run_step(const struct hostap_build_opts *o, size_t i, const char *work, int log_fd,
		    struct hb_progress *p)
{
	const struct hb_step *s = &steps[i];
	_cleanup_free_ char *dir = xasprintf("%s/%s", work, s->dir);
	_cleanup_free_ char *jobs = xasprintf("-j%d", o->jobs > 0 ? o->jobs : 1);
	char *argv[10] = { "make", "-C", dir, jobs };
	size_t argc = 4;
	struct strbuf head = { 0 };
	struct run_watch w = {
		.on_line = hb_line, .tick = hb_tick, .in_child = child_env, .ctx = p
	};
	int st;

	if (s->make_arg)
		argv[argc++] = (char *)s->make_arg;
	for (const char *const *q = s->programs; *q; q++)
		argv[argc++] = (char *)*q;
	argv[argc] = NULL;
	sb_printf(&head, "## %s (%zu of %zu):", s->name, i + 1, N_STEPS);
	for (size_t a = 0; a < argc; a++)
		sb_printf(&head, " %s", argv[a]);
	sb_adds(&head, "\n");
	write_all(log_fd, head.buf, head.len);
	sb_release(&head);
	p->step = s->name;
	p->i = i;
	p->cur[0] = '\0';
	hb_tick(p);
	st = run_argv_watched(argv, log_fd, &w);
	if (st < 0)
		return st;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * A failed step: its log kept as KEY.failed.log, and one line naming the
 * step, the first compiler error of its part of the log, and the log.
 */
static int step_failed(const struct hb_step *s, const char *log, off_t from, const char *failed_log,
		       const char *why, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *first = NULL;
	size_t len = 0;

	if (read_file(log, &text, &len) == 0 && (size_t)from <= len)
		first = kselftest_error_lines(text + from, 1);
	if (rename(log, failed_log) < 0)
		failed_log = log; /* kept where it is only until the scratch folder goes */
	if (why)
		return uerr_set(e, EXIT_INFRA, "hostap: building %s failed (%s); see %s", s->name,
				why, failed_log);
	if (first)
		return uerr_set(e, EXIT_INFRA, "hostap: building %s failed: %.300s; see %s",
				s->name, first, failed_log);
	return uerr_set(e, EXIT_INFRA, "hostap: building %s failed; see %s", s->name, failed_log);
}

/* ---- the cache folder's layout -------------------------------------- */

/* work/REL to out/tree/REL (the same file system: a rename). */
static int keep(const char *work, const char *out, const char *rel, struct uerr *e)
{
	_cleanup_free_ char *from = xasprintf("%s/%s", work, rel);
	_cleanup_free_ char *to = xasprintf("%s/tree/%s", out, rel);
	_cleanup_free_ char *parent = xstrdup(to);
	int r;

	*strrchr(parent, '/') = '\0';
	if ((r = mkdir_p(parent, 0755)) < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", parent);
	}
	if (rename(from, to) < 0)
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot move %s to %s", from, to);
	return 0;
}

/* The ELF program interpreter path is (the dynamic loader), or NULL. */
static char *elf_interp(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf64_Ehdr eh;

	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return NULL;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		char *interp;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != sizeof(ph))
			return NULL;
		if (ph.p_type != PT_INTERP || ph.p_filesz < 2 || ph.p_filesz > 4096)
			continue;
		interp = xcalloc(1, ph.p_filesz + 1);
		if (pread(fd, interp, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
			free(interp);
			return NULL;
		}
		return interp;
	}
	return NULL;
}

/*
 * The libraries prog needs, as the loader lists them ("NAME => PATH
 * (ADDRESS)"; the vDSO and the loader have no "=>"), copied into libdir
 * under NAME. The loader reads the program, never runs it.
 */
static int copy_libs(const char *loader, const char *prog, const char *libdir, struct uerr *e)
{
	char *argv[] = { (char *)loader, "--list", (char *)prog, NULL };
	int st;
	_cleanup_free_ char *out = capture_argv(argv, &st);

	if (!out || st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return uerr_set(e, EXIT_INFRA, "hostap: '%s --list %s' failed", loader, prog);
	for (char *line = out, *nl; *line; line = nl) {
		char *arrow, *path, *end;
		_cleanup_free_ char *name = NULL;
		_cleanup_free_ char *to = NULL;

		nl = line + strcspn(line, "\n");
		if (*nl)
			*nl++ = '\0';
		line += strspn(line, " \t");
		if (!(arrow = strstr(line, " => ")))
			continue;
		name = xstrndup(line, (size_t)(arrow - line));
		path = arrow + 4;
		if (!strncmp(path, "not found", 9))
			return uerr_set(
			    e, EXIT_INFRA,
			    "hostap: %s needs %s, which the host's loader does not find", prog,
			    name);
		if ((end = strstr(path, " (")))
			*end = '\0';
		if (strchr(name, '/') || !strcmp(path, loader))
			continue;
		to = xasprintf("%s/%s", libdir, name);
		if (!path_exists(to) && copy_file(path, to, NULL, e) < 0)
			return -1;
	}
	return 0;
}

/* What the build made into out/tree/, their libraries into out/lib/. */
static int assemble(const char *work, const char *out, bool *no_optional, struct uerr *e)
{
	_cleanup_free_ char *libdir = xasprintf("%s/lib", out);
	_cleanup_free_ char *loader = NULL;
	char **kept = NULL;
	size_t n = 0;
	int r = -1;

	*no_optional = false;
	for (size_t i = 0; i < N_STEPS; i++) {
		const struct hb_step *s = &steps[i];

		for (const char *const *p = s->programs; *p; p++) {
			_cleanup_free_ char *rel = xasprintf("%s/%s", s->dir, *p);
			_cleanup_free_ char *at = xasprintf("%s/%s", work, rel);

			if (s->optional && !path_exists(at)) {
				*no_optional = true;
				continue;
			}
			if (keep(work, out, rel, e) < 0)
				goto out;
			kept = xrealloc(kept, (n + 2) * sizeof(*kept));
			kept[n++] = xasprintf("%s/tree/%s", out, rel);
			kept[n] = NULL;
		}
		if (!s->programs[0]) {
			_cleanup_free_ char *dir = xasprintf("%s/%s", work, s->dir);
			struct dirent **names;
			int count = scandir(dir, &names, NULL, alphasort);
			int bad = 0;

			for (int k = 0; k < count; k++) {
				_cleanup_free_ char *rel =
				    xasprintf("%s/%s", s->dir, names[k]->d_name);

				if (!bad && ends_with(names[k]->d_name, ".so")) {
					bad = keep(work, out, rel, e);
					if (!bad) {
						kept = xrealloc(kept, (n + 2) * sizeof(*kept));
						kept[n++] = xasprintf("%s/tree/%s", out, rel);
						kept[n] = NULL;
					}
				}
				free(names[k]);
			}
			if (count > 0)
				free(names);
			if (bad)
				goto out;
		}
	}
	if (mkdir_p(libdir, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", libdir);
		goto out;
	}
	/* Every program is linked alike: hostapd's loader lists them all. */
	for (size_t i = 0; i < n && !loader; i++)
		loader = elf_interp(kept[i]);
	if (!loader) {
		uerr_set(e, EXIT_INFRA, "hostap: the programs built name no dynamic loader");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (copy_libs(loader, kept[i], libdir, e) < 0)
			goto out;
	r = 0;
out:
	strv_free(kept);
	return r;
}

/* ---- the build ------------------------------------------------------ */

/* Copy, make every step, lay out the cache folder: all of it in tmp. */
static int build_in(const struct hostap_build_opts *o, const struct hb_inputs *in,
		    const char *inputs_txt, const char *tmp, const char *failed_log,
		    bool *no_optional, struct uerr *e)
{
	_cleanup_free_ char *work = xasprintf("%s/work", tmp);
	_cleanup_free_ char *log = xasprintf("%s/build.log", tmp);
	_cleanup_free_ char *txt = xasprintf("%s/inputs.txt", tmp);
	_cleanup_close_ int log_fd = -1;
	struct hb_progress p = { .o = o, .t0 = time(NULL), .last = time(NULL) };
	int w;

	if ((w = write_file_atomic(txt, inputs_txt, strlen(inputs_txt))) < 0) {
		errno = -w;
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot write %s", txt);
	}
	if (o->progress)
		tell(o, true, "building hostap: copying %zu files of %s", in->n, o->tree);
	if (copy_inputs(o->tree, in, work, e) < 0)
		return -1;
	log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot write %s", log);
	for (size_t i = 0; i < N_STEPS; i++) {
		const struct hb_step *s = &steps[i];
		off_t from = lseek(log_fd, 0, SEEK_END);
		int st = run_step(o, i, work, log_fd, &p);

		if (o->progress && o->say)
			o->say(o->say_ctx, true, NULL);
		if (st < 0) {
			errno = -st;
			return uerr_sys(e, EXIT_INFRA, "hostap: cannot run make");
		}
		if (st && s->optional) {
			_cleanup_free_ char *line = xasprintf(
			    "## %s was not built (make's status %d): it is optional (it needs "
			    "libcurl's and libxml2's headers), the rest is cached without it\n",
			    s->name, st);

			write_all(log_fd, line, strlen(line));
			continue;
		}
		if (st)
			return step_failed(s, log, from < 0 ? 0 : from, failed_log, NULL, e);
		for (const char *const *q = s->programs; *q; q++) {
			_cleanup_free_ char *prog = xasprintf("%s/%s/%s", work, s->dir, *q);
			_cleanup_free_ char *why = NULL;

			if (path_exists(prog) || s->optional)
				continue;
			why = xasprintf("make made no %s/%s", s->dir, *q);
			return step_failed(s, log, from < 0 ? 0 : from, failed_log, why, e);
		}
	}
	if (o->progress)
		tell(o, true, "building hostap: the cache folder");
	if (assemble(work, tmp, no_optional, e) < 0)
		return -1;
	if (*no_optional) {
		static const char line[] = "## hs20/client/hs20-osu-client: not in tree/ (see "
					   "above)\n";

		write_all(log_fd, line, sizeof(line) - 1);
	}
	if (rm_rf(work) < 0)
		return uerr_sys(e, EXIT_INFRA, "hostap: cannot remove %s", work);
	return 0;
}

static char *duration_text(double s)
{
	if (s < 60)
		return xasprintf("%.1fs", s);
	return xasprintf("%dm%02ds", (int)s / 60, (int)s % 60);
}

int hostap_build(const struct hostap_build_opts *o, char **dir, bool *built, struct uerr *e)
{
	_cleanup_free_ char *root = NULL;
	_cleanup_free_ char *base = NULL;
	_cleanup_free_ char *tmp = NULL;
	_cleanup_free_ char *failed_log = NULL;
	_cleanup_free_ char *inputs_txt = NULL;
	_cleanup_free_ char *took = NULL;
	struct hb_inputs in;
	bool no_optional = false;
	double t0 = monotonic_now();
	int r = -1;

	*dir = NULL;
	*built = false;
	if (hostap_tree_check(o->tree, e) < 0)
		return -1;
	if (inputs_of(o->tree, &in, &inputs_txt, e) < 0)
		return -1;
	root = cache_root();
	base = xasprintf("%s/hostap", root);
	*dir = xasprintf("%s/%s", base, in.key);
	if (is_dir(*dir)) {
		/* Used now: a later prune may spare what was used lately. */
		utimensat(AT_FDCWD, *dir, NULL, 0);
		strv_free(in.v);
		return 0;
	}
	if (mkdir_p(base, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", base);
		goto out;
	}
	sweep_stale_tmp(base);
	tmp = tmp_name(*dir);
	failed_log = xasprintf("%s.failed.log", *dir);
	if (rm_rf(tmp) < 0 || mkdir_p(tmp, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "hostap: cannot create %s", tmp);
		goto out;
	}
	/* On a terminal only: a failed build must stay one line in CI logs. */
	if (o->progress)
		tell(o, false, "building hostap from %s (-j%d)", o->tree,
		     o->jobs > 0 ? o->jobs : 1);
	scratch_push(tmp);
	r = build_in(o, &in, inputs_txt, tmp, failed_log, &no_optional, e);
	scratch_pop(tmp);
	if (r < 0)
		goto out;
	r = -1;
	unlink(failed_log);
	if (rename(tmp, *dir) < 0) {
		/* Another umlrun finished the same build first: use its. */
		if ((errno == EEXIST || errno == ENOTEMPTY) && is_dir(*dir))
			r = 0;
		else
			uerr_sys(e, EXIT_INFRA, "hostap: cannot install %s", *dir);
		goto out;
	}
	*built = true;
	took = duration_text(monotonic_now() - t0);
	tell(o, false, "hostap built in %s%s: %s", took,
	     no_optional ? " (without hs20-osu-client: see build.log)" : "", *dir);
	r = 0;
out:
	if (tmp)
		rm_rf(tmp);
	strv_free(in.v);
	if (r < 0) {
		free(*dir);
		*dir = NULL;
	}
	return r;
}
