#ifndef LIFECYCLELOG_BASELINE_H
#define LIFECYCLELOG_BASELINE_H
#include <stddef.h>
#include <stdint.h>

/// The encoded event records of a trace file, loaded into memory: the bytes
/// that both the C baselines and LifecycleLog write.
typedef struct {
    unsigned char *bytes;   // all records, back to back
    size_t *offsets;        // count + 1 offsets into bytes
    size_t count;
} baseline_records;

/// Loads every value of the "events" database of a trace. Returns 0 or an LMDB error.
int baseline_load_records(const char *path, baseline_records *out);
void baseline_free_records(baseline_records *records);

/// Appends the records to a new LMDB file with mdb_put(MDB_APPEND), `batch`
/// records per transaction (each commit synced, LMDB's default). Returns 0 or an error.
int baseline_lmdb_append(const char *path, const baseline_records *records, size_t batch);

/// Scans the "events" database of a trace with a cursor (MDB_NEXT), touching
/// every value byte. Returns the number of entries, or -1.
long baseline_lmdb_scan(const char *path, uint64_t *checksum);

/// Inserts the records into a new SQLite database (WAL, synchronous=NORMAL,
/// `batch` rows per transaction, a prepared statement). Returns 0 or an error.
int baseline_sqlite_insert(const char *path, const baseline_records *records, size_t batch);

/// Scans the SQLite table, touching every blob byte. Returns the row count, or -1.
long baseline_sqlite_scan(const char *path, uint64_t *checksum);

#endif
