/* memfile.h - a file in memory that a fuzz target rewrites for every input
 * and hands to a parser that reads files by path (opening books, records).
 * In memory because a file on disk costs a write-back at every truncation.
 * memfd_create needs _GNU_SOURCE, defined before the first include. */
#ifndef SIGIL_FUZZ_MEMFILE_H
#define SIGIL_FUZZ_MEMFILE_H

#ifndef _GNU_SOURCE
#error "memfile.h needs _GNU_SOURCE before the first include (memfd_create)"
#endif
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "fuzz.h"

typedef struct {
    int fd;        /* -1 until the first write */
    char path[64]; /* /proc/self/fd/N: the name a parser opens */
} FuzzMemFile;

#define FUZZ_MEMFILE_INIT {-1, ""}

/* Make f hold exactly the size bytes of data (created at the first call,
 * named name in /proc) and return its path. */
static inline const char *fuzz_memfile_write(FuzzMemFile *f, const char *name,
                                             const uint8_t *data, size_t size)
{
    if (f->fd < 0) {
        f->fd = memfd_create(name, 0);
        FUZZ_CHECK(f->fd >= 0, "cannot make the in-memory file %s", name);
        snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
    }
    FUZZ_CHECK(ftruncate(f->fd, 0) == 0, "cannot truncate %s", name);
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(f->fd, data + done, size - done, (off_t)done);
        FUZZ_CHECK(n > 0, "cannot write %s", name);
        done += (size_t)n;
    }
    return f->path;
}

#endif
