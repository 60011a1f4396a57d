/* jsgym runtime: the whole C ABI between Python and native code.
 *
 * Python (cffi) reads exactly this header; the build strips preprocessor lines before
 * handing it to cffi, so everything between the include guard must stay plain C
 * declarations and integer #defines. The integer constants of the env contract
 * (status codes, phases, game states, modes) are the generated block below: edit
 * contract/contract.json, then run contract/generate.py.
 *
 * Model: a pool owns num_envs environments and num_threads threads: env i's home is
 * thread i % num_threads, and a thread done with its own envs of a step takes the
 * others' remaining ones. Each env runs one game through a narrow game interface
 * (create, reset, step, eval); the pool applies the episode rules (reward, termination,
 * truncation, autoreset, level seeds, on_error) on top of it, the same for every game
 * kind. Two kinds exist: the built-in QuickJS game (jg_pool_create: a JSRuntime +
 * JSContext per env with a JS heap of its own, the p5 shim and the rasterizer), and a
 * hosted game whose interface the caller implements (jg_pool_create_hosted: the
 * browser backend drives a Chromium page per env from Python callbacks). Python owns
 * every buffer: it registers them once with jg_pool_set_buffers and the workers write
 * results into them in place.
 *
 *   send(actions, env_ids) -> job queue -> threads (home shards + stealing)
 *        -> episode rules per env -> game interface -> buffers
 *   recv()                 <- waits for the oldest job still in flight
 *
 * All functions return a JG_* status (0 = ok). On a non-zero status,
 * jg_pool_last_error() tells why. Per-env failures (a JS exception, a timeout, the
 * memory limit) are not a pool error: they are reported per env in env_error and
 * jg_pool_env_error(). Errors are records of fields (jg_error), never text to parse.
 */
#ifndef JSGYM_H
#define JSGYM_H

#include <stddef.h>
#include <stdint.h>

/* contract: begin (written by contract/generate.py from contract/contract.json; do not edit) */
#define JG_ABI_VERSION 6

/* Status codes (jg_error.kind). */
#define JG_OK 0
#define JG_ERR_ARGUMENT 1
#define JG_ERR_LOAD 2
#define JG_ERR_CONTRACT 3
#define JG_ERR_RUNTIME 4
#define JG_ERR_TIMEOUT 5
#define JG_ERR_MEMORY 6
#define JG_ERR_STATE 7
#define JG_ERR_SYSTEM 8

/* Phases: where in the game a failure happened (jg_error.phase). */
#define JG_PHASE_NONE 0
#define JG_PHASE_LOAD 1
#define JG_PHASE_SETUP 2
#define JG_PHASE_RESET 3
#define JG_PHASE_DRAW 4
#define JG_PHASE_KEY 5
#define JG_PHASE_STATE 6
#define JG_PHASE_EVAL 7
#define JG_PHASE_POINTER 8
#define JG_PHASE_RENDER 9
#define JG_PHASE_COMPILE 10

/* game_state values. */
#define JG_PLAYING 0
#define JG_GAMEOVER 1
#define JG_WON 2

/* Modes of jg_config (autoreset_mode: gymnasium.vector.AutoresetMode; obs_fit: the
 * rasterizer's JG_FIT_*). */
#define JG_AUTORESET_NEXT_STEP 0
#define JG_AUTORESET_SAME_STEP 1
#define JG_AUTORESET_DISABLED 2
#define JG_ON_ERROR_RAISE 0
#define JG_ON_ERROR_RESET 1
#define JG_OBS_FIT_STRETCH 0
#define JG_OBS_FIT_LETTERBOX 1

/* What a received job holds, so that the caller can skip scanning its envs:
 * ALL_IN_ORDER: every env, ids 0..num_envs-1 in order; EPISODE_DONE, ENV_ERROR,
 * FINAL_OBS: some env of the job ended an episode, failed, or has a final observation. */
#define JG_RECV_ALL_IN_ORDER 1
#define JG_RECV_EPISODE_DONE 2
#define JG_RECV_ENV_ERROR 4
#define JG_RECV_FINAL_OBS 8

