//! Build script: compiles QuickJS, `runtime/` and `p5shim/` (C) with the system C
//! compiler into a static archive linked into the cdylib, exports the `jg_*` C ABI,
//! and writes the cffi-ready header that maturin reads (`target/header.h`).
//!
//! QuickJS is third-party source and is never committed: `runtime/fetch_quickjs.py`
//! downloads the pinned sdist with pip, checks its sha256 and unpacks it into
//! `.cache/quickjs/` (the build says so on stderr when it does). Environment:
//! - `JSGYM_QUICKJS=bellard|ng` picks the pinned engine (default: bellard);
//! - `JSGYM_QUICKJS_DIR=/path` builds from a local QuickJS tree instead (offline
//!   builds, or another release to compare);
//! - `JSGYM_CFLAGS` appends compiler flags (e.g. sanitizers);
//! - `CC` picks the compiler (default `cc`).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=JSGYM_QUICKJS");
    println!("cargo:rerun-if-env-changed=JSGYM_QUICKJS_DIR");
    println!("cargo:rerun-if-env-changed=JSGYM_CFLAGS");
    println!("cargo:rerun-if-env-changed=CC");
    if env::var_os("CARGO_FEATURE_NATIVE_RUNTIME").is_none() {
        return;
    }
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = crate_dir.parent().unwrap().to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    for dir in ["runtime", "p5shim", "rasterizer/include"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }

    let qjs = quickjs_tree(&root);
    let is_ng = fs::read_to_string(qjs.join("quickjs.h"))
        .map(|h| h.contains("QJS_VERSION_MAJOR"))
        .unwrap_or(false);
    let version = fs::read_to_string(qjs.join("VERSION"))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());

    let gen_include = out.join("include");
    fs::create_dir_all(&gen_include).unwrap();
    // Every JS prelude of the shim, in the order the generator's PRELUDES lists them.
    run(Command::new(python())
        .arg(root.join("p5shim/embed_prelude.py"))
        .arg(gen_include.join("p5shim_prelude.h")));

    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    let mut common: Vec<String> = vec![
        "-c".into(),
        "-O2".into(),
        "-fPIC".into(),
        "-g".into(),
        // Same rounding as V8: no fused multiply-add contraction anywhere.
        "-ffp-contract=off".into(),
        "-fno-strict-aliasing".into(),
        // -fPIC alone lets the compiler assume any exported function may be replaced at
        // load time, so it never inlines QuickJS's public API (JS_FreeValue's slow
        // path, JS_ToFloat64, ...) into the interpreter or the shim; the library
        // exports only jg_* anyway. 2-6% on logic-heavy games.
        "-fno-semantic-interposition".into(),
        "-D_GNU_SOURCE".into(),
        format!("-DCONFIG_VERSION=\"{version}\""),
        format!("-I{}", qjs.display()),
        format!("-I{}", root.join("runtime/include").display()),
        format!("-I{}", root.join("runtime").display()),
        format!("-I{}", root.join("p5shim/include").display()),
        format!("-I{}", root.join("rasterizer/include").display()),
        format!("-I{}", gen_include.display()),
    ];
    if let Ok(extra) = env::var("JSGYM_CFLAGS") {
        common.extend(extra.split_whitespace().map(String::from));
    }

    let mut objects = Vec::new();
    // The QuickJS release's own translation units (cutils.c exists in Bellard's only).
    let mut qjs_sources = vec!["quickjs.c", "libregexp.c", "libunicode.c", "dtoa.c"];
    if qjs.join("cutils.c").exists() {
        qjs_sources.push("cutils.c");
    }
    for name in qjs_sources {
        let mut flags = common.clone();
        flags.push("-w".into());
        flags.extend(math_redirects(&root));
        // quickjs.c comes in through runtime/engine/quickjs_unit.c, which adds the object
        // constructors of runtime/engine/engine.h inside its unit
        let src = if name == "quickjs.c" {
            if is_ng {
                flags.push("-DJG_QUICKJS_NG".into());
            } else {
                // the release's quickjs.c with the number fast paths of
                // runtime/engine/patch_quickjs.py, found before the original
                let patched = out.join("quickjs_patched");
                run(Command::new(python())
                    .arg(root.join("runtime/engine/patch_quickjs.py"))
                    .arg(qjs.join("quickjs.c"))
                    .arg(patched.join("quickjs.c")));
                flags.insert(0, format!("-I{}", patched.display()));
            }
            root.join("runtime/engine/quickjs_unit.c")
        } else {
            qjs.join(name)
        };
        objects.push(compile(&cc, &flags, &src, &out.join(format!("quickjs_{name}.o"))));
    }
    let mut ours = common.clone();
    ours.extend(["-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers"].map(String::from));
    ours.extend(freetype_flags());
    for dir in ["runtime", "p5shim"] {
        for src in c_files(&root.join(dir)) {
            let rel = src.strip_prefix(&root).unwrap().to_string_lossy().replace('/', "_");
            objects.push(compile(&cc, &ours, &src, &out.join(format!("{rel}.o"))));
        }
    }

    let archive = out.join("libjsgym_c.a");
    let _ = fs::remove_file(&archive);
    run(Command::new("ar").arg("crs").arg(&archive).args(&objects));
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static:+whole-archive=jsgym_c");
    println!("cargo:rustc-link-lib=dylib=m");
    println!("cargo:rustc-link-lib=dylib=pthread");
    println!("cargo:rustc-link-lib=dylib=dl");
    // rustc's version script keeps only Rust symbols; a second one exports the C ABI.
    let map = out.join("jsgym_exports.map");
    fs::write(&map, "{ global: jg_*; };\n").unwrap();
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());
    println!("cargo:rustc-env=JSGYM_QUICKJS_ENGINE={}", if is_ng { "ng" } else { "bellard" });

    write_cffi_header(&root, &out);
    bundle_fonts(&root);
}

