#!/bin/bash
# deb removal: take away the `tether` link the install made, only while it still points into the app,
# and the AppArmor profile it installed.
case "$(readlink /usr/bin/tether 2>/dev/null)" in
  '/opt/${sanitizedProductName}/'*) rm -f /usr/bin/tether ;;
esac
if [ -f '/etc/apparmor.d/${executable}' ]; then
  if hash apparmor_parser 2>/dev/null; then apparmor_parser --remove '/etc/apparmor.d/${executable}' >/dev/null 2>&1 || true; fi
  rm -f '/etc/apparmor.d/${executable}'
fi