/* Keys held and keys tapped per action; jobs in flight at once. */
#define JG_MAX_KEYS_PER_ACTION 4
#define JG_MAX_JOBS 8

/* Pointer modes of an action (jg_action.pointer) and mouse button bits. */
#define JG_POINTER_NONE 0
#define JG_POINTER_AT 1
#define JG_POINTER_INPUT 2
#define JG_BUTTON_LEFT 1
#define JG_BUTTON_RIGHT 2
#define JG_BUTTON_CENTER 4
/* contract: end */

typedef struct jg_pool jg_pool;

/* Version of this header's declarations; jsgym/_core.py checks it (and the contract
 * digest) before any other call. */
uint32_t jg_abi_version(void);
/* sha256 (hex) of the contract/contract.json the library was built from. */
const char *jg_contract_digest(void);

/* One entry of the action table: up to JG_MAX_KEYS_PER_ACTION key codes held while
 * the action is repeated, and up to JG_MAX_KEYS_PER_ACTION tapped (down for the first
 * frame of the step only). Unused slots are 0. The pointer: JG_POINTER_NONE leaves it
 * where it is; JG_POINTER_AT moves it to (x, y), canvas units (rounded to whole
 * pixels); with either, the JG_BUTTON_* masks are held and tapped as keys are (a held
 * button stays down only while consecutive steps hold it);
 * JG_POINTER_INPUT takes x, y and both masks from the env's row of jg_buffers.pointer
 * at each step (a continuous action; the game interface only ever sees NONE or AT). */
typedef struct jg_action {
    int32_t held[JG_MAX_KEYS_PER_ACTION];
    int32_t tapped[JG_MAX_KEYS_PER_ACTION];
    int32_t pointer;          /* JG_POINTER_* */
    int32_t buttons_held;     /* JG_BUTTON_* mask */
    int32_t buttons_tapped;   /* JG_BUTTON_* mask */
    float x;
    float y;
} jg_action;

typedef struct jg_config {
    const char *game_name;       /* for error messages */
    const char *source;          /* the game file, UTF-8 (QuickJS games) */
    size_t source_len;
    const char *options_json;    /* becomes GAME_OPTIONS; NULL or "" for none */
    uint32_t num_envs;
    uint32_t num_threads;
    uint32_t obs_width;
    uint32_t obs_height;
    uint32_t fit;                /* JG_OBS_FIT_* */
    uint32_t supersample;        /* 1..4 */
    uint32_t frameskip;          /* draw() calls per step, >= 1 */
    uint32_t max_episode_steps;  /* truncation; 0 = none */
    uint32_t autoreset_mode;     /* JG_AUTORESET_* */
    uint32_t on_error;           /* JG_ON_ERROR_* */
    uint64_t memory_limit;       /* bytes per env */
    uint64_t stack_limit;        /* bytes of JS stack per env */
    double step_timeout;         /* seconds per call into the game (setup, reset, one step:
                                    its JS and the rendering of its frames) */
    uint32_t max_draw_calls;     /* per frame */
    uint32_t num_levels;         /* 0 = every seed is its own level */
    uint32_t start_level;
    uint32_t num_actions;
    const jg_action *actions;
    uint32_t profile;            /* 1: time JS, rasterizing and copying per env */
    const char *library;         /* a script every env runs before the game file (the
                                  * optional globals the game uses, e.g. matter-js);
                                  * NULL for none (QuickJS games) */
    size_t library_len;
    double compile_timeout;      /* seconds compiling the game file may take (QuickJS games) */
} jg_config;

/* Caller-owned output buffers, indexed by env id. obs and final_obs are
 * num_envs * obs_height * obs_width * 3 bytes; final_obs and the final_* infos may be
 * NULL (all of them or none) unless the autoreset mode is SAME_STEP. */
