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

enum { records = 64, value_size = 3000 };

static void check(const char *what, int rc) {
    if (rc != MDB_SUCCESS) { printf("guard-probe: FAIL %s: %s\n", what, mdb_strerror(rc)); exit(2); }
}

/// The reader's batches (lmdb_guard_cursor_copy_batch) on a real LMDB file: every entry copied
/// into the arena, a full arena resumed from the entry that did not fit; then, with the file
/// truncated under the open read transaction, LMDB_GUARD_DAMAGED rather than SIGBUS.
static void batches(const char *folder) {
    char path[4096];
    snprintf(path, sizeof path, "%s/guard-probe-lmdb-XXXXXX", folder);
    int fd = mkstemp(path);
    if (fd < 0) { perror("guard-probe: temporary file"); exit(2); }
    close(fd);
    MDB_env *env;
    check("mdb_env_create", mdb_env_create(&env));
    check("mdb_env_set_mapsize", mdb_env_set_mapsize(env, 16 << 20));
    check("mdb_env_open", mdb_env_open(env, path, MDB_NOSUBDIR | MDB_NOLOCK, 0600));
    MDB_txn *txn;
    MDB_dbi dbi;
    check("mdb_txn_begin", mdb_txn_begin(env, NULL, 0, &txn));
    check("mdb_dbi_open", mdb_dbi_open(txn, NULL, 0, &dbi));
    static unsigned char payload[value_size];
    for (unsigned long long i = 0; i < records; i++) {
        unsigned char key[8];
        for (int b = 0; b < 8; b++) key[b] = (unsigned char)(i >> (56 - 8 * b));  // big-endian: key order is seq order
        memset(payload, (int)i, sizeof payload);
        MDB_val k = {8, key}, v = {sizeof payload, payload};
        check("mdb_put", mdb_put(txn, dbi, &k, &v, 0));
    }
    check("mdb_txn_commit", mdb_txn_commit(txn));

    check("mdb_txn_begin (read)", mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
    MDB_cursor *cursor;
    check("mdb_cursor_open", mdb_cursor_open(txn, dbi, &cursor));
    MDB_val keys[16], values[16];
    // Room for two and a half entries: each call stops at the entry that does not fit.
    size_t arena_size = 5 * (8 + value_size) / 2;
    unsigned char *arena = malloc(arena_size);
    int total = 0, calls = 0, intact = 1, rc, count;
    size_t needed;
    MDB_cursor_op op = MDB_FIRST;
    do {
        rc = lmdb_guard_cursor_copy_batch(cursor, op, keys, values, 16, arena, arena_size, &count, &needed);
        for (int i = 0; i < count; i++) {
            const unsigned char *key = keys[i].mv_data, *value = values[i].mv_data;
            intact &= key >= arena && key + 8 <= arena + arena_size && key[7] == (unsigned char)(total + i)
                && value[0] == (unsigned char)(total + i) && value[value_size - 1] == (unsigned char)(total + i);
        }
        total += count;
        calls += 1;
        op = rc == LMDB_GUARD_ARENA_FULL ? MDB_GET_CURRENT : MDB_NEXT;
    } while ((rc == MDB_SUCCESS || rc == LMDB_GUARD_ARENA_FULL) && calls < 1000);
    expect("batches of an intact file end at its end", rc, MDB_NOTFOUND);
    expect("batches read every entry once", total, records);
    expect("batches copied each entry into the arena", intact, 1);
    expect("a full arena stops a batch at the entry that does not fit", needed == 0 && calls == records / 2, 1);  // two entries a call, 32 calls

    // Truncated under the open read transaction: the tree's pages are gone from the map.
    if (truncate(path, 8192) != 0) { perror("guard-probe: truncate"); exit(2); }
    unsigned char *big = malloc(records * (8 + value_size));
    rc = lmdb_guard_cursor_copy_batch(cursor, MDB_FIRST, keys, values, 16, big, records * (8 + value_size), &count, &needed);
    expect("a batch from a truncated file", rc, LMDB_GUARD_DAMAGED);
    expect("a batch from a truncated file hands over nothing", count, 0);
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    mdb_env_close(env);
    unlink(path);
    free(arena);
    free(big);
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

    // Truncated underneath (another process shrinking the trace): every page is gone.
    if (ftruncate(fd, 0) != 0) { perror("guard-probe: truncate"); return 2; }
    expect("copy from a truncated map", lmdb_guard_copy(destination, map, size), LMDB_GUARD_DAMAGED);
    // Twice: the handler's signal is unblocked again after a caught fault.
    expect("a second copy from a truncated map", lmdb_guard_copy(destination, map + 4096, 4096), LMDB_GUARD_DAMAGED);
    // And the guard is disarmed afterwards: an ordinary copy still works.
    unsigned char source[64] = {1, 2, 3};
    expect("copy of ordinary memory after faults", lmdb_guard_copy(destination, source, sizeof source), MDB_SUCCESS);

    munmap(map, size);
    close(fd);
    unlink(path);
    free(destination);
    batches(folder);
    return failures ? 1 : 0;
}
