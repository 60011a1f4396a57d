/* jsgym rasterizer: C ABI of the std-only Rust crate in rasterizer/.
 *
 * The p5 shim records one frame of drawing as a stream of 32-bit words (the
 * "command stream", format below); the rasterizer composites that stream onto a
 * persistent per-env canvas held at observation resolution, with exact-area-coverage
 * anti-aliasing, and copies the canvas out as packed RGB8.
 *
 * The rasterizer knows nothing of JavaScript or p5: every p5 mode (rectMode,
 * ellipseMode, colorMode, angleMode, ...) is already resolved by the shim.
 *
 * ------------------------------------------------------------------------------
 * Command stream
 * ------------------------------------------------------------------------------
 * Every command starts with two header words:
 *   word 0  opcode (JG_OP_*)
 *   word 1  length of the whole command in words, header included
 * so a reader can skip a command it does not understand. All f32 values are IEEE
 * single precision stored bit-for-bit in the u32 word (memcpy, little-endian host).
 *
 * Colours are packed RGBA8 in one u32: r | g << 8 | b << 16 | a << 24, straight
 * (not premultiplied) alpha, exactly the integer levels p5 hands to canvas 2D.
 *
 * Shape commands (RECT .. PATH) carry a style block of JG_STYLE_WORDS words right
 * after the header:
 *   +0  fill    u32 RGBA8; alpha 0 means nothing is filled
 *   +1  stroke  u32 RGBA8; alpha 0 means nothing is stroked
 *   +2  stroke weight, f32, user units (transformed by the matrix like canvas 2D)
 *   +3  cap | join << 8, u32 (JG_CAP_*, JG_JOIN_*); miter limit is always 10
 *   +4  matrix a b c d e f, 6 x f32, canvas 2D setTransform order:
 *         x' = a*x + c*y + e,   y' = b*x + d*y + f   (canvas pixels)
 * followed by the geometry in user units (before the matrix):
 *
 *   JG_OP_CANVAS      w h (f32): the logical canvas size (createCanvas/resizeCanvas).
 *                     Resets the canvas to opaque black. No style block.
 *   JG_OP_BACKGROUND  rgba (u32): covers the whole canvas, ignoring any transform,
 *                     source-over. No style block.
 *   JG_OP_CLEAR       (no payload): the canvas becomes opaque black. No style block.
 *   JG_OP_RECT        style, x y w h (w, h >= 0), radii tl tr br bl (f32, 0 = square
 *                     corner; already clamped by the shim to min(w, h) / 2).
 *   JG_OP_ELLIPSE     style, cx cy rx ry (rx, ry >= 0).
 *   JG_OP_ARC         style, cx cy rx ry start stop (radians, start <= stop, stop -
 *                     start <= 2*pi, angles measured as in canvas 2D: y down), mode
 *                     (u32 JG_ARC_*). Fill: JG_ARC_PIE and JG_ARC_DEFAULT fill the
 *                     wedge through the centre; JG_ARC_OPEN and JG_ARC_CHORD fill the
 *                     chord region. Stroke: OPEN and DEFAULT stroke the curve only,
 *                     CHORD adds the chord, PIE the two radii (p5 1.11 semantics).
 *   JG_OP_LINE        style (fill ignored), x1 y1 x2 y2: stroked with caps.
 *   JG_OP_POINT       style (fill ignored), x y: a dot of diameter stroke weight in
 *                     the stroke colour, round for JG_CAP_ROUND, square otherwise.
 *   JG_OP_PATH        style, then a verb stream until the end of the command:
 *                       JG_VERB_MOVE x y | JG_VERB_LINE x y | JG_VERB_QUAD cx cy x y |
 *                       JG_VERB_CUBIC c1x c1y c2x c2y x y | JG_VERB_CLOSE
 *                     (verb is a u32 word, coordinates f32). A path is one or more
 *                     contours, each starting with MOVE. Fill uses the nonzero rule and
 *                     implicitly closes open contours; the stroke follows each contour,
 *                     joining back to its start only where JG_VERB_CLOSE ends it.
 *   JG_OP_TEXT        style, face (u32: a face of the installed font set, see
 *                     jg_raster_install_fonts), size (f32: user units per em), then per
 *                     glyph: glyph id (u32), origin x y (f32, user units; y is the
 *                     alphabetic baseline). The glyph outlines (font units, y up) are
 *                     scaled by size / units_per_em, flipped to y down and placed at
 *                     their origins; all glyphs fill as one nonzero path and stroke
 *                     like closed contours. Nothing is drawn without installed fonts
 *                     or for an unknown face. With a hinter (jg_raster_set_hinter)
 *                     and an unrotated uniform scale of at most 256 canvas pixels per
 *                     em, glyphs are drawn as Chromium draws glyph masks instead: the
 *                     hinted outlines at that pixel size, origins rounded to 1/4 px
 *                     across and 1 px down, fill coverage gamma-corrected (blend.rs).
 *   JG_OP_SHADOW      blur (f32), rgba (u32), offset x y (f32). No style block. The
 *                     canvas 2D shadow (shadowBlur, shadowColor, shadowOffsetX/Y) of
 *                     the shape commands after it in the stream, until the next
 *                     JG_OP_SHADOW; every stream starts with none. Each fill and each
 *                     stroke (text: stroke first) composites, before itself, its own
 *                     coverage times its alpha, blurred by a Gaussian of standard
 *                     deviation blur / 2 and moved by the offset (canvas pixels, not
 *                     transformed), in rgba. No shadow shows when rgba's alpha is 0, or
 *                     when blur and both offsets are 0 (the shim then writes none).
 *   JG_OP_BLEND       mode (u32 JG_BLEND_*). No style block. The canvas 2D
 *                     globalCompositeOperation (p5 blendMode()) of the shape commands
 *                     and BACKGROUND after it, until the next JG_OP_BLEND; every
 *                     stream starts with JG_BLEND_SOURCE_OVER. Each fill and each
 *                     stroke (and its shadow) combines its colour cs with the pixel's
 *                     cb as B(cb, cs), blended by the shape's alpha times coverage a:
 *                     cb + a * (B(cb, cs) - cb); JG_BLEND_LIGHTER adds cs * a instead
 *                     (clamped). The B of the other modes is the W3C compositing
 *                     spec's separable blend function of the same name.
 *   JG_OP_DASH        offset (f32), then an even number of lengths (f32, >= 0, on
 *                     and off in turn; none: solid). No style block. The canvas 2D
 *                     line dash (setLineDash, lineDashOffset) of the strokes of the
 *                     RECT, ELLIPSE, LINE and PATH commands after it, until the next
 *                     JG_OP_DASH; every stream starts solid. Each contour's centreline
 *                     (user units; an ellipse from its rightmost point, clockwise on
 *                     screen) is cut into dashes from the offset on, each stroked as an
 *                     open contour with the line's caps. A pattern of no length strokes
 *                     solid.
 *
 * Non-finite coordinates or sizes make a shape draw nothing (canvas 2D ignores such
 * calls); shapes entirely outside the canvas draw nothing; a malformed stream (bad
 * opcode, a length that overruns the stream) is an error, never a crash.
 *
 * Pixel mapping: with canvas size (W, H) and observation size (ow, oh), canvas
 * point (x, y) lands at (x * ow / W, y * oh / H) for JG_FIT_STRETCH. JG_FIT_LETTERBOX
 * scales uniformly by s = min(ow / W, oh / H) and centres the canvas, leaving black
 * bars. Pixel (i, j) of the observation covers [i, i+1) x [j, j+1) in those units, and
 * its value is the exact area-weighted coverage of each shape, composited
 * source-over in command order.
 *
 * ------------------------------------------------------------------------------
 * Decisions where the text above leaves room (canvas 2D / p5.js 1.11 behaviour)
 * ------------------------------------------------------------------------------
 * - Letterbox: everything, BACKGROUND included, is clipped to the canvas box; the
 *   bars stay black. CLEAR, CANVAS and jg_canvas_reset blacken the whole observation.
 * - A CANVAS size that is not finite and > 0 is a malformed stream.
 * - Every command must have exactly the length its opcode needs (PATH: a verb stream
 *   that ends exactly at the command's end); an unknown cap, join, arc mode or verb,
 *   or non-zero bits above the join byte of style word +3, is a malformed stream.
 * - RECT with negative w or h is normalised like canvas 2D rect(); negative radii
 *   count as 0. ELLIPSE/ARC use |rx|, |ry|. ARC with stop < start draws nothing, a
 *   span above 2*pi is clamped to 2*pi, a span below 1e-5 draws nothing (p5's epsilon).
 * - Curves are p5's: ELLIPSE is four kappa (0.5522847498) cubics from the leftmost
 *   point, ARC is cubic pieces of at most 90 degrees. The ellipse outline is stroked
 *   as a closed contour (p5 leaves it open with two coincident caps: same pixels).
 * - Stroke weight <= 0 strokes nothing. A non-finite weight with a visible stroke, or
 *   a non-finite or singular matrix, makes the shape draw nothing.
 * - PATH: LINE/QUAD/CUBIC with no current contour start one at their first point
 *   (canvas 2D "ensure there is a subpath"); after CLOSE the next contour starts at
 *   the closed contour's start. A contour that is only a MOVE draws nothing; a
 *   zero-length stroked segment draws a dot (ROUND), an axis-aligned square (SQUARE)
 *   or nothing (BUTT).
 * - POINT follows this header (round dot only for JG_CAP_ROUND). The shim passes
 *   JG_CAP_ROUND if it wants a round dot regardless of strokeCap.
 * - Nonzero rule: pixel coverage is min(|accumulated signed area|, 1). This is exact
 *   for contours that do not overlap themselves; in a pixel that holds both an
 *   uncovered region and a region of winding >= 2 (a star's inner vertex) the doubly
 *   covered part counts twice. Fully covered pixels are always exact.
 * - Compositing: dst' = dst + (src - dst) * (alpha / 255) * coverage per channel,
 *   rounded to nearest after every composite (an 8-bit canvas, like the browser's).
 *   With supersample > 1 read_rgb averages each block and rounds half up.
 */
