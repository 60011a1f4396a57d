/* Private declarations shared by the runtime's C files (env.c, pool.c, loader.c). */
#ifndef JSGYM_INTERNAL_H
#define JSGYM_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "jsgym.h"
#include "jsgym_raster.h"
#include "p5shim.h"
#include "quickjs.h"

#ifdef QJS_VERSION_MAJOR
#define JG_ENGINE_NG 1
#define JG_STR2(x) #x
#define JG_STR(x) JG_STR2(x)
#define JS_VERSION_STR_JG JG_STR(QJS_VERSION_MAJOR) "." JG_STR(QJS_VERSION_MINOR) "." JG_STR(QJS_VERSION_PATCH)
#define JG_IS_ERROR(ctx, v) JS_IsError(v)
#else
#define JG_ENGINE_NG 0
#define JG_IS_ERROR(ctx, v) JS_IsError(ctx, v)
#endif

#define JG_MAX_DOWN_KEYS 16
#define JG_ERROR_CAP 4096

typedef struct jg_bytecode {
    uint8_t *data;
    size_t len;
} jg_bytecode;

/* Where a JS call happened, for error messages. */
typedef enum jg_phase {
    JG_PHASE_LOAD,
    JG_PHASE_SETUP,
    JG_PHASE_RESET,
    JG_PHASE_DRAW,
    JG_PHASE_KEY,
    JG_PHASE_STATE,
    JG_PHASE_EVAL,
} jg_phase;

typedef struct jg_pool jg_pool;

/* A shard's hard-stop state (guard.c). Written by the shard's thread; the watchdog
 * reads op_seq/hard_deadline_ns/thread and writes kill_seq. */
typedef struct jg_guard {
    sigjmp_buf jmp;              /* set by run_env (pool.c) around each env operation */
    _Atomic(pthread_t) thread;   /* the thread running the shard now */
    _Atomic uint64_t op_seq;     /* bumped by every deadline (jg_guard_begin_op) */
    _Atomic uint64_t kill_seq;   /* the op the watchdog stops */
    _Atomic uint64_t hard_deadline_ns; /* 0: no op running */
    uint64_t kill_sent_ns;       /* watchdog's own: when it last signalled */
    volatile sig_atomic_t armed;        /* QuickJS code runs: a stop may jump */
    volatile sig_atomic_t no_jump;      /* inside malloc & co: jump when it returns */
    volatile sig_atomic_t jump_pending;
} jg_guard;

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

/* An env's JS heap (heap.c): size-class free lists in chunks only this env uses. */
#define JG_HEAP_SMALL_MAX 4096
#define JG_HEAP_CLASSES 46
typedef struct jg_heap {
    void *free_lists[JG_HEAP_CLASSES];
    char *bump, *bump_end; /* the unused end of the newest chunk */
    void *chunks;          /* every chunk, newest first */
    void *large;           /* every large block (a doubly linked list) */
    size_t live;           /* bytes of blocks in use, headers included */
    size_t reserved;       /* bytes held from libc: chunks and large blocks */
    size_t limit;          /* the env's memory limit, on reserved */
    int refused;           /* refused a request since the call began */
} jg_heap;

void *jg_heap_malloc(jg_heap *h, size_t n);
void jg_heap_free(jg_heap *h, void *p);
void *jg_heap_realloc(jg_heap *h, void *p, size_t n);
size_t jg_heap_usable_size(const void *p);
void jg_heap_release(jg_heap *h);

typedef struct jg_env {
    uint32_t id;
    jg_pool *pool;
    JSRuntime *rt;
    JSContext *ctx;
    P5Shim *shim;
    JgCanvas *canvas;
    JSAtom atom_score, atom_lives, atom_game_state;
    JSAtom atom_draw, atom_reset, atom_state;

    /* sandbox */
    uint64_t deadline_ns;
    jg_phase phase;        /* what JS runs now, for a hard stop's message */
    int timed_out;
    jg_heap heap;

    /* episode */
    double score;
    double lives;
    int32_t game_state;
    double episode_return;
    int64_t elapsed;
    uint32_t level_seed;
    uint64_t seed_stream;  /* splitmix64 state: seeds of autoreset episodes */
    int needs_reset;       /* NEXT_STEP: the previous step ended the episode */
    int broken;            /* failed and not reset yet (on_error = raise) */
    int has_episode;       /* reset at least once */
    int in_flight;         /* part of a job not yet received */

    /* input: keys currently down, in the order they went down */
    int32_t down_keys[JG_MAX_DOWN_KEYS];
    int n_down;

    /* rasterization: the last rasterized frame, when it started opaque */
    uint32_t *last_cmds;
    size_t last_len, last_cap;
    int last_valid;
    uint32_t *pending_cmds; /* a skipped frame that may still be needed */
    size_t pending_len, pending_cap;

    int32_t error_kind;
    char error[JG_ERROR_CAP];
    char *eval_result;

    jg_profile prof;
} jg_env;

