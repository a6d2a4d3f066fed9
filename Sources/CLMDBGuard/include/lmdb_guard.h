#ifndef LIFECYCLELOG_LMDB_GUARD_H
#define LIFECYCLELOG_LMDB_GUARD_H
// Guarded liblmdb reads: liblmdb trusts the pages of the file it maps, so a
// damaged file can make it (or its caller) read outside the file and crash the
// process with SIGSEGV/SIGBUS. These wrappers catch such a fault inside the
// liblmdb call (the jump never crosses anything but C frames), and touch
// every page of each key and value they return, so that a value running past
// the end of the file faults here, caught, rather than later in the decoder.
// liblmdb also checks page types with its own assertions, which abort the
// process: on an environment passed to lmdb_guard_watch, an assertion inside
// a guarded call leaves that call the way a fault does.
#include <lmdb.h>

/// Returned when the call faulted, or a returned key or value does not lie in the file.
#define LMDB_GUARD_DAMAGED (-30900)
/// Returned by lmdb_guard_cursor_copy_batch when the next entry does not fit in what is left
/// of the arena.
#define LMDB_GUARD_ARENA_FULL (-30902)
/// Returned when one of liblmdb's assertions failed inside the call (a broken
/// page); lmdb_guard_last_assertion() gives liblmdb's message.
#define LMDB_GUARD_ASSERTION (-30901)

/// Installs the guard's assertion callback on `env` (mdb_env_set_assert).
/// Call it right after mdb_env_create, on every environment, readers and writers.
int lmdb_guard_watch(MDB_env *env);

/// liblmdb's message for the last LMDB_GUARD_ASSERTION on this thread.
const char *lmdb_guard_last_assertion(void);

int lmdb_guard_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *value, MDB_cursor_op op);
int lmdb_guard_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *value);
int lmdb_guard_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi);
int lmdb_guard_stat(MDB_txn *txn, MDB_dbi dbi, MDB_stat *stat);
int lmdb_guard_cursor_open(MDB_txn *txn, MDB_dbi dbi, MDB_cursor **cursor);

/// mdb_txn_begin (no parent), guarded: it reads the meta page from the map.
int lmdb_guard_txn_begin(MDB_env *env, unsigned int flags, MDB_txn **txn);
/// The id of the last committed transaction as the map's meta page says now
/// (mdb_env_info), guarded.
int lmdb_guard_last_txnid(MDB_env *env, size_t *txnid);
/// memcpy from the map, guarded: a page that is gone (the file was truncated
/// since liblmdb returned it) makes this return LMDB_GUARD_DAMAGED.
int lmdb_guard_copy(void *destination, const void *source, size_t count);
/// Reads up to `capacity` entries in one guarded call: the first with `first`
/// (`MDB_SET_RANGE` from keys[0], `MDB_FIRST`, `MDB_NEXT` or `MDB_GET_CURRENT`), the rest with
/// `MDB_NEXT`. Each entry, as it is read, is copied into `arena` (`arena_size` bytes), key then
/// value, and its mv_data pointed at the copies, so the map is left behind inside the guard. `*count` entries were read and copied,
/// all valid even when the call returns an error. Returns `MDB_SUCCESS` when `capacity` entries
/// were copied, `MDB_NOTFOUND` at the end of the database, `LMDB_GUARD_ARENA_FULL` when the next
/// entry (`*needed` bytes, the cursor on it: fetch it with `MDB_GET_CURRENT`) did not fit, and
/// `LMDB_GUARD_DAMAGED` or liblmdb's error for the entry after the `*count` good ones.
int lmdb_guard_cursor_copy_batch(MDB_cursor *cursor, MDB_cursor_op first, MDB_val *keys, MDB_val *values,
                                 int capacity, unsigned char *arena, size_t arena_size, int *count, size_t *needed);

#endif
