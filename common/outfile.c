/* Output files written whole or not at all (common/outfile.h). The
 * temporary file is `.NAME.XXXXXX` beside the target, so that the rename
 * stays within one file system and is atomic; it takes the target's
 * permissions, or those a new file would get. */
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part and the name part of a path, the directory "." when
 * there is none. Free *dir. Returns the name (inside path), or NULL when
 * out of memory. */
static const char *split_path(const char *path, char **dir)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    if (slash == path)
        n = 1;                                          /* "/name": the root */
    *dir = malloc(n + 1);
    if (!*dir)
        return NULL;
    memcpy(*dir, slash ? path : ".", n);
    (*dir)[n] = '\0';
    return slash ? slash + 1 : path;
}

/* Whether an existing file is one that standard output or standard error
 * already writes: replacing it would cut off what they write. */
static int is_a_standard_stream(const struct stat *st)
{
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
        struct stat s;
        if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
            return 1;
    }
    return 0;
}

/* The permissions of a new file: 0666 less the process's umask. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static void fail(char *err, size_t errlen, const char *path, int error)
{
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(error));
}

/* Opens the file in place, as fopen does: for what cannot be replaced. */
static int open_in_place(OutFile *o, const char *path, char *err, size_t errlen)
{
    o->f = fopen(path, "w");
    if (!o->f || !(o->target = strdup(path))) {
        fail(err, errlen, path, o->f ? ENOMEM : errno);
        outfile_abort(o);
        return -1;
    }
    return 0;
}

int outfile_open(OutFile *o, const char *path, char *err, size_t errlen)
{
    *o = (OutFile){ 0 };
    struct stat st;
    char *resolved = NULL;
    const char *target = path;
    int exists = lstat(path, &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        resolved = realpath(path, NULL);
        if (!resolved)                          /* a dangling link: made as it says */
            return open_in_place(o, path, err, errlen);
        target = resolved;
        exists = stat(target, &st) == 0;
    }
    if (exists && (!S_ISREG(st.st_mode) || is_a_standard_stream(&st))) {
        free(resolved);
        return open_in_place(o, path, err, errlen);
    }
    char *dir;
    const char *name = split_path(target, &dir);
    size_t size = name ? strlen(dir) + strlen(name) + 10 : 0;
    char *temp = name ? malloc(size) : NULL;
    if (!temp) {
        free(dir);
        free(resolved);
        fail(err, errlen, path, ENOMEM);
        return -1;
    }
    snprintf(temp, size, "%s/.%s.XXXXXX", dir, name);
    free(dir);
    int fd = mkstemp(temp);
    if (fd < 0) {
        int error = errno;
        free(temp);
        free(resolved);
        /* A file one may write in a directory one may not: written in place,
         * as the only way to write it at all. */
        if (exists && (error == EACCES || error == EPERM || error == EROFS) &&
            access(path, W_OK) == 0)
            return open_in_place(o, path, err, errlen);
        fail(err, errlen, path, error);
        return -1;
    }
    if (fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode()) != 0 ||
        !(o->f = fdopen(fd, "w"))) {
        int error = errno;
        close(fd);
        unlink(temp);
        free(temp);
        free(resolved);
        fail(err, errlen, path, error);
        return -1;
    }
    o->temp = temp;
    o->target = resolved ? resolved : strdup(path);
    if (!o->target) {
        outfile_abort(o);
        fail(err, errlen, path, ENOMEM);
        return -1;
    }
    return 0;
}

int outfile_commit(OutFile *o, char *err, size_t errlen)
{
    if (!o->f)
        return 0;
    errno = 0;
    int failed = fflush(o->f) != 0 || ferror(o->f);
    int error = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        error = errno;
    }
    o->f = NULL;
    if (!failed && o->temp && rename(o->temp, o->target) != 0) {
        failed = 1;
        error = errno;
    }
    if (failed)
        fail(err, errlen, o->target ? o->target : "the output", error);
    outfile_abort(o);
    return failed ? -1 : 0;
}

void outfile_abort(OutFile *o)
{
    if (o->f)
        fclose(o->f);
    if (o->temp)
        unlink(o->temp);                /* after a rename there is nothing there */
    free(o->temp);
    free(o->target);
    *o = (OutFile){ 0 };
}

/* A path's canonical spelling: realpath of the file, or of its directory
 * followed by its name when it does not exist yet; a dangling symbolic
 * link is followed to the file it would make. NULL when none. */
static char *canonical(const char *path, int depth)
{
    char *full = realpath(path, NULL);
    if (full)
        return full;
    char *dir;
    const char *name = split_path(path, &dir);
    if (!name)
        return NULL;
    char link[PATH_MAX];
    ssize_t n = depth < 40 ? readlink(path, link, sizeof link - 1) : -1;
    if (n > 0) {                                /* a dangling link: where it points */
        link[n] = '\0';
        size_t size = strlen(dir) + (size_t)n + 2;
        char *next = malloc(size);
        if (next && link[0] == '/')
            snprintf(next, size, "%s", link);
        else if (next)
            snprintf(next, size, "%s/%s", dir, link);
        free(dir);
        full = next ? canonical(next, depth + 1) : NULL;
        free(next);
        return full;
    }
    char *real_dir = realpath(dir, NULL);
    free(dir);
    if (!real_dir)
        return NULL;
    size_t size = strlen(real_dir) + strlen(name) + 2;
    full = malloc(size);
    if (full)
        snprintf(full, size, "%s/%s", real_dir, name);
    free(real_dir);
    return full;
}

int outfile_is_file(const char *path, const char *other)
{
    struct stat a, b;
    return stat(path, &a) == 0 && stat(other, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int outfile_same(const char *a, const char *b)
{
    struct stat st;
    if (stat(a, &st) == 0 && !S_ISREG(st.st_mode))
        return 0;                       /* /dev/null twice harms nothing */
    if (strcmp(a, b) == 0 || outfile_is_file(a, b))
        return 1;
    char *ca = canonical(a, 0), *cb = canonical(b, 0);
    int same = ca && cb && strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}
