#!/usr/bin/env bash
# Runs a command with Node >= 22.12 on PATH. Astro 7, wrangler 4 and vitest 5 need it, and many
# machines still ship Node 20, so when the system's Node is older we bring Node 24 from the npm
# registry (node-<os>-<arch>, a binary inside a registry package) into .tools/ once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

node_is_new_enough() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_is_new_enough; then
  tools="$root/.tools/node24"
  if [ ! -x "$tools/bin/node" ]; then
    os=$(uname -s | tr '[:upper:]' '[:lower:]')
    case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
    pkg="node-$os-$arch@24"
    echo "[with-node] system Node is $(node --version 2>/dev/null || echo missing); installing $pkg into .tools/" >&2
    rm -rf "$root/.tools/node24-install"
    mkdir -p "$root/.tools/node24-install"
    npm install --prefix "$root/.tools/node24-install" --no-save --no-package-lock --no-audit --no-fund \
      --ignore-scripts "$pkg" >&2
    rm -rf "$tools"
    mv "$root/.tools/node24-install/node_modules/node-$os-$arch" "$tools"
    rm -rf "$root/.tools/node24-install"
    chmod +x "$tools/bin/node"
  fi
  export PATH="$tools/bin:$PATH"
fi

# npm scripts prepend node_modules/.bin; keep it first so local tools win.
export PATH="$root/node_modules/.bin:$PATH"
exec "$@"
