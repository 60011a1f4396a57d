/* Private declarations shared by the runtime's C files (env.c, pool.c, loader.c). */
#ifndef JSGYM_INTERNAL_H
#define JSGYM_INTERNAL_H

#include <pthread.h>
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
    int timed_out;
    int memory_refused;  /* the allocator refused a request since the call began */

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
    int remaining;       /* workers that have not finished it */
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
    uint64_t jobs_submitted; /* sequence number of the next job slot to fill */
    uint64_t jobs_received;  /* sequence number of the oldest job not received */
    int profile;
    const char *eval_code; /* the JG_JOB_EVAL in flight */
    size_t eval_len;

    char last_error[JG_ERROR_CAP];
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

/* math_install.c: replaces the Math functions whose libm results differ from V8's. */
int jg_install_v8_math(JSContext *ctx, JSValueConst math);

#endif /* JSGYM_INTERNAL_H */