typedef struct jg_buffers {
    uint8_t *obs;
    double *reward;
    uint8_t *terminated;
    uint8_t *truncated;
    double *score;
    double *lives;
    int32_t *game_state;
    uint8_t *episode_done;     /* 1 where an episode ended in this step */
    double *episode_return;    /* return of that episode (valid where episode_done) */
    int32_t *episode_length;
    uint8_t *final_obs_valid;  /* SAME_STEP: 1 where final_obs holds the last frame */
    uint8_t *final_obs;
    double *final_score;       /* SAME_STEP, where final_obs_valid: the infos of the step */
    double *final_lives;       /* that ended the episode (score, lives, ... above are then */
    int32_t *final_game_state; /* the next episode's first) */
    uint32_t *final_level_seed;
    int64_t *final_elapsed_steps;
    int32_t *env_error;        /* JG_OK or the JG_ERR_* of this step's failure */
    uint32_t *level_seed;      /* seed of the episode each env is in */
    int64_t *elapsed_steps;    /* steps taken in the current episode */
    const float *pointer;      /* input, num_envs * 4: x, y, held and tapped button masks
                                * of the next step of envs whose action is JG_POINTER_INPUT;
                                * written before send(), read while stepping; NULL when no
                                * action of the table is JG_POINTER_INPUT */
} jg_buffers;

#define JG_ERROR_FILE_CAP 256
#define JG_ERROR_TEXT_CAP 4096

/* A failure, as fields (contract.json "errors.fields" documents each). Python builds
 * its exception from these; nothing parses the message. */
typedef struct jg_error {
    int32_t kind;                     /* JG_ERR_*; JG_OK: none */
    int32_t phase;                    /* JG_PHASE_* */
    int32_t env;                      /* env id; -1: the pool's or the compiler's */
    int64_t step;                     /* steps of the episode before the failing call */
    char file[JG_ERROR_FILE_CAP];     /* syntax errors: where */
    int32_t line;
    int32_t column;
    char message[JG_ERROR_TEXT_CAP];  /* what happened (one line) */
    char stack[JG_ERROR_TEXT_CAP];    /* the JS stack, "" if none */
} jg_error;

/* What a game reports after a reset or a step (getGameState(), read and checked). */
typedef struct jg_state {
    double score;
    double lives;
    int32_t game_state;  /* JG_PLAYING, JG_GAMEOVER, JG_WON */
} jg_state;

/* The game interface of a hosted pool: the caller runs the game of each env; the pool
 * runs the episode rules and the threads. Every function gets `user` and the env id,
 * and may be called from any pool thread, never twice at once for one env. A call
 * that fails returns a JG_ERR_* and fills *err's kind, phase, message (and stack,
 * file, line, column when it knows them); the pool fills env and step.
 *   create:  make env's game and run its setup (again after a failure, on_error reset)
 *   destroy: drop env's game (also after a failed create)
 *   alive:   1 if env's game can run (0: create it again before the next reset)
 *   reset:   start an episode with level seed `seed` (resetGame(seed), one frame);
 *            write the frame (obs_height x obs_width x 3 bytes) and the state
 *   step:    one step of `action` (key events, frameskip frames); write frame and state
 *   eval:    evaluate JS in env's global scope; *result = its JSON text, valid until
 *            the next call for that env */
typedef struct jg_game {
    void *user;
    int32_t (*create)(void *user, uint32_t env, jg_error *err);
    void (*destroy)(void *user, uint32_t env);
    int32_t (*alive)(void *user, uint32_t env);
    int32_t (*reset)(void *user, uint32_t env, uint32_t seed, uint8_t *obs, jg_state *state,
                     jg_error *err);
    int32_t (*step)(void *user, uint32_t env, const jg_action *action, uint8_t *obs,
                    jg_state *state, jg_error *err);
    int32_t (*eval)(void *user, uint32_t env, const char *code, size_t len, const char **result,
                    jg_error *err);
} jg_game;

/* Compiles the game once, creates num_envs envs in parallel (each runs the game's
 * top level and setup()), and starts the worker threads. On failure returns NULL and
 * writes a status to *status and the failure to jg_last_create_error(). */
jg_pool *jg_pool_create(const jg_config *config, int32_t *status);

/* A pool over a hosted game (see jg_game; config->source and the QuickJS limits are
 * not used). *game is copied; its functions must stay callable until
 * jg_pool_destroy returns. */
jg_pool *jg_pool_create_hosted(const jg_config *config, const jg_game *game, int32_t *status);