#ifndef JSGYM_RASTER_H
#define JSGYM_RASTER_H

#include <stddef.h>
#include <stdint.h>

#define JG_OP_CANVAS 1u
#define JG_OP_BACKGROUND 2u
#define JG_OP_CLEAR 3u
#define JG_OP_RECT 4u
#define JG_OP_ELLIPSE 5u
#define JG_OP_ARC 6u
#define JG_OP_LINE 7u
#define JG_OP_POINT 8u
#define JG_OP_PATH 9u
#define JG_OP_TEXT 10u
#define JG_OP_SHADOW 11u
#define JG_OP_BLEND 12u
#define JG_OP_DASH 13u
/* Lengths a JG_OP_DASH carries at most (the shim refuses longer patterns). */
#define JG_DASH_MAX 32u

#define JG_BLEND_SOURCE_OVER 0u
#define JG_BLEND_LIGHTER 1u
#define JG_BLEND_DARKEN 2u
#define JG_BLEND_LIGHTEN 3u
#define JG_BLEND_DIFFERENCE 4u
#define JG_BLEND_EXCLUSION 5u
#define JG_BLEND_MULTIPLY 6u
#define JG_BLEND_SCREEN 7u
#define JG_BLEND_OVERLAY 8u
#define JG_BLEND_HARD_LIGHT 9u
#define JG_BLEND_SOFT_LIGHT 10u
#define JG_BLEND_COLOR_DODGE 11u
#define JG_BLEND_COLOR_BURN 12u

