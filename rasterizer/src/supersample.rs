//! Supersampling: a canvas drawn at `ss` times the observation size in each direction
//! is read back as the mean of each `ss x ss` block (the box filter the browser's
//! downscaled frame converges to).

/// Box filter of `SS x SS` blocks of `pixels` (RGB, `w` a row) into `dst` (`obs_w x
/// obs_h`), rounding half up. `SS` is a constant so the
/// division compiles to a multiply.
pub(crate) fn box_filter<const SS: usize>(pixels: &[u8], w: usize, obs_w: usize, obs_h: usize, dst: &mut [u8]) {
    const CHUNK: usize = 64; // output pixels per pass: a small stack buffer
    let div = (SS * SS) as u16;
    let ow3 = 3 * obs_w;
    let w3 = 3 * w;
    let mut buf = [0u16; 3 * CHUNK * 4];
    for oy in 0..obs_h {
        let block = &pixels[oy * SS * w3..][..SS * w3];
        let out_row = &mut dst[oy * ow3..][..ow3];
        for (ci, out) in out_row.chunks_mut(3 * CHUNK).enumerate() {
            // Column sums of SS rows (u16: at most 16 * 255), then SS-pixel groups.
            let n = out.len() * SS;
            let x0 = ci * 3 * CHUNK * SS;
            let sums = &mut buf[..n];
            sums.iter_mut().zip(&block[x0..x0 + n]).for_each(|(s, &p)| *s = p as u16);
            for r in 1..SS {
                let row = &block[r * w3 + x0..][..n];
                sums.iter_mut().zip(row).for_each(|(s, &p)| *s += p as u16);
            }
            for (o, g) in out.chunks_exact_mut(3).zip(sums.chunks_exact(3 * SS)) {
                let mut a = [0u16; 3];
                for sub in g.chunks_exact(3) {
                    a[0] += sub[0];
                    a[1] += sub[1];
                    a[2] += sub[2];
                }
                for k in 0..3 {
                    o[k] = ((a[k] + div / 2) / div) as u8;
                }
            }
        }
    }
}
