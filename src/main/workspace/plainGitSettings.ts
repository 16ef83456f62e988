/**
 * Settings in a repository's config that name people, branches and remotes and run nothing: the
 * only ones a fenced command may change in the workspace's `.git/config` (shell/gitConfigRewrite.ts
 * says which commands may try, sandbox/gitConfigGuard.ts checks what they did). Everything else in
 * that file can decide what the person's own git runs (core.fsmonitor, aliases, hooks paths,
 * filters, includes, credential helpers, editors, pagers, submodule update commands) and stays out
 * of reach: a list of what is plain, never of what is dangerous, since that list is always one short.
 */

/** As `git config --list` prints keys: section and name in lower case, a subsection as written. */
const PLAIN = [
  /^user\.(?:name|email)$/,
  /^branch\..+\.(?:remote|pushremote|merge|rebase|description)$/,
  /^remote\..+\.(?:url|pushurl|fetch|tagopt)$/,
  /^(?:pull\.rebase|pull\.ff|push\.default|push\.autosetupremote|fetch\.prune|init\.defaultbranch)$/,
];
// Not `core.*`, though git writes some of it into every repository's config: git never changes those
// values when a branch or remote moves, and a command that does (`core.bare`, `core.symlinks`,
// `core.ignorecase`) changes how the person's own git sees their work tree.

/** Whether a setting (`branch.topic.merge`, `Branch.Topic.Merge`) is plain: it names, it runs nothing. */
export function isPlainGitSetting(key: string): boolean {
  const normalized = lowerCaseOutside(key);
  return PLAIN.some((pattern) => pattern.test(normalized));
}

/** Section and name in lower case; a subsection (between them) is case-sensitive and kept. */
function lowerCaseOutside(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}