/// Copies the pinned font files, their licences and compiled face tables into the
/// Python package (`jsgym/_fonts/`, not in git), so that a built wheel carries them:
/// `jsgym/fonts.py bundle`. Without the fonts (Debian's fonts-dejavu-core,
/// fonts-dejavu-extra, fonts-liberation) or fontTools the build goes on and says so:
/// jsgym then looks for the fonts on the system at run time.
fn bundle_fonts(root: &Path) {
    println!("cargo:rerun-if-changed={}", root.join("jsgym/fonts.py").display());
    let out = Command::new(python())
        .arg(root.join("jsgym/fonts.py"))
        .arg("bundle")
        .arg(root.join("jsgym/_fonts"))
        .output();
    match out {
        Ok(o) if o.status.success() => {}
        Ok(o) => println!("cargo:warning={}", String::from_utf8_lossy(&o.stderr).trim()),
        Err(e) => println!("cargo:warning=fonts not bundled: {e}"),
    }
}

/// Compiler flags for runtime/hinter.c: FreeType's headers (Debian's libfreetype-dev)
/// when present. The library itself is loaded at run time (dlopen), so a build
/// without the headers only loses hinting (text is then drawn unhinted).
fn freetype_flags() -> Vec<String> {
    let from_pkg_config = Command::new("pkg-config")
        .args(["--cflags-only-I", "freetype2"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().map(String::from).collect::<Vec<_>>());
    let dirs = from_pkg_config.unwrap_or_else(|| vec!["-I/usr/include/freetype2".into()]);
    let found = dirs.iter().any(|d| Path::new(d.trim_start_matches("-I")).join("ft2build.h").exists());
    if !found {
        println!("cargo:warning=FreeType headers not found (Debian: libfreetype-dev): text will be drawn unhinted");
        return Vec::new();
    }
    let mut flags = dirs;
    flags.push("-DJG_HAVE_FREETYPE=1".into());
    flags
}

fn python() -> String {
    env::var("PYTHON_SYS_EXECUTABLE")
        .or_else(|_| env::var("PYTHON"))
        .unwrap_or_else(|_| "python3".into())
}

/// `-Dname=jg_v8_name` for every libm function that `runtime/v8math.h` says QuickJS
/// must not call directly (so that `**` and constant folding match V8 too).
fn math_redirects(root: &Path) -> Vec<String> {
    let header = fs::read_to_string(root.join("runtime/v8math.h")).unwrap_or_default();
    header
        .lines()
        .filter_map(|l| l.trim().strip_prefix("JG_V8_REDIRECT("))
        .filter_map(|rest| rest.split(')').next())
        .map(|name| format!("-D{name}=jg_v8_{name}", name = name.trim()))
        .collect()
}

fn quickjs_tree(root: &Path) -> PathBuf {
    if let Some(dir) = env::var_os("JSGYM_QUICKJS_DIR") {
        let dir = PathBuf::from(dir);
        if !dir.join("quickjs.c").exists() {
            panic!("JSGYM_QUICKJS_DIR={} holds no quickjs.c", dir.display());
        }
        return dir;
    }
    let engine = env::var("JSGYM_QUICKJS").unwrap_or_else(|_| "bellard".into());
    let output = Command::new(python())
        .arg(root.join("runtime/fetch_quickjs.py"))
        .arg(&engine)
        .output()
        .expect("running runtime/fetch_quickjs.py (needs python3 and pip)");
    if !output.status.success() {
        panic!(
            "fetching the QuickJS source failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
}

/// Every `.c` file under `dir`, recursively, except in `tests/` folders (test
/// programs with their own `main`).
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("reading {}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                // runtime/engine/ is compiled as part of QuickJS (above)
                if path.file_name().map_or(false, |n| n != "tests" && n != "engine") {
                    stack.push(path);
                }
            } else if path.extension().map_or(false, |x| x == "c") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn compile(cc: &str, flags: &[String], src: &Path, obj: &Path) -> PathBuf {
    run(Command::new(cc).args(flags).arg(src).arg("-o").arg(obj));
    obj.to_path_buf()
}

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("running {cmd:?}: {e}"));
    if !status.success() {
        panic!("command failed ({status}): {cmd:?}");
    }
}

/// cffi's cdef takes plain declarations only: drop preprocessor lines except
/// integer `#define`s, and the include guard.
fn write_cffi_header(root: &Path, out: &Path) {
    let header = fs::read_to_string(root.join("runtime/include/jsgym.h")).unwrap();
    let mut cdef = String::new();
    for line in header.lines() {
        let t = line.trim_start();
        if t.starts_with('#') {
            let parts: Vec<&str> = t.split_whitespace().collect();
            let is_int_define = parts.len() == 3
                && parts[0] == "#define"
                && parts[2].trim_end_matches('u').parse::<i64>().is_ok();
            if is_int_define {
                cdef.push_str(&format!("#define {} {}\n", parts[1], parts[2].trim_end_matches('u')));
            }
            continue;
        }
        cdef.push_str(line);
        cdef.push('\n');
    }
    fs::write(out.join("jsgym_cdef.h"), &cdef).unwrap();
    // maturin's cffi mode reads <target dir>/header.h.
    if let Some(target) = target_dir(out) {
        fs::create_dir_all(&target).unwrap();
        fs::write(target.join("header.h"), &cdef).unwrap();
    }
}

/// Cargo's target directory: `CARGO_TARGET_DIR`, else the `target` folder that
/// holds OUT_DIR, else `<crate>/target` (where maturin looks by default).
fn target_dir(out: &Path) -> Option<PathBuf> {
    if let Ok(dir) = env::var("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = out.ancestors().find(|p| p.file_name().map_or(false, |n| n == "target")) {
        return Some(dir.to_path_buf());
    }
    env::var("CARGO_MANIFEST_DIR").ok().map(|d| PathBuf::from(d).join("target"))
}
