/* The env pool: home shards with stealing, the job queue, and Gymnasium's step
 * semantics (reward, termination, truncation, autoreset, on_error).
 *
 *   Python: send(actions, env_ids) ----> job ring (JG_MAX_JOBS slots, FIFO)
 *                                           |  work_cv
 *                                           v
 *   shard w = envs with id % num_shards == w (their home thread):
 *     shards 1..n-1: one worker thread each, running every job as it arrives
 *     shard 0:       the thread that calls recv(), running its part of the job
 *                    it waits for (no hand-off at all with one thread)
 *       each thread claims its home envs of the job in order (an atomic flag per
 *       env), then the other shards' unclaimed envs from the back: a step where a
 *       few envs reset (generating a level costs 2-9 steps) keeps both threads busy.
 *       Reset / step the env, write the results into the caller-owned buffers at
 *       index id.
 *                                           |  done_cv (last thread of the job)
 *                                           v
 *   Python: recv() <---- oldest job: env ids, worst status
 *
 * A JSRuntime is only ever used by one thread at a time (an env is claimed once per
 * job, and jobs of one env never overlap), mostly its home thread's:
 * JS_UpdateStackTop before every use. Its JS heap is the env's own (heap.c), so an
 * env that changes threads neither frees into another thread's malloc arena nor
 * shares cache lines with other envs. Each thread has its own hard-stop guard
 * (guard.c), indexed like the shards. Per-env failures stay in that env (env_error,
 * the message from jg_pool_env_error); other envs of the same job run normally.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static _Thread_local char create_error[JG_ERROR_CAP];

const char *jg_last_create_error(void) { return create_error; }

const char *jg_engine_name(void) {
#if JG_ENGINE_NG
    return "quickjs-ng " JS_VERSION_STR_JG;
#else
    return "quickjs (Bellard) " CONFIG_VERSION;
#endif
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t level_of(const jg_pool *pool, uint32_t raw) {
    if (!pool->config.num_levels) return raw;
    return pool->config.start_level + raw % pool->config.num_levels;
}

static uint8_t *obs_slot(jg_pool *pool, uint8_t *base, uint32_t id) {
    return base + (size_t)id * pool->obs_bytes;
}

static void write_infos(jg_pool *pool, jg_env *env) {
    jg_buffers *b = &pool->buffers;
    uint32_t i = env->id;
    b->score[i] = env->score;
    b->lives[i] = env->lives;
    b->game_state[i] = env->game_state;
    b->level_seed[i] = env->level_seed;
    b->elapsed_steps[i] = env->elapsed;
}

/* Destroys and re-creates an env, keeping the message of the failure that caused it. */
static int recreate(jg_env *env) {
    char saved[JG_ERROR_CAP];
    int32_t kind = env->error_kind;
    memcpy(saved, env->error, sizeof saved);
    jg_env_destroy(env);
    int rc = jg_env_create(env);
    if (rc == JG_OK) {
        memcpy(env->error, saved, sizeof saved);
        env->error_kind = kind;
    }
    return rc;
}

static int start_episode(jg_pool *pool, jg_env *env, uint32_t level_seed) {
    int rc = jg_env_reset(env, level_seed, obs_slot(pool, pool->buffers.obs, env->id));
    if (rc) return rc;
    env->episode_return = 0;
    env->needs_reset = 0;
    write_infos(pool, env);
    return JG_OK;
}

static uint32_t next_level(jg_pool *pool, jg_env *env) {
    return level_of(pool, (uint32_t)splitmix64(&env->seed_stream));
}

static void clear_step_outputs(jg_pool *pool, uint32_t i) {
    jg_buffers *b = &pool->buffers;
    b->reward[i] = 0.0;
    b->terminated[i] = 0;
    b->truncated[i] = 0;
    b->episode_done[i] = 0;
    b->env_error[i] = JG_OK;
    if (b->final_obs_valid) b->final_obs_valid[i] = 0;
}

