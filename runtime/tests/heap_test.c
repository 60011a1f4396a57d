/* Tests of the per-env JS heap (runtime/heap.c), built with ASan/UBSan:
 *   make -f runtime/tests/Makefile.heap check          (from the repo root)
 * Exits non-zero on the first failed check. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* heap.c holds off hard stops around libc calls; no stop ever comes here */
__thread jg_guard *jg_tl_guard;
void jg_guard_jump(jg_guard *g) {
    (void)g;
    abort();
}

static int failures;
#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
            failures++;                                                           \
        }                                                                         \
    } while (0)

static jg_heap new_heap(size_t limit) {
    jg_heap h;
    memset(&h, 0, sizeof h);
    h.limit = limit;
    return h;
}

static void alignment_and_usable_size(void) {
    jg_heap h = new_heap(64u << 20);
    for (size_t n = 0; n <= 9000; n += (n < 600 ? 1 : 37)) {
        unsigned char *p = jg_heap_malloc(&h, n);
        CHECK(p != NULL, "malloc(%zu)", n);
        CHECK((uintptr_t)p % 16 == 0, "malloc(%zu) = %p is not 16-byte aligned", n, (void *)p);
        size_t usable = jg_heap_usable_size(p);
        CHECK(usable >= n, "usable %zu < %zu", usable, n);
        CHECK(usable < n + 16 || n > 512 - 8, "usable %zu wastes too much for %zu", usable, n);
        memset(p, 0xab, usable); /* ASan: the whole usable size is ours */
        jg_heap_free(&h, p);
    }
    CHECK(h.live == 0, "live %zu after freeing everything", h.live);
    jg_heap_release(&h);
}

static void freed_blocks_are_reused(void) {
    jg_heap h = new_heap(64u << 20);
    void *a = jg_heap_malloc(&h, 40);
    jg_heap_free(&h, a);
    void *b = jg_heap_malloc(&h, 33); /* same size class */
    CHECK(a == b, "a freed block of the class is reused (%p, %p)", a, b);
    jg_heap_free(&h, b);
    size_t reserved = h.reserved;
    for (int round = 0; round < 1000; round++) {
        void *ps[64];
        for (int i = 0; i < 64; i++) ps[i] = jg_heap_malloc(&h, (size_t)(i * 61 % 3000));
        for (int i = 0; i < 64; i++) jg_heap_free(&h, ps[i]);
    }
    CHECK(h.reserved <= reserved + (1u << 20), "churn grew the heap from %zu to %zu", reserved,
          h.reserved);
    CHECK(h.live == 0, "live %zu", h.live);
    jg_heap_release(&h);
}

static void realloc_keeps_contents(void) {
    jg_heap h = new_heap(64u << 20);
    size_t sizes[] = {1, 24, 25, 500, 513, 4000, 4088, 4089, 10000, 100000, 7000, 3000, 8, 0};
    unsigned char *p = jg_heap_malloc(&h, 1);
    p[0] = 7;
    size_t have = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        unsigned char *q = jg_heap_realloc(&h, p, n ? n : 1);
        CHECK(q != NULL, "realloc to %zu", n);
        size_t keep = have < n ? have : n;
        for (size_t k = 0; k < keep; k++)
            if (q[k] != (unsigned char)(k * 7 + 7)) {
                CHECK(0, "byte %zu lost growing/shrinking to %zu", k, n);
                break;
            }
        for (size_t k = 0; k < (n ? n : 1); k++) q[k] = (unsigned char)(k * 7 + 7);
        p = q;
        have = n ? n : 1;
    }
    jg_heap_free(&h, p);
    CHECK(h.live == 0, "live %zu after realloc chain", h.live);
    CHECK(h.reserved >= 64u << 10, "chunks are still held (%zu)", h.reserved);
    jg_heap_release(&h);
    CHECK(h.reserved == 0 && h.chunks == NULL, "release empties the heap");
}

/* Random blocks, each filled with a pattern of its own: overlapping blocks would
 * overwrite each other's pattern. */
