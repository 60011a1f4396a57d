/* p5 keyboard input: keyIsDown() and the key events the runtime feeds through
 * p5shim_key_event(), replaying p5 1.11's _onkeydown / _onkeypress / _onkeyup:
 *
 *   keydown (not a repeat): keyIsPressed = isKeyPressed = true, keyCode = which,
 *           key = KeyboardEvent.key, then keyPressed(event)
 *   keypress (printable keys and Enter only, as a browser fires it): key = e.key,
 *           then keyTyped(event); keyCode is not touched
 *   keyup:  keyIsPressed = isKeyPressed = false (even if other keys are still down,
 *           as in p5 1.x), keyCode and key keep their values, then keyReleased(event)
 *
 * KeyboardEvent.key is what a US layout without modifiers gives: letters are
 * lower case ('a' for 65), ' ' for 32, 'ArrowLeft' for 37, 'Enter' for 13, ...
 */
#include "p5_internal.h"

/* KeyboardEvent.key and the keypress char code of every key code (0: no keypress),
 * from the contract's key table (contract/contract.json "keys.events"). */
typedef struct { const char *key; int typed; } P5KeyName;
#define P5_KEY_NAME(code, key, typed, dom_code) [code] = {key, typed},
static const P5KeyName p5_key_names[256] = {JG_KEY_EVENTS(P5_KEY_NAME)};
#undef P5_KEY_NAME

/* KeyboardEvent.key of a key code (0 <= code < 256) as a JS string, kept for the
 * next event of that key; JS_EXCEPTION when it cannot be made. */
static JSValue p5_key_name(P5Shim *s, int code)
{
    if (JS_IsUndefined(s->key_names[code])) {
        const char *key = p5_key_names[code].key;
        s->key_names[code] = JS_NewString(s->ctx, key ? key : JG_KEY_UNKNOWN);
        if (JS_IsException(s->key_names[code])) {
            s->key_names[code] = JS_UNDEFINED;
            return JS_EXCEPTION;
        }
    }
    return JS_DupValue(s->ctx, s->key_names[code]);
}

static JSValue js_p5_prevent_default(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    return JS_UNDEFINED;
}

static const int p5_key_event_fields[9] = {
    P5_ATOM_type, P5_ATOM_key, P5_ATOM_keyCode, P5_ATOM_which, P5_ATOM_repeat,
    P5_ATOM_shiftKey, P5_ATOM_ctrlKey, P5_ATOM_altKey, P5_ATOM_metaKey,
};

/* An object with the shared prototype and `vals` as the event's fields (all nine, or
 * the first `n` with the rest left out); takes ownership of vals[0..n). */
static JSValue p5_key_event_with(P5Shim *s, JSValue *vals, int n)
{
    JSContext *ctx = s->ctx;
    JSValue e = JS_NewObjectProto(ctx, s->key_event_proto);
    int i = 0;
    if (!JS_IsException(e))
        for (; i < n; i++)
            if (JS_DefinePropertyValue(ctx, e, s->atoms[p5_key_event_fields[i]], vals[i], JS_PROP_C_W_E) < 0) {
                i++;
                break;
            }
    if (JS_IsException(e) || i < n || JS_HasException(ctx)) {
        for (; i < n; i++) JS_FreeValue(ctx, vals[i]);
        JS_FreeValue(ctx, e);
        return JS_EXCEPTION;
    }
    return e;
}

/* A minimal KeyboardEvent-like object for the callbacks. Its fields are defined through
 * the shim's atoms on an object with a shared prototype (which holds preventDefault, as
 * KeyboardEvent.prototype does), with the shapes of every stage kept alive: a step with
 * a key change makes one or two of these, and name lookups, a function object and new
 * shapes per event were a visible part of a small game's step. */
