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

/* The own property values of `obj`, in order, when it is a plain object with the very
 * shape of `model` (a plain object of data properties, as engine_new_object_like takes
 * it, kept by the caller and never handed to JavaScript; `obj` then has the same
 * prototype and the same properties in the same order with the same flags: made by
 * engine_new_object_like from it, or given the same properties one by one), to read
 * and write in place; else NULL (always in quickjs-ng builds). A value
 * written in place must be freed by the caller once replaced. Valid until JavaScript
 * code next runs. */
JSValue *engine_own_values_like(JSValueConst obj, JSValueConst model);

/* Whether `proto` lies on the prototype chain of `v` (what instanceof walks): 1 or 0,
 * read without calling anything; -1 where only the API can say (a proxy on the way,
 * `v` not an object, or quickjs-ng builds). */
int engine_inherits(JSValueConst v, JSValueConst proto);

/* Whether the string `v` (a flat string, not a rope) holds the ASCII text `s[0..n)`: 1
 * or 0, read in place (no UTF-8 copy); -1 where only the API can say (a rope, not a
 * string, or quickjs-ng builds). */
int engine_string_equals_ascii(JSValueConst v, const char *s, size_t n);

/* Lazy properties: own data properties whose values are made on first access, from
 * bytes the host gave when it made the object. Until then they cost no allocation; any
 * access through JavaScript (get, set, define, delete, getOwnPropertyDescriptor,
 * Object.keys and the like see them as they are: data properties in their place) makes
 * all of an object's lazy properties at once, and the object then has the same shape as
 * one made by engine_new_object_like from the plain model. The host reads the bytes
 * directly while the properties are untouched (engine_lazy_payload): what the
 * properties would hold is a function of them. */
#define ENGINE_LAZY_MAX_PROPS 16

/* The value of the lazy property `atom` from the object's `payload`: a new value, or
 * JS_EXCEPTION (the property then stays lazy). */
typedef JSValue EngineLazyValue(JSContext *ctx, const void *payload, JSAtom atom);

/* A model for engine_new_object_lazy: the prototype and properties of `plain` (as
 * engine_new_object_like takes it, at most ENGINE_LAZY_MAX_PROPS), those whose bit is
 * set in `lazy_mask` lazy. JS_UNDEFINED where `plain` does not qualify or the engine
 * cannot (quickjs-ng builds). Never to be handed to JavaScript. */
JSValue engine_new_lazy_model(JSContext *ctx, JSValueConst plain, uint32_t lazy_mask);

/* A new object like engine_new_object_like(plain_model, vals, n) makes, whose
 * properties that are lazy in `lazy_model` (made from plain_model) are made by
 * `value` from a copy of payload[0..size) when first accessed; `vals` holds the other
 * properties' values and is taken whole (the lazy entries are freed). JS_UNDEFINED,
 * having taken nothing, where the models do not match or the engine cannot. */
JSValue engine_new_object_lazy(JSContext *ctx, JSValueConst lazy_model, JSValueConst plain_model,
                               JSValue *vals, int n, EngineLazyValue *value, const void *payload,
                               size_t size);

/* Makes `obj` into the object engine_new_object_like(model, vals, n) would make, in
 * place, where the caller's reference is the only one (no variable, property or weak
 * reference holds it) and it still has the model's shape and is extensible. Returns 1
 * having taken `vals` whole; 0, having taken nothing, otherwise (and always on
 * quickjs-ng builds). */
int engine_reuse_object_like(JSContext *ctx, JSValueConst obj, JSValueConst model, JSValue *vals, int n);

/* Makes `obj`, an object engine_new_object_lazy made from the same models, `value` and
 * payload size, into the object engine_new_object_lazy(lazy_model, plain_model, vals,
 * n, value, payload, size) would make, in place: where the caller's reference is the
 * only one (no JavaScript can tell it from a new object: no variable, property or
 * weak reference holds it) and the object is as it was made (its shape, every lazy
 * property still lazy, extensible). Returns 1 having taken `vals` whole; 0, having
 * taken nothing, otherwise (and always on quickjs-ng builds). What a host that makes
 * many short-lived objects (a colour per call in a loop) keeps a few of its last ones
 * for, instead of allocating and freeing one each time. */
int engine_reuse_object_lazy(JSContext *ctx, JSValueConst obj, JSValueConst lazy_model,
                             JSValueConst plain_model, JSValue *vals, int n, EngineLazyValue *value,
                             const void *payload, size_t size);

/* The payload of `obj` while its own property number `index`, named `atom`, is still
 * lazy; else NULL. Valid until JavaScript code next runs. The host may write it (a
 * cache of what it derives from it) as long as `value` still makes the same values. */
void *engine_lazy_payload(JSValueConst obj, int index, JSAtom atom);

#endif
