#!/usr/bin/env bash
# Builds the native library (QuickJS + runtime/ + p5shim/ + the rasterizer) with a
# sanitizer and runs a quick pytest subset against it:
#
#   bash scripts/sanitize.sh asan    # AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer)
#   bash scripts/sanitize.sh tsan    # ThreadSanitizer
#   bash scripts/sanitize.sh asan -k throw   # extra arguments go to pytest
#
# The library goes to .cache/<mode>/ (a separate cargo target dir, so the installed
# build is untouched) and is loaded through JSGYM_NATIVE_LIB (jsgym/_core.py), with the
# sanitizer runtime LD_PRELOADed into the (uninstrumented) Python interpreter. The
# sanitizer logs go to .cache/<mode>-logs/; the script fails if any report names our
# code or QuickJS. Reports that are QuickJS's own, known and benign are suppressed in
# the generated suppression files below, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-}
shift || true
case "$MODE" in
  asan) CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
        RUNTIMES="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" ;;
  tsan) CFLAGS="-fsanitize=thread -fno-omit-frame-pointer"
        RUNTIMES="$(gcc -print-file-name=libtsan.so)" ;;
  *) echo "usage: bash scripts/sanitize.sh asan|tsan [pytest args]" >&2; exit 2 ;;
esac
TARGET=$ROOT/.cache/$MODE
LOGS=$ROOT/.cache/$MODE-logs
LIB=$TARGET/release/libjsgym_native.so

echo "== build ($MODE): JSGYM_CFLAGS='$CFLAGS' into $TARGET"
(cd rasterizer && JSGYM_CFLAGS="$CFLAGS" CARGO_TARGET_DIR="$TARGET" cargo build --release --quiet)
test -f "$LIB"

rm -rf "$LOGS" && mkdir -p "$LOGS"
# Suppressions: QuickJS (third-party, pinned) only. Nothing of ours is suppressed.
cat > "$LOGS/supp-ubsan.txt" <<'EOF'
# quickjs.c builds 32-bit words with `byte << 24` on int (e.g. reading bytecode and
# unicode tables): UB for bytes >= 128 in ISO C, well-defined two's complement in GCC.
shift-base:quickjs.c
shift-base:libregexp.c
shift-base:libunicode.c
EOF
cat > "$LOGS/supp-tsan.txt" <<'EOF'
# The uninstrumented CPython interpreter and its C extensions (numpy, cffi) are opaque
# to TSan; races are only meaningful in our library.
called_from_lib:libpython3
EOF
cat > "$LOGS/supp-lsan.txt" <<'EOF'
# CPython keeps interned objects, module state and arena memory until exit on purpose.
leak:libpython3
leak:_PyObject
leak:PyObject_Malloc
leak:_PyMem
leak:PyMem_
leak:_multiarray_umath
leak:_cffi_backend
EOF

# The quick subset: the error paths, the hostile corpus, the sandbox claims and the
# short soak, plus a little of the happy path.
TESTS=(tests/test_errors.py tests/test_corpus.py tests/test_sandbox.py tests/test_soak.py
       tests/test_step_semantics.py)
PY=$(python3 -c 'import sys; print(sys.executable)')  # the real interpreter, not a shim script
export JSGYM_NATIVE_LIB=$LIB
export PYTHONMALLOC=malloc  # every Python allocation through malloc, so ASan sees it too
export ASAN_OPTIONS="detect_leaks=1:log_path=$LOGS/asan:halt_on_error=0:abort_on_error=0:detect_stack_use_after_return=0:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$LOGS/supp-lsan.txt:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0:log_path=$LOGS/ubsan:suppressions=$LOGS/supp-ubsan.txt"
export TSAN_OPTIONS="log_path=$LOGS/tsan:halt_on_error=0:second_deadlock_stack=1:suppressions=$LOGS/supp-tsan.txt:report_signal_unsafe=0"
# Timing-based limits need slack under a sanitizer (2-15x slower).
export JSGYM_SANITIZER=$MODE

echo "== pytest under $MODE (${TESTS[*]})"
set +e
# --capture=sys: pytest must not swallow what the sanitizers write to fd 2
LD_PRELOAD="$RUNTIMES" "$PY" -m pytest -q -p no:cacheprovider --capture=sys -m "not slow" "${TESTS[@]}" "$@" \
  2>&1 | tee "$LOGS/pytest.log"
status=${PIPESTATUS[0]}
set -e

echo "== sanitizer reports in $LOGS"
reports=0
OURS="runtime/|p5shim/|rasterizer/|quickjs|libregexp|libunicode|dtoa|jsgym_native"
for f in "$LOGS"/asan.* "$LOGS"/ubsan.* "$LOGS"/tsan.*; do
  [ -f "$f" ] || continue
  # a report counts when one of its frames is in our code or in QuickJS (not in
  # CPython, numpy, git or the shell that the tests also start)
  if grep -qE "$OURS" "$f"; then
    echo "--- $f"
    grep -E "^(==|WARNING|SUMMARY|ERROR)|$OURS" "$f" | head -40
    reports=$((reports + 1))
  fi
done
# UBSan prints to stderr when it has no log file of its own
ub=$(grep -E "runtime error:" "$LOGS/pytest.log" | grep -E "$OURS" | sort | uniq -c || true)
if [ -n "$ub" ]; then
  echo "--- UBSan (stderr)"; echo "$ub"
  reports=$((reports + $(echo "$ub" | wc -l)))
fi
echo "$reports sanitizer report(s) naming jsgym or QuickJS; pytest exit status $status"
[ "$reports" -eq 0 ] && [ "$status" -eq 0 ]