static JSValue p5_key_event_object(P5Shim *s, const char *type, int key_code, int which)
{
    JSContext *ctx = s->ctx;
    if (JS_IsUndefined(s->key_event_proto)) {
        JSValue proto = JS_NewObject(ctx);
        if (JS_IsException(proto)) return proto;
        if (JS_DefinePropertyValueStr(ctx, proto, "preventDefault",
                                      JS_NewCFunction(ctx, js_p5_prevent_default, "preventDefault", 0),
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0) {
            JS_FreeValue(ctx, proto);
            return JS_EXCEPTION;
        }
        s->key_event_proto = proto;
        for (int n = 1; n <= 9; n++) {
            JSValue none[9] = { JS_FALSE, JS_FALSE, JS_FALSE, JS_FALSE, JS_FALSE,
                                JS_FALSE, JS_FALSE, JS_FALSE, JS_FALSE };
            JSValue stage = p5_key_event_with(s, none, n);
            if (JS_IsException(stage)) return stage;
            s->key_event_stages[n - 1] = stage;
        }
    }
    JSValue vals[9] = { JS_NewString(ctx, type), p5_key_name(s, key_code), JS_NewInt32(ctx, key_code),
                        JS_NewInt32(ctx, which), JS_FALSE, JS_FALSE, JS_FALSE, JS_FALSE, JS_FALSE };
    return p5_key_event_with(s, vals, 9);
}

/* Calls global[atom](event) if it is a function. */
static int p5_call_handler(P5Shim *s, int atom, const char *type, int key_code, int which)
{
    JSContext *ctx = s->ctx;
    JSValue f = JS_GetProperty(ctx, s->global, s->atoms[atom]);
    if (JS_IsException(f)) return -1;
    if (!JS_IsFunction(ctx, f)) {
        JS_FreeValue(ctx, f);
        return 0;
    }
    JSValue e = p5_key_event_object(s, type, key_code, which);
    if (JS_IsException(e)) {
        JS_FreeValue(ctx, f);
        return -1;
    }
    JSValue r = JS_Call(ctx, f, s->global, 1, (JSValueConst *)&e);
    JS_FreeValue(ctx, e);
    JS_FreeValue(ctx, f);
    if (JS_IsException(r)) return -1;
    JS_FreeValue(ctx, r);
    return 0;
}

static int p5_set_global(P5Shim *s, int atom, JSValue v)
{
    return JS_SetProperty(s->ctx, s->global, s->atoms[atom], v) < 0 ? -1 : 0;
}

int p5shim_key_event(P5Shim *s, int32_t key_code, int down)
{
    JSContext *ctx = s->ctx;
    if (key_code < 0 || key_code > 255) return 0;
    int press_code = p5_key_names[key_code].typed;
    if (down) {
        if (s->down[key_code]) return 0; /* a repeat: p5 ignores it */
        s->down[key_code] = 1;
        if (p5_set_global(s, P5_ATOM_isKeyPressed, JS_TRUE) ||
            p5_set_global(s, P5_ATOM_keyIsPressed, JS_TRUE) ||
            p5_set_global(s, P5_ATOM_keyCode, JS_NewInt32(ctx, key_code)) ||
            p5_set_global(s, P5_ATOM_key, p5_key_name(s, key_code)))
            return -1;
        if (p5_call_handler(s, P5_ATOM_keyPressed, "keydown", key_code, key_code)) return -1;
        if (press_code) {
            s->last_key_code_typed = press_code;
            if (p5_set_global(s, P5_ATOM_key, p5_key_name(s, key_code))) return -1;
            if (p5_call_handler(s, P5_ATOM_keyTyped, "keypress", press_code, press_code)) return -1;
        }
        return 0;
    }
    if (!s->down[key_code]) return 0;
    s->down[key_code] = 0;
    if (p5_set_global(s, P5_ATOM_isKeyPressed, JS_FALSE) ||
        p5_set_global(s, P5_ATOM_keyIsPressed, JS_FALSE))
        return -1;
    return p5_call_handler(s, P5_ATOM_keyReleased, "keyup", key_code, key_code);
}

void p5shim_release_all_keys(P5Shim *s)
{
    int any = 0;
    for (int i = 0; i < 256; i++) {
        any |= s->down[i];
        s->down[i] = 0;
    }
    /* as after p5's keyup handling, without the callback */
    if (any) {
        p5_set_global(s, P5_ATOM_isKeyPressed, JS_FALSE);
        p5_set_global(s, P5_ATOM_keyIsPressed, JS_FALSE);
    }
}

/* ------------------------------------------------------------------ the pointer */

/* Calls prelude_input.js's helper k with argc numbers; 0, or -1 with a pending
 * exception. *used (if given) gets the helper's truthiness. */
static int p5_pointer_call(P5Shim *s, int k, int argc, const double *args, int *used)
{
    JSContext *ctx = s->ctx;
    JSValue argv[5];
    for (int i = 0; i < argc; i++) argv[i] = JS_NewFloat64(ctx, args[i]);
    JSValue r = JS_Call(ctx, s->js_pointer[k], JS_UNDEFINED, argc, argv);
    if (JS_IsException(r)) return -1;
    if (used) *used = JS_ToBool(ctx, r);
    JS_FreeValue(ctx, r);
    return 0;
}

int p5shim_pointer_step(P5Shim *s, int at, double x, double y, int32_t held, int32_t tapped)
{
    if (!at && !held && !tapped && !s->pointer_used) return 0; /* keyboard games: no JS call */
    double args[5] = {at ? 1 : 0, x, y, held, tapped};
    int used = 0;
    if (p5_pointer_call(s, P5_POINTER_STEP, 5, args, &used)) return -1;
    s->pointer_used |= used;
    return 0;
}

int p5shim_pointer_release_taps(P5Shim *s, int32_t held, int32_t tapped)
{
    if (!tapped) return 0;
    double args[2] = {held, tapped};
    return p5_pointer_call(s, P5_POINTER_RELEASE_TAPS, 2, args, NULL);
}

int p5shim_pointer_frame_end(P5Shim *s)
{
    return s->pointer_used ? p5_pointer_call(s, P5_POINTER_FRAME_END, 0, NULL, NULL) : 0;
}

int p5shim_pointer_reset(P5Shim *s)
{
    if (!s->pointer_used) return 0;
    s->pointer_used = 0;
    return p5_pointer_call(s, P5_POINTER_RESET, 0, NULL, NULL);
}

static JSValue js_p5_key_is_down(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double d;
    s->calls++;
    if (argc < 1) return JS_FALSE;
    if (p5_num(ctx, &d, argv[0])) return JS_EXCEPTION;
    if (!(d >= 0 && d <= 255) || d != floor(d)) return JS_FALSE;
    return JS_NewBool(ctx, s->down[(int)d]);
}

#define CF JS_PROP_CONFIGURABLE | JS_PROP_WRITABLE
static const JSCFunctionListEntry p5_input_funcs[] = {
    JS_CFUNC_DEF("keyIsDown", 1, js_p5_key_is_down),
    JS_PROP_INT32_DEF("keyCode", 0, CF),
    JS_PROP_STRING_DEF("key", "", CF),
};

int p5_install_input(JSContext *ctx, JSValueConst global)
{
    if (JS_SetPropertyFunctionList(ctx, global, p5_input_funcs,
                                   (int)(sizeof p5_input_funcs / sizeof p5_input_funcs[0])) < 0)
        return -1;
    if (JS_DefinePropertyValueStr(ctx, global, "keyIsPressed", JS_FALSE, CF) < 0) return -1;
    if (JS_DefinePropertyValueStr(ctx, global, "isKeyPressed", JS_FALSE, CF) < 0) return -1;
    return 0;
}