#define JG_STYLE_WORDS 10u

#define JG_CAP_BUTT 0u   /* p5 SQUARE  */
#define JG_CAP_ROUND 1u  /* p5 ROUND (p5 default) */
#define JG_CAP_SQUARE 2u /* p5 PROJECT */

#define JG_JOIN_MITER 0u /* p5 default */
#define JG_JOIN_BEVEL 1u
#define JG_JOIN_ROUND 2u

#define JG_ARC_DEFAULT 0u /* mode argument omitted */
#define JG_ARC_OPEN 1u
#define JG_ARC_CHORD 2u
#define JG_ARC_PIE 3u

#define JG_VERB_MOVE 1u
#define JG_VERB_LINE 2u
#define JG_VERB_QUAD 3u
#define JG_VERB_CUBIC 4u
#define JG_VERB_CLOSE 5u

#define JG_FIT_STRETCH 0u
#define JG_FIT_LETTERBOX 1u

/* Status codes returned by the functions below. */
#define JG_RASTER_OK 0
#define JG_RASTER_BAD_ARGUMENT -1
#define JG_RASTER_MALFORMED_STREAM -2
#define JG_RASTER_PANIC -3
#define JG_RASTER_TIMEOUT -4 /* jg_canvas_draw_until: the deadline passed first */

typedef struct JgCanvas JgCanvas;

/* A canvas of obs_w x obs_h RGB pixels, initially opaque black, with a logical
 * canvas size of obs_w x obs_h until a JG_OP_CANVAS command says otherwise.
 * supersample is 1 (exact coverage at observation resolution) or 2..4 (each
 * observation pixel is rendered as supersample x supersample exact-coverage pixels
 * and box-filtered: slower, closer to a browser frame area-averaged down).
 * Returns NULL on bad arguments (zero or > 4096 sizes, supersample out of range). */
JgCanvas *jg_canvas_new(uint32_t obs_w, uint32_t obs_h, uint32_t fit, uint32_t supersample);

void jg_canvas_free(JgCanvas *canvas);

/* Composite one frame's command stream onto the canvas. On error the canvas holds
 * whatever the commands before the bad one drew. */
int32_t jg_canvas_draw(JgCanvas *canvas, const uint32_t *words, size_t n_words);

/* jg_canvas_draw with a deadline: deadline_ns is a CLOCK_MONOTONIC time in
 * nanoseconds (0: none), checked between commands, never inside one: every 64
 * executed commands on a canvas of up to 64 x 64 internal pixels (so a small frame
 * never reads the clock), proportionally more often on larger ones, every command
 * from 512 x 512 on. Past it the draw stops with JG_RASTER_TIMEOUT, the canvas
 * holding what the commands before drew; the next draw draws its stream whole. */
