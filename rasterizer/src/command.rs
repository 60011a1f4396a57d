//! Parsing (and, for tests and benchmarks, writing) the `u32` command stream of
//! `include/jsgym_raster.h`.
//!
//! Invariants: [`Commands`] never reads past the slice it was given; every command it
//! yields has exactly the word count its opcode requires (PATH: a verb stream that was
//! fully validated before the command is yielded), so later stages index payloads
//! without checks. A malformed command yields one [`StreamError`] and ends iteration.
//! Values are not range-checked here (NaN sizes are the draw stage's business: such a
//! shape draws nothing, it is not an error).

/// `JG_OP_CANVAS`.
pub const OP_CANVAS: u32 = 1;
/// `JG_OP_BACKGROUND`.
pub const OP_BACKGROUND: u32 = 2;
/// `JG_OP_CLEAR`.
pub const OP_CLEAR: u32 = 3;
/// `JG_OP_RECT`.
pub const OP_RECT: u32 = 4;
/// `JG_OP_ELLIPSE`.
pub const OP_ELLIPSE: u32 = 5;
/// `JG_OP_ARC`.
pub const OP_ARC: u32 = 6;
/// `JG_OP_LINE`.
pub const OP_LINE: u32 = 7;
/// `JG_OP_POINT`.
pub const OP_POINT: u32 = 8;
/// `JG_OP_PATH`.
pub const OP_PATH: u32 = 9;
/// `JG_OP_TEXT`.
pub const OP_TEXT: u32 = 10;
/// `JG_OP_SHADOW`.
pub const OP_SHADOW: u32 = 11;
/// `JG_OP_BLEND`.
pub const OP_BLEND: u32 = 12;
/// `JG_OP_DASH`.
pub const OP_DASH: u32 = 13;
/// `JG_STYLE_WORDS`: words in the style block of every shape command.
pub const STYLE_WORDS: usize = 10;

/// Where a shape command's words lie, from its opcode: its fill and stroke (RGBA
/// words), its matrix `a b c d e f`, and the geometry after the style block (for a
/// rect: `x y w h`, then the corner radii).
pub(crate) const AT_FILL: usize = 2;
pub(crate) const AT_STROKE: usize = 3;
pub(crate) const AT_MATRIX: usize = 6;
pub(crate) const AT_GEOMETRY: usize = 2 + STYLE_WORDS;
/// Words of a `JG_OP_RECT` command.
pub(crate) const RECT_WORDS: usize = AT_GEOMETRY + 8;

/// `JG_VERB_MOVE`.
pub const VERB_MOVE: u32 = 1;
/// `JG_VERB_LINE`.
pub const VERB_LINE: u32 = 2;
/// `JG_VERB_QUAD`.
pub const VERB_QUAD: u32 = 3;
/// `JG_VERB_CUBIC`.
pub const VERB_CUBIC: u32 = 4;
/// `JG_VERB_CLOSE`.
pub const VERB_CLOSE: u32 = 5;

/// A straight-alpha RGBA8 colour (`r | g << 8 | b << 16 | a << 24` on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (0 transparent, 255 opaque), not premultiplied.
    pub a: u8,
}

impl Rgba {
    /// A colour from its channels.
    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Rgba {
        Rgba { r, g, b, a }
    }
    /// Unpacks the wire format.
    #[inline]
    pub const fn from_word(w: u32) -> Rgba {
        Rgba { r: w as u8, g: (w >> 8) as u8, b: (w >> 16) as u8, a: (w >> 24) as u8 }
    }
    /// Packs into the wire format.
    #[inline]
    pub const fn to_word(self) -> u32 {
        self.r as u32 | (self.g as u32) << 8 | (self.b as u32) << 16 | (self.a as u32) << 24
    }
}

/// Line cap (`JG_CAP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// `JG_CAP_BUTT` (p5 `SQUARE`): the stroke ends at the endpoint.
    Butt,
    /// `JG_CAP_ROUND` (p5 `ROUND`, the default): a half disc.
    Round,
    /// `JG_CAP_SQUARE` (p5 `PROJECT`): extends by half the weight.
    Square,
}

/// Line join (`JG_JOIN_*`). The miter limit is always 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// `JG_JOIN_MITER` (p5 default), bevel beyond the miter limit.
    Miter,
    /// `JG_JOIN_BEVEL`.
    Bevel,
    /// `JG_JOIN_ROUND`.
    Round,
}

