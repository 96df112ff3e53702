#!/usr/bin/env bash
# Installs conch the way a user does, on a machine with no compiler: `npm pack` this checkout, then
# `npm install` the tarball into an empty folder with a PATH that holds only node, npm and sh (no
# python, make, g++ or cc: node-pty's own build is tried and fails), then runs `conch --agent demo
# -p hello`, and a demo prompt that runs a command in a PTY. Exits non-zero, saying what failed, if
# any step does. CI runs it (.ci/run).
#
#   scripts/install-check.sh            (needs the npm registry; about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/conch-install-check.XXXXXX")
# INSTALL_CHECK_KEEP=1 keeps the folder (install log, the installed conch) to look into.
if [ "${INSTALL_CHECK_KEEP:-}" = 1 ]; then trap 'echo "install-check: kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi

say() { printf 'install-check: %s\n' "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}

# 1. The package as npm would publish it.
say "npm pack (builds conch)"
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
[ -f "$work/$tarball" ] || fail "npm pack made no tarball"

# 2. A PATH with node, npm and sh (npm runs install scripts with it; every machine has one), and
# nothing else: so node-pty's own build is tried, as on a user's machine, and finds no toolchain.
mkdir -p "$work/bin" "$work/app"
node_bin=$(command -v node)
npm_cli=$(node -p 'require("fs").realpathSync(process.argv[1])' "$(command -v npm)")
ln -s "$node_bin" "$work/bin/node"
ln -s "$(command -v sh)" "$work/bin/sh"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_bin" "$npm_cli" >"$work/bin/npm"
chmod +x "$work/bin/npm"
clean="$work/bin"
# Everything npm and conch run below sees this PATH; the script's own tools (ls, tail) keep theirs.
in_clean() { PATH="$clean" "$@"; }
for tool in python python3 make g++ gcc cc c++ clang; do
  if (PATH="$clean" && command -v "$tool" >/dev/null 2>&1); then fail "$tool is on the clean PATH"; fi
done
say "PATH=$clean: node $(in_clean node --version), npm $(in_clean npm --version), sh; no python, make or C/C++ compiler"

# 3. The install.
cd "$work/app"
in_clean npm init -y >/dev/null
say "npm install $tarball"
in_clean npm install --no-audit --no-fund --foreground-scripts --loglevel=verbose "$work/$tarball" >"$work/install.log" 2>&1 || {
  tail -n 40 "$work/install.log"
  fail "npm install failed"
}
[ -f node_modules/@lydell/node-pty/index.js ] || fail "@lydell/node-pty was not installed"
prebuilt=$(ls node_modules/@lydell/node-pty-*/pty.node 2>/dev/null | head -n 1 || true)
[ -n "$prebuilt" ] || fail "no prebuilt PTY binary for $(node -p 'process.platform + "-" + process.arch')"
say "prebuilt PTY binary: ${prebuilt#node_modules/}"
if [ -f node_modules/node-pty/build/Release/pty.node ]; then
  fail "node-pty (the optional fallback) was compiled: a compiler was reachable after all"
elif [ -d node_modules/node-pty ]; then
  say "node-pty (the optional fallback) is present but not built: its build was skipped"
elif grep -q "gyp ERR! find Python" "$work/install.log"; then
  say "node-pty (the optional fallback) was left out: its build failed (gyp ERR! find Python), and it is optional"
else
  say "node-pty (the optional fallback) was left out: $(grep -m1 "failed optional dependency.*node-pty" "$work/install.log" || echo "not installed")"
fi

# 4. conch runs: a prompt, and a prompt whose answer runs a command in a PTY.
conch=node_modules/.bin/conch
code=0
out=$(in_clean "$conch" --agent demo -p hello 2>"$work/err1") || code=$?
if [ "$code" != 0 ]; then
  cat "$work/err1"
  fail "conch --agent demo -p hello exited $code"
fi
[ -n "$out" ] || fail "conch --agent demo -p hello printed nothing"
say "conch --agent demo -p hello: exit 0, \"$(printf '%s' "$out" | head -n 1)\""
# The demo's command is a shell script: a machine without a compiler still has sh, printf and sleep.
mkdir -p "$work/run-bin"
for tool in printf sleep; do ln -s "$(command -v "$tool")" "$work/run-bin/$tool"; done
json=$(PATH="$clean:$work/run-bin" "$conch" --agent demo -p run --permissions approve-all --output-format json 2>"$work/err2") || code=$?
if [ "$code" != 0 ]; then
  cat "$work/err2"
  printf '%s\n' "$json"
  fail "conch --agent demo -p run exited $code"
fi
node -e '
  const r = JSON.parse(process.argv[1]);
  const calls = r.toolCalls.map((t) => `${t.title} ${t.status}`);
  if (r.exitCode !== 0 || !r.toolCalls.some((t) => t.kind === "execute" && t.status === "completed")) {
    console.error(`install-check: FAILED: the demo command did not complete in a PTY: ${JSON.stringify(calls)}`);
    process.exit(1);
  }
  console.log(`install-check: conch --agent demo -p run: exit 0, the command ran in a PTY: ${calls.join(", ")}`);
' "$json"
say "ok: conch installs and runs with no compiler ($(du -sh node_modules | cut -f1) of node_modules)"
