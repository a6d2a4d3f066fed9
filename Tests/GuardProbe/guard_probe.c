// The fault guard, exercised on the very object a build links (scripts/check-guard links this
// file against .build/<configuration>/CLMDBGuard.build/lmdb_guard.c.o, debug and release):
// a copy out of a mapped file that was truncated underneath must come back as
// LMDB_GUARD_DAMAGED, not kill the process with SIGBUS. Issue 28: at -O the compiler
// dropped the store that arms the guard before a memcpy, so only the debug build held.
#include "lmdb_guard.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { size = 1 << 20 };
static int failures = 0;

static void expect(const char *what, int got, int wanted) {
    if (got == wanted) {
        printf("guard-probe: ok   %s: %d\n", what, got);
    } else {
        printf("guard-probe: FAIL %s: got %d, expected %d\n", what, got, wanted);
        failures += 1;
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *folder = argc > 1 ? argv[1] : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/guard-probe-XXXXXX", folder);
    int fd = mkstemp(path);
    if (fd < 0 || ftruncate(fd, size) != 0) { perror("guard-probe: temporary file"); return 2; }
    unsigned char *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) { perror("guard-probe: mmap"); return 2; }
    unsigned char *destination = malloc(2 * size);
    if (!destination) return 2;

    // Intact: the copies succeed and repoint the batch into the arena.
    expect("copy of an intact map", lmdb_guard_copy(destination, map, size), MDB_SUCCESS);
    MDB_val keys[2] = {{8, map}, {8, map + size / 2}};
    MDB_val values[2] = {{size / 4, map + 8}, {size / 4, map + size / 2 + 8}};
    expect("batch copy of an intact map", lmdb_guard_copy_batch(keys, values, 2, destination), MDB_SUCCESS);
    expect("batch copy repoints the keys", keys[1].mv_data == destination + 8 + size / 4, 1);

    // Truncated underneath (another process shrinking the trace): every page is gone.
    if (ftruncate(fd, 0) != 0) { perror("guard-probe: truncate"); return 2; }
    expect("copy from a truncated map", lmdb_guard_copy(destination, map, size), LMDB_GUARD_DAMAGED);
    MDB_val keys2[2] = {{8, map}, {8, map + size / 2}};
    MDB_val values2[2] = {{size / 4, map + 8}, {size / 4, map + size / 2 + 8}};
    expect("batch copy from a truncated map", lmdb_guard_copy_batch(keys2, values2, 2, destination), LMDB_GUARD_DAMAGED);
    // Twice: the handler's signal is unblocked again after a caught fault.
    expect("a second copy from a truncated map", lmdb_guard_copy(destination, map + 4096, 4096), LMDB_GUARD_DAMAGED);
    // And the guard is disarmed afterwards: an ordinary copy still works.
    unsigned char source[64] = {1, 2, 3};
    expect("copy of ordinary memory after faults", lmdb_guard_copy(destination, source, sizeof source), MDB_SUCCESS);

    munmap(map, size);
    close(fd);
    unlink(path);
    free(destination);
    return failures ? 1 : 0;
}