static void end_episode(jg_pool *pool, jg_env *env) {
    jg_buffers *b = &pool->buffers;
    b->episode_done[env->id] = 1;
    b->episode_return[env->id] = env->episode_return;
    b->episode_length[env->id] = (int32_t)env->elapsed;
}

static int32_t fail(jg_pool *pool, jg_env *env, int32_t rc);

/* SAME_STEP: the step that ends an episode returns the next episode's first frame,
 * and the last frame goes to final_obs. */
static int32_t autoreset_now(jg_pool *pool, jg_env *env) {
    jg_buffers *b = &pool->buffers;
    if (b->final_obs) {
        memcpy(obs_slot(pool, b->final_obs, env->id), obs_slot(pool, b->obs, env->id),
               pool->obs_bytes);
        b->final_obs_valid[env->id] = 1;
    }
    int rc = start_episode(pool, env, next_level(pool, env));
    return rc ? fail(pool, env, rc) : JG_OK;
}

/* A JS failure in env: raise (env stays broken until reset) or, with on_error =
 * reset, end the episode as truncated and start afresh in a new context. */
static int32_t fail(jg_pool *pool, jg_env *env, int32_t rc) {
    jg_buffers *b = &pool->buffers;
    b->env_error[env->id] = rc;
    if (pool->config.on_error == JG_ON_ERROR_RAISE) {
        env->broken = 1;
        return rc;
    }
    b->truncated[env->id] = 1;
    b->terminated[env->id] = 0;
    end_episode(pool, env);
    if (recreate(env)) {
        env->broken = 1;
        return env->error_kind;
    }
    if (pool->config.autoreset_mode == JG_AUTORESET_NEXT_STEP) {
        env->needs_reset = 1;
        return JG_OK;
    }
    if (b->final_obs) {
        memcpy(obs_slot(pool, b->final_obs, env->id), obs_slot(pool, b->obs, env->id),
               pool->obs_bytes);
        b->final_obs_valid[env->id] = 1;
    }
    int rc2 = start_episode(pool, env, next_level(pool, env));
    if (rc2) {
        env->broken = 1;
        return rc2;
    }
    return JG_OK;
}

/* explicit: seed starts a new seed stream; otherwise the stream continues. */
static int32_t reset_one(jg_pool *pool, jg_env *env, uint32_t seed, int explicit) {
    clear_step_outputs(pool, env->id);
    if (env->broken || !env->ctx) {
        if (recreate(env)) return fail(pool, env, env->error_kind);
        env->broken = 0;
    }
    uint32_t level;
    if (explicit) {
        env->seed_stream = seed;
        splitmix64(&env->seed_stream);
        level = level_of(pool, seed);
    } else {
        level = next_level(pool, env);
    }
    int rc = start_episode(pool, env, level);
    return rc ? fail(pool, env, rc) : JG_OK;
}

static int32_t step_one(jg_pool *pool, jg_env *env, int32_t action) {
    jg_buffers *b = &pool->buffers;
    uint32_t i = env->id;
    clear_step_outputs(pool, i);
    if (env->broken) {
        b->env_error[i] = env->error_kind;
        return env->error_kind;
    }
    if (!env->has_episode || env->needs_reset) {
        int rc = start_episode(pool, env, next_level(pool, env));
        return rc ? fail(pool, env, rc) : JG_OK;
    }
    double previous = env->score;
    int rc = jg_env_step(env, action, obs_slot(pool, b->obs, i));
    if (rc) return fail(pool, env, rc);
    double reward = env->score - previous;
    env->episode_return += reward;
    b->reward[i] = reward;
    int terminated = env->game_state != JG_PLAYING;
    int truncated = !terminated && pool->config.max_episode_steps &&
                    env->elapsed >= (int64_t)pool->config.max_episode_steps;
    b->terminated[i] = (uint8_t)terminated;
    b->truncated[i] = (uint8_t)truncated;
    write_infos(pool, env);
    if (!terminated && !truncated) return JG_OK;
    end_episode(pool, env);
    switch (pool->config.autoreset_mode) {
    case JG_AUTORESET_NEXT_STEP: env->needs_reset = 1; return JG_OK;
    case JG_AUTORESET_SAME_STEP: return autoreset_now(pool, env);
    default: return JG_OK;
    }
}

