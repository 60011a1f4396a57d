/* The exported C ABI (include/jsgym.h): checks every argument, builds a pool over
 * either game kind, and hands jobs to the scheduler. Nothing per env or per step
 * happens here beyond the checks of a job's arguments. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "internal.h" /* jg_engine_name: the QuickJS version */
#include "pool.h"

_Static_assert(sizeof(jg_action) == (2 * JG_MAX_KEYS_PER_ACTION + 5) * sizeof(int32_t),
               "jg_action holds JG_MAX_KEYS_PER_ACTION held and tapped keys and the pointer");
/* jg_config.fit goes to the rasterizer as it is */
_Static_assert(JG_OBS_FIT_STRETCH == JG_FIT_STRETCH && JG_OBS_FIT_LETTERBOX == JG_FIT_LETTERBOX,
               "contract.json's modes.fit is the rasterizer's order");

static _Thread_local jg_error create_error;

uint32_t jg_abi_version(void) { return JG_ABI_VERSION; }

const char *jg_contract_digest(void) { return JG_CONTRACT_DIGEST; }

const jg_error *jg_last_create_error(void) { return &create_error; }

const char *jg_engine_name(void) {
#if JG_ENGINE_NG
    return "quickjs-ng " JS_VERSION_STR_JG;
#else
    return "quickjs (Bellard) " CONFIG_VERSION;
#endif
}

