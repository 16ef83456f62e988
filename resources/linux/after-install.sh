#!/bin/bash
# deb install. electron-builder fills in ${sanitizedProductName} and ${executable}. Unlike the
# default script, /usr/bin/tether is the CLI launcher inside the app (resources/bin/tether), not the
# window's binary: `tether run …` on the PATH must be the command line. The window starts from the
# desktop entry (/opt/${sanitizedProductName}/${executable}).
app='/opt/${sanitizedProductName}'

ln -sf "$app/resources/bin/tether" /usr/bin/tether

# Chromium's setuid sandbox helper is needed only where unprivileged user namespaces do not work.
if [ -L /proc/self/ns/user ] && unshare --user true 2>/dev/null; then
  chmod 0755 "$app/chrome-sandbox" || true
else
  chmod 4755 "$app/chrome-sandbox" || true
fi

# Ubuntu 24.04 and later allow user namespaces only to programs with an AppArmor profile; install the
# one electron-builder ships, when this AppArmor understands it.
profile="$app/resources/apparmor-profile"
if [ -f "$profile" ] && apparmor_status --enabled >/dev/null 2>&1 && apparmor_parser --skip-kernel-load "$profile" >/dev/null 2>&1; then
  cp -f "$profile" '/etc/apparmor.d/${executable}'
  if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --replace --write-cache --skip-read-cache '/etc/apparmor.d/${executable}' || true
  fi
fi

if hash update-desktop-database 2>/dev/null; then update-desktop-database /usr/share/applications || true; fi
if hash update-mime-database 2>/dev/null; then update-mime-database /usr/share/mime || true; fi