static void random_blocks_do_not_overlap(void) {
    jg_heap h = new_heap(256u << 20);
    enum { SLOTS = 2000 };
    unsigned char *ps[SLOTS] = {0};
    size_t ns[SLOTS] = {0};
    uint64_t x = 88172645463325252ull;
    size_t live_bytes = 0;
    for (int op = 0; op < 200000; op++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int i = (int)(x % SLOTS);
        size_t n = (x >> 20) % 16 == 0 ? (x >> 24) % 20000 : (x >> 24) % 600;
        if (ps[i]) {
            for (size_t k = 0; k < ns[i]; k++)
                if (ps[i][k] != (unsigned char)(i + k)) {
                    CHECK(0, "block %d byte %zu overwritten", i, k);
                    return;
                }
            live_bytes -= ns[i];
            if (x & (1u << 30)) {
                jg_heap_free(&h, ps[i]);
                ps[i] = NULL;
                continue;
            }
            ps[i] = jg_heap_realloc(&h, ps[i], n + 1);
        } else {
            ps[i] = jg_heap_malloc(&h, n + 1);
        }
        CHECK(ps[i] != NULL, "allocation of %zu", n + 1);
        ns[i] = n + 1;
        live_bytes += ns[i];
        for (size_t k = 0; k < ns[i]; k++) ps[i][k] = (unsigned char)(i + k);
    }
    CHECK(h.live >= live_bytes, "live %zu below the bytes in use %zu", h.live, live_bytes);
    for (int i = 0; i < SLOTS; i++) jg_heap_free(&h, ps[i]);
    CHECK(h.live == 0, "live %zu after freeing everything", h.live);
    jg_heap_release(&h);
}

static void the_limit_refuses_once_then_allows_headroom(void) {
    size_t limit = 2u << 20;
    jg_heap h = new_heap(limit);
    size_t got = 0;
    while (jg_heap_malloc(&h, 1000)) got += 1000;
    CHECK(h.refused, "a refusal is remembered");
    CHECK(h.reserved <= limit, "reserved %zu is within the limit %zu", h.reserved, limit);
    CHECK(got > limit / 2, "only %zu bytes before the limit", got);
    /* after a refusal the call may use a little more (for the error object) */
    CHECK(jg_heap_malloc(&h, 1000) != NULL, "headroom after the first refusal");
    CHECK(jg_heap_malloc(&h, 4u << 20) == NULL, "the headroom is bounded");
    CHECK(jg_heap_malloc(&h, SIZE_MAX - 8) == NULL, "a huge request is refused");
    jg_heap_release(&h);
    CHECK(h.limit == limit, "release keeps the limit");
}

/* A stopped runtime never frees its blocks: release frees them all (LeakSanitizer
 * checks at exit that nothing is left), including large blocks moved by realloc. */
static void release_frees_what_the_runtime_left(void) {
    jg_heap h = new_heap(64u << 20);
    void *large[8];
    for (int i = 0; i < 8; i++) large[i] = jg_heap_malloc(&h, 5000 + (size_t)i * 1000);
    large[3] = jg_heap_realloc(&h, large[3], 200000); /* moves */
    jg_heap_free(&h, large[0]);                      /* the list head */
    jg_heap_free(&h, large[5]);                      /* the middle */
    for (int i = 0; i < 1000; i++) CHECK(jg_heap_malloc(&h, (size_t)i) != NULL, "small %d", i);
    CHECK(h.reserved > 200000, "reserved %zu", h.reserved);
    jg_heap_release(&h);
    CHECK(h.reserved == 0 && h.live == 0 && h.chunks == NULL && h.large == NULL,
          "release empties the heap");
    CHECK(jg_heap_malloc(&h, 10) != NULL, "a released heap serves the next runtime");
    jg_heap_release(&h);
}

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
/* ASan still sees uses after free and writes past a block inside the chunks. */
static void free_and_unused_memory_is_poisoned(void) {
    jg_heap h = new_heap(64u << 20);
    char *a = jg_heap_malloc(&h, 100);
    CHECK(!__asan_region_is_poisoned(a, jg_heap_usable_size(a)), "a block is addressable");
    CHECK(__asan_address_is_poisoned(a + jg_heap_usable_size(a) + 8),
          "the unused chunk after the last block is poisoned");
    jg_heap_free(&h, a);
    CHECK(__asan_address_is_poisoned(a) && __asan_address_is_poisoned(a + 50),
          "a freed block is poisoned");
    char *b = jg_heap_malloc(&h, 100);
    CHECK(b == a && !__asan_region_is_poisoned(b, 100), "a reused block is addressable again");
    jg_heap_free(&h, b);
    jg_heap_release(&h);
}
#endif

int main(void) {
#if defined(__SANITIZE_ADDRESS__)
    free_and_unused_memory_is_poisoned();
#endif
    alignment_and_usable_size();
    freed_blocks_are_reused();
    realloc_keeps_contents();
    random_blocks_do_not_overlap();
    the_limit_refuses_once_then_allows_headroom();
    release_frees_what_the_runtime_left();
    if (failures) {
        fprintf(stderr, "heap_test: %d check(s) failed\n", failures);
        return 1;
    }
    printf("heap_test: all checks passed\n");
    return 0;
}