static int32_t run_env_op(jg_pool *pool, jg_job *job, uint32_t k) {
    jg_env *env = &pool->envs[job->env_ids[k]];
    /* shard 0 runs on whichever thread calls recv(), at whatever stack depth */
    if (env->rt) JS_UpdateStackTop(env->rt);
    switch (job->kind) {
    case JG_JOB_CREATE: {
        int rc = jg_env_create(env);
        if (rc) env->broken = 1;
        return rc;
    }
    case JG_JOB_RESET: return reset_one(pool, env, (uint32_t)job->args[k], !job->continue_seeds);
    case JG_JOB_STEP: return step_one(pool, env, job->args[k]);
    case JG_JOB_EVAL:
        return jg_env_eval(env, pool->eval_code, pool->eval_len) ? JG_OK
                                                                 : (env->error_kind ? env->error_kind
                                                                                    : JG_ERR_MEMORY);
    case JG_JOB_STOP: break;
    }
    return JG_OK;
}

/* An env that the watchdog stopped (guard.c): its runtime is abandoned, and the env
 * fails with a timeout like any other. Re-creating it (on_error = "reset") runs JS
 * again under the same guard; a second stop leaves the env broken. */
static int32_t stopped(jg_pool *pool, jg_job *job, jg_env *env, jg_guard *g) {
    jg_guard_end_op(g);
    g->no_jump = 0;
    jg_env_abandon(env);
    if (job->kind == JG_JOB_CREATE || job->kind == JG_JOB_EVAL) {
        env->broken = 1;
        return JG_ERR_TIMEOUT;
    }
    if (sigsetjmp(g->jmp, 0)) {
        jg_guard_end_op(g);
        g->no_jump = 0;
        char saved[JG_ERROR_CAP];
        memcpy(saved, env->error, sizeof saved);
        jg_env_abandon(env);
        memcpy(env->error, saved, sizeof saved); /* the first stop is the one to report */
        env->broken = 1;
        return JG_ERR_TIMEOUT;
    }
    g->armed = 1;
    int32_t rc = fail(pool, env, JG_ERR_TIMEOUT);
    jg_guard_end_op(g);
    return rc;
}

static int32_t run_env(jg_pool *pool, jg_job *job, uint32_t k) {
    jg_guard *g = jg_tl_guard;
    if (!g) return run_env_op(pool, job, k);
    if (sigsetjmp(g->jmp, 0)) return stopped(pool, job, &pool->envs[job->env_ids[k]], g);
    g->armed = 1;
    int32_t rc = run_env_op(pool, job, k);
    jg_guard_end_op(g);
    return rc;
}

static inline int claim(jg_job *job, uint32_t k) {
    return __atomic_load_n(&job->claimed[k], __ATOMIC_RELAXED) == 0 &&
           __atomic_exchange_n(&job->claimed[k], 1, __ATOMIC_ACQ_REL) == 0;
}

/* Runs shard `shard`'s part of a job, then helps with the rest; returns the worst
 * env status it saw. */
static int32_t run_shard(jg_pool *pool, jg_job *job, uint32_t shard) {
    int32_t worst = JG_OK;
    if (job->kind == JG_JOB_STOP) {
        for (uint32_t id = shard; id < pool->config.num_envs; id += pool->num_shards)
            jg_env_destroy(&pool->envs[id]);
        return JG_OK;
    }
    if (pool->wd_started) {
        atomic_store(&pool->guards[shard].thread, pthread_self());
        jg_tl_guard = &pool->guards[shard];
    }
    /* Own envs first, in order; then the other shards' envs from the back, so that
     * a thread that finished early takes the envs their owner would reach last. */
    for (uint32_t k = 0; k < job->n; k++) {
        if (job->env_ids[k] % pool->num_shards != shard || !claim(job, k)) continue;
        int32_t rc = run_env(pool, job, k);
        if (rc && !worst) worst = rc;
    }
    for (uint32_t k = job->n; k-- > 0;) {
        if (!claim(job, k)) continue;
        int32_t rc = run_env(pool, job, k);
        if (rc && !worst) worst = rc;
    }
    jg_tl_guard = NULL;
    return worst;
}

