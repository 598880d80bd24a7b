// SPDX-License-Identifier: MIT
/*
 * fs.c - files and paths: reading and writing whole files, mkdir -p,
 * walking a folder, rm -rf, resolved paths, hashing a file.
 */
#define _GNU_SOURCE
#include "fs.h"

#include "cachedir.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

/*
 * A file to read whole: a regular file (a fifo would block the open or the
 * read for ever, /dev/zero never ends) of at most READ_FILE_MAX bytes.
 * O_NONBLOCK only opens it; reading a regular file does not block.
 */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > READ_FILE_MAX) {
		int err = S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? EINVAL : EFBIG;

		close(fd);
		return -err;
	}
	return fd;
}

const char *read_file_error(int r)
{
	if (r == -EINVAL)
		return "not a regular file (a device or a fifo?)";
	if (r == -EFBIG)
		return "larger than umlrun reads (1 GiB)";
	return strerror(-r);
}

int read_file(const char *path, char **out, size_t *len)
{
	_cleanup_close_ int fd = open_regular(path);
	struct strbuf sb = { 0 };
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			sb_release(&sb);
			return -err;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	if (len)
		*len = sb.len;
	*out = sb_detach(&sb);
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	_cleanup_free_ char *suffix = tmp_suffix();
	/* PATH.tmp-PID.nsINODE: what a killed writer leaves, sweep_stale_tmp knows. */
	_cleanup_free_ char *tmp = xasprintf("%s.tmp-%s", path, suffix);
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err;

	if (fd < 0)
		return -errno;
	if ((err = write_all(fd, data, len)) < 0) {
		unlink(tmp);
		return err;
	}
	if (close(steal_fd(&fd)) < 0 || rename(tmp, path) < 0) {
		err = errno;
		unlink(tmp);
		return -err;
	}
	return 0;
}

int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	_cleanup_free_ char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int walk_level(int dfd, int depth, walk_fn *fn, void *ctx)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int cfd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		switch (fn(dfd, de->d_name, &st, depth, ctx)) {
		case WALK_NEXT:
			continue;
		case WALK_STOP:
			closedir(d);
			return -2;
		case WALK_ENTER:
			break;
		}
		cfd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0) {
			r = -1;
			continue;
		}
		switch (walk_level(cfd, depth + 1, fn, ctx)) {
		case -2:
			closedir(d);
			return -2;
		case -1:
			r = -1;
		}
	}
	closedir(d);
	return r;
}

int walk_at(int dfd, walk_fn *fn, void *ctx)
{
	return walk_level(dfd, 1, fn, ctx) < 0 ? -1 : 0;
}

/* One folder on the way down: what rm_tree_at still has to enter. */
struct rm_level {
	char *name; /* in its parent; NULL for the top */
	char **subs;
	size_t n, next;
};

/* Unlinks what fd holds but folders, which it lists in l (0 or -errno). */
static int rm_scan(int fd, struct rm_level *l)
{
	int dfd, r = 0;
	DIR *d;
	struct dirent *de;
	struct stat self;

	/* A folder of mode 555 (not root): its entries are ours to remove. */
	if (fstat(fd, &self) == 0 && (self.st_mode & 0700) != 0700 &&
	    fchmod(fd, self.st_mode | 0700) < 0)
		r = -errno;
	dfd = dup(fd);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d) {
		r = -errno;
		if (dfd >= 0)
			close(dfd);
		return r;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = r ? r : -errno;
		} else if (S_ISDIR(st.st_mode)) {
			l->subs = xrealloc(l->subs, (l->n + 1) * sizeof(*l->subs));
			l->subs[l->n++] = xstrdup(de->d_name);
		} else if (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT) {
			r = r ? r : -errno;
		}
	}
	closedir(d);
	return r;
}

static void rm_level_free(struct rm_level *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->subs[i]);
	free(l->subs);
	free(l->name);
}

/*
 * Empties the folder fd (and closes fd): by descriptors, never following a
 * symbolic link, and at any depth with one descriptor open, going down
 * into each subfolder and back up by "..". A guest can make a tree deeper
 * than any path (renaming folders into one another), and a path-based
 * walk (nftw) stops at PATH_MAX. For trees nothing else changes while it
 * runs: umlrun's own, and a guest's once it has ended.
 */
static int rm_tree_at(int fd)
{
	struct rm_level *stack = xcalloc(1, sizeof(*stack));
	size_t depth = 1;
	int r = rm_scan(fd, &stack[0]);

	while (fd >= 0) {
		struct rm_level *l = &stack[depth - 1];

		if (l->next < l->n) {
			const char *name = l->subs[l->next++];
			int cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int sr;

			/* A folder of mode 000, when not root: it is ours to open. */
			if (cfd < 0 && errno == EACCES && fchmodat(fd, name, 0700, 0) == 0)
				cfd = openat(fd, name,
					     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0) {
				r = r ? r : -errno;
				continue;
			}
			close(fd);
			fd = cfd;
			stack = xrealloc(stack, (depth + 1) * sizeof(*stack));
			stack[depth] = (struct rm_level){ .name = xstrdup(name) };
			sr = rm_scan(fd, &stack[depth]);
			r = r ? r : sr;
			depth++;
			continue;
		}
		if (depth == 1) {
			close(fd);
			break;
		}
		{
			int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			close(fd);
			fd = parent;
			if (fd < 0)
				r = r ? r : -errno;
			else if (unlinkat(fd, l->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
				r = r ? r : -errno;
			rm_level_free(l);
			depth--;
		}
	}
	while (depth)
		rm_level_free(&stack[--depth]);
	free(stack);
	return r;
}

int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	{
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int r = fd < 0 ? -errno : rm_tree_at(fd);

		if (r < 0)
			return r;
	}
	return rmdir(path) < 0 && errno != ENOENT ? -errno : 0;
}

int rm_contents(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : rm_tree_at(fd);
}

char *path_resolved(const char *path)
{
	_cleanup_free_ char *head = xstrdup(*path ? path : ".");
	char *rest = NULL, *real;

	/* The longest part that exists, resolved; the rest as written. */
	while (!(real = realpath(head, NULL))) {
		char *slash = strrchr(head, '/');
		char *tail;

		if (errno != ENOENT)
			break;
		tail = xstrdup(slash ? slash + 1 : head);
		if (rest) {
			char *both = xasprintf("%s/%s", tail, rest);

			free(rest);
			free(tail);
			rest = both;
		} else {
			rest = tail;
		}
		if (!slash) {
			free(head);
			head = xstrdup(".");
		} else if (slash == head) {
			head[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
	/* The rest by name: "." and "" dropped, ".." taking back a part. */
	for (char *part = rest ? strtok(rest, "/") : NULL; real && part; part = strtok(NULL, "/")) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			char *slash = strrchr(real, '/');

			if (slash && slash != real)
				*slash = '\0';
			else
				strcpy(real, "/");
			continue;
		}
		{
			char *both = xasprintf("%s/%s", strcmp(real, "/") ? real : "", part);

			free(real);
			real = both;
		}
	}
	free(rest);
	return real;
}

bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int hasher_add_file(struct hasher *h, const char *path)
{
	_cleanup_close_ int fd = open_regular(path);
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		hasher_add(h, buf, (size_t)n);
	}
	return 0;
}

int sb_write_atomic(const char *path, struct strbuf *sb, struct uerr *e)
{
	int r = write_file_atomic(path, sb->buf ? sb->buf : "", sb->len);

	sb_release(sb);
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
	}
	return 0;
}
