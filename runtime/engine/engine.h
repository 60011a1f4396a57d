/* Object constructors compiled into the QuickJS unit (runtime/engine/quickjs_unit.c). */
#ifndef JSGYM_ENGINE_H
#define JSGYM_ENGINE_H

#include "quickjs.h"

/* A new plain object with the prototype and the own properties, in order, of `model`
 * (a plain object whose properties are all writable, enumerable, configurable data
 * properties, as p5_make_stages makes them), their values `vals[0..n)`, which it takes.
 * JS_UNDEFINED, having taken nothing, when `model` does not qualify or the engine
 * cannot (quickjs-ng builds): the caller then defines the properties itself. */
JSValue engine_new_object_like(JSContext *ctx, JSValueConst model, JSValue *vals, int n);

/* A new array of `vals[0..n)`, which it takes; JS_UNDEFINED, having taken nothing,
 * where the engine cannot. */
JSValue engine_new_array_from(JSContext *ctx, JSValue *vals, int n);

/* When `v` is an array stored densely (no holes, no accessors: what array literals and
 * the constructors above make), sets *vals to its elements and *n to its length and
 * returns 1; else (or where the engine cannot tell: quickjs-ng builds) returns 0. The
 * elements are borrowed, valid until JS code next runs. */
int engine_fast_array(JSContext *ctx, JSValueConst v, JSValue **vals, uint32_t *n);

#endif
