/* The hard stop (guard.c): a watchdog thread per pool signals a shard's thread that
 * is still in one QuickJS call past its deadline, and the QuickJS game (env.c) jumps
 * out of it. The pool owns one guard per shard; the code that runs QuickJS arms it,
 * and code that must not be left half-way (libc allocator calls) holds it off. */
#ifndef JSGYM_GUARD_H
#define JSGYM_GUARD_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

/* A shard's hard-stop state. Written by the shard's thread; the watchdog reads
 * op_seq/hard_deadline_ns/thread and writes kill_seq. */
typedef struct jg_guard {
    sigjmp_buf jmp;              /* set by the QuickJS game around each of its calls */
    _Atomic(pthread_t) thread;   /* the thread running the shard now */
    _Atomic uint64_t op_seq;     /* bumped by every deadline (jg_guard_begin_op) */
    _Atomic uint64_t kill_seq;   /* the op the watchdog stops */
    _Atomic uint64_t hard_deadline_ns; /* 0: no op running */
    uint64_t kill_sent_ns;       /* watchdog's own: when it last signalled */
    volatile sig_atomic_t armed;        /* QuickJS code runs: a stop may jump */
    volatile sig_atomic_t no_jump;      /* inside malloc & co: jump when it returns */
    volatile sig_atomic_t jump_pending;
} jg_guard;

/* A pool's watchdog thread and the guards it watches, one per shard. */
typedef struct jg_watchdog {
    jg_guard *guards;
    uint32_t num_guards;
    double step_timeout;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cv;
    int stop, started;
} jg_watchdog;

/* The guard of the shard this thread runs now (NULL: no watchdog). */
extern __thread jg_guard *jg_tl_guard;

/* Holds off a hard stop around code that must not be left half-way (libc allocator
 * calls); a stop that arrived meanwhile happens at the release. */
static inline void jg_guard_hold(void) {
    jg_guard *g = jg_tl_guard;
    if (g) g->no_jump++;
}
void jg_guard_jump(jg_guard *g);
static inline void jg_guard_release(void) {
    jg_guard *g = jg_tl_guard;
    if (g && --g->no_jump == 0 && g->jump_pending && g->armed) jg_guard_jump(g);
}
/* Runs non-QuickJS code (rasterizer, copies): a stop signal meanwhile is ignored. */
static inline int jg_guard_disarm(void) {
    jg_guard *g = jg_tl_guard;
    if (!g) return 0;
    int was = g->armed;
    g->armed = 0;
    return was;
}
static inline void jg_guard_rearm(int was) {
    jg_guard *g = jg_tl_guard;
    if (g) g->armed = was;
}

int jg_hard_stop_available(void);
void jg_guard_begin_op(jg_guard *g, uint64_t soft_deadline_ns, double step_timeout);
void jg_guard_end_op(jg_guard *g);
int jg_watchdog_start(jg_watchdog *wd);
void jg_watchdog_stop(jg_watchdog *wd);

#endif /* JSGYM_GUARD_H */
