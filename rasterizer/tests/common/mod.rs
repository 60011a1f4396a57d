//! Shared helpers of the integration tests: styles, canvases, a minimal PNG codec
//! (stored deflate blocks only: enough for our own goldens) and golden comparison.
#![allow(dead_code)]

use std::path::PathBuf;

use jsgym_native::command::{Cap, Join};
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba, Style};

pub const WHITE: Rgba = Rgba::new(255, 255, 255, 255);
pub const BLACK: Rgba = Rgba::new(0, 0, 0, 255);
pub const NONE: Rgba = Rgba::new(0, 0, 0, 0);

/// Fill only, identity matrix.
pub fn fill(c: Rgba) -> Style {
    Style { fill: c, stroke: NONE, ..Style::default() }
}

/// Stroke only.
pub fn stroke(c: Rgba, weight: f32, cap: Cap, join: Join) -> Style {
    Style { fill: NONE, stroke: c, weight, cap, join, ..Style::default() }
}

/// The style with another matrix.
pub fn with_matrix(s: Style, m: [f32; 6]) -> Style {
    Style { matrix: m, ..s }
}

/// Rotation by `a` radians about (cx, cy), canvas 2D order.
pub fn rotation_about(a: f32, cx: f32, cy: f32) -> [f32; 6] {
    let (s, c) = a.sin_cos();
    // translate(cx, cy) * rotate(a) * translate(-cx, -cy)
    [c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy]
}

pub fn canvas(w: u32, h: u32) -> Canvas {
    Canvas::new(w, h, Fit::Stretch, 1).expect("valid canvas")
}

/// Total coverage of the stream's shapes on a `w x h` canvas with identity mapping.
pub fn coverage(w: u32, h: u32, cw: &CommandWriter) -> Vec<f32> {
    canvas(w, h).coverage_of(cw.words()).expect("stream is well formed")
}

pub fn sum(v: &[f32]) -> f64 {
    v.iter().map(|&x| x as f64).sum()
}

pub fn assert_rel(actual: f64, expected: f64, rel: f64, what: &str) {
    let err = (actual - expected).abs() / expected.abs().max(1e-12);
    assert!(err <= rel, "{what}: got {actual}, expected {expected} (relative error {err:.2e} > {rel:.0e})");
}

pub fn read_rgb(c: &Canvas) -> Vec<u8> {
    let mut out = vec![0u8; 3 * c.obs_width() * c.obs_height()];
    assert!(c.read_rgb(&mut out));
    out
}

pub fn px(rgb: &[u8], w: usize, x: usize, y: usize) -> [u8; 3] {
    let i = 3 * (y * w + x);
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

// ---------------------------------------------------------------- PNG (RGB8) codec

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, t) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *t = c;
    }
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c = table[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFF_FFFF
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    b << 16 | a
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// Encodes packed RGB8 as a PNG with stored (uncompressed) deflate blocks.
pub fn encode_png(w: usize, h: usize, rgb: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(h * (3 * w + 1));
    for row in rgb.chunks_exact(3 * w) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, b) in blocks.iter().enumerate() {
        z.push(if i + 1 == blocks.len() { 1 } else { 0 });
        z.extend_from_slice(&(b.len() as u16).to_le_bytes());
        z.extend_from_slice(&(!(b.len() as u16)).to_le_bytes());
        z.extend_from_slice(b);
    }
    z.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Decodes a PNG written by [`encode_png`]; `None` for anything else.
pub fn decode_png(data: &[u8]) -> Option<(usize, usize, Vec<u8>)> {
    if data.get(..8)? != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let (mut i, mut w, mut h, mut z) = (8, 0, 0, Vec::new());
    while i + 8 <= data.len() {
        let len = u32::from_be_bytes(data[i..i + 4].try_into().ok()?) as usize;
        let kind = &data[i + 4..i + 8];
        let body = data.get(i + 8..i + 8 + len)?;
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(body[0..4].try_into().ok()?) as usize;
                h = u32::from_be_bytes(body[4..8].try_into().ok()?) as usize;
                if body[8..13] != [8, 2, 0, 0, 0] {
                    return None;
                }
            }
            b"IDAT" => z.extend_from_slice(body),
            _ => {}
        }
        i += 12 + len;
    }
    let mut raw = Vec::new();
    let mut j = 2;
    loop {
        let hdr = *z.get(j)?;
        if hdr & 6 != 0 {
            return None; // compressed block: not ours
        }
        let len = u16::from_le_bytes(z.get(j + 1..j + 3)?.try_into().ok()?) as usize;
        raw.extend_from_slice(z.get(j + 5..j + 5 + len)?);
        j += 5 + len;
        if hdr & 1 != 0 {
            break;
        }
    }
    let mut rgb = Vec::with_capacity(3 * w * h);
    for row in raw.chunks_exact(3 * w + 1) {
        if row[0] != 0 {
            return None;
        }
        rgb.extend_from_slice(&row[1..]);
    }
    (rgb.len() == 3 * w * h).then_some((w, h, rgb))
}

// ---------------------------------------------------------------- goldens

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares `rgb` with `tests/golden/<name>.png` exactly. With
/// `JSGYM_UPDATE_GOLDENS=1` the golden is (re)written instead. On mismatch the actual
/// image and a diff image (|difference| x 8, red where any channel differs) go to
/// `target/golden-failures/` and the test fails saying so.
pub fn check_golden(name: &str, w: usize, h: usize, rgb: &[u8]) {
    let golden = crate_dir().join("tests/golden").join(format!("{name}.png"));
    if std::env::var("JSGYM_UPDATE_GOLDENS").map_or(false, |v| v == "1") {
        std::fs::write(&golden, encode_png(w, h, rgb)).expect("write golden");
        return;
    }
    let data = std::fs::read(&golden).unwrap_or_else(|e| {
        panic!("golden {} unreadable ({e}); run with JSGYM_UPDATE_GOLDENS=1 to create it", golden.display())
    });
    let (gw, gh, expected) = decode_png(&data).expect("golden is a PNG written by encode_png");
    let same_size = gw == w && gh == h;
    let mismatches = if same_size { rgb.chunks(3).zip(expected.chunks(3)).filter(|(a, b)| a != b).count() } else { w * h };
    if mismatches == 0 {
        return;
    }
    let dir = crate_dir().join("target/golden-failures");
    std::fs::create_dir_all(&dir).expect("create failure dir");
    let actual_path = dir.join(format!("{name}.actual.png"));
    std::fs::write(&actual_path, encode_png(w, h, rgb)).expect("write actual");
    let mut diff = vec![0u8; 3 * w * h];
    if same_size {
        for (i, (a, b)) in rgb.chunks(3).zip(expected.chunks(3)).enumerate() {
            let d = (0..3).map(|k| (a[k] as i32 - b[k] as i32).unsigned_abs()).max().unwrap_or(0);
            if d > 0 {
                diff[3 * i] = 255;
                diff[3 * i + 1] = (d * 8).min(255) as u8;
            }
        }
    }
    let diff_path = dir.join(format!("{name}.diff.png"));
    std::fs::write(&diff_path, encode_png(w, h, &diff)).expect("write diff");
    panic!(
        "golden {name}: {mismatches} pixels differ (golden {gw}x{gh}, actual {w}x{h}); wrote {} and {}; \
         if the change is intended, rerun with JSGYM_UPDATE_GOLDENS=1",
        actual_path.display(),
        diff_path.display()
    );
}
