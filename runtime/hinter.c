/* Glyph hinting for the rasterizer: FreeType's light (vertical-only) auto-hinting, the
 * hinting Chromium's text gets on Linux (Skia's "slight"), so that glyph stems and
 * heights land on the same pixel rows in both backends.
 *
 * FreeType is loaded at run time (dlopen) from the library Python names: the system's
 * libfreetype.so.6 where there is one (the very library Debian's Chromium draws with),
 * else the copy the freetype-py package ships. Its faces are not thread-safe, so one
 * mutex serializes hinting; the rasterizer caches every hinted glyph per canvas, so
 * only a canvas's first use of a glyph at a size comes here. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef JG_HAVE_FREETYPE
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

static struct {
    pthread_mutex_t mu;
    void *dl;
    FT_Library lib;
    FT_Face *faces;
    uint8_t **files;
    int32_t *size; /* each face's current char size, 26.6 */
    uint32_t n;
    FT_Error (*init)(FT_Library *);
    FT_Error (*new_memory_face)(FT_Library, const FT_Byte *, FT_Long, FT_Long, FT_Face *);
    FT_Error (*set_char_size)(FT_Face, FT_F26Dot6, FT_F26Dot6, FT_UInt, FT_UInt);
    FT_Error (*load_glyph)(FT_Face, FT_UInt, FT_Int32);
} H = {.mu = PTHREAD_MUTEX_INITIALIZER};

static char hint_error[512];

static int32_t hint_glyph(uint32_t face, uint32_t glyph, int32_t size_26_6, int32_t *xy, uint8_t *tags,
                          uint16_t *ends, uint32_t cap_points, uint32_t cap_contours, uint32_t *counts)
{
    if (face >= H.n || size_26_6 <= 0) return -1;
    int32_t rc = -1;
    pthread_mutex_lock(&H.mu);
    FT_Face f = H.faces[face];
    if (H.size[face] != size_26_6) {
        if (H.set_char_size(f, 0, size_26_6, 72, 72) != 0) goto out;
        H.size[face] = size_26_6;
    }
    if (glyph >= (uint32_t)f->num_glyphs ||
        H.load_glyph(f, glyph, FT_LOAD_TARGET_LIGHT | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_GLOBAL_ADVANCE_WIDTH) != 0 ||
        f->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
        goto out;
    const FT_Outline *o = &f->glyph->outline;
    uint32_t np = o->n_points < 0 ? 0 : (uint32_t)o->n_points, nc = o->n_contours < 0 ? 0 : (uint32_t)o->n_contours;
    counts[0] = np;
    counts[1] = nc;
    if (np > cap_points || nc > cap_contours) {
        rc = 1;
        goto out;
    }
    for (uint32_t i = 0; i < np; i++) {
        xy[2 * i] = (int32_t)o->points[i].x;
        xy[2 * i + 1] = (int32_t)o->points[i].y;
        tags[i] = (uint8_t)FT_CURVE_TAG(o->tags[i]);
    }
    for (uint32_t c = 0; c < nc; c++) ends[c] = (uint16_t)o->contours[c];
    rc = 0;
out:
    pthread_mutex_unlock(&H.mu);
    return rc;
}

int32_t jg_install_hinting(const char *library, const uint8_t *const *files, const size_t *lens, uint32_t n)
{
    if (!library || (n > 0 && (!files || !lens))) return JG_ERR_ARGUMENT;
    pthread_mutex_lock(&H.mu);
    int32_t rc = JG_OK;
    if (H.lib) { /* once per process: the fonts cannot change either */
        rc = H.n == n ? JG_OK : JG_ERR_ARGUMENT;
        goto done;
    }
    void *dl = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        snprintf(hint_error, sizeof hint_error, "cannot load FreeType (%s): %s", library, dlerror());
        rc = JG_ERR_SYSTEM;
        goto done;
    }
    H.init = (FT_Error(*)(FT_Library *))dlsym(dl, "FT_Init_FreeType");
    H.new_memory_face = (FT_Error(*)(FT_Library, const FT_Byte *, FT_Long, FT_Long, FT_Face *))dlsym(dl, "FT_New_Memory_Face");
    H.set_char_size = (FT_Error(*)(FT_Face, FT_F26Dot6, FT_F26Dot6, FT_UInt, FT_UInt))dlsym(dl, "FT_Set_Char_Size");
    H.load_glyph = (FT_Error(*)(FT_Face, FT_UInt, FT_Int32))dlsym(dl, "FT_Load_Glyph");
    FT_Library lib = NULL;
    if (!H.init || !H.new_memory_face || !H.set_char_size || !H.load_glyph || H.init(&lib) != 0) {
        snprintf(hint_error, sizeof hint_error, "%s is not a usable FreeType", library);
        dlclose(dl);
        rc = JG_ERR_SYSTEM;
        goto done;
    }
    H.faces = calloc(n ? n : 1, sizeof *H.faces);
    H.files = calloc(n ? n : 1, sizeof *H.files);
    H.size = calloc(n ? n : 1, sizeof *H.size);
    if (!H.faces || !H.files || !H.size) {
        rc = JG_ERR_MEMORY;
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        /* FreeType reads the file from this memory for the face's whole life */
        H.files[i] = malloc(lens[i] ? lens[i] : 1);
        if (!H.files[i]) {
            rc = JG_ERR_MEMORY;
            goto done;
        }
        memcpy(H.files[i], files[i], lens[i]);
        if (H.new_memory_face(lib, H.files[i], (FT_Long)lens[i], 0, &H.faces[i]) != 0) {
            snprintf(hint_error, sizeof hint_error, "FreeType cannot read font file %u", i);
            rc = JG_ERR_ARGUMENT;
            goto done;
        }
    }
    H.dl = dl;
    H.lib = lib;
    H.n = n;
    jg_raster_set_hinter(hint_glyph);
done:
    /* a failed install leaks what it opened: it happens at most once per process */
    pthread_mutex_unlock(&H.mu);
    return rc;
}

const char *jg_hinting_error(void) { return hint_error; }

#else

int32_t jg_install_hinting(const char *library, const uint8_t *const *files, const size_t *lens, uint32_t n)
{
    (void)library, (void)files, (void)lens, (void)n;
    return JG_ERR_SYSTEM;
}

const char *jg_hinting_error(void) { return "this build of jsgym has no FreeType support (libfreetype-dev was missing)"; }

#endif
