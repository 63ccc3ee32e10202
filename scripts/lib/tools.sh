# shellcheck shell=bash
# The tools the test suites need beyond Rust, each installed only when it
# is missing, from the registries this project may reach (npm, Debian,
# PyPI, the Rust toolchain's own server, the crate registry). Sourced by
# scripts/test-all (which runs them in the background while Rust compiles),
# scripts/test-mobile, scripts/test-python and scripts/fuzz-smoke: one
# installer for each tool.
#
# Every function expects `root` (the repository) and honours
# CARGO_TARGET_DIR.

tools_target_dir() { echo "${CARGO_TARGET_DIR:-$root/target}"; }

# kotlinc from npm, into .tools/ (ignored by git).
tools_kotlin() {
  local home=$root/.tools/node_modules/kotlin-compiler
  if [ ! -x "$home/bin/kotlinc" ]; then
    npm install --prefix "$root/.tools" --no-audit --no-fund --loglevel=error kotlin-compiler@2.4.20
  fi
}

# JNA (Kotlin calls the Rust library through it) and a Java runtime, from Debian.
tools_jna() {
  if [ ! -f /usr/share/java/jna.jar ] || ! command -v java >/dev/null; then
    apt-get update -qq && apt-get install -y -qq libjna-java default-jre-headless >/dev/null
  fi
}

# The Swift checks' parser (tree-sitter-swift), in a venv of its own.
tools_swift_parser() {
  local venv
  venv=$(tools_target_dir)/mobile-venv
  if ! "$venv/bin/python" -c 'import tree_sitter, tree_sitter_swift' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check tree-sitter==0.26.1 tree-sitter-swift==0.7.4
  fi
}

# The Android and iOS standard libraries (best effort: scripts/test-mobile
# says which it needs and what to do without them).
tools_mobile_targets() {
  local installed t
  installed=$(rustup target list --installed)
  # The targets scripts/test-mobile builds or checks.
  for t in aarch64-linux-android aarch64-apple-ios armv7-linux-androideabi; do
    grep -qx "$t" <<<"$installed" || RUST_BACKTRACE=0 rustup target add "$t" || true
  done
}

# The nightly toolchain and cargo-fuzz. cargo-fuzz is a small command whose
# speed does not matter: built without optimization or LTO, it takes a
# fraction of a release build's time.
tools_fuzz() {
  if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
  fi
  if ! cargo fuzz --version >/dev/null 2>&1; then
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
      cargo install cargo-fuzz --locked --quiet
  fi
}

# The Python test venv (pytest, mypy, Dask, Jupyter, ...): target/python/venv-test
# (under the repository's target/ whatever CARGO_TARGET_DIR says, as
# scripts/test-python keeps it).
tools_python_test_venv() {
  local python=${PYTHON:-python3} work=$root/target/python
  mkdir -p "$work"
  if [ ! -x "$work/venv-test/bin/python" ]; then
    "$python" -m venv "$work/venv-test"
  fi
  "$work/venv-test/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/python/requirements-test.txt"
}

# The peers' venv (.venv): the plain-Python parity battles and their tests.
tools_peers_venv() {
  local python=${PYTHON:-python3}
  if [ ! -x "$root/.venv/bin/python" ]; then
    "$python" -m venv "$root/.venv"
  fi
  "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/benches/peers/requirements-test.txt"
}

# The toolchains, one rustup at a time: the phones' standard libraries,
# then nightly and cargo-fuzz.
tools_toolchains() {
  tools_mobile_targets
  tools_fuzz
}
