/* Filling jg_error records (include/jsgym.h), shared by the pool and the QuickJS game. */
#ifndef JSGYM_ERROR_H
#define JSGYM_ERROR_H

#include "jsgym.h"

/* No error; env as given (-1: none), step -1. */
void jg_error_clear(jg_error *err, int32_t env);

/* Sets kind, phase and the formatted message (file, line, column and stack are
 * cleared; env and step are left to the pool). Returns kind. */
int32_t jg_error_set(jg_error *err, int32_t kind, int32_t phase, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies text into a record's fixed-size field, cut at the field's end. */
#define JG_ERROR_COPY(field, text) jg_error_copy((field), sizeof(field), (text))
void jg_error_copy(char *field, size_t cap, const char *text);

/* The words messages use for a phase ("draw()"). */
const char *jg_phase_text(int32_t phase);

#endif /* JSGYM_ERROR_H */