static void finish_part(jg_pool *pool, jg_job *job, int32_t worst) {
    pthread_mutex_lock(&pool->mutex);
    if (worst && !job->status) job->status = worst;
    if (--job->remaining == 0) pthread_cond_broadcast(&pool->done_cv);
    pthread_mutex_unlock(&pool->mutex);
}

/* A thread that has finished its part of a step waits for the next one. Sleeping on
 * a condition variable costs a futex wake-up of several microseconds on both sides,
 * about the length of a whole step of a small game, and the next step usually comes
 * within tens of microseconds (the Python driver's turn). So a waiter first spins,
 * for at most JG_SPIN_NS, when the pool has no more threads than free cores. */
#define JG_SPIN_NS 50000

static long usable_cores(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    return sysconf(_SC_NPROCESSORS_ONLN);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spins until done(arg) or the spin budget is spent; the caller then takes the
 * mutex and checks again, so giving up early is always safe. */
static void spin_until(const jg_pool *pool, int (*done)(const void *), const void *arg) {
    if (!pool->spin) return;
    uint64_t deadline = 0;
    for (uint32_t i = 0;; i++) {
        if (done(arg)) return;
        cpu_relax();
        if ((i & 63) == 63) {
            uint64_t t = now_ns();
            if (!deadline) deadline = t + JG_SPIN_NS;
            else if (t > deadline) return;
        }
    }
}

typedef struct { const jg_pool *pool; uint64_t job; } jg_job_wait;

static int job_published(const void *arg) {
    const jg_job_wait *w = arg;
    return atomic_load_explicit(&w->pool->jobs_published, memory_order_acquire) > w->job;
}

static int job_finished(const void *arg) {
    return atomic_load_explicit(&((const jg_job *)arg)->remaining, memory_order_acquire) == 0;
}

static void *worker_main(void *arg) {
    jg_worker *w = arg;
    jg_pool *pool = w->pool;
    for (;;) {
        spin_until(pool, job_published, &(jg_job_wait){pool, w->next_job});
        pthread_mutex_lock(&pool->mutex);
        while (w->next_job >= pool->jobs_submitted) pthread_cond_wait(&pool->work_cv, &pool->mutex);
        jg_job *job = &pool->jobs[w->next_job % JG_MAX_JOBS];
        pthread_mutex_unlock(&pool->mutex);
        int stop = job->kind == JG_JOB_STOP;
        finish_part(pool, job, run_shard(pool, job, w->index));
        w->next_job++;
        if (stop) return NULL;
    }
}

static void set_pool_error(jg_pool *pool, const char *fmt, const char *detail) {
    snprintf(pool->last_error, sizeof pool->last_error, fmt, detail);
}

/* Fills the next job slot; the caller holds the mutex. */
static int32_t submit_locked(jg_pool *pool, jg_job_kind kind, const uint32_t *ids,
                             const int32_t *args, uint32_t n) {
    if (pool->jobs_submitted - pool->jobs_received >= JG_MAX_JOBS) {
        set_pool_error(pool, "%s", "too many jobs in flight: call recv() before sending more");
        return JG_ERR_STATE;
    }
    if (n > pool->config.num_envs) {
        snprintf(pool->last_error, sizeof pool->last_error,
                 "a job lists %u envs: the pool has %u", n, pool->config.num_envs);
        return JG_ERR_ARGUMENT;
    }
    /* in_flight = 2 marks the envs of this job while it is checked */
    int32_t rc = JG_OK;
    uint32_t k = 0;
    for (; k < n; k++) {
        if (ids[k] >= pool->config.num_envs) {
            snprintf(pool->last_error, sizeof pool->last_error,
                     "env id %u out of range: the pool has %u envs", ids[k], pool->config.num_envs);
            rc = JG_ERR_ARGUMENT;
            break;
        }
        if (pool->envs[ids[k]].in_flight) {
            int twice = pool->envs[ids[k]].in_flight == 2;
            snprintf(pool->last_error, sizeof pool->last_error,
                     twice ? "env %u is listed twice in one job"
                           : "env %u is already stepping in a job that was not received",
                     ids[k]);
            rc = twice ? JG_ERR_ARGUMENT : JG_ERR_STATE;
            break;
        }
        if (kind == JG_JOB_STEP && (args[k] < 0 || (uint32_t)args[k] >= pool->config.num_actions)) {
            snprintf(pool->last_error, sizeof pool->last_error,
                     "actions must be within [0, %u), got %d for env %u",
                     pool->config.num_actions, args[k], ids[k]);
            rc = JG_ERR_ARGUMENT;
            break;
        }
        pool->envs[ids[k]].in_flight = 2;
    }
    if (rc) {
        while (k-- > 0) pool->envs[ids[k]].in_flight = 0;
        return rc;
    }
    jg_job *job = &pool->jobs[pool->jobs_submitted % JG_MAX_JOBS];
    job->kind = kind;
    job->n = n;
    if (n) memcpy(job->env_ids, ids, n * sizeof *ids);
    if (n && args) memcpy(job->args, args, n * sizeof *args);
    if (n) memset(job->claimed, 0, n); /* published by the release store below */
    job->remaining = (int)pool->num_shards; /* the workers and the recv() caller */
    job->caller_started = 0;
    job->status = JG_OK;
    job->continue_seeds = kind == JG_JOB_RESET && !args;
    for (uint32_t k = 0; k < n; k++) pool->envs[ids[k]].in_flight = 1;
    pool->jobs_submitted++;
    atomic_store_explicit(&pool->jobs_published, pool->jobs_submitted, memory_order_release);
    if (pool->num_shards > 1) pthread_cond_broadcast(&pool->work_cv);
    return JG_OK;
}

/* Runs shard 0's part of the oldest job in flight, then waits for the workers'
 * parts. Called and returns with the mutex held; drops it while running envs. */
/* JG_RECV_* flags of a finished step or reset job, read from the buffers. */
static uint32_t job_flags(const jg_pool *pool, const jg_job *job) {
    const jg_buffers *b = &pool->buffers;
    uint32_t flags = 0, in_order = job->n == pool->config.num_envs;
    for (uint32_t k = 0; k < job->n; k++) {
        uint32_t id = job->env_ids[k];
        in_order &= id == k;
        if (job->kind != JG_JOB_STEP && job->kind != JG_JOB_RESET) continue;
        if (b->episode_done[id]) flags |= JG_RECV_EPISODE_DONE;
        if (b->env_error[id] != JG_OK) flags |= JG_RECV_ENV_ERROR;
        if (b->final_obs_valid && b->final_obs_valid[id]) flags |= JG_RECV_FINAL_OBS;
    }
    return flags | (in_order ? JG_RECV_ALL_IN_ORDER : 0);
}

static int32_t wait_oldest_locked(jg_pool *pool, uint32_t *ids_out, uint32_t *n_out,
                                  uint32_t *flags_out) {
    if (pool->jobs_received == pool->jobs_submitted) {
        set_pool_error(pool, "%s", "recv() with no job in flight: call send() first");
        return JG_ERR_STATE;
    }
    jg_job *job = &pool->jobs[pool->jobs_received % JG_MAX_JOBS];
    if (!job->caller_started) {
        job->caller_started = 1;
        pthread_mutex_unlock(&pool->mutex);
        int32_t worst = run_shard(pool, job, 0);
        pthread_mutex_lock(&pool->mutex);
        if (worst && !job->status) job->status = worst;
        job->remaining--;
        if (job->remaining) {
            pthread_mutex_unlock(&pool->mutex);
            spin_until(pool, job_finished, job);
            pthread_mutex_lock(&pool->mutex);
        }
    }
    while (job->remaining) pthread_cond_wait(&pool->done_cv, &pool->mutex);
    for (uint32_t k = 0; k < job->n; k++) pool->envs[job->env_ids[k]].in_flight = 0;
    if (ids_out) memcpy(ids_out, job->env_ids, job->n * sizeof *ids_out);
    if (n_out) *n_out = job->n;
    if (flags_out) *flags_out = job_flags(pool, job);
    pool->jobs_received++;
    return job->status;
}

static int32_t run_sync(jg_pool *pool, jg_job_kind kind, const uint32_t *ids, const int32_t *args,
                        uint32_t n) {
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = JG_OK;
    if (pool->jobs_submitted != pool->jobs_received) {
        set_pool_error(pool, "%s", "a step is in flight: recv() it before reset or eval");
        rc = JG_ERR_STATE;
    }
    if (!rc) rc = submit_locked(pool, kind, ids, args, n);
    if (!rc) rc = wait_oldest_locked(pool, NULL, NULL, NULL);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

static const char *validate(const jg_config *c) {
    if (!c->source) return "no game source";
    if (c->num_envs == 0) return "num_envs must be >= 1";
    if (c->num_threads == 0) return "num_threads must be >= 1";
    if (c->obs_width == 0 || c->obs_height == 0 || c->obs_width > 4096 || c->obs_height > 4096)
        return "observation size must be within 1..4096";
    if (c->supersample < 1 || c->supersample > 4) return "supersample must be within 1..4";
    if (c->fit > 1) return "fit must be 0 (stretch) or 1 (letterbox)";
    if (c->frameskip == 0) return "frameskip must be >= 1";
    if (c->autoreset_mode > 2) return "unknown autoreset mode";
    if (c->on_error > 1) return "unknown on_error policy";
    if (c->num_actions == 0 || !c->actions) return "the action table is empty";
    if (!(c->step_timeout > 0)) return "step_timeout must be > 0";
    if (c->memory_limit < (1u << 20)) return "memory_limit must be at least 1 MiB";
    if (c->stack_limit < (64u << 10)) return "stack_limit must be at least 64 KiB";
    return NULL;
}

jg_pool *jg_pool_create(const jg_config *config, int32_t *status) {
    create_error[0] = '\0';
    const char *bad = validate(config);
    if (bad) {
        snprintf(create_error, sizeof create_error, "invalid configuration: %s", bad);
        *status = JG_ERR_ARGUMENT;
        return NULL;
    }
    jg_pool *pool = calloc(1, sizeof *pool);
    if (!pool) goto oom;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->work_cv, NULL);
    pthread_cond_init(&pool->done_cv, NULL);
    pool->config = *config;
    pool->game_name = strdup(config->game_name ? config->game_name : "game");
    pool->options_json = strdup(config->options_json ? config->options_json : "");
    pool->actions = malloc(config->num_actions * sizeof *pool->actions);
    if (!pool->game_name || !pool->options_json || !pool->actions) goto oom;
    memcpy(pool->actions, config->actions, config->num_actions * sizeof *pool->actions);
    pool->config.game_name = pool->game_name;
    pool->config.options_json = pool->options_json;
    pool->config.actions = pool->actions;
    pool->config.source = NULL;
    pool->profile = config->profile != 0;
    pool->obs_bytes = (size_t)config->obs_width * config->obs_height * 3;

    int rc = jg_compile(pool->game_name, config->source, config->source_len, &pool->bytecode,
                        create_error, sizeof create_error);
    if (rc) {
        *status = rc;
        jg_pool_destroy(pool);
        return NULL;
    }
    uint32_t n = config->num_envs;
    pool->envs = calloc(n, sizeof *pool->envs);
    for (int j = 0; j < JG_MAX_JOBS; j++) {
        pool->jobs[j].env_ids = malloc(n * sizeof(uint32_t));
        pool->jobs[j].args = malloc(n * sizeof(int32_t));
        pool->jobs[j].claimed = malloc(n);
        if (!pool->jobs[j].env_ids || !pool->jobs[j].args || !pool->jobs[j].claimed) goto oom;
    }
    pool->send_actions = malloc(n * sizeof(int32_t));
    if (!pool->send_actions) goto oom;
    if (!pool->envs) goto oom;
    for (uint32_t i = 0; i < n; i++) {
        pool->envs[i].id = i;
        pool->envs[i].pool = pool;
    }
    pool->num_shards = config->num_threads < n ? config->num_threads : n;
    pool->num_workers = pool->num_shards - 1; /* shard 0 runs on the recv() caller */
    pool->spin = pool->num_shards > 1 && (long)pool->num_shards <= usable_cores();
    pool->workers = calloc(pool->num_workers + 1, sizeof *pool->workers);
    pool->guards = calloc(pool->num_shards, sizeof *pool->guards);
    if (!pool->workers || !pool->guards) goto oom;
    if (jg_watchdog_start(pool)) {
        snprintf(create_error, sizeof create_error, "could not start the watchdog thread: %s",
                 strerror(errno));
        *status = JG_ERR_SYSTEM;
        jg_pool_destroy(pool);
        return NULL;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = (size_t)config->stack_limit + (8u << 20);
    pthread_attr_setstacksize(&attr, stack);
    for (uint32_t w = 0; w < pool->num_workers; w++) {
        pool->workers[w].pool = pool;
        pool->workers[w].index = w + 1;
        if (pthread_create(&pool->workers[w].thread, &attr, worker_main, &pool->workers[w])) {
            pthread_attr_destroy(&attr);
            pool->num_workers = w; /* stop only the threads that started */
            pool->num_shards = w + 1;
            snprintf(create_error, sizeof create_error, "could not start worker thread %u: %s", w,
                     strerror(errno));
            *status = JG_ERR_SYSTEM;
            jg_pool_destroy(pool);
            return NULL;
        }
        pool->workers[w].started = 1;
    }
    pthread_attr_destroy(&attr);

    /* Each worker creates the envs of its own shard, in parallel with the caller. */
    uint32_t *ids = malloc(n * sizeof *ids);
    if (!ids) goto oom;
    for (uint32_t i = 0; i < n; i++) ids[i] = i;
    rc = run_sync(pool, JG_JOB_CREATE, ids, NULL, n);
    free(ids);
    if (rc) {
        for (uint32_t i = 0; i < n; i++) {
            if (pool->envs[i].error_kind) {
                snprintf(create_error, sizeof create_error, "%s", pool->envs[i].error);
                rc = pool->envs[i].error_kind;
                break;
            }
        }
        *status = rc;
        jg_pool_destroy(pool);
        return NULL;
    }
    *status = JG_OK;
    return pool;
oom:
    snprintf(create_error, sizeof create_error, "out of memory creating the pool");
    *status = JG_ERR_MEMORY;
    jg_pool_destroy(pool);
    return NULL;
}

void jg_pool_destroy(jg_pool *pool) {
    if (!pool) return;
    if (pool->envs && pool->num_shards) {
        pthread_mutex_lock(&pool->mutex);
        while (pool->jobs_received != pool->jobs_submitted)
            wait_oldest_locked(pool, NULL, NULL, NULL);
        /* every shard, the caller's included, frees its own envs */
        if (submit_locked(pool, JG_JOB_STOP, NULL, NULL, 0) == JG_OK)
            wait_oldest_locked(pool, NULL, NULL, NULL);
        pthread_mutex_unlock(&pool->mutex);
        for (uint32_t w = 0; w < pool->num_workers; w++)
            if (pool->workers[w].started) pthread_join(pool->workers[w].thread, NULL);
    }
    jg_watchdog_stop(pool);
    free(pool->guards);
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->work_cv);
    pthread_cond_destroy(&pool->done_cv);
    for (int j = 0; j < JG_MAX_JOBS; j++) {
        free(pool->jobs[j].env_ids);
        free(pool->jobs[j].claimed);
        free(pool->jobs[j].args);
    }
    free(pool->send_actions);
    free(pool->workers);
    free(pool->envs);
    jg_bytecode_free(&pool->bytecode);
    free(pool->actions);
    free(pool->game_name);
    free(pool->options_json);
    free(pool);
}

int32_t jg_pool_set_buffers(jg_pool *pool, const jg_buffers *b) {
    if (!b->obs || !b->reward || !b->terminated || !b->truncated || !b->score || !b->lives ||
        !b->game_state || !b->episode_done || !b->episode_return || !b->episode_length ||
        !b->env_error || !b->level_seed || !b->elapsed_steps) {
        set_pool_error(pool, "%s", "every buffer except final_obs must be given");
        return JG_ERR_ARGUMENT;
    }
    if ((b->final_obs == NULL) != (b->final_obs_valid == NULL)) {
        set_pool_error(pool, "%s", "final_obs and final_obs_valid go together");
        return JG_ERR_ARGUMENT;
    }
    pthread_mutex_lock(&pool->mutex);
    int busy = pool->jobs_submitted != pool->jobs_received;
    if (!busy) {
        pool->buffers = *b;
        pool->has_buffers = 1;
    }
    pthread_mutex_unlock(&pool->mutex);
    if (busy) {
        set_pool_error(pool, "%s", "cannot change buffers while a job is in flight");
        return JG_ERR_STATE;
    }
    return JG_OK;
}

int32_t jg_pool_reset(jg_pool *pool, const uint32_t *env_ids, const uint32_t *seeds, uint32_t n) {
    if (!pool->has_buffers) {
        set_pool_error(pool, "%s", "set_buffers() must come before reset()");
        return JG_ERR_STATE;
    }
    return run_sync(pool, JG_JOB_RESET, env_ids, (const int32_t *)seeds, n);
}

int32_t jg_pool_send(jg_pool *pool, const int64_t *actions, const uint32_t *env_ids, uint32_t n) {
    if (!pool->has_buffers) {
        set_pool_error(pool, "%s", "set_buffers() must come before send()");
        return JG_ERR_STATE;
    }
    if (n > pool->config.num_envs) {
        snprintf(pool->last_error, sizeof pool->last_error,
                 "a job lists %u envs: the pool has %u", n, pool->config.num_envs);
        return JG_ERR_ARGUMENT;
    }
    /* int64 in, so that no caller has to check that its actions fit 32 bits */
    for (uint32_t k = 0; k < n; k++) {
        if (actions[k] < 0 || actions[k] >= (int64_t)pool->config.num_actions) {
            snprintf(pool->last_error, sizeof pool->last_error,
                     "actions must be within [0, %u), got %lld for env %u",
                     pool->config.num_actions, (long long)actions[k], env_ids[k]);
            return JG_ERR_ARGUMENT;
        }
        pool->send_actions[k] = (int32_t)actions[k];
    }
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = submit_locked(pool, JG_JOB_STEP, env_ids, pool->send_actions, n);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

int32_t jg_pool_recv(jg_pool *pool, uint32_t *env_ids_out, uint32_t *n_out, uint32_t *flags_out) {
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = wait_oldest_locked(pool, env_ids_out, n_out, flags_out);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

const char *jg_pool_env_error(jg_pool *pool, uint32_t env) {
    if (env >= pool->config.num_envs) return "";
    return pool->envs[env].error;
}

const char *jg_pool_last_error(jg_pool *pool) { return pool->last_error; }

const char *jg_pool_eval(jg_pool *pool, uint32_t env, const char *code, size_t code_len) {
    if (env >= pool->config.num_envs) {
        set_pool_error(pool, "%s", "env id out of range");
        return NULL;
    }
    pool->eval_code = code;
    pool->eval_len = code_len;
    int32_t rc = run_sync(pool, JG_JOB_EVAL, &env, NULL, 1);
    pool->eval_code = NULL;
    if (rc) return NULL;
    return pool->envs[env].eval_result;
}

int32_t jg_pool_profile(jg_pool *pool, uint32_t env, jg_profile *out) {
    if (env >= pool->config.num_envs) return JG_ERR_ARGUMENT;
    *out = pool->envs[env].prof;
    return JG_OK;
}
