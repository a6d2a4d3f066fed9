// The physical limit: the same work done from C straight on liblmdb (and, for
// comparison, SQLite), with no Swift in between.
#include "baseline.h"
#include <lmdb.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(x) do { int rc_ = (x); if (rc_) return rc_; } while (0)

int baseline_load_records(const char *path, baseline_records *out) {
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi; MDB_cursor *cur; MDB_val k, v; MDB_stat st;
    CHECK(mdb_env_create(&env));
    mdb_env_set_maxdbs(env, 8);
    CHECK(mdb_env_open(env, path, MDB_NOSUBDIR | MDB_RDONLY | MDB_NOLOCK, 0644));
    CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
    CHECK(mdb_dbi_open(txn, "events", 0, &dbi));
    mdb_stat(txn, dbi, &st);
    size_t cap = 1 << 20, used = 0;
    out->bytes = malloc(cap);
    out->offsets = malloc((st.ms_entries + 1) * sizeof(size_t));
    out->count = 0;
    CHECK(mdb_cursor_open(txn, dbi, &cur));
    while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == 0) {
        if (used + v.mv_size > cap) { while (used + v.mv_size > cap) cap *= 2; out->bytes = realloc(out->bytes, cap); }
        memcpy(out->bytes + used, v.mv_data, v.mv_size);
        out->offsets[out->count++] = used;
        used += v.mv_size;
    }
    out->offsets[out->count] = used;
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    mdb_env_close(env);
    return 0;
}

void baseline_free_records(baseline_records *r) { free(r->bytes); free(r->offsets); }

int baseline_lmdb_append(const char *path, const baseline_records *r, size_t batch) {
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi;
    unlink(path);
    CHECK(mdb_env_create(&env));
    mdb_env_set_maxdbs(env, 8);
    mdb_env_set_mapsize(env, (size_t)4 << 30);
    CHECK(mdb_env_open(env, path, MDB_NOSUBDIR | MDB_NOLOCK, 0644));
    for (size_t i = 0; i < r->count;) {
        CHECK(mdb_txn_begin(env, NULL, 0, &txn));
        CHECK(mdb_dbi_open(txn, "events", MDB_CREATE, &dbi));
        for (size_t end = i + batch < r->count ? i + batch : r->count; i < end; i++) {
            uint64_t seq = i + 1, be = __builtin_bswap64(seq);
            MDB_val k = { sizeof be, &be }, v = { r->offsets[i + 1] - r->offsets[i], r->bytes + r->offsets[i] };
            CHECK(mdb_put(txn, dbi, &k, &v, MDB_APPEND));
        }
        CHECK(mdb_txn_commit(txn));
    }
    mdb_env_close(env);
    return 0;
}

long baseline_lmdb_scan(const char *path, uint64_t *checksum) {
    MDB_env *env; MDB_txn *txn; MDB_dbi dbi; MDB_cursor *cur; MDB_val k, v;
    if (mdb_env_create(&env)) return -1;
    mdb_env_set_maxdbs(env, 8);
    if (mdb_env_open(env, path, MDB_NOSUBDIR | MDB_RDONLY | MDB_NOLOCK, 0644)) return -1;
    mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    if (mdb_dbi_open(txn, "events", 0, &dbi)) return -1;
    mdb_cursor_open(txn, dbi, &cur);
    long n = 0; uint64_t sum = 0;
    while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == 0) {
        const unsigned char *p = v.mv_data;
        for (size_t i = 0; i < v.mv_size; i++) sum += p[i];
        n++;
    }
    *checksum = sum;
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    mdb_env_close(env);
    return n;
}

int baseline_sqlite_insert(const char *path, const baseline_records *r, size_t batch) {
    sqlite3 *db; sqlite3_stmt *stmt;
    unlink(path);
    CHECK(sqlite3_open(path, &db));
    CHECK(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                           "CREATE TABLE events(seq INTEGER PRIMARY KEY, record BLOB NOT NULL);", 0, 0, 0));
    CHECK(sqlite3_prepare_v2(db, "INSERT INTO events(seq, record) VALUES(?, ?)", -1, &stmt, 0));
    for (size_t i = 0; i < r->count;) {
        CHECK(sqlite3_exec(db, "BEGIN", 0, 0, 0));
        for (size_t end = i + batch < r->count ? i + batch : r->count; i < end; i++) {
            sqlite3_bind_int64(stmt, 1, (sqlite3_int64)(i + 1));
            sqlite3_bind_blob(stmt, 2, r->bytes + r->offsets[i], (int)(r->offsets[i + 1] - r->offsets[i]), SQLITE_STATIC);
            if (sqlite3_step(stmt) != SQLITE_DONE) return 1;
            sqlite3_reset(stmt);
        }
        CHECK(sqlite3_exec(db, "COMMIT", 0, 0, 0));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return 0;
}

long baseline_sqlite_scan(const char *path, uint64_t *checksum) {
    sqlite3 *db; sqlite3_stmt *stmt;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, 0)) return -1;
    if (sqlite3_prepare_v2(db, "SELECT record FROM events ORDER BY seq", -1, &stmt, 0)) return -1;
    long n = 0; uint64_t sum = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(stmt, 0);
        int len = sqlite3_column_bytes(stmt, 0);
        for (int i = 0; i < len; i++) sum += p[i];
        n++;
    }
    *checksum = sum;
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return n;
}
