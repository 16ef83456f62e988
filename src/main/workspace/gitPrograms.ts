/**
 * The settings of a git config file that make git run a program, or read more config (which can
 * then make it run one), as git-config(1) describes them. A repository's config is read by every git
 * that enters it: a person's plain `git status` in a workspace enters each repository gitlinked in
 * its index, and `git add -A` gitlinks every repository it finds. Keys are matched as
 * `git config --list` prints them: section and name in lower case, a subsection as written.
 */
interface ProgramSetting {
  key: RegExp;
  /** A value that runs nothing (a boolean where a program name may also go, `never`). */
  harmless?(value: string | null): boolean;
}

/** true/false as git reads a boolean: the words, and any integer. */
const BOOLEAN = /^(?:true|false|yes|no|on|off|-?\d+)?$/i;
const isBoolean = (value: string | null) => value === null || BOOLEAN.test(value.trim());

export const PROGRAM_SETTINGS: readonly ProgramSetting[] = [
  // Run by status, diff, add and every command that refreshes the index; true/false pick the built-in daemon or none.
  { key: /^core\.fsmonitor$/, harmless: isBoolean },
  // Where hooks live: every hook git runs comes from there.
  { key: /^core\.hookspath$/ },
  {
    key: /^core\.(?:pager|editor|askpass|gitproxy|sshcommand|alternaterefscommand)$/,
    harmless: (value) => value === null || value.trim() === '' || value.trim() === 'cat',
  },
  { key: /^pager\..+$/, harmless: isBoolean },
  { key: /^sequence\.editor$/ },
  // An empty helper clears the list; anything else is a program (or a shell line after `!`).
  { key: /^credential\.(?:.+\.)?helper$/, harmless: (value) => value === null || value.trim() === '' },
  { key: /^diff\.external$/ },
  { key: /^diff\..+\.(?:command|textconv)$/ },
  { key: /^(?:diff|merge)tool\..+\.(?:cmd|path)$/ },
  { key: /^merge\..+\.driver$/ },
  { key: /^filter\..+\.(?:clean|smudge|process)$/ },
  { key: /^gpg\.(?:.+\.)?program$/ },
  { key: /^gpg\.ssh\.defaultkeycommand$/ },
  // `!` runs a shell line; without it an alias can still carry `-c core.pager=…` or `--exec-path`.
  { key: /^alias\..+$/ },
  // More config, read from wherever the path points, whose content this table never sees.
  { key: /^include\.path$/ },
  { key: /^includeif\..+\.path$/ },
  { key: /^remote\..+\.(?:uploadpack|receivepack|vcs)$/ },
  // `ext::` URLs run a command once this allows them.
  { key: /^protocol\.(?:ext\.)?allow$/, harmless: (value) => value?.trim().toLowerCase() === 'never' },
  { key: /^submodule\..+\.update$/, harmless: (value) => !value?.trim().startsWith('!') },
  { key: /^interactive\.difffilter$/ },
  { key: /^guitool\..+\.cmd$/ },
  { key: /^(?:browser|man)\..+\.(?:cmd|path)$/ },
  { key: /^(?:web|help|instaweb)\.browser$/ },
  { key: /^instaweb\.httpd$/ },
  { key: /^man\.viewer$/ },
  { key: /^sendemail\.(?:.+\.)?(?:smtpserver|sendmailcmd|tocmd|cccmd|headercmd)$/ },
  { key: /^imap\.tunnel$/ },
  { key: /^tar\..+\.command$/ },
  { key: /^trailer\..+\.(?:command|cmd)$/ },
  { key: /^uploadpack\.packobjectshook$/ },
];

/** One entry of a config file, as `git config --null --list` gives it (value null: the name alone, "true"). */
export interface ConfigEntry {
  key: string;
  value: string | null;
}

/** Whether this setting makes git run a program (or read more config). */
export function runsProgram(entry: ConfigEntry): boolean {
  const key = lowerCaseKey(entry.key);
  const setting = PROGRAM_SETTINGS.find((candidate) => candidate.key.test(key));
  return setting !== undefined && !setting.harmless?.(entry.value);
}

/** `include.path` and `includeIf.<condition>.path`: another file of config. */
export function isInclude(key: string): boolean {
  return /^include\.path$|^includeif\..+\.path$/.test(lowerCaseKey(key));
}

/** The section and name in lower case, the subsection as written (as git compares them). */
function lowerCaseKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** `git config --null --list` output: `key\nvalue\0`, or `key\0` for a name with no value. */
export function parseConfigList(output: Buffer): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const record of output.toString('utf8').split('\0')) {
    if (record === '') continue;
    const newline = record.indexOf('\n');
    entries.push(newline === -1 ? { key: record, value: null } : { key: record.slice(0, newline), value: record.slice(newline + 1) });
  }
  return entries;
}

/** A setting as a person reads it on one line: `core.fsmonitor = touch /tmp/m`. */
export function showSetting(entry: ConfigEntry): string {
  if (entry.value === null) return entry.key;
  const value = entry.value.replace(/[\0-\x1f\x7f]/g, ' ');
  return `${entry.key} = ${value.length > 160 ? `${value.slice(0, 159)}…` : value}`;
}
