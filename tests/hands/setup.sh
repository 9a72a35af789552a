#!/usr/bin/env bash
# What the desktop test needs, installed if missing (Debian's packages):
#   - Xvfb, an X server without a screen, for the client's window;
#   - xdotool, which moves the pointer and presses keys through XTest, so
#     the events enter at the window system as a person's do;
#   - Mesa's Vulkan drivers (lavapipe), for Bevy to draw without a GPU;
#   - Node.js, which runs tests/hands/desktop.mjs (wasm/tests/setup.sh
#     installs it for the browser test too);
#   - ALSA's headers and pkg-config, for the client built with the `audio`
#     feature (the desktop's sound, issue 39), which this test plays.
# Runs as root or through sudo; a second run changes nothing.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers libvulkan1)
[ -e /usr/lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 ] || [ -e /usr/lib/aarch64-linux-gnu/libxkbcommon-x11.so.0 ] \
    || need+=(libxkbcommon-x11-0)
command -v node >/dev/null || need+=(nodejs)
command -v pkg-config >/dev/null || need+=(pkg-config)
[ -e /usr/include/alsa/asoundlib.h ] || need+=(libasound2-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} (apt)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi
echo "Xvfb: $(command -v Xvfb), xdotool: $(xdotool version 2>/dev/null | head -n 1), node: $(node --version)"
