/* SPDX-License-Identifier: MIT */
/*
 * fs.h - files and paths: read_file, write_file_atomic, mkdir_p, walk_at,
 * rm_rf, path_resolved and the tests of a path, hasher_add_file.
 */
#ifndef UMLRUN_UTIL_FS_H
#define UMLRUN_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "alloc.h"
#include "hash.h"
#include "msg.h"

/*
 * Files. All return 0 or -errno. read_file (and hasher_add_file) read only
 * a regular file (else -EINVAL) of at most READ_FILE_MAX bytes (else
 * -EFBIG): read_file_error says either in words.
 */
#define READ_FILE_MAX ((off_t)1 << 30)
int read_file(const char *path, char **out, size_t *len);
const char *read_file_error(int r);
/* Writes through a temporary file and rename(2): never half-written. */
/* Writes all n bytes of p to fd (a short write goes on, EINTR too): 0 or -errno. */
int write_all(int fd, const void *p, size_t n);
int write_file_atomic(const char *path, const void *data, size_t len);
/* The same for a strbuf, which it releases; a failure fills e (exit 3). */
int sb_write_atomic(const char *path, struct strbuf *sb, struct uerr *e);
int mkdir_p(const char *path, mode_t mode);
/*
 * A walk of the folder dfd (which it closes) by descriptors, never
 * following a link, one descriptor per level: fn gets each entry's folder,
 * name, lstat and depth (1 for dfd's own entries) and says whether to
 * enter it (a folder), go on, or stop. Returns 0, or -1 when fn stopped
 * the walk or a folder it chose could not be opened (the walk goes on past
 * that one).
 */
enum walk_step { WALK_NEXT, WALK_ENTER, WALK_STOP };
typedef enum walk_step walk_fn(int dfd, const char *name, const struct stat *st, int depth,
			       void *ctx);
int walk_at(int dfd, walk_fn *fn, void *ctx);
/*
 * rm -rf: by descriptors, never following a link, at any depth (0 or the
 * first -errno). rm_contents empties a folder and keeps it.
 */
int rm_rf(const char *path);
int rm_contents(const char *dir);
/*
 * path resolved as realpath(3) does, the part of it that does not exist yet
 * appended as written (a results folder to be made): NULL on another error.
 */
char *path_resolved(const char *path);
/* Whether path is dir or below it (both resolved, no trailing '/'). */
bool path_within(const char *path, const char *dir);
bool path_exists(const char *path);
bool is_dir(const char *path);
int hasher_add_file(struct hasher *h, const char *path); /* 0 or -errno */

#endif
