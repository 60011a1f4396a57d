/* The process's fonts: Python installs them once (jsgym/fonts.py compiles the face
 * tables); the rasterizer holds them for drawing and the p5 shim's text layout. */
#include "internal.h"

int32_t jg_install_fonts(const uint8_t *const *data, const size_t *lens, uint32_t n,
                         const char *const *names, const uint32_t *faces, uint32_t n_families,
                         uint32_t standard, const uint32_t *fallbacks) {
    return jg_raster_install_fonts(data, lens, n, names, faces, n_families, standard, fallbacks) ==
                   JG_RASTER_OK
               ? JG_OK
               : JG_ERR_ARGUMENT;
}