int32_t jg_pool_fail(jg_pool *pool, int32_t kind, const char *fmt, ...) {
    char text[JG_ERROR_TEXT_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    jg_error_clear(&pool->last_error, -1);
    return jg_error_set(&pool->last_error, kind, JG_PHASE_NONE, "%s", text);
}

static const char *validate(const jg_config *c, int hosted) {
    if (!hosted && !c->source) return "no game source";
    if (c->num_envs == 0) return "num_envs must be >= 1";
    if (c->num_threads == 0) return "num_threads must be >= 1";
    if (c->obs_width < JG_LIMIT_OBS_SIDE_MIN || c->obs_height < JG_LIMIT_OBS_SIDE_MIN ||
        c->obs_width > JG_LIMIT_OBS_SIDE_MAX || c->obs_height > JG_LIMIT_OBS_SIDE_MAX)
        return "observation size must be within 1..4096";
    if (c->supersample < JG_LIMIT_SUPERSAMPLE_MIN || c->supersample > JG_LIMIT_SUPERSAMPLE_MAX)
        return "supersample must be within 1..4";
    if (c->fit > JG_OBS_FIT_LETTERBOX) return "fit must be 0 (stretch) or 1 (letterbox)";
    if (c->frameskip < JG_LIMIT_FRAMESKIP_MIN) return "frameskip must be >= 1";
    if (c->autoreset_mode > JG_AUTORESET_DISABLED) return "unknown autoreset mode";
    if (c->on_error > JG_ON_ERROR_RESET) return "unknown on_error policy";
    if (c->num_actions == 0 || !c->actions) return "the action table is empty";
    for (uint32_t i = 0; i < c->num_actions; i++) {
        const jg_action *a = &c->actions[i];
        if (a->pointer < JG_POINTER_NONE || a->pointer > JG_POINTER_INPUT)
            return "an action's pointer mode must be JG_POINTER_NONE, _AT or _INPUT";
        if ((a->buttons_held | a->buttons_tapped) & ~(JG_BUTTON_LEFT | JG_BUTTON_RIGHT | JG_BUTTON_CENTER))
            return "an action's buttons must be JG_BUTTON_* masks";
        if (a->pointer == JG_POINTER_AT && !(isfinite(a->x) && isfinite(a->y)))
            return "an action's pointer position must be finite";
    }
    /* (a NaN fails both comparisons) */
    if (!(c->step_timeout > 0 && c->step_timeout <= JG_LIMIT_STEP_TIMEOUT_MAX))
        return "step_timeout must be within (0, 86400] seconds";
    if (!hosted && !(c->compile_timeout > 0 && c->compile_timeout <= JG_LIMIT_COMPILE_TIMEOUT_MAX))
        return "compile_timeout must be within (0, 86400] seconds";
    if (c->memory_limit < JG_LIMIT_MEMORY_LIMIT_MIN) return "memory_limit must be at least 1 MiB";
    if (c->stack_limit < JG_LIMIT_STACK_LIMIT_MIN) return "stack_limit must be at least 64 KiB";
    return NULL;
}

static int32_t create_failed(jg_pool *pool, int32_t *status, int32_t kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int32_t create_failed(jg_pool *pool, int32_t *status, int32_t kind, const char *fmt, ...) {
    char text[JG_ERROR_TEXT_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    jg_error_clear(&create_error, -1);
    jg_error_set(&create_error, kind, JG_PHASE_NONE, "%s", text);
    *status = kind;
    jg_pool_destroy(pool);
    return kind;
}

/* Everything but the game: the pool's own copy of the configuration, the slots. */
static jg_pool *pool_new(const jg_config *config, int32_t *status, int hosted) {
    jg_error_clear(&create_error, -1);
    const char *bad = validate(config, hosted);
    if (bad) {
        jg_error_set(&create_error, JG_ERR_ARGUMENT, JG_PHASE_NONE, "invalid configuration: %s", bad);
        *status = JG_ERR_ARGUMENT;
        return NULL;
    }
    jg_pool *pool = calloc(1, sizeof *pool);
    if (!pool) {
        jg_error_set(&create_error, JG_ERR_MEMORY, JG_PHASE_NONE, "out of memory creating the pool");
        *status = JG_ERR_MEMORY;
        return NULL;
    }
    pool->config = *config;
    pool->game_name = strdup(config->game_name ? config->game_name : "game");
    pool->options_json = strdup(config->options_json ? config->options_json : "");
    pool->actions = malloc(config->num_actions * sizeof *pool->actions);
    pool->slots = calloc(config->num_envs, sizeof *pool->slots);
    pool->send_actions = malloc(config->num_envs * sizeof *pool->send_actions);
    jg_error_clear(&pool->last_error, -1);
    if (!pool->game_name || !pool->options_json || !pool->actions || !pool->slots ||
        !pool->send_actions) {
        create_failed(pool, status, JG_ERR_MEMORY, "out of memory creating the pool");
        return NULL;
    }
    memcpy(pool->actions, config->actions, config->num_actions * sizeof *pool->actions);
    for (uint32_t i = 0; i < config->num_actions; i++) { /* whole pixels, as a mouse reports */
        pool->actions[i].x = roundf(pool->actions[i].x);
        pool->actions[i].y = roundf(pool->actions[i].y);
    }
    pool->config.game_name = pool->game_name;
    pool->config.options_json = pool->options_json;
    pool->config.actions = pool->actions;
    pool->obs_bytes = (size_t)config->obs_width * config->obs_height * 3;
    for (uint32_t i = 0; i < config->num_envs; i++) {
        pool->slots[i].id = i;
        pool->slots[i].broken = 1; /* until created */
        jg_error_clear(&pool->slots[i].error, (int32_t)i);
    }
    return pool;
}

/* Threads, then every env created in parallel (each shard creates its own). */
static jg_pool *pool_start(jg_pool *pool, int32_t *status, int qjs) {
    /* a hosted game's calls wait on I/O: its threads never spin (scheduler.c) */
    int32_t rc = jg_sched_start(pool, qjs);
    if (rc == JG_ERR_MEMORY) {
        create_failed(pool, status, rc, "out of memory creating the pool");
        return NULL;
    }
    if (rc) {
        create_failed(pool, status, rc, "could not start worker thread %u: %s", pool->num_shards - 1,
                      strerror(errno));
        return NULL;
    }
    if (qjs) {
        jg_watchdog *wd = &pool->watchdog;
        wd->guards = calloc(pool->num_shards, sizeof *wd->guards);
        wd->num_guards = pool->num_shards;
        wd->step_timeout = pool->config.step_timeout;
        if (!wd->guards) {
            create_failed(pool, status, JG_ERR_MEMORY, "out of memory creating the pool");
            return NULL;
        }
        if (jg_watchdog_start(wd)) {
            create_failed(pool, status, JG_ERR_SYSTEM, "could not start the watchdog thread: %s",
                          strerror(errno));
            return NULL;
        }
    }
    uint32_t n = pool->config.num_envs;
    uint32_t *ids = malloc(n * sizeof *ids);
    if (!ids) {
        create_failed(pool, status, JG_ERR_MEMORY, "out of memory creating the pool");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) ids[i] = i;
    rc = jg_sched_run(pool, JG_JOB_CREATE, ids, NULL, n);
    free(ids);
    if (rc) {
        /* a failing env fails the whole pool: its record is the pool's */
        for (uint32_t i = 0; i < n; i++) {
            if (pool->slots[i].error.kind) {
                create_error = pool->slots[i].error;
                rc = pool->slots[i].error.kind;
                break;
            }
        }
        *status = rc;
        jg_pool_destroy(pool);
        return NULL;
    }
    *status = JG_OK;
    return pool;
}

jg_pool *jg_pool_create(const jg_config *config, int32_t *status) {
    jg_pool *pool = pool_new(config, status, 0);
    if (!pool) return NULL;
    int32_t rc = jg_qjs_game_new(&pool->config, &pool->game, &create_error);
    if (rc) {
        jg_error saved = create_error;
        *status = rc;
        jg_pool_destroy(pool);
        create_error = saved;
        return NULL;
    }
    pool->game_free = jg_qjs_game_free;
    return pool_start(pool, status, 1);
}

jg_pool *jg_pool_create_hosted(const jg_config *config, const jg_game *game, int32_t *status) {
    if (!game || !game->create || !game->destroy || !game->alive || !game->reset || !game->step ||
        !game->eval) {
        jg_error_clear(&create_error, -1);
        jg_error_set(&create_error, JG_ERR_ARGUMENT, JG_PHASE_NONE,
                     "invalid configuration: the hosted game lacks a function");
        *status = JG_ERR_ARGUMENT;
        return NULL;
    }
    jg_pool *pool = pool_new(config, status, 1);
    if (!pool) return NULL;
    pool->game = *game;
    return pool_start(pool, status, 0);
}

void jg_pool_destroy(jg_pool *pool) {
    if (!pool) return;
    if (pool->workers) jg_sched_stop(pool); /* every env destroyed on its shard */
    jg_watchdog_stop(&pool->watchdog);
    free(pool->watchdog.guards);
    if (pool->game_free) pool->game_free(pool->game.user);
    free(pool->send_actions);
    free(pool->slots);
    free(pool->actions);
    free(pool->game_name);
    free(pool->options_json);
    free(pool);
}

int32_t jg_pool_set_buffers(jg_pool *pool, const jg_buffers *b) {
    if (!b->obs || !b->reward || !b->terminated || !b->truncated || !b->score || !b->lives ||
        !b->game_state || !b->episode_done || !b->episode_return || !b->episode_length ||
        !b->env_error || !b->level_seed || !b->elapsed_steps)
        return jg_pool_fail(pool, JG_ERR_ARGUMENT, "every buffer except final_obs must be given");
    int finals = (b->final_obs != NULL) + (b->final_obs_valid != NULL) + (b->final_score != NULL) +
                 (b->final_lives != NULL) + (b->final_game_state != NULL) +
                 (b->final_level_seed != NULL) + (b->final_elapsed_steps != NULL);
    if (finals != 0 && finals != 7)
        return jg_pool_fail(pool, JG_ERR_ARGUMENT,
                            "final_obs, final_obs_valid and the final_* infos go together");
    for (uint32_t i = 0; i < pool->config.num_actions && !b->pointer; i++)
        if (pool->actions[i].pointer == JG_POINTER_INPUT)
            return jg_pool_fail(pool, JG_ERR_ARGUMENT,
                                "the action table reads the pointer buffer: pointer must be given");
    pthread_mutex_lock(&pool->mutex);
    int busy = pool->jobs_submitted != pool->jobs_received;
    if (!busy) {
        pool->buffers = *b;
        pool->has_buffers = 1;
    }
    pthread_mutex_unlock(&pool->mutex);
    if (busy) return jg_pool_fail(pool, JG_ERR_STATE, "cannot change buffers while a job is in flight");
    return JG_OK;
}

int32_t jg_pool_reset(jg_pool *pool, const uint32_t *env_ids, const uint32_t *seeds, uint32_t n) {
    if (!pool->has_buffers)
        return jg_pool_fail(pool, JG_ERR_STATE, "set_buffers() must come before reset()");
    return jg_sched_run(pool, JG_JOB_RESET, env_ids, (const int32_t *)seeds, n);
}

int32_t jg_pool_send(jg_pool *pool, const int64_t *actions, const uint32_t *env_ids, uint32_t n) {
    if (!pool->has_buffers)
        return jg_pool_fail(pool, JG_ERR_STATE, "set_buffers() must come before send()");
    if (n > pool->config.num_envs)
        return jg_pool_fail(pool, JG_ERR_ARGUMENT, "a job lists %u envs: the pool has %u", n,
                            pool->config.num_envs);
    /* int64 in, so that no caller has to check that its actions fit 32 bits */
    for (uint32_t k = 0; k < n; k++) {
        if (actions[k] < 0 || actions[k] >= (int64_t)pool->config.num_actions)
            return jg_pool_fail(pool, JG_ERR_ARGUMENT, "actions must be within [0, %u), got %lld for env %u",
                                pool->config.num_actions, (long long)actions[k], env_ids[k]);
        pool->send_actions[k] = (int32_t)actions[k];
    }
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = jg_sched_submit_locked(pool, JG_JOB_STEP, env_ids, pool->send_actions, n);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

int32_t jg_pool_recv(jg_pool *pool, uint32_t *env_ids_out, uint32_t *n_out, uint32_t *flags_out) {
    pthread_mutex_lock(&pool->mutex);
    int32_t rc = jg_sched_wait_oldest_locked(pool, env_ids_out, n_out, flags_out);
    pthread_mutex_unlock(&pool->mutex);
    return rc;
}

const jg_error *jg_pool_env_error(jg_pool *pool, uint32_t env) {
    if (env >= pool->config.num_envs) {
        jg_pool_fail(pool, JG_ERR_ARGUMENT, "env id %u out of range: the pool has %u envs", env,
                     pool->config.num_envs);
        return &pool->last_error;
    }
    return &pool->slots[env].error;
}

const jg_error *jg_pool_last_error(jg_pool *pool) { return &pool->last_error; }

const char *jg_pool_eval(jg_pool *pool, uint32_t env, const char *code, size_t code_len) {
    if (env >= pool->config.num_envs) {
        jg_pool_fail(pool, JG_ERR_ARGUMENT, "env id out of range");
        return NULL;
    }
    pool->eval_code = code;
    pool->eval_len = code_len;
    pool->eval_result = NULL;
    int32_t rc = jg_sched_run(pool, JG_JOB_EVAL, &env, NULL, 1);
    pool->eval_code = NULL;
    return rc ? NULL : pool->eval_result;
}

int32_t jg_pool_profile(jg_pool *pool, uint32_t env, jg_profile *out) {
    if (env >= pool->config.num_envs) return JG_ERR_ARGUMENT;
    if (pool->game_free != jg_qjs_game_free) {
        memset(out, 0, sizeof *out);
        return JG_OK;
    }
    return jg_qjs_profile(pool->game.user, env, out);
}
