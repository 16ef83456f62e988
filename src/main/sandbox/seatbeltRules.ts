import path from 'node:path';

/**
 * On macOS the fence is a Seatbelt profile the sandbox runtime writes from the same settings as the
 * bubblewrap one (writable roots, protected paths, secrets, the proxy's ports). Seatbelt has no mount
 * namespace, so two of the fence's mechanisms take another form there, appended here to the
 * runtime's profile (Seatbelt takes the last rule that matches, so these win):
 *
 * - **The private /tmp.** /tmp cannot be replaced: the session's folder is TMPDIR (where mktemp,
 *   Python's tempfile, Node's os.tmpdir() and compilers put their scratch files) and is writable; the
 *   real /tmp is dark and unwritable, so nothing another program left there is seen and nothing is
 *   left there for one. A command that writes `/tmp/x` by name hits the fence (on Linux it writes the
 *   private /tmp). The fence's own roots under /tmp (a workspace there, the session's folder in a
 *   data folder there) are left out of that rule, so the runtime's rules for them stand; the folders
 *   above them can be looked up (stat), not listed, as realpath() needs.
 * - **Placeholders.** None are needed: a rule denies a path whether it exists or not, so the runtime
 *   is given every protected path, missing ones included (on Linux only the existing ones).
 *
 * And the runtime's own writable places (`~/.npm/_logs`, `/tmp/claude`) are taken back, as on Linux.
 */
export function seatbeltRules(input: { rootsUnderTmp: readonly string[]; notWritable: readonly string[] }): string {
  const tmp = ['/private/tmp', '/tmp'];
  const kept = [...new Set(input.rootsUnderTmp.flatMap(spellings))];
  const dark = tmp.map((folder) => {
    const inside = kept.filter((root) => root.startsWith(`${folder}/`));
    if (inside.length === 0) return `  (subpath ${sbplString(folder)})`;
    return `  (require-all (subpath ${sbplString(folder)})${inside.map((root) => ` (require-not (subpath ${sbplString(root)}))`).join('')})`;
  });
  const lookedUp = [...new Set([...tmp, ...kept.flatMap((root) => foldersBetween(root, tmp))])];
  const notWritable = [...new Set(input.notWritable.flatMap(spellings))];
  return [
    '; Tether: the real /tmp is dark and not writable; the session’s own folder is TMPDIR.',
    `(deny file-read* file-write*\n${dark.join('\n')})`,
    `(allow file-read-metadata\n${lookedUp.map((folder) => `  (literal ${sbplString(folder)})`).join('\n')})`,
    '; Tether: the runtime’s own writable places are not the fence’s.',
    `(deny file-write*\n${notWritable.map((folder) => `  (subpath ${sbplString(folder)})`).join('\n')})`,
  ].join('\n');
}

/** A path as Seatbelt may see it: /tmp and /var are links to /private/… on macOS, and a rule matches the resolved path. */
function spellings(folder: string): string[] {
  if (/^\/(tmp|var)(\/|$)/.test(folder)) return [folder, `/private${folder}`];
  const linked = /^\/private\/(tmp|var)(\/|$)/.exec(folder);
  return linked ? [folder, folder.slice('/private'.length)] : [folder];
}

/** The folders strictly between the /tmp that holds `root` and `root`: each must be looked up to reach it. */
function foldersBetween(root: string, tmp: readonly string[]): string[] {
  const top = tmp.find((folder) => root.startsWith(`${folder}/`));
  if (!top) return [];
  const folders: string[] = [];
  for (let folder = path.dirname(root); folder !== top && folder.startsWith(`${top}/`); folder = path.dirname(folder)) folders.push(folder);
  return folders;
}

/** A string literal in SBPL: double quotes, with backslashes and quotes escaped. */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