/// Arc mode (`JG_ARC_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArcMode {
    /// Mode argument omitted: fill as PIE, stroke as OPEN.
    Default,
    /// Fill the chord region, stroke the curve only.
    Open,
    /// Fill the chord region, stroke the curve and the chord.
    Chord,
    /// Fill the wedge, stroke the curve and both radii.
    Pie,
}

/// The style block that follows the header of every shape command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Fill colour; alpha 0 means no fill.
    pub fill: Rgba,
    /// Stroke colour; alpha 0 means no stroke.
    pub stroke: Rgba,
    /// Stroke weight in user units.
    pub weight: f32,
    /// Line cap.
    pub cap: Cap,
    /// Line join.
    pub join: Join,
    /// `a b c d e f` in canvas 2D `setTransform` order.
    pub matrix: [f32; 6],
}

impl Default for Style {
    /// p5 defaults: white fill, black stroke of weight 1, round caps, miter joins,
    /// identity matrix.
    fn default() -> Self {
        Style {
            fill: Rgba::new(255, 255, 255, 255),
            stroke: Rgba::new(0, 0, 0, 255),
            weight: 1.0,
            cap: Cap::Round,
            join: Join::Miter,
            matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        }
    }
}

/// One path verb with its points (user units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verb {
    /// Start a new contour.
    Move(f32, f32),
    /// Straight segment.
    Line(f32, f32),
    /// Quadratic Bezier: control, end.
    Quad(f32, f32, f32, f32),
    /// Cubic Bezier: control 1, control 2, end.
    Cubic(f32, f32, f32, f32, f32, f32),
    /// Close the current contour.
    Close,
}

/// A validated verb stream; iterating it cannot fail.
#[derive(Clone, Copy, Debug)]
pub struct Verbs<'a> {
    words: &'a [u32],
}

impl<'a> Verbs<'a> {
    /// The stream's words.
    pub fn words(&self) -> &'a [u32] {
        self.words
    }

    /// Validates a verb stream (known verbs, no overrun).
    pub fn parse(words: &'a [u32]) -> Option<Verbs<'a>> {
        let mut i = 0;
        while i < words.len() {
            let n = verb_payload(words[i])?;
            i += 1 + n;
            if i > words.len() {
                return None;
            }
        }
        Some(Verbs { words })
    }

    /// Iterates the verbs.
    pub fn iter(&self) -> VerbIter<'a> {
        VerbIter { words: self.words, pos: 0 }
    }
}

fn verb_payload(verb: u32) -> Option<usize> {
    match verb {
        VERB_MOVE | VERB_LINE => Some(2),
        VERB_QUAD => Some(4),
        VERB_CUBIC => Some(6),
        VERB_CLOSE => Some(0),
        _ => None,
    }
}

/// Iterator over a validated verb stream.
#[derive(Clone, Debug)]
pub struct VerbIter<'a> {
    words: &'a [u32],
    pos: usize,
}

impl Iterator for VerbIter<'_> {
    type Item = Verb;
    fn next(&mut self) -> Option<Verb> {
        let w = self.words;
        let i = self.pos;
        let verb = *w.get(i)?;
        let f = |k: usize| f32::from_bits(w[i + 1 + k]);
        // Verbs::parse guaranteed every payload is in bounds.
        let (v, n) = match verb {
            VERB_MOVE => (Verb::Move(f(0), f(1)), 2),
            VERB_LINE => (Verb::Line(f(0), f(1)), 2),
            VERB_QUAD => (Verb::Quad(f(0), f(1), f(2), f(3)), 4),
            VERB_CUBIC => (Verb::Cubic(f(0), f(1), f(2), f(3), f(4), f(5)), 6),
            _ => (Verb::Close, 0),
        };
        self.pos = i + 1 + n;
        Some(v)
    }
}

