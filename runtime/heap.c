/* Each env's JS heap: memory that no other env and no libc arena shares.
 *
 * QuickJS allocates and frees small blocks all the time (objects, shapes, strings,
 * property arrays). Through libc malloc, those blocks would come from the arena of
 * whichever thread allocated them, interleaved with other envs' blocks, and a thread
 * that runs the env later would free into another thread's arena under its lock.
 * Measured on 2 threads, that made whole processes run at 1.1-1.5x instead of 1.8x
 * (docs/design.md, "Performance model"). Here an env's small blocks live in chunks that only
 * this env uses, with one free list per size class and no lock: one thread at a time
 * runs an env.
 *
 * Layout: a block is an 8-byte header followed by the payload; payloads are 16-byte
 * aligned like glibc's. Small blocks (slot of at most JG_HEAP_SMALL_MAX bytes, header
 * included) are carved from 64 KiB chunks by a bump pointer and recycled through the
 * free list of their size class; their header holds the slot size. Larger blocks come
 * from libc with a 16-byte prefix whose second word holds (payload << 4) | 1.
 *
 * The memory limit bounds what the heap holds from libc (chunks and large blocks),
 * free lists included: what the process really pays for the env. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Under AddressSanitizer (scripts/sanitize.sh), free and not yet used slot payloads
 * are poisoned, so a use after free or a write past a block's usable size is still
 * reported inside the env's own chunks. Headers stay addressable. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define CHUNK_BYTES ((size_t)64 << 10)
#define CHUNK_ALIGN 64 /* a cache line: envs on different threads never share one */
#define HEADER 8
#define LARGE_PREFIX 32 /* the links of the large-block list, padding, the header */
/* After the first refusal in a call, the heap may hold this much more: enough for
 * QuickJS to build the "out of memory" error and its backtrace. Bellard's QuickJS
 * does not survive every allocation failure on that path (seen as a crash in
 * build_backtrace under an allocation bomb), so the limit refuses once, cleanly. */
#define OOM_HEADROOM ((size_t)1 << 20)

typedef struct chunk {
    struct chunk *next;
} chunk;

/* Slot sizes: multiples of 16 up to 512, then of 256 up to JG_HEAP_SMALL_MAX. */
static inline size_t slot_for(size_t payload) {
    size_t s = (payload + HEADER + 15) & ~(size_t)15;
    return s <= 512 ? s : (s + 255) & ~(size_t)255;
}

static inline unsigned class_of(size_t slot) {
    return slot <= 512 ? (unsigned)(slot / 16 - 1) : (unsigned)(31 + (slot - 512) / 256);
}

static inline uint64_t *header_of(void *p) { return (uint64_t *)((char *)p - HEADER); }

/* Takes grow more bytes from libc's share of the limit, or refuses (and remembers). */
static int reserve(jg_heap *h, size_t grow) {
    size_t limit = h->limit + (h->refused ? OOM_HEADROOM : 0);
    if (h->reserved + grow > limit || h->reserved + grow < grow) {
        h->refused = 1;
        return -1;
    }
    h->reserved += grow;
    return 0;
}

/* Large blocks are on a doubly linked list (their prefix), so that a heap can be
 * released whatever its runtime left behind. */
typedef struct large_links {
    struct large_links *prev, *next;
} large_links;

static inline large_links *links_of(void *p) {
    return (large_links *)((char *)p - LARGE_PREFIX);
}

/* Every call into libc and every change to the chunk and large-block lists happens
 * between jg_guard_hold/release: a hard stop never lands inside libc's allocator and
 * always finds the lists whole, so jg_heap_release can free a stopped env's heap. A
 * stop inside the free lists leaves them broken, which is harmless: a stopped env's
 * heap is only ever released, never used again. */
static void *large_alloc(jg_heap *h, size_t payload) {
    if (payload > SIZE_MAX / 32 || reserve(h, payload + LARGE_PREFIX)) return NULL;
    jg_guard_hold();
    large_links *l = malloc(payload + LARGE_PREFIX);
    if (l) {
        l->prev = NULL;
        l->next = h->large;
        if (h->large) ((large_links *)h->large)->prev = l;
        h->large = l;
    }
    jg_guard_release();
    if (!l) {
        h->reserved -= payload + LARGE_PREFIX;
        h->libc_failed = 1;
        return NULL;
    }
    char *p = (char *)l + LARGE_PREFIX;
    *header_of(p) = ((uint64_t)payload << 4) | 1;
    h->live += payload + LARGE_PREFIX;
    return p;
}

static void unlink_large(jg_heap *h, large_links *l) {
    if (l->prev) l->prev->next = l->next;
    else h->large = l->next;
    if (l->next) l->next->prev = l->prev;
}

