import { wrapCommandWithSandboxMacOS } from '@anthropic-ai/sandbox-runtime/dist/sandbox/macos-sandbox-utils.js';
import { getDefaultWritePaths } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js';
import type { DarkHome } from './darkHome';
import type { EffectiveFence } from './fence';
import { libraryFence, macFit } from './libraryFence';
import { fitMacCommand, seatbeltProfileOf } from './runtimeCommand';

export interface SeatbeltOptions {
  /** The proxy's loopback ports the profile lets commands reach (the runtime's own, when it runs). */
  httpProxyPort: number;
  socksProxyPort: number;
  command?: string;
  /** The dark home as darkHomeFor made it for macOS; left out, the profile has no home rules (seatbeltDarkHome.test.ts checks those). */
  dark?: DarkHome;
}

/**
 * The sandbox-exec command a fence becomes on macOS, on any machine: the runtime's own Seatbelt
 * writer (wrapCommandWithSandboxMacOS) given the settings Tether gives its manager on macOS
 * (libraryFence), the way the manager passes them on (its default writable places first), then fitted
 * as prepareProfile fits it (macFit). What differs from a run on a Mac is only what the manager adds
 * at run time: its proxy's credentials and a CA certificate in the environment.
 */
export function seatbeltCommand(fence: EffectiveFence, options: SeatbeltOptions): string {
  const mapped = libraryFence(fence, 'darwin');
  const { filesystem } = mapped;
  const library = wrapCommandWithSandboxMacOS({
    command: options.command ?? 'true',
    needsNetworkRestriction: true,
    httpProxyPort: options.httpProxyPort,
    socksProxyPort: options.socksProxyPort,
    readConfig: { denyOnly: filesystem.denyRead, allowWithinDeny: filesystem.allowRead },
    writeConfig: { allowOnly: [...getDefaultWritePaths(), ...filesystem.allowWrite], denyWithinAllow: filesystem.denyWrite },
  });
  const notWritable = getDefaultWritePaths().filter((entry) => !entry.startsWith('/dev/'));
  return fitMacCommand(library, macFit(fence, mapped, notWritable, options.dark));
}

/** The Seatbelt profile a fence becomes on macOS: what sandbox-exec is given (seatbeltCommand). */
export function seatbeltProfile(fence: EffectiveFence, options: SeatbeltOptions): string {
  return seatbeltProfileOf(seatbeltCommand(fence, options));
}