/// One parsed command.
#[derive(Clone, Copy, Debug)]
pub enum Command<'a> {
    /// Logical canvas size; resets the canvas to opaque black.
    Canvas {
        /// Width in canvas pixels.
        w: f32,
        /// Height in canvas pixels.
        h: f32,
    },
    /// Fill the whole logical canvas source-over, ignoring transforms.
    Background(Rgba),
    /// The canvas becomes opaque black.
    Clear,
    /// Rectangle with optional corner radii (tl tr br bl).
    Rect {
        /// Style block.
        style: Style,
        /// x y w h.
        xywh: [f32; 4],
        /// Corner radii tl tr br bl.
        radii: [f32; 4],
    },
    /// Ellipse.
    Ellipse {
        /// Style block.
        style: Style,
        /// cx cy rx ry.
        c: [f32; 4],
    },
    /// Elliptic arc.
    Arc {
        /// Style block.
        style: Style,
        /// cx cy rx ry start stop.
        c: [f32; 6],
        /// Fill / stroke mode.
        mode: ArcMode,
    },
    /// Stroked line.
    Line {
        /// Style block (fill ignored).
        style: Style,
        /// x1 y1 x2 y2.
        p: [f32; 4],
    },
    /// A dot in the stroke colour.
    Point {
        /// Style block (fill ignored).
        style: Style,
        /// x y.
        p: [f32; 2],
    },
    /// A general path.
    Path {
        /// Style block.
        style: Style,
        /// Validated verbs.
        verbs: Verbs<'a>,
    },
    /// The shadow the shapes after it cast, until the next one or the stream's end.
    Shadow(Shadow),
    /// How the shapes and backgrounds after it combine with the canvas, until the
    /// next one or the stream's end.
    Blend(BlendOp),
    /// The dash pattern of the strokes after it, until the next one or the stream's
    /// end: the offset, then the lengths (`f32` words, on and off in turn; none:
    /// solid).
    Dash {
        /// `lineDashOffset`.
        offset: f32,
        /// The lengths' words.
        lens: &'a [u32],
    },
    /// Glyphs of one face at one size.
    Text {
        /// Style block.
        style: Style,
        /// Face index in the installed font set.
        face: u32,
        /// Font size in user units (an em).
        size: f32,
        /// `glyph x y` words per glyph: the glyph id and its origin (user units).
        glyphs: &'a [u32],
    },
}

/// A canvas 2D shadow (`shadowBlur`, `shadowColor`, `shadowOffsetX/Y`): each fill
/// and each stroke first composites its own coverage, blurred, offset and in `color`,
/// beneath itself. Blur and offsets are in canvas pixels and ignore the transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shadow {
    /// `shadowBlur`: the Gaussian's standard deviation is half of it.
    pub blur: f32,
    /// `shadowColor`; alpha 0 casts nothing.
    pub color: Rgba,
    /// `shadowOffsetX`, `shadowOffsetY`.
    pub offset: [f32; 2],
}

impl Shadow {
    /// Whether it shows at all (canvas 2D draws no shadow of a transparent colour,
    /// nor one with no blur and no offset).
    pub fn casts(&self) -> bool {
        self.color.a != 0 && (self.blur != 0.0 || self.offset != [0.0, 0.0])
    }
}

/// A canvas 2D `globalCompositeOperation` (`JG_BLEND_*`, p5's `blendMode()`) that
/// keeps the canvas opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BlendOp {
    /// `source-over` (p5 `BLEND`), the default.
    #[default]
    SourceOver,
    /// `lighter` (p5 `ADD`).
    Lighter,
    /// `darken` (p5 `DARKEST`).
    Darken,
    /// `lighten` (p5 `LIGHTEST`).
    Lighten,
    /// `difference`.
    Difference,
    /// `exclusion`.
    Exclusion,
    /// `multiply`.
    Multiply,
    /// `screen`.
    Screen,
    /// `overlay`.
    Overlay,
    /// `hard-light`.
    HardLight,
    /// `soft-light`.
    SoftLight,
    /// `color-dodge` (p5 `DODGE`).
    ColorDodge,
    /// `color-burn` (p5 `BURN`).
    ColorBurn,
}

impl BlendOp {
    /// In `JG_BLEND_*` order.
    pub const ALL: [BlendOp; 13] = [
        BlendOp::SourceOver,
        BlendOp::Lighter,
        BlendOp::Darken,
        BlendOp::Lighten,
        BlendOp::Difference,
        BlendOp::Exclusion,
        BlendOp::Multiply,
        BlendOp::Screen,
        BlendOp::Overlay,
        BlendOp::HardLight,
        BlendOp::SoftLight,
        BlendOp::ColorDodge,
        BlendOp::ColorBurn,
    ];
}

impl Command<'_> {
    /// The style block of a shape command.
    pub fn style(&self) -> Option<&Style> {
        match self {
            Command::Rect { style, .. }
            | Command::Ellipse { style, .. }
            | Command::Arc { style, .. }
            | Command::Line { style, .. }
            | Command::Point { style, .. }
            | Command::Path { style, .. }
            | Command::Text { style, .. } => Some(style),
            _ => None,
        }
    }

    /// The same shape with another style block (`None` for other commands).
    pub fn with_style(&self, s: Style) -> Option<Self> {
        let mut c = *self;
        match &mut c {
            Command::Rect { style, .. }
            | Command::Ellipse { style, .. }
            | Command::Arc { style, .. }
            | Command::Line { style, .. }
            | Command::Point { style, .. }
            | Command::Path { style, .. }
            | Command::Text { style, .. } => *style = s,
            _ => return None,
        }
        Some(c)
    }
}

