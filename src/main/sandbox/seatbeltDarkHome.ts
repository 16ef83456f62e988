import path from 'node:path';
import { isInside } from '../workspace/filePaths';
import type { DarkHome } from './darkHome';
import { sbplString } from './seatbeltRules';

/**
 * The dark home in Seatbelt's form (macOS, where the fence is sandbox-runtime's Seatbelt profile).
 * Seatbelt has no mount namespace, so nothing can be made absent or bound in another place; instead:
 *
 * - every hidden folder (the person's home, /Users, /var/root) is denied to every read (writes there
 *   are denied already: the runtime allows writes only in the fence's places);
 * - what is lit, and the fence's own places in them (the workspace, Tether's caches), are allowed
 *   again: Seatbelt takes the last rule that matches, so these rules are appended after the
 *   runtime's, and the allows after the denies;
 * - the folders on the way down to a lit place allow only their metadata (the `literal` folder
 *   itself, not what is in it), so a program can resolve its path and find its working folder, yet
 *   listing the home folder shows nothing and reading a name in it fails;
 * - the derived ~/.gitconfig cannot be put at ~/.gitconfig: the runtime's caller points git at it with
 *   GIT_CONFIG_GLOBAL (and the derived includeIf names the derived copies), and the derived folder is
 *   allowed.
 *
 * A link in a lit folder leading into the dark reaches nothing: Seatbelt checks the path the link
 * resolves to. A name the dark home holds is not hidden, only unreadable (macOS cannot do better
 * without a mount namespace); `stat` of a dark path is refused too, as metadata is only allowed on the
 * way to what is lit.
 */
export function seatbeltDarkHome(dark: DarkHome): string {
  if (dark.hidden.length === 0) return '';
  const inDark = (place: string) => dark.hidden.some((folder) => isInside(place, folder));
  const derived = dark.lit.filter((place) => isInside(place.source, dark.derivedFolder)).map((place) => place.source);
  const lit = dark.lit.filter((place) => !derived.includes(place.source)).map((place) => place.dest);
  const allowed = [...new Set([...lit, ...dark.visible.filter(inDark), ...derived])];
  const ancestors = new Set<string>();
  for (const place of allowed) {
    for (let folder = path.dirname(place); folder !== path.dirname(folder); folder = path.dirname(folder)) {
      if (inDark(folder)) ancestors.add(folder);
    }
  }
  const lines = [
    '; Tether: the home folder is dark, and so are other people’s homes.',
    // Reads only: what is writable is the runtime's to say (its rules allow the workspace, and only it).
    `(deny file-read*\n${dark.hidden.map((folder) => `  (subpath ${sbplString(folder)})`).join('\n')})`,
  ];
  if (ancestors.size > 0) {
    lines.push(
      '; Tether: the folders on the way to what is lit show themselves, not what is in them.',
      `(allow file-read-metadata\n${[...ancestors]
        .sort()
        .map((folder) => `  (literal ${sbplString(folder)})`)
        .join('\n')})`,
    );
  }
  if (lit.length > 0) {
    lines.push(
      '; Tether: the toolchains’ installations and what the person lit, read-only.',
      `(allow file-read*\n${lit.map((place) => `  (subpath ${sbplString(place)})`).join('\n')})`,
    );
  }
  if (derived.length > 0) {
    lines.push(
      '; Tether: the derived git config (GIT_CONFIG_GLOBAL), read-only.',
      `(allow file-read*\n${derived.map((file) => `  (literal ${sbplString(file)})`).join('\n')})`,
    );
  }
  if (dark.masked.length > 0) {
    lines.push(
      '; Tether: settings files inside what is lit that may hold credentials (a global npmrc, a .condarc): dark again.',
      `(deny file-read*\n${dark.masked.map((file) => `  (literal ${sbplString(file)})`).join('\n')})`,
    );
  }
  const visible = dark.visible.filter(inDark);
  if (visible.length > 0) {
    lines.push(
      '; Tether: the fence’s own places in the home folder (the workspace, its caches): the runtime’s rules decide what is writable.',
      `(allow file-read*\n${visible.map((place) => `  (subpath ${sbplString(place)})`).join('\n')})`,
    );
  }
  return lines.join('\n');
}
