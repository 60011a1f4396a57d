/* Private declarations of the pool, shared by its three files:
 *
 *   abi.c        the exported jg_pool_* functions: configuration checks, creation of
 *                either game kind, buffers, errors, eval, profile
 *   scheduler.c  the job ring and the threads: home shards, stealing, spin-then-sleep
 *   episode.c    the episode rules of one env on the game interface (jg_game):
 *                reward, termination, truncation, autoreset, level seeds, on_error
 *
 * None of them knows what a game is made of: the QuickJS game (env.c, internal.h)
 * and a hosted game (Python callbacks: the browser backend) are two implementations
 * of jg_game (include/jsgym.h).
 */
#ifndef JSGYM_POOL_H
#define JSGYM_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "jsgym.h"
#include "jsgym_contract.h"
#include "error.h"

#include "guard.h"

/* One env's episode state (episode.c); the game's own state is behind jg_game. */
typedef struct jg_slot {
    uint32_t id;
    jg_state state;        /* the game's last reported score, lives, game_state */
    double episode_return;
    int64_t elapsed;       /* steps taken in the current episode */
    uint32_t level_seed;
    uint64_t seed_stream;  /* splitmix64 state: seeds of autoreset episodes */
    uint8_t needs_reset;   /* NEXT_STEP: the previous step ended the episode */
    uint8_t broken;        /* failed and not reset yet (on_error = raise), or not created */
    uint8_t has_episode;   /* reset at least once since created */
    uint8_t in_flight;     /* scheduler: part of a job not yet received (2: being checked) */
    jg_error error;        /* the last failure */
} jg_slot;

typedef enum jg_job_kind {
    JG_JOB_CREATE,
    JG_JOB_RESET,
    JG_JOB_STEP,
    JG_JOB_EVAL,
    JG_JOB_STOP
} jg_job_kind;

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
    struct jg_pool *pool;
    uint32_t index;          /* the shard this thread owns (1..num_shards-1) */
    pthread_t thread;
    uint64_t next_job;       /* sequence number of the next job to run */
    int started;
} jg_worker;

typedef struct jg_pool {
    jg_config config;      /* copied; its strings and actions are the pool's own */
    char *game_name;
    char *options_json;
    jg_action *actions;
    jg_buffers buffers;
    int has_buffers;
    size_t obs_bytes;      /* per env */

    /* the game: the QuickJS game (env.c) or a hosted one */
    jg_game game;
    void (*game_free)(void *user); /* frees game.user (QuickJS games), or NULL */
    jg_slot *slots;

    /* scheduler.c */
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
    int spin;                /* wait by spinning briefly before sleeping (scheduler.c) */
    uint64_t jobs_received;  /* sequence number of the oldest job not received */
    const char *eval_code;   /* the JG_JOB_EVAL in flight */
    size_t eval_len;
    const char *eval_result;

    jg_error last_error;   /* pool-level failures (kind ARGUMENT or STATE) */
    jg_watchdog watchdog;  /* QuickJS games only (guard.c) */
} jg_pool;

/* A pool-level failure: kind plus a formatted message, in pool->last_error. */
int32_t jg_pool_fail(jg_pool *pool, int32_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* episode.c: one env's part of a job (the scheduler calls these; each returns the
 * env's status). */
int32_t jg_episode_create(jg_pool *pool, jg_slot *slot);
int32_t jg_episode_reset(jg_pool *pool, jg_slot *slot, uint32_t seed, int explicit_seed);
int32_t jg_episode_step(jg_pool *pool, jg_slot *slot, int32_t action);
int32_t jg_episode_eval(jg_pool *pool, jg_slot *slot);
void jg_episode_destroy(jg_pool *pool, jg_slot *slot);

/* scheduler.c */
int32_t jg_sched_start(jg_pool *pool, int may_spin); /* the worker threads; may_spin: pool->spin if it pays */
int jg_sched_spin_pays(const jg_pool *pool); /* no more threads than usable cores */
void jg_sched_stop(jg_pool *pool);       /* waits for jobs in flight, destroys envs, joins */
int32_t jg_sched_submit_locked(jg_pool *pool, jg_job_kind kind, const uint32_t *ids,
                               const int32_t *args, uint32_t n);
int32_t jg_sched_wait_oldest_locked(jg_pool *pool, uint32_t *ids_out, uint32_t *n_out,
                                    uint32_t *flags_out);
/* Submits a job and waits for it (create, reset, eval): no job may be in flight. */
int32_t jg_sched_run(jg_pool *pool, jg_job_kind kind, const uint32_t *ids, const int32_t *args,
                     uint32_t n);

/* env.c: the QuickJS game. Compiles the source, allocates the envs' records and fills
 * *game with the QuickJS implementation of the game interface; on failure fills
 * *err. */
int32_t jg_qjs_game_new(const jg_config *config, jg_game *game, jg_error *err);
void jg_qjs_game_free(void *user);
int32_t jg_qjs_profile(void *user, uint32_t env, jg_profile *out);

#endif /* JSGYM_POOL_H */
