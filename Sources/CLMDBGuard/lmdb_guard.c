// The one place where LifecycleLog catches hardware faults and liblmdb's own
// assertions. Audited rules:
// - the handler only jumps when the faulting thread is inside a guarded call
//   (a thread-local flag); any other fault goes to the handler that was
//   installed before (Swift's backtracer) or to the default action;
// - liblmdb's assertion callback (installed on every environment by
//   lmdb_guard_watch) jumps the same way, from inside the failing liblmdb
//   call; outside a guarded call it returns, and liblmdb prints and aborts
//   as it always does (the writers' open check keeps them off that path);
// - the jump target is set in the wrapper itself, so siglongjmp unwinds
//   liblmdb's C frames only, never Swift frames;
// - after a fault the signal is unblocked again (see recovered());
// - nothing outside a guarded call reads the map: the file can shrink under a
//   reader at any moment (another process truncating it), so every key and
//   value a reader keeps is copied out inside a guard (lmdb_guard_copy,
//   lmdb_guard_cursor_copy_batch), and
//   the meta page is read inside one too (lmdb_guard_txn_begin, _last_txnid).
#include "lmdb_guard.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

// initial-exec: a plain thread-pointer load, not a call to __tls_get_addr per guarded call.
// volatile, and set and cleared only by arm() and disarm(): the only reader is the signal
// handler, which the optimiser does not see, so a plain store followed by a memcpy (which it
// knows cannot read this variable) and a store of NULL is dead to it, and -O removes it (issue
// 28: the release build copied with no guard). scripts/check-guard proves it on the object the
// release build links.
static __thread sigjmp_buf *volatile guard_target __attribute__((tls_model("initial-exec")));
/// Why the last guarded call on this thread was left: LMDB_GUARD_DAMAGED (a
/// fault) or LMDB_GUARD_ASSERTION, with liblmdb's message in `assertion`.
/// volatile: written by the handler, read after the jump.
static __thread volatile int guard_reason __attribute__((tls_model("initial-exec")));
static __thread char assertion[320] __attribute__((tls_model("initial-exec")));
static struct sigaction previous_segv, previous_bus;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/// Points the handler at `target`. The signal fence keeps every access to the map that
/// follows (a memcpy included) after the store, as the handler on this thread sees it.
static inline __attribute__((always_inline)) void arm(sigjmp_buf *target) {
    guard_target = target;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/// Ends a guarded stretch: every access to the map before it stays before it.
static inline __attribute__((always_inline)) void disarm(void) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    guard_target = NULL;
}

static void pass_on(int sig, siginfo_t *info, void *context) {
    struct sigaction *previous = sig == SIGSEGV ? &previous_segv : &previous_bus;
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction) { previous->sa_sigaction(sig, info, context); return; }
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(sig);
        return;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *context) {
    sigjmp_buf *target = guard_target;
    if (target) {
        guard_reason = LMDB_GUARD_DAMAGED;
        siglongjmp(*target, 1);
    }
    pass_on(sig, info, context);
}

// liblmdb calls this from mdb_assert_fail, inside the liblmdb call that found
// a broken page, just before it would print `msg` and abort().
static void on_assertion(MDB_env *env, const char *msg) {
    (void)env;
    sigjmp_buf *target = guard_target;
    if (!target) return;  // not inside a guarded call: liblmdb aborts as before
    size_t n = strlen(msg);
    if (n >= sizeof assertion) n = sizeof assertion - 1;
    memcpy(assertion, msg, n);
    assertion[n] = 0;
    guard_reason = LMDB_GUARD_ASSERTION;
    siglongjmp(*target, 1);
}

int lmdb_guard_watch(MDB_env *env) {
    return mdb_env_set_assert(env, on_assertion);
}

const char *lmdb_guard_last_assertion(void) {
    return assertion;
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
}

/// Reads one byte in every page that `v` spans (inside the guard): a page
/// past the end of the file faults now, and is caught, instead of later.
static int touch(const MDB_val *v) {
    if (v->mv_size == 0) return 1;
    const volatile unsigned char *p = v->mv_data;
    if (!p || v->mv_size > ((size_t)1 << 40)) return 0;  // no map is that large
    unsigned char sum = 0;
    for (size_t i = 0; i < v->mv_size; i += 4096) sum ^= p[i];
    sum ^= p[v->mv_size - 1];
    (void)sum;
    return 1;
}

// After a fault the handler's signal is still blocked (the mask is not saved
// by sigsetjmp, which keeps the fast path free of system calls): unblock it.
static void recovered(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    sigaddset(&set, SIGBUS);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

#define GUARDED(call, check)                               \
    pthread_once(&install_once, install);                   \
    sigjmp_buf target;                                      \
    if (sigsetjmp(target, 0) != 0) {                        \
        disarm();                                           \
        recovered();                                        \
        return guard_reason;                                \
    }                                                       \
    arm(&target);                                           \
    int rc = (call);                                        \
    /* the check touches returned pages: still guarded */   \
    if (rc == MDB_SUCCESS && !(check)) rc = LMDB_GUARD_DAMAGED; \
    disarm();                                               \
    return rc;

int lmdb_guard_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *value, MDB_cursor_op op) {
    GUARDED(mdb_cursor_get(cursor, key, value, op), touch(key) && touch(value))
}

