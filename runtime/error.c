/* Filling jg_error records: the one place failures become fields. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "jsgym_contract.h"

void jg_error_clear(jg_error *err, int32_t env) {
    err->kind = JG_OK;
    err->phase = JG_PHASE_NONE;
    err->env = env;
    err->step = -1;
    err->file[0] = err->message[0] = err->stack[0] = '\0';
    err->line = err->column = 0;
}

int32_t jg_error_set(jg_error *err, int32_t kind, int32_t phase, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->kind = kind;
    err->phase = phase;
    err->file[0] = err->stack[0] = '\0';
    err->line = err->column = 0;
    return kind;
}

void jg_error_copy(char *field, size_t cap, const char *text) {
    size_t n = text ? strlen(text) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(field, text, n);
    field[n] = '\0';
}

const char *jg_phase_text(int32_t phase) {
#define JG_PHASE_TEXT(name, text) case JG_PHASE_##name: return text;
    switch (phase) { JG_PHASES(JG_PHASE_TEXT) }
#undef JG_PHASE_TEXT
    return "?";
}
