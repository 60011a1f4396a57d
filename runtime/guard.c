/* The hard stop: a last resort for JS that never reaches the interrupt handler.
 *
 * The step timeout normally works from inside QuickJS: the interpreter polls
 * interrupt_handler (env.c) on backward jumps and calls, and the call fails with a
 * timeout. Some of Bellard's built-ins loop in C without polling (Array.prototype
 * .indexOf, .reverse, .sort, .join ... over an array-like of length 2**53-1), and
 * such a loop would hold its thread for hours.
 *
 * So each pool has a watchdog thread. Every shard has a jg_guard: while an env
 * operation runs, the guard holds its hard deadline (the step timeout's deadline
 * plus a grace period). A shard past it gets a signal on its own thread; the handler
 * jumps back to the sigsetjmp the QuickJS game (env.c) sets around each of its calls,
 * out of the middle of QuickJS. The env's runtime is then in an unknown state: it is
 * abandoned, never touched again (its heap, heap.c, is released whole without walking
 * it), and the call fails with a timeout like any other.
 *
 * Jumping is only allowed while QuickJS code runs (armed), and never from inside
 * malloc/free (a held glibc lock would deadlock the next allocation): the JS
 * heap and the p5 shim's buffers come from the env's heap (heap.c), which holds the
 * guard (no_jump) around libc calls and its own list updates and jumps when they
 * return. Code that is not
 * QuickJS (the rasterizer, buffer copies) runs disarmed; a signal there is ignored
 * and the watchdog sends another one later.
 *
 * Bellard's engine only: quickjs-ng allocates without going through heap.c, so
 * there would be no safe point to stop at (ng polls the interrupt handler in its
 * array built-ins instead). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "internal.h"

__thread jg_guard *jg_tl_guard;

static int kill_signal; /* 0: the hard stop is unavailable */
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

void jg_guard_jump(jg_guard *g) {
    g->armed = 0;
    g->jump_pending = 0;
    siglongjmp(g->jmp, 1);
}

static void on_kill_signal(int sig) {
    (void)sig;
    int saved_errno = errno;
    jg_guard *g = jg_tl_guard;
    if (g && g->armed && atomic_load(&g->kill_seq) == atomic_load(&g->op_seq)) {
        if (g->no_jump)
            g->jump_pending = 1; /* inside malloc: jump when it returns */
        else
            jg_guard_jump(g);
    }
    errno = saved_errno;
}

static void install_handler(void) {
#if !JG_ENGINE_NG
    int sig = SIGRTMIN + 6;
    if (sig > SIGRTMAX) return;
    struct sigaction old;
    if (sigaction(sig, NULL, &old)) return;
    /* never take a signal someone else in the process handles */
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL) return;
    if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction != NULL) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_kill_signal;
    sa.sa_flags = SA_NODEFER | SA_RESTART; /* no mask to restore after the jump */
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) == 0) kill_signal = sig;
#endif
}

int jg_hard_stop_available(void) {
    pthread_once(&install_once, install_handler);
    return kill_signal != 0;
}

void jg_guard_begin_op(jg_guard *g, uint64_t soft_deadline_ns, double step_timeout) {
    /* grace: as long again as the timeout, at least 50 ms */
    uint64_t grace = (uint64_t)(step_timeout * 1e9);
    if (grace < 50000000ull) grace = 50000000ull;
    atomic_store(&g->hard_deadline_ns, 0);
    atomic_fetch_add(&g->op_seq, 1);
    g->jump_pending = 0;
    atomic_store(&g->hard_deadline_ns, soft_deadline_ns + grace);
}

void jg_guard_end_op(jg_guard *g) {
    g->armed = 0;
    atomic_store(&g->hard_deadline_ns, 0);
}

static void *watchdog_main(void *arg) {
    jg_watchdog *wd = arg;
    double t = wd->step_timeout / 4;
    if (t < 0.005) t = 0.005;
    if (t > 0.1) t = 0.1;
    uint64_t period = (uint64_t)(t * 1e9);
    pthread_mutex_lock(&wd->mutex);
    while (!wd->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t wake = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + period;
        ts.tv_sec = (time_t)(wake / 1000000000ull);
        ts.tv_nsec = (long)(wake % 1000000000ull);
        pthread_cond_timedwait(&wd->cv, &wd->mutex, &ts);
        if (wd->stop) break;
        uint64_t now = jg_now_ns();
        for (uint32_t s = 0; s < wd->num_guards; s++) {
            jg_guard *g = &wd->guards[s];
            /* the op sequence number brackets the deadline read: a deadline that
             * belongs to an op which has already ended is never acted on */
            uint64_t seq = atomic_load(&g->op_seq);
            uint64_t hard = atomic_load(&g->hard_deadline_ns);
            if (!hard || now < hard || atomic_load(&g->op_seq) != seq) continue;
            if (atomic_load(&g->kill_seq) == seq && now - g->kill_sent_ns < period) continue;
            atomic_store(&g->kill_seq, seq);
            g->kill_sent_ns = now;
            pthread_kill(atomic_load(&g->thread), kill_signal);
        }
    }
    pthread_mutex_unlock(&wd->mutex);
    return NULL;
}

/* Starts the watchdog over wd->guards (set by the caller); without the hard stop
 * (quickjs-ng, or the signal taken) it starts nothing and returns 0. */
int jg_watchdog_start(jg_watchdog *wd) {
    if (!jg_hard_stop_available()) return 0;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&wd->cv, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&wd->mutex, NULL);
    wd->stop = 0;
    if (pthread_create(&wd->thread, NULL, watchdog_main, wd)) {
        pthread_cond_destroy(&wd->cv);
        pthread_mutex_destroy(&wd->mutex);
        return -1;
    }
    wd->started = 1;
    return 0;
}

void jg_watchdog_stop(jg_watchdog *wd) {
    if (!wd->started) return;
    pthread_mutex_lock(&wd->mutex);
    wd->stop = 1;
    pthread_cond_signal(&wd->cv);
    pthread_mutex_unlock(&wd->mutex);
    pthread_join(wd->thread, NULL);
    pthread_cond_destroy(&wd->cv);
    pthread_mutex_destroy(&wd->mutex);
    wd->started = 0;
}