/// Why a stream is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// Opcode not in `JG_OP_*`.
    BadOpcode {
        /// Word index of the command.
        at: usize,
    },
    /// Length word below 2, overrunning the stream, or not what the opcode needs.
    BadLength {
        /// Word index of the command.
        at: usize,
    },
    /// Unknown cap/join/arc mode or a broken verb stream.
    BadPayload {
        /// Word index of the command.
        at: usize,
    },
}

/// Iterator over the commands of a stream.
#[derive(Clone, Debug)]
pub struct Commands<'a> {
    words: &'a [u32],
    pos: usize,
    failed: bool,
}

impl<'a> Commands<'a> {
    /// Starts reading `words`.
    pub fn new(words: &'a [u32]) -> Self {
        Commands { words, pos: 0, failed: false }
    }

    /// Starts reading `words` at word `pos`, which must be where a command starts.
    pub fn starting_at(words: &'a [u32], pos: usize) -> Self {
        Commands { words, pos, failed: false }
    }

    /// The word index of the next command.
    pub fn position(&self) -> usize {
        self.pos
    }
}

fn f(w: u32) -> f32 {
    f32::from_bits(w)
}

fn parse_style(w: &[u32]) -> Option<Style> {
    let cap = match w[3] & 0xff {
        0 => Cap::Butt,
        1 => Cap::Round,
        2 => Cap::Square,
        _ => return None,
    };
    let join = match (w[3] >> 8) & 0xff {
        0 => Join::Miter,
        1 => Join::Bevel,
        2 => Join::Round,
        _ => return None,
    };
    if w[3] >> 16 != 0 {
        return None;
    }
    Some(Style {
        fill: Rgba::from_word(w[0]),
        stroke: Rgba::from_word(w[1]),
        weight: f(w[2]),
        cap,
        join,
        matrix: [f(w[4]), f(w[5]), f(w[6]), f(w[7]), f(w[8]), f(w[9])],
    })
}

fn floats<const N: usize>(w: &[u32]) -> [f32; N] {
    let mut out = [0.0; N];
    for (o, &x) in out.iter_mut().zip(w) {
        *o = f(x);
    }
    out
}