static void large_free(jg_heap *h, void *p) {
    size_t payload = (size_t)(*header_of(p) >> 4);
    h->reserved -= payload + LARGE_PREFIX;
    jg_guard_hold();
    large_links *l = links_of(p);
    unlink_large(h, l);
    free(l);
    jg_guard_release();
}

/* realloc of a large block to a larger or smaller large block */
static void *large_realloc(jg_heap *h, void *p, size_t n) {
    size_t old = (size_t)(*header_of(p) >> 4);
    if (n > SIZE_MAX / 32) return NULL;
    if (n > old && reserve(h, n - old)) return NULL;
    jg_guard_hold();
    large_links *l = links_of(p);
    large_links saved = *l;
    large_links *q = realloc(l, n + LARGE_PREFIX);
    if (q) { /* relink: the block may have moved */
        if (saved.prev) saved.prev->next = q;
        else h->large = q;
        if (saved.next) saved.next->prev = q;
    }
    jg_guard_release();
    if (!q) {
        if (n > old) h->reserved -= n - old;
        h->libc_failed = 1;
        return NULL;
    }
    if (n < old) h->reserved -= old - n;
    h->live = h->live - old + n;
    char *np = (char *)q + LARGE_PREFIX;
    *header_of(np) = ((uint64_t)n << 4) | 1;
    return np;
}

static int new_chunk(jg_heap *h) {
    if (reserve(h, CHUNK_BYTES)) return -1;
    jg_guard_hold();
    chunk *c = aligned_alloc(CHUNK_ALIGN, CHUNK_BYTES);
    if (c) {
        c->next = h->chunks;
        h->chunks = c;
        /* slots start 8 bytes past a multiple of 16, so payloads are 16-byte aligned */
        h->bump = (char *)c + 16 + HEADER;
        h->bump_end = (char *)c + CHUNK_BYTES;
    }
    jg_guard_release();
    if (!c) {
        h->reserved -= CHUNK_BYTES;
        h->libc_failed = 1;
        return -1;
    }
    POISON((char *)c + 16, CHUNK_BYTES - 16);
    return 0;
}

void *jg_heap_malloc(jg_heap *h, size_t n) {
    if (n > JG_HEAP_SMALL_MAX - HEADER) return large_alloc(h, n);
    size_t slot = slot_for(n);
    unsigned k = class_of(slot);
    void *p = h->free_lists[k];
    if (p) {
        UNPOISON(p, slot - HEADER);
        h->free_lists[k] = *(void **)p;
    } else {
        if ((size_t)(h->bump_end - h->bump) < slot && new_chunk(h)) return NULL;
        p = h->bump + HEADER;
        h->bump += slot;
        UNPOISON(header_of(p), slot);
        *header_of(p) = slot;
    }
    h->live += slot;
    return p;
}

void jg_heap_free(jg_heap *h, void *p) {
    if (!p) return;
    uint64_t header = *header_of(p);
    if (header & 1) {
        h->live -= (size_t)(header >> 4) + LARGE_PREFIX;
        large_free(h, p);
        return;
    }
    unsigned k = class_of((size_t)header);
    *(void **)p = h->free_lists[k];
    h->free_lists[k] = p;
    h->live -= (size_t)header;
    POISON(p, (size_t)header - HEADER);
}

size_t jg_heap_usable_size(const void *p) {
    uint64_t header = *header_of((void *)p);
    return header & 1 ? (size_t)(header >> 4) : (size_t)header - HEADER;
}

void *jg_heap_realloc(jg_heap *h, void *p, size_t n) {
    if (!p) return jg_heap_malloc(h, n);
    uint64_t header = *header_of(p);
    if (!(header & 1) && n <= JG_HEAP_SMALL_MAX - HEADER && slot_for(n) == header) return p;
    if ((header & 1) && n > JG_HEAP_SMALL_MAX - HEADER) return large_realloc(h, p, n);
    void *q = jg_heap_malloc(h, n);
    if (!q) return NULL;
    size_t old = jg_heap_usable_size(p);
    memcpy(q, p, old < n ? old : n);
    jg_heap_free(h, p);
    return q;
}

/* Frees everything the heap holds from libc (chunks and large blocks) and empties it
 * for the next runtime, keeping the limit. After a normal JS_FreeRuntime no large
 * block is left; after a hard stop, whatever the runtime held goes here. */
void jg_heap_release(jg_heap *h) {
    jg_guard_hold();
    for (chunk *c = h->chunks; c;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    for (large_links *l = h->large; l;) {
        large_links *next = l->next;
        free(l);
        l = next;
    }
    size_t limit = h->limit;
    memset(h, 0, sizeof *h);
    h->limit = limit;
    jg_guard_release();
}
