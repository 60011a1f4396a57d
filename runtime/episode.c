/* The episode rules, once for every game kind: what a reset and a step of one env do
 * on top of the game interface (jg_game: create, destroy, alive, reset, step, eval),
 * and what they write into the caller's buffers at the env's index.
 *
 *   reset(seed):  [re-create a broken env] -> level seed -> game.reset -> infos
 *   step(action): broken?       -> report its failure again (on_error = raise)
 *                 needs a reset? -> start the next episode (NEXT_STEP autoreset)
 *                 game.step -> reward = score delta, terminated = state != playing,
 *                 truncated = the step limit -> infos, episode stats ->
 *                 autoreset (NEXT_STEP: at the next step; SAME_STEP: now, the last
 *                 frame to final_obs; DISABLED: never)
 *   a failure:    raise: the env stays broken until reset;
 *                 reset: the episode ends as truncated, the env is created again and
 *                 starts the next episode as an autoreset would.
 *
 * Level seeds: reset(seed=s) uses s and starts the env's splitmix64 stream at s; every
 * other episode takes the stream's next output (the level split maps both into
 * [start_level, start_level + num_levels)). Everything here runs on the thread the
 * scheduler gave the env for this job; nothing here knows threads or QuickJS.
 */
#include <math.h>
#include <string.h>

#include "error.h"
#include "pool.h"

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += JG_SPLITMIX64_GAMMA);
    z = (z ^ (z >> 30)) * JG_SPLITMIX64_MIX1;
    z = (z ^ (z >> 27)) * JG_SPLITMIX64_MIX2;
    return z ^ (z >> 31);
}

static uint32_t level_of(const jg_pool *pool, uint32_t raw) {
    if (!pool->config.num_levels) return raw;
    return pool->config.start_level + raw % pool->config.num_levels;
}

static uint32_t next_level(jg_pool *pool, jg_slot *slot) {
    return level_of(pool, (uint32_t)splitmix64(&slot->seed_stream));
}

static uint8_t *obs_slot(jg_pool *pool, uint8_t *base, uint32_t id) {
    return base + (size_t)id * pool->obs_bytes;
}

/* A failed game call: the record gets the env and the step. */
static int32_t failed(jg_slot *slot, int32_t rc) {
    slot->error.env = (int32_t)slot->id;
    slot->error.step = slot->elapsed;
    slot->error.kind = rc;
    return rc;
}

