#!/usr/bin/env bash
# Installs what the end-to-end test and `npm run try` need on a fresh Debian machine:
# Debian's Chromium (the test drives it with playwright-core, never a downloaded browser),
# the native build headers code-server's dependencies compile against, and code-server
# itself (the VS Code workbench and a real extension host, from npm) into the git-ignored
# .cache/ at the repository root. Every step checks first, so a second run takes a second.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
code_server_version="4.100.3"
code_server_prefix="$repo_root/.cache/code-server"
# The version of @vscode/ripgrep that code-server $code_server_version pins (see its npm-shrinkwrap.json).
ripgrep_package_version="1.15.11"
ripgrep_archive="ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"

log() { printf '[setup-e2e] %s\n' "$*"; }

debian_packages=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep)

missing_debian_packages() {
  local name
  for name in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'install ok installed' || printf '%s\n' "$name"
  done
}

install_debian_packages() {
  local missing
  missing="$(missing_debian_packages)"
  if [[ -z "$missing" ]]; then
    log "Debian packages present"
    return
  fi
  log "installing Debian packages: $(echo $missing)"
  local sudo=""
  [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
  # Another process may hold dpkg's lock for a while; wait for it rather than fail.
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing
}

# @vscode/ripgrep downloads `rg` from outside the package registries in its postinstall,
# unless it finds the archive in its cache. Debian's rg, packed the same way, satisfies it.
prepare_ripgrep_cache() {
  local cache_dir
  cache_dir="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$ripgrep_package_version"
  if [[ -f "$cache_dir/$ripgrep_archive" ]]; then
    log "ripgrep cache present"
    return
  fi
  local staging
  staging="$(mktemp -d)"
  mkdir -p "$cache_dir"
  cp "$(command -v rg)" "$staging/rg"
  tar czf "$cache_dir/$ripgrep_archive" -C "$staging" rg
  rm -rf "$staging"
  log "ripgrep cache prepared from Debian's rg"
}

installed_code_server_version() {
  node -p "require('$code_server_prefix/node_modules/code-server/package.json').version" 2>/dev/null || true
}

install_code_server() {
  if [[ "$(installed_code_server_version)" == "$code_server_version" && -x "$code_server_prefix/node_modules/.bin/code-server" ]]; then
    log "code-server $code_server_version present"
    return
  fi
  log "installing code-server $code_server_version into .cache/ (takes a few minutes)"
  mkdir -p "$code_server_prefix"
  # A package.json of its own keeps npm from treating this folder as part of the workspace.
  [[ -f "$code_server_prefix/package.json" ]] || echo '{ "name": "code-server-for-e2e", "private": true }' >"$code_server_prefix/package.json"
  # As root, code-server's postinstall refuses to run without unsafe-perm, and it calls
  # `npx node-gyp`, which must not stop to ask.
  (cd "$code_server_prefix" && npm_config_unsafe_perm=true npm_config_yes=true \
    npm install --no-audit --no-fund --workspaces=false "code-server@$code_server_version")
  [[ "$(installed_code_server_version)" == "$code_server_version" ]] || { log "code-server did not install"; exit 1; }
}

install_debian_packages
prepare_ripgrep_cache
install_code_server
log "ready: $code_server_prefix/node_modules/.bin/code-server, /usr/bin/chromium"