typedef enum jg_job_kind {
    JG_JOB_CREATE,
    JG_JOB_RESET,
    JG_JOB_STEP,
    JG_JOB_EVAL,
    JG_JOB_STOP
} jg_job_kind;

#define JG_MAX_JOBS 8

typedef struct jg_job {
    jg_job_kind kind;
    uint32_t n;
    uint32_t *env_ids;   /* capacity num_envs */
    int32_t *args;       /* actions (STEP) or seeds (RESET), capacity num_envs */
    uint8_t *claimed;    /* [k]: a thread has taken env_ids[k] (atomic), capacity num_envs */
    atomic_int remaining; /* shards that have not finished it (written under the mutex) */
    int32_t status;      /* worst env status */
    int continue_seeds;  /* RESET without seeds: continue each env's seed stream */
    int caller_started;  /* the recv() caller has taken shard 0's part */
} jg_job;

typedef struct jg_worker {
    jg_pool *pool;
    uint32_t index;          /* the shard this thread owns (1..num_shards-1) */
    pthread_t thread;
    uint64_t next_job;       /* sequence number of the next job to run */
    int started;
} jg_worker;

struct jg_pool {
    jg_config config;
    char *game_name;
    char *options_json;
    jg_action *actions;
    jg_bytecode bytecode;
    jg_buffers buffers;
    int has_buffers;
    size_t obs_bytes; /* per env */

    jg_env *envs;
    jg_worker *workers;
    uint32_t num_workers;  /* worker threads: num_shards - 1 */
    uint32_t num_shards;   /* shard 0 belongs to the recv() caller */

    pthread_mutex_t mutex;
    pthread_cond_t work_cv;
    pthread_cond_t done_cv;
    jg_job jobs[JG_MAX_JOBS];
    int32_t *send_actions; /* jg_pool_send's actions, checked and narrowed (num_envs) */
    uint64_t jobs_submitted; /* sequence number of the next job slot to fill */
    _Atomic uint64_t jobs_published; /* jobs_submitted, readable without the mutex */
    int spin;                /* wait by spinning briefly before sleeping (see pool.c) */
    uint64_t jobs_received;  /* sequence number of the oldest job not received */
    int profile;
    const char *eval_code; /* the JG_JOB_EVAL in flight */
    size_t eval_len;

    char last_error[JG_ERROR_CAP];

    /* hard stop (guard.c): one guard per shard, one watchdog thread per pool */
    jg_guard *guards;
    pthread_t wd_thread;
    pthread_mutex_t wd_mutex;
    pthread_cond_t wd_cv;
    int wd_stop, wd_started;
};

/* loader.c */
int jg_compile(const char *game_name, const char *source, size_t len, jg_bytecode *out,
               char *err, size_t errlen);
void jg_bytecode_free(jg_bytecode *bc);

/* env.c */
int jg_env_create(jg_env *env);
void jg_env_destroy(jg_env *env);
int jg_env_reset(jg_env *env, uint32_t level_seed, uint8_t *obs);
int jg_env_step(jg_env *env, int32_t action, uint8_t *obs);
const char *jg_env_eval(jg_env *env, const char *code, size_t len);
uint64_t jg_now_ns(void);
/* Gives up a runtime stopped from outside (never touched again; its heap is
 * released whole) and records the timeout. */
void jg_env_abandon(jg_env *env);

/* guard.c */
int jg_hard_stop_available(void);
void jg_guard_begin_op(jg_guard *g, uint64_t soft_deadline_ns, double step_timeout);
void jg_guard_end_op(jg_guard *g);
int jg_watchdog_start(jg_pool *pool);
void jg_watchdog_stop(jg_pool *pool);

/* math_install.c: replaces the Math functions whose libm results differ from V8's. */
int jg_install_v8_math(JSContext *ctx, JSValueConst math);

#endif /* JSGYM_INTERNAL_H */