/* The failure of the last jg_pool_create* on this thread. */
const jg_error *jg_last_create_error(void);

/* Stops the threads and frees every env. Safe on NULL. */
void jg_pool_destroy(jg_pool *pool);

int32_t jg_pool_set_buffers(jg_pool *pool, const jg_buffers *buffers);

/* Starts an episode in each listed env: level seed from seeds[k] (and the level
 * split), then resetGame(seed) and one draw(); writes obs and infos. Waits.
 * seeds == NULL: each env takes the next seed of its own seed stream, as an
 * autoreset does. */
int32_t jg_pool_reset(jg_pool *pool, const uint32_t *env_ids, const uint32_t *seeds, uint32_t n);

/* Queues one step for the listed envs (actions[k] for env_ids[k]) and returns at
 * once. At most JG_MAX_JOBS jobs may be in flight; an env may not be in two of them. */
int32_t jg_pool_send(jg_pool *pool, const int64_t *actions, const uint32_t *env_ids, uint32_t n);

/* Waits for the oldest job in flight; copies its env ids into env_ids_out (room for
 * num_envs), its length into *n_out and its JG_RECV_* flags into *flags_out (may be
 * NULL). Returns the worst status of that job's envs when on_error is RAISE (JG_OK
 * otherwise). */
int32_t jg_pool_recv(jg_pool *pool, uint32_t *env_ids_out, uint32_t *n_out, uint32_t *flags_out);

/* The last failure of env `env` (kind JG_OK if none); valid until its next job. */
const jg_error *jg_pool_env_error(jg_pool *pool, uint32_t env);

/* The last pool-level failure (a bad argument or a call out of order). */
const jg_error *jg_pool_last_error(jg_pool *pool);

/* Debug/test hook: evaluates `code` as a script in env `env`'s context (global
 * scope) and returns the JSON text of its completion value, or NULL with
 * jg_pool_env_error set. Must not be called while a job is in flight. The string
 * lives until the next call. */
const char *jg_pool_eval(jg_pool *pool, uint32_t env, const char *code, size_t code_len);

/* Per-env counters for the profiler: nanoseconds spent in JS (game logic and p5
 * calls), in rasterizing and copying, and p5 calls made, summed since creation
 * (QuickJS games; zero for hosted ones). */
typedef struct jg_profile {
    uint64_t frames;
    uint64_t js_ns;
    uint64_t raster_ns;
    uint64_t copy_ns;
    uint64_t p5_calls;
    uint64_t frames_rasterized;
} jg_profile;

int32_t jg_pool_profile(jg_pool *pool, uint32_t env, jg_profile *out);

/* Installs the process's fonts (every pool draws text with them): n compiled face
 * tables and n_families family names with the faces of their four styles, and each
 * face's two fallback faces (UINT32_MAX: none), as
 * jsgym/fonts.py builds them; see jg_raster_install_fonts in jsgym_raster.h. Returns
 * JG_OK, or JG_ERR_ARGUMENT for a malformed set or one that differs from the set
 * installed already. */
int32_t jg_install_fonts(const uint8_t *const *data, const size_t *lens, uint32_t n,
                         const char *const *names, const uint32_t *faces, uint32_t n_families,
                         uint32_t standard, const uint32_t *fallbacks);

/* Loads FreeType from `library` (a path or soname) with the n font files behind the
 * installed face tables (their bytes, in the same order), and from then on hints the
 * glyphs text is drawn with as Chromium does (see jg_raster_set_hinter). Once per
 * process; returns JG_OK, JG_ERR_ARGUMENT for bad arguments or unreadable files, or
 * JG_ERR_SYSTEM when FreeType is unavailable (text stays unhinted; jg_hinting_error()
 * says why). */
int32_t jg_install_hinting(const char *library, const uint8_t *const *files, const size_t *lens,
                           uint32_t n);
const char *jg_hinting_error(void);

/* Name of the QuickJS engine compiled in ("bellard 2025-09-13" or "quickjs-ng ..."). */
const char *jg_engine_name(void);

#endif /* JSGYM_H */