int lmdb_guard_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *value) {
    GUARDED(mdb_get(txn, dbi, key, value), touch(value))
}

int lmdb_guard_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi) {
    GUARDED(mdb_dbi_open(txn, name, flags, dbi), 1)
}

int lmdb_guard_stat(MDB_txn *txn, MDB_dbi dbi, MDB_stat *stat) {
    GUARDED(mdb_stat(txn, dbi, stat), 1)
}

int lmdb_guard_cursor_open(MDB_txn *txn, MDB_dbi dbi, MDB_cursor **cursor) {
    GUARDED(mdb_cursor_open(txn, dbi, cursor), 1)
}

int lmdb_guard_txn_begin(MDB_env *env, unsigned int flags, MDB_txn **txn) {
    GUARDED(mdb_txn_begin(env, NULL, flags, txn), 1)
}

int lmdb_guard_last_txnid(MDB_env *env, size_t *txnid) {
    MDB_envinfo info;
    // The caller's copies out of the map are read before the meta page (a seqlock's check).
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    GUARDED(mdb_env_info(env, &info), (*txnid = info.me_last_txnid, 1))
}

int lmdb_guard_copy(void *destination, const void *source, size_t count) {
    GUARDED((memcpy(destination, source, count), MDB_SUCCESS), 1)
}

/// Copies `n` bytes of a key or value out of the map. Keys are 8-byte seqs: copied inline,
/// where a call to memcpy for each cost more than the copy (values, longer, go to memcpy: a
/// word-at-a-time loop inline cost more than its vector copy, measured).
static inline __attribute__((always_inline)) void copy_out(unsigned char *to, const void *from, size_t n) {
    if (n == 8) {
        uint64_t word;
        __builtin_memcpy(&word, from, 8);
        __builtin_memcpy(to, &word, 8);
    } else if (n) {
        memcpy(to, from, n);
    }
}

/// The loop of lmdb_guard_cursor_copy_batch, out of line: a function that calls sigsetjmp is
/// compiled to keep its locals in memory across every call (it "returns twice"), which cost
/// the loop a reload of its counters at each step. Called only inside the guard; `*done` is
/// what survives a fault.
static __attribute__((noinline)) int copy_entries(MDB_cursor *cursor, MDB_cursor_op op, MDB_val *keys, MDB_val *values,
                                                  int capacity, unsigned char *arena, size_t arena_size,
                                                  volatile int *done, size_t *needed) {
    int rc = MDB_SUCCESS;
    size_t at = 0;
    int n = 0;
    while (n < capacity) {
        MDB_val *key = &keys[n], *value = &values[n];
        rc = mdb_cursor_get(cursor, key, value, op);
        if (rc != MDB_SUCCESS) break;
        size_t key_size = key->mv_size, value_size = value->mv_size;
        // No map is that large: sizes from a damaged page, which must not be added up or copied.
        if (key_size > ((size_t)1 << 40) || value_size > ((size_t)1 << 40)
            || (key_size && !key->mv_data) || (value_size && !value->mv_data)) {
            rc = LMDB_GUARD_DAMAGED;
            break;
        }
        if (key_size + value_size > arena_size - at) {
            // The entry stays where the cursor is, for the next call to fetch with MDB_GET_CURRENT.
            *needed = key_size + value_size;
            rc = LMDB_GUARD_ARENA_FULL;
            break;
        }
        // The copy reads every byte of the key and the value, here, inside the guard: a page
        // past the end of the file faults now, and is caught (no separate touch is needed).
        copy_out(arena + at, key->mv_data, key_size);
        key->mv_data = arena + at;
        at += key_size;
        copy_out(arena + at, value->mv_data, value_size);
        value->mv_data = arena + at;
        at += value_size;
        n += 1;
        *done = n;
        op = MDB_NEXT;
        if (n < capacity) keys[n] = *key;
    }
    return rc;
}

int lmdb_guard_cursor_copy_batch(MDB_cursor *cursor, MDB_cursor_op first, MDB_val *keys, MDB_val *values,
                                 int capacity, unsigned char *arena, size_t arena_size, int *count, size_t *needed) {
    pthread_once(&install_once, install);
    // volatile: read after a fault, so it must live in memory, not a register.
    volatile int done = 0;
    *needed = 0;
    sigjmp_buf target;
    if (sigsetjmp(target, 0) != 0) {
        disarm();
        recovered();
        *count = done;
        *needed = 0;
        return guard_reason;
    }
    arm(&target);
    int rc = copy_entries(cursor, first, keys, values, capacity, arena, arena_size, &done, needed);
    disarm();
    *count = done;
    return rc;
}
