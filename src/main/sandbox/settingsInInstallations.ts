import fs from 'node:fs';
import path from 'node:path';

/**
 * Settings files inside a toolchain's installation that may hold credentials. An installation is lit
 * for its programs, but some keep their "global" settings inside it: npm's global npmrc is
 * `<prefix>/etc/npmrc` (under ~/.nvm/versions/node/<version>, ~/.npm-global, a Volta or asdf image),
 * where `npm config set --global //registry/:_authToken=…` writes; conda's channels with tokens are in
 * a root's `.condarc`; pip's site settings (an index URL with a password) in `<prefix>/pip.conf`; Ruby's
 * in `<prefix>/etc/gemrc`. Each pattern is anchored at a lit place, with literal segments and `*` for
 * one name, so finding them reads a few folders, never walks an installation.
 */
const PATTERNS: readonly string[] = [
  // npm's global settings: <prefix>/etc/npmrc, for each layout a Node version manager keeps prefixes in.
  'etc/npmrc',
  'versions/node/*/etc/npmrc', // nvm
  'versions/*/etc/npmrc', // nodenv
  'node-versions/*/installation/etc/npmrc', // fnm
  'tools/image/node/*/etc/npmrc', // Volta
  'installs/nodejs/*/etc/npmrc', // asdf
  'installs/node/*/etc/npmrc', // mise
  // conda's settings, at a root and in each environment.
  '.condarc',
  'condarc',
  'envs/*/.condarc',
  'envs/*/condarc',
  // pip's site settings: <prefix>/pip.conf.
  'pip.conf',
  'versions/*/pip.conf', // pyenv
  'envs/*/pip.conf',
  // RubyGems' settings: <prefix>/etc/gemrc.
  'etc/gemrc',
  'versions/*/etc/gemrc', // rbenv
  'rubies/*/etc/gemrc', // RVM
];

/** The settings files that may hold credentials inside `places` (lit installations), as they exist now. */
export function settingsInInstallations(places: readonly string[]): string[] {
  const found: string[] = [];
  for (const place of places) for (const pattern of PATTERNS) found.push(...expand(place, pattern.split('/')));
  return [...new Set(found)];
}

function expand(folder: string, segments: readonly string[]): string[] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return isFile(folder) ? [folder] : [];
  if (segment !== '*') return expand(path.join(folder, segment), rest);
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => expand(path.join(folder, name), rest));
}

function isFile(target: string): boolean {
  try {
    return fs.statSync(target).isFile();
  } catch {
    return false;
  }
}