impl<'a> Iterator for Commands<'a> {
    type Item = Result<Command<'a>, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.words.len() {
            return None;
        }
        let at = self.pos;
        let r = parse_one(self.words, at);
        match r {
            Ok((cmd, len)) => {
                self.pos = at + len;
                Some(Ok(cmd))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

fn parse_one(words: &[u32], at: usize) -> Result<(Command<'_>, usize), StreamError> {
    let rest = &words[at..];
    if rest.len() < 2 {
        return Err(StreamError::BadLength { at });
    }
    let op = rest[0];
    let len = rest[1] as usize;
    if !(OP_CANVAS..=OP_DASH).contains(&op) {
        return Err(StreamError::BadOpcode { at });
    }
    if len < 2 || len > rest.len() {
        return Err(StreamError::BadLength { at });
    }
    let cmd = &rest[..len];
    let body = &cmd[2..];
    let need = |n: usize| if body.len() == n { Ok(()) } else { Err(StreamError::BadLength { at }) };
    let style = || parse_style(body).ok_or(StreamError::BadPayload { at });
    let geo = if body.len() >= STYLE_WORDS { &body[STYLE_WORDS..] } else { &[][..] };
    let c = match op {
        OP_CANVAS => {
            need(2)?;
            Command::Canvas { w: f(body[0]), h: f(body[1]) }
        }
        OP_BACKGROUND => {
            need(1)?;
            Command::Background(Rgba::from_word(body[0]))
        }
        OP_CLEAR => {
            need(0)?;
            Command::Clear
        }
        OP_RECT => {
            need(STYLE_WORDS + 8)?;
            let v: [f32; 8] = floats(geo);
            Command::Rect {
                style: style()?,
                xywh: [v[0], v[1], v[2], v[3]],
                radii: [v[4], v[5], v[6], v[7]],
            }
        }
        OP_ELLIPSE => {
            need(STYLE_WORDS + 4)?;
            Command::Ellipse { style: style()?, c: floats(geo) }
        }
        OP_ARC => {
            need(STYLE_WORDS + 7)?;
            let mode = match geo[6] {
                0 => ArcMode::Default,
                1 => ArcMode::Open,
                2 => ArcMode::Chord,
                3 => ArcMode::Pie,
                _ => return Err(StreamError::BadPayload { at }),
            };
            Command::Arc { style: style()?, c: floats(geo), mode }
        }
        OP_LINE => {
            need(STYLE_WORDS + 4)?;
            Command::Line { style: style()?, p: floats(geo) }
        }
        OP_POINT => {
            need(STYLE_WORDS + 2)?;
            Command::Point { style: style()?, p: floats(geo) }
        }
        OP_DASH => {
            if body.is_empty() || body.len() % 2 == 0 {
                return Err(StreamError::BadLength { at });
            }
            Command::Dash { offset: f(body[0]), lens: &body[1..] }
        }
        OP_BLEND => {
            need(1)?;
            let mode = BlendOp::ALL.get(body[0] as usize).ok_or(StreamError::BadPayload { at })?;
            Command::Blend(*mode)
        }
        OP_SHADOW => {
            need(4)?;
            Command::Shadow(Shadow { blur: f(body[0]), color: Rgba::from_word(body[1]), offset: [f(body[2]), f(body[3])] })
        }
        OP_TEXT => {
            if body.len() < STYLE_WORDS + 2 || (body.len() - STYLE_WORDS - 2) % 3 != 0 {
                return Err(StreamError::BadLength { at });
            }
            Command::Text { style: style()?, face: geo[0], size: f(geo[1]), glyphs: &geo[2..] }
        }
        _ => {
            // OP_PATH
            if body.len() < STYLE_WORDS {
                return Err(StreamError::BadLength { at });
            }
            let verbs = Verbs::parse(geo).ok_or(StreamError::BadPayload { at })?;
            Command::Path { style: style()?, verbs }
        }
    };
    Ok((c, len))
}

/// Builds a command stream; used by tests, benchmarks and anyone feeding the
/// rasterizer from Rust. Mirrors what the p5 shim writes.
#[derive(Clone, Debug, Default)]
pub struct CommandWriter {
    words: Vec<u32>,
}

impl CommandWriter {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }
    /// The words written so far.
    pub fn words(&self) -> &[u32] {
        &self.words
    }
    /// Forgets all commands, keeping the allocation.
    pub fn clear(&mut self) {
        self.words.clear();
    }
    fn header(&mut self, op: u32, len: usize) {
        self.words.push(op);
        self.words.push(len as u32);
    }
    fn style(&mut self, s: &Style) {
        self.words.push(s.fill.to_word());
        self.words.push(s.stroke.to_word());
        self.words.push(s.weight.to_bits());
        let cap = match s.cap {
            Cap::Butt => 0,
            Cap::Round => 1,
            Cap::Square => 2,
        };
        let join = match s.join {
            Join::Miter => 0,
            Join::Bevel => 1,
            Join::Round => 2,
        };
        self.words.push(cap | join << 8);
        self.words.extend(s.matrix.iter().map(|v| v.to_bits()));
    }
    fn fl(&mut self, v: &[f32]) {
        self.words.extend(v.iter().map(|v| v.to_bits()));
    }
    /// `JG_OP_CANVAS w h`.
    pub fn canvas(&mut self, w: f32, h: f32) -> &mut Self {
        self.header(OP_CANVAS, 4);
        self.fl(&[w, h]);
        self
    }
    /// `JG_OP_BACKGROUND rgba`.
    pub fn background(&mut self, c: Rgba) -> &mut Self {
        self.header(OP_BACKGROUND, 3);
        self.words.push(c.to_word());
        self
    }
    /// `JG_OP_CLEAR`.
    pub fn clear_canvas(&mut self) -> &mut Self {
        self.header(OP_CLEAR, 2);
        self
    }
    /// `JG_OP_RECT` with square corners.
    pub fn rect(&mut self, s: &Style, x: f32, y: f32, w: f32, h: f32) -> &mut Self {
        self.rounded_rect(s, x, y, w, h, [0.0; 4])
    }
    /// `JG_OP_RECT` with corner radii tl tr br bl.
    pub fn rounded_rect(&mut self, s: &Style, x: f32, y: f32, w: f32, h: f32, r: [f32; 4]) -> &mut Self {
        self.header(OP_RECT, RECT_WORDS);
        self.style(s);
        self.fl(&[x, y, w, h]);
        self.fl(&r);
        self
    }
    /// `JG_OP_ELLIPSE cx cy rx ry`.
    pub fn ellipse(&mut self, s: &Style, cx: f32, cy: f32, rx: f32, ry: f32) -> &mut Self {
        self.header(OP_ELLIPSE, 2 + STYLE_WORDS + 4);
        self.style(s);
        self.fl(&[cx, cy, rx, ry]);
        self
    }
    /// `JG_OP_ARC cx cy rx ry start stop mode`.
    #[allow(clippy::too_many_arguments)]
    pub fn arc(&mut self, s: &Style, cx: f32, cy: f32, rx: f32, ry: f32, start: f32, stop: f32, mode: ArcMode) -> &mut Self {
        self.header(OP_ARC, 2 + STYLE_WORDS + 7);
        self.style(s);
        self.fl(&[cx, cy, rx, ry, start, stop]);
        self.words.push(match mode {
            ArcMode::Default => 0,
            ArcMode::Open => 1,
            ArcMode::Chord => 2,
            ArcMode::Pie => 3,
        });
        self
    }
    /// `JG_OP_LINE x1 y1 x2 y2`.
    pub fn line(&mut self, s: &Style, x1: f32, y1: f32, x2: f32, y2: f32) -> &mut Self {
        self.header(OP_LINE, 2 + STYLE_WORDS + 4);
        self.style(s);
        self.fl(&[x1, y1, x2, y2]);
        self
    }
    /// `JG_OP_POINT x y`.
    pub fn point(&mut self, s: &Style, x: f32, y: f32) -> &mut Self {
        self.header(OP_POINT, 2 + STYLE_WORDS + 2);
        self.style(s);
        self.fl(&[x, y]);
        self
    }
    /// `JG_OP_PATH` from verbs.
    pub fn path(&mut self, s: &Style, verbs: &[Verb]) -> &mut Self {
        let start = self.words.len();
        self.header(OP_PATH, 0);
        self.style(s);
        for v in verbs {
            match *v {
                Verb::Move(x, y) => {
                    self.words.push(VERB_MOVE);
                    self.fl(&[x, y]);
                }
                Verb::Line(x, y) => {
                    self.words.push(VERB_LINE);
                    self.fl(&[x, y]);
                }
                Verb::Quad(a, b, c, d) => {
                    self.words.push(VERB_QUAD);
                    self.fl(&[a, b, c, d]);
                }
                Verb::Cubic(a, b, c, d, e, f) => {
                    self.words.push(VERB_CUBIC);
                    self.fl(&[a, b, c, d, e, f]);
                }
                Verb::Close => self.words.push(VERB_CLOSE),
            }
        }
        self.words[start + 1] = (self.words.len() - start) as u32;
        self
    }
    /// `JG_OP_TEXT`: glyphs `(id, x, y)` of face `face` at `size`.
    pub fn text(&mut self, s: &Style, face: u32, size: f32, glyphs: &[(u32, f32, f32)]) -> &mut Self {
        self.header(OP_TEXT, 2 + STYLE_WORDS + 2 + 3 * glyphs.len());
        self.style(s);
        self.words.push(face);
        self.words.push(size.to_bits());
        for &(g, x, y) in glyphs {
            self.words.extend_from_slice(&[g, x.to_bits(), y.to_bits()]);
        }
        self
    }
    /// `JG_OP_SHADOW blur rgba ox oy`.
    pub fn shadow(&mut self, sh: &Shadow) -> &mut Self {
        self.header(OP_SHADOW, 6);
        self.fl(&[sh.blur]);
        self.words.push(sh.color.to_word());
        self.fl(&sh.offset);
        self
    }
    /// `JG_OP_DASH offset lengths...` (an even number of lengths).
    pub fn dash(&mut self, offset: f32, lens: &[f32]) -> &mut Self {
        self.header(OP_DASH, 3 + lens.len());
        self.fl(&[offset]);
        self.fl(lens);
        self
    }
    /// `JG_OP_BLEND mode`.
    pub fn blend(&mut self, op: BlendOp) -> &mut Self {
        self.header(OP_BLEND, 3);
        self.words.push(BlendOp::ALL.iter().position(|&o| o == op).expect("every op is listed") as u32);
        self
    }
    /// Appends raw words (for malformed-stream tests).
    pub fn raw(&mut self, w: &[u32]) -> &mut Self {
        self.words.extend_from_slice(w);
        self
    }
}
