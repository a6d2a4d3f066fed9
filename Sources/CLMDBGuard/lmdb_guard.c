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
//   value a reader keeps is copied out inside a guard (lmdb_guard_copy*), and
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

int lmdb_guard_copy_batch(MDB_val *keys, MDB_val *values, int count, unsigned char *arena) {
    pthread_once(&install_once, install);
    sigjmp_buf target;
    if (sigsetjmp(target, 0) != 0) {
        disarm();
        recovered();
        return guard_reason;
    }
    arm(&target);
    size_t at = 0;
    for (int i = 0; i < count; i++) {
        if (keys[i].mv_size) memcpy(arena + at, keys[i].mv_data, keys[i].mv_size);
        keys[i].mv_data = arena + at;
        at += keys[i].mv_size;
        if (values[i].mv_size) memcpy(arena + at, values[i].mv_data, values[i].mv_size);
        values[i].mv_data = arena + at;
        at += values[i].mv_size;
    }
    disarm();
    return MDB_SUCCESS;
}

int lmdb_guard_cursor_batch(MDB_cursor *cursor, MDB_cursor_op first, MDB_val *keys, MDB_val *values,
                            int capacity, int *count) {
    pthread_once(&install_once, install);
    // volatile: read after a fault, so it must live in memory, not a register.
    volatile int done = 0;
    sigjmp_buf target;
    if (sigsetjmp(target, 0) != 0) {
        disarm();
        recovered();
        *count = done;
        return guard_reason;
    }
    arm(&target);
    int rc = MDB_SUCCESS;
    MDB_cursor_op op = first;
    while (done < capacity) {
        rc = mdb_cursor_get(cursor, &keys[done], &values[done], op);
        if (rc != MDB_SUCCESS) break;
        // liblmdb has read the node header, the 8 bytes just before the key. When
        // the header, the key and the value all lie in one 4 KiB page (nearly always:
        // small values sit in their leaf page), every byte returned is in a page
        // already read; otherwise touch them here, inside the guard.
        uintptr_t first = (uintptr_t)keys[done].mv_data;
        uintptr_t last = (uintptr_t)values[done].mv_data + values[done].mv_size;
        int one_page = keys[done].mv_data && values[done].mv_data && values[done].mv_size > 0 && values[done].mv_size < 4096
            && (uintptr_t)values[done].mv_data >= first && (first & 4095) >= 8 && (first >> 12) == ((last - 1) >> 12);
        if (!one_page && (!touch(&keys[done]) || !touch(&values[done]))) { rc = LMDB_GUARD_DAMAGED; break; }
        done += 1;
        op = MDB_NEXT;
        if (done < capacity) keys[done] = keys[done - 1];
    }
    disarm();
    *count = done;
    return rc;
}