static void write_infos(jg_pool *pool, jg_slot *slot) {
    jg_buffers *b = &pool->buffers;
    uint32_t i = slot->id;
    b->score[i] = slot->state.score;
    b->lives[i] = slot->state.lives;
    b->game_state[i] = slot->state.game_state;
    b->level_seed[i] = slot->level_seed;
    b->elapsed_steps[i] = slot->elapsed;
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

static void end_episode(jg_pool *pool, jg_slot *slot) {
    jg_buffers *b = &pool->buffers;
    b->episode_done[slot->id] = 1;
    b->episode_return[slot->id] = slot->episode_return;
    b->episode_length[slot->id] = (int32_t)slot->elapsed;
}

static void keep_final_obs(jg_pool *pool, jg_slot *slot) {
    jg_buffers *b = &pool->buffers;
    if (!b->final_obs) return;
    uint32_t i = slot->id;
    memcpy(obs_slot(pool, b->final_obs, i), obs_slot(pool, b->obs, i), pool->obs_bytes);
    b->final_obs_valid[i] = 1;
    /* the infos go with the frame: the next episode's start overwrites the env's own */
    b->final_score[i] = b->score[i];
    b->final_lives[i] = b->lives[i];
    b->final_game_state[i] = b->game_state[i];
    b->final_level_seed[i] = b->level_seed[i];
    b->final_elapsed_steps[i] = b->elapsed_steps[i];
}

int32_t jg_episode_create(jg_pool *pool, jg_slot *slot) {
    slot->elapsed = 0;
    slot->has_episode = 0;
    int32_t rc = pool->game.create(pool->game.user, slot->id, &slot->error);
    slot->broken = rc != JG_OK;
    return rc ? failed(slot, rc) : JG_OK;
}

void jg_episode_destroy(jg_pool *pool, jg_slot *slot) {
    pool->game.destroy(pool->game.user, slot->id);
    slot->has_episode = 0;
    slot->broken = 1;
}

/* Destroys and re-creates an env, keeping the record of the failure that caused it. */
static int32_t recreate(jg_pool *pool, jg_slot *slot) {
    jg_error saved = slot->error;
    jg_episode_destroy(pool, slot);
    int32_t rc = jg_episode_create(pool, slot);
    if (rc == JG_OK) slot->error = saved;
    return rc;
}

static int32_t start_episode(jg_pool *pool, jg_slot *slot, uint32_t level_seed) {
    slot->elapsed = 0;
    slot->level_seed = level_seed;
    int32_t rc = pool->game.reset(pool->game.user, slot->id, level_seed,
                                  obs_slot(pool, pool->buffers.obs, slot->id), &slot->state,
                                  &slot->error);
    if (rc) return failed(slot, rc);
    slot->has_episode = 1;
    slot->episode_return = 0;
    slot->needs_reset = 0;
    write_infos(pool, slot);
    return JG_OK;
}

/* A failure in env: raise (env stays broken until reset) or, with on_error = reset,
 * end the episode as truncated and start afresh in a new game instance. */
static int32_t fail(jg_pool *pool, jg_slot *slot, int32_t rc) {
    jg_buffers *b = &pool->buffers;
    b->env_error[slot->id] = rc;
    if (pool->config.on_error == JG_ON_ERROR_RAISE) {
        slot->broken = 1;
        return rc;
    }
    b->truncated[slot->id] = 1;
    b->terminated[slot->id] = 0;
    end_episode(pool, slot);
    int32_t again = recreate(pool, slot);
    if (again) return again;
    if (pool->config.autoreset_mode == JG_AUTORESET_NEXT_STEP) {
        slot->needs_reset = 1;
        return JG_OK;
    }
    keep_final_obs(pool, slot);
    int32_t rc2 = start_episode(pool, slot, next_level(pool, slot));
    if (rc2) slot->broken = 1;
    return rc2;
}

int32_t jg_episode_reset(jg_pool *pool, jg_slot *slot, uint32_t seed, int explicit_seed) {
    clear_step_outputs(pool, slot->id);
    if (slot->broken || !pool->game.alive(pool->game.user, slot->id)) {
        int32_t rc = recreate(pool, slot);
        if (rc) return fail(pool, slot, rc);
    }
    uint32_t level;
    if (explicit_seed) {
        slot->seed_stream = seed;
        splitmix64(&slot->seed_stream);
        level = level_of(pool, seed);
    } else {
        level = next_level(pool, slot);
    }
    int32_t rc = start_episode(pool, slot, level);
    return rc ? fail(pool, slot, rc) : JG_OK;
}

/* A button mask from the caller's float: anything but a whole number of JG_BUTTON_*
 * bits (NaN, negative, huge) holds no button; the Python layer checks its input. */
static int32_t button_mask(float v) {
    const int32_t all = JG_BUTTON_LEFT | JG_BUTTON_RIGHT | JG_BUTTON_CENTER;
    return v >= 0 && v <= (float)all ? (int32_t)v & all : 0;
}

int32_t jg_episode_step(jg_pool *pool, jg_slot *slot, int32_t action) {
    jg_buffers *b = &pool->buffers;
    uint32_t i = slot->id;
    clear_step_outputs(pool, i);
    if (slot->broken) {
        b->env_error[i] = slot->error.kind;
        return slot->error.kind;
    }
    if (!slot->has_episode || slot->needs_reset) {
        int32_t rc = start_episode(pool, slot, next_level(pool, slot));
        return rc ? fail(pool, slot, rc) : JG_OK;
    }
    double previous = slot->state.score;
    const jg_action *a = &pool->actions[action];
    jg_action input;
    if (a->pointer == JG_POINTER_INPUT) { /* a continuous pointer: this step's row */
        const float *row = b->pointer + 4 * (size_t)i;
        input = *a;
        input.pointer = JG_POINTER_AT;
        input.x = isfinite(row[0]) ? roundf(row[0]) : 0.0f; /* whole pixels, as a mouse */
        input.y = isfinite(row[1]) ? roundf(row[1]) : 0.0f;
        input.buttons_held = button_mask(row[2]);
        input.buttons_tapped = button_mask(row[3]);
        a = &input;
    }
    int32_t rc = pool->game.step(pool->game.user, i, a, obs_slot(pool, b->obs, i),
                                 &slot->state, &slot->error);
    if (rc) return fail(pool, slot, failed(slot, rc));
    slot->elapsed++;
    double reward = slot->state.score - previous;
    slot->episode_return += reward;
    b->reward[i] = reward;
    int terminated = slot->state.game_state != JG_PLAYING;
    int truncated = !terminated && pool->config.max_episode_steps &&
                    slot->elapsed >= (int64_t)pool->config.max_episode_steps;
    b->terminated[i] = (uint8_t)terminated;
    b->truncated[i] = (uint8_t)truncated;
    write_infos(pool, slot);
    if (!terminated && !truncated) return JG_OK;
    end_episode(pool, slot);
    switch (pool->config.autoreset_mode) {
    case JG_AUTORESET_NEXT_STEP: slot->needs_reset = 1; return JG_OK;
    case JG_AUTORESET_SAME_STEP:
        keep_final_obs(pool, slot);
        rc = start_episode(pool, slot, next_level(pool, slot));
        return rc ? fail(pool, slot, rc) : JG_OK;
    default: return JG_OK;
    }
}

/* eval is a debugging hook: its failure goes to the pool's last error, so that the
 * env's own record (and a broken env's failure) stays as it was. */
int32_t jg_episode_eval(jg_pool *pool, jg_slot *slot) {
    const char *result = NULL;
    jg_error *err = &pool->last_error;
    jg_error_clear(err, (int32_t)slot->id);
    int32_t rc = pool->game.eval(pool->game.user, slot->id, pool->eval_code, pool->eval_len,
                                 &result, err);
    if (rc) {
        err->kind = rc;
        err->env = (int32_t)slot->id;
        err->step = slot->elapsed;
        return rc;
    }
    pool->eval_result = result;
    return JG_OK;
}