int32_t jg_canvas_draw_until(JgCanvas *canvas, const uint32_t *words, size_t n_words,
                             uint64_t deadline_ns);

/* 1 when the stream starts by covering the whole canvas opaquely at its present
 * logical size (an opaque JG_OP_BACKGROUND, JG_OP_CLEAR, JG_OP_CANVAS, or leading
 * opaque axis-aligned square-cornered JG_OP_RECTs without a stroke, each with its
 * edges on canvas pixel edges, that together cover it), so nothing drawn before
 * shows in the frame the canvas holds after it; 0 otherwise; < 0 on bad arguments.
 * Draws nothing. */
int32_t jg_canvas_starts_covered(JgCanvas *canvas, const uint32_t *words, size_t n_words);

/* Copy the canvas into dst (obs_h * obs_w * 3 bytes, row-major, RGB). */
int32_t jg_canvas_read_rgb(const JgCanvas *canvas, uint8_t *dst);

/* Reset to opaque black (keeps the logical canvas size). */
int32_t jg_canvas_reset(JgCanvas *canvas);

/* ------------------------------------------------------------------------------
 * Fonts (rasterizer/src/font.rs): one set per process, shared by every canvas and
 * by the p5 shim's text layout. A face is a face table compiled by jsgym/fonts.py.
 * ------------------------------------------------------------------------------ */

/* Installs the font set: n face tables (data[i], lens[i] bytes, copied), and
 * n_families families, names[k] (UTF-8, matched case-insensitively) with the faces
 * faces[4k .. 4k+3] of its styles (normal, bold, italic, bold italic); an unknown
 * name gets family `standard`; fallbacks[2i], fallbacks[2i+1] are the faces (UINT32_MAX:
 * none) that draw the characters face i lacks. Installing the same set again is a no-op; another
 * set, a malformed table or an out-of-range index is JG_RASTER_BAD_ARGUMENT. */
int32_t jg_raster_install_fonts(const uint8_t *const *data, const size_t *lens, uint32_t n,
                                const char *const *names, const uint32_t *faces,
                                uint32_t n_families, uint32_t standard,
                                const uint32_t *fallbacks);

/* Registers the hinter glyphs are drawn with where Chromium hints them (text under
 * an unrotated uniform scale, at most 256 canvas pixels per em): it writes the outline
 * of glyph `glyph` of face `face` at size_26_6 / 64 pixels per em after FreeType's
 * light hinting: up to cap_points points (x, y pairs, 26.6 pixels, y up) and their
 * FreeType tags, up to cap_contours contour end indices, the two counts into
 * counts[0..2], and returns 0; 1 if the capacity is too small (counts are then what is
 * needed); negative if it cannot hint the glyph. Called from any thread. NULL
 * unregisters it: outlines are then drawn unhinted. */
typedef int32_t (*jg_hint_fn)(uint32_t face, uint32_t glyph, int32_t size_26_6, int32_t *xy,
                              uint8_t *tags, uint16_t *ends, uint32_t cap_points,
                              uint32_t cap_contours, uint32_t *counts);
void jg_raster_set_hinter(jg_hint_fn hinter);

/* The face for family `name` (len bytes, surrounding quotes and spaces ignored) and
 * style 0..3 (normal, bold, italic, bold italic); an unknown name gets the standard
 * family, or -2 with JG_FONT_EXACT or'ed into style; -1 when no fonts are installed. */
#define JG_FONT_EXACT 0x100u
int32_t jg_font_resolve(const uint8_t *name, size_t len, uint32_t style);

typedef struct JgFontMetrics {
    int32_t units_per_em;
    int32_t ascent, descent, line_gap;                  /* hhea (descent negative) */
    int32_t typo_ascent, typo_descent, typo_line_gap;   /* OS/2 */
    int32_t win_ascent, win_descent;                    /* OS/2 */
    int32_t flags;                                      /* bit 0: USE_TYPO_METRICS */
} JgFontMetrics;

int32_t jg_font_metrics(uint32_t face, JgFontMetrics *out);

/* Shapes n characters (Unicode code points) with face `face`: writes the glyphs (glyph
 * id | face << 16: characters `face` lacks come from its fallbacks) and each glyph's
 * pen advance (its advance plus the kerning with the next glyph, in units of `face`),
 * and returns how many (ligatures make fewer than n), or a negative status. */
int64_t jg_font_shape(uint32_t face, const uint32_t *text, size_t n, uint32_t *glyphs,
                      int32_t *advances);

#endif /* JSGYM_RASTER_H */
