/* The pool's scheduler: the job ring and the threads that run each job's envs.
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
 *       Each claimed env runs its part of the job (episode.c), which writes the
 *       results into the caller-owned buffers at index id.
 *                                           |  done_cv (last thread of the job)
 *                                           v
 *   Python: recv() <---- oldest job: env ids, worst status
 *
 * An env is only ever run by one thread at a time (it is claimed once per job, and
 * jobs of one env never overlap), mostly by its home thread. Each thread has the
 * hard-stop guard of its shard (guard.c) while it runs a job. Per-env failures stay
 * in that env (its status, its error record); other envs of the same job run
 * normally.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "pool.h"

static int32_t run_env(jg_pool *pool, jg_job *job, uint32_t k) {
    jg_slot *slot = &pool->slots[job->env_ids[k]];
    switch (job->kind) {
    case JG_JOB_CREATE: return jg_episode_create(pool, slot);
    case JG_JOB_RESET:
        return jg_episode_reset(pool, slot, (uint32_t)job->args[k], !job->continue_seeds);
    case JG_JOB_STEP: return jg_episode_step(pool, slot, job->args[k]);
    case JG_JOB_EVAL: return jg_episode_eval(pool, slot);
    case JG_JOB_STOP: break;
    }
    return JG_OK;
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
            jg_episode_destroy(pool, &pool->slots[id]);
        return JG_OK;
    }
    if (pool->watchdog.started) {
        atomic_store(&pool->watchdog.guards[shard].thread, pthread_self());
        jg_tl_guard = &pool->watchdog.guards[shard];
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

int jg_sched_spin_pays(const jg_pool *pool) {
    return pool->num_shards > 1 && (long)pool->num_shards <= usable_cores();
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

/* Fills the next job slot; the caller holds the mutex. */
int32_t jg_sched_submit_locked(jg_pool *pool, jg_job_kind kind, const uint32_t *ids,
                               const int32_t *args, uint32_t n) {
    if (pool->jobs_submitted - pool->jobs_received >= JG_MAX_JOBS)
        return jg_pool_fail(pool, JG_ERR_STATE,
                            "too many jobs in flight: call recv() before sending more");
    if (n > pool->config.num_envs)
        return jg_pool_fail(pool, JG_ERR_ARGUMENT, "a job lists %u envs: the pool has %u", n,
                            pool->config.num_envs);
    /* in_flight = 2 marks the envs of this job while it is checked */
    int32_t rc = JG_OK;
    uint32_t k = 0;
    for (; k < n; k++) {
        if (ids[k] >= pool->config.num_envs) {
            rc = jg_pool_fail(pool, JG_ERR_ARGUMENT, "env id %u out of range: the pool has %u envs",
                              ids[k], pool->config.num_envs);
            break;
        }
        jg_slot *slot = &pool->slots[ids[k]];
        if (slot->in_flight) {
            rc = slot->in_flight == 2
                     ? jg_pool_fail(pool, JG_ERR_ARGUMENT, "env %u is listed twice in one job", ids[k])
                     : jg_pool_fail(pool, JG_ERR_STATE,
                                    "env %u is already stepping in a job that was not received",
                                    ids[k]);
            break;
        }
        if (kind == JG_JOB_STEP && (args[k] < 0 || (uint32_t)args[k] >= pool->config.num_actions)) {
            rc = jg_pool_fail(pool, JG_ERR_ARGUMENT, "actions must be within [0, %u), got %d for env %u",
                              pool->config.num_actions, args[k], ids[k]);
            break;
        }
        slot->in_flight = 2;
    }
    if (rc) {
        while (k-- > 0) pool->slots[ids[k]].in_flight = 0;
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
    for (uint32_t j = 0; j < n; j++) pool->slots[ids[j]].in_flight = 1;
    pool->jobs_submitted++;
    atomic_store_explicit(&pool->jobs_published, pool->jobs_submitted, memory_order_release);
    if (pool->num_shards > 1) pthread_cond_broadcast(&pool->work_cv);
    return JG_OK;
}

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

/* Runs shard 0's part of the oldest job in flight, then waits for the workers'
 * parts. Called and returns with the mutex held; drops it while running envs. */
int32_t jg_sched_wait_oldest_locked(jg_pool *pool, uint32_t *ids_out, uint32_t *n_out,
                                    uint32_t *flags_out) {
    if (pool->jobs_received == pool->jobs_submitted)
        return jg_pool_fail(pool, JG_ERR_STATE, "recv() with no job in flight: call send() first");
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
    for (uint32_t k = 0; k < job->n; k++) pool->slots[job->env_ids[k]].in_flight = 0;
    if (ids_out) memcpy(ids_out, job->env_ids, job->n * sizeof *ids_out);
    if (n_out) *n_out = job->n;
    if (flags_out) *flags_out = job_flags(pool, job);
    pool->jobs_received++;
    return job->status;
}

int32_t jg_sched_run(jg_pool *pool, jg_job_kind kind, const uint32_t *ids, const int32_t *args,
                     uint32_t n) {
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = JG_OK;
    if (pool->jobs_submitted != pool->jobs_received)
        rc = jg_pool_fail(pool, JG_ERR_STATE, "a step is in flight: recv() it before reset or eval");
    if (!rc) rc = jg_sched_submit_locked(pool, kind, ids, args, n);
    if (!rc) rc = jg_sched_wait_oldest_locked(pool, NULL, NULL, NULL);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

int32_t jg_sched_start(jg_pool *pool, int may_spin) {
    uint32_t n = pool->config.num_envs;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->work_cv, NULL);
    pthread_cond_init(&pool->done_cv, NULL);
    for (int j = 0; j < JG_MAX_JOBS; j++) {
        pool->jobs[j].env_ids = malloc(n * sizeof(uint32_t));
        pool->jobs[j].args = malloc(n * sizeof(int32_t));
        pool->jobs[j].claimed = malloc(n);
        if (!pool->jobs[j].env_ids || !pool->jobs[j].args || !pool->jobs[j].claimed)
            return JG_ERR_MEMORY;
    }
    pool->num_shards = pool->config.num_threads < n ? pool->config.num_threads : n;
    /* set before the workers start: they read it */
    pool->spin = may_spin && jg_sched_spin_pays(pool);
    pool->num_workers = 0;
    pool->workers = calloc(pool->num_shards, sizeof *pool->workers);
    if (!pool->workers) return JG_ERR_MEMORY;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = (size_t)pool->config.stack_limit + (8u << 20);
    pthread_attr_setstacksize(&attr, stack);
    for (uint32_t w = 0; w + 1 < pool->num_shards; w++) {
        pool->workers[w].pool = pool;
        pool->workers[w].index = w + 1; /* shard 0 runs on the recv() caller */
        if (pthread_create(&pool->workers[w].thread, &attr, worker_main, &pool->workers[w])) {
            pthread_attr_destroy(&attr);
            pool->num_shards = w + 1; /* stop only the threads that started */
            return JG_ERR_SYSTEM;
        }
        pool->workers[w].started = 1;
        pool->num_workers = w + 1;
    }
    pthread_attr_destroy(&attr);
    return JG_OK;
}

void jg_sched_stop(jg_pool *pool) {
    if (pool->slots && pool->num_shards) {
        pthread_mutex_lock(&pool->mutex);
        while (pool->jobs_received != pool->jobs_submitted)
            jg_sched_wait_oldest_locked(pool, NULL, NULL, NULL);
        /* every shard, the caller's included, frees its own envs */
        if (jg_sched_submit_locked(pool, JG_JOB_STOP, NULL, NULL, 0) == JG_OK)
            jg_sched_wait_oldest_locked(pool, NULL, NULL, NULL);
        pthread_mutex_unlock(&pool->mutex);
        for (uint32_t w = 0; w < pool->num_workers; w++)
            if (pool->workers[w].started) pthread_join(pool->workers[w].thread, NULL);
    }
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->work_cv);
    pthread_cond_destroy(&pool->done_cv);
    for (int j = 0; j < JG_MAX_JOBS; j++) {
        free(pool->jobs[j].env_ids);
        free(pool->jobs[j].claimed);
        free(pool->jobs[j].args);
    }
    free(pool->workers);
}
