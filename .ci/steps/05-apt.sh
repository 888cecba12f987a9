#!/usr/bin/env bash
# System packages. mecab-ipadic: the IPADIC source (EUC-JP) that `-t ja` builds into its
# per-user cache when no other Japanese dictionary is given (docs/languages.md).
set -euo pipefail
packages=(mecab-ipadic)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
test -f /usr/share/mecab/dic/ipadic/matrix.def || { echo "mecab-ipadic installed but /usr/share/mecab/dic/ipadic/matrix.def is missing" >&2; exit 1; }
echo "system packages present: ${packages[*]}"
