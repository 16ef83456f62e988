import path from 'node:path';
import { ruleFor, ruleToolOf, toolsReadRulesCover, toolTraits } from '../../shared/toolCatalog';
import type { CommandAnalysis, SimpleCommand } from '../shell/commandAnalysis';
import type { AllowAlwaysOffer } from './policyVerdict';
import { parseCommandPattern, showArgv, type CommandPattern } from './ruleMatchCommand';
import { escapeGlob } from './ruleMatchPath';
import { execOptionIn } from '../shell/execOptions';
import { isInterpreter } from '../shell/interpreters';
import { alwaysSends, sendsData } from '../shell/sendsData';
import { runTimeWrites } from '../shell/runTimeWrites';
import { isRunner, runnerSubcommand, WRAPPERS } from '../shell/wrapperSpecs';
import { parseRule, RuleSyntaxError, type ParsedRule, type PathFamily } from './ruleSyntax';

/**
 * "Allow always": the rule the dialog offers for an ask, and the check on a rule the person edited.
 *
 * What is offered:
 *   a line that sends data  nothing (shell/sendsData.ts: an upload, a publish, a pipe into a program that
 *     out                   reaches the network, ssh, scp, nc...): each time, once
 *   a line that writes to   nothing (shell/runTimeWrites.ts: `> $OUT`, `tee "$F"`, `cp a "$DEST"`): a rule
 *     a place only known    would match its words wherever the variable points later; each time, once
 *     when it runs
 *   one simple command      `run_command(<program> <subcommand words> *)` (at most two words that are
 *                           not options, paths or values: `npm test *` for `npm test -- --watch`), or the
 *                           exact command when a prefix would be a blank cheque: interpreters, wrappers
 *                           and runners (bash -c, python, node, npx, npm exec, env, xargs, sudo, ssh,
 *                           git -c, find -exec, timeout...), destructive or egress programs (rm, dd,
 *                           chmod, curl...), or a program given as a path
 *   a compound command      its exact text, which matches only that whole command line; never one rule per part
 *   a path                  its folder (`edit_file(src/**)`), or the exact path for a file at the top
 *   a URL                   `fetch_url(domain:<host>)`
 *   another tool            its name
 *
 * "Broader", precisely: an edited rule E is broader than the offered rule O when some call that E
 * matches is not matched by O. The check accepts E only where E ⊆ O can be seen from the text alone:
 *   O an exact command, a compound command, a file, a host or a tool name: E must be O.
 *   O a prefix `w1 .. wk *`: E is one command pattern (no shell operators) whose first k words are
 *     the literals w1 .. wk, so every argv E matches starts with them.
 *   O a folder `F/**`: E is a path rule of the same kind, anchored the same way, whose glob starts
 *     with `F/` (or is F) and has no `..`, so every path it matches lies in F.
 * This is sound and deliberately incomplete: some narrower rules are refused, no broader one passes.
 */

/** What the engine knows about the call the person is deciding on. */
export type AllowAlwaysSubject =
  | {
      kind: 'command';
      command: string;
      analysis: CommandAnalysis;
      /** Something only the exact command line can cover (a redirection out of the workspace). */
      exactOnly?: string;
    }
  | {
      kind: 'paths';
      access: 'read' | 'write';
      paths: Array<{ absolute: string; relative?: string }>;
      /** The call's tool: a write's rule is named after it (write_file(src/**) for a write_file call), the family is the same. */
      tool?: string;
    }
  | { kind: 'url'; host: string }
  | { kind: 'tool'; name: string };

export function offerAllowAlways(subject: AllowAlwaysSubject): AllowAlwaysOffer {
  switch (subject.kind) {
    case 'command':
      return offerForCommand(subject.command, subject.analysis, subject.exactOnly);
    case 'paths':
      return offerForPaths(subject.access, subject.paths, subject.tool);
    case 'url':
      return checked(ruleFor('domain', `domain:${subject.host.toLowerCase()}`));
    case 'tool':
      return checked(subject.name);
  }
}

/**
 * Runners that are not interpreters (those are in shell/interpreters.ts), editors and pagers (which
 * run commands typed into them), and the wrappers (shell/wrapperSpecs.ts): a prefix rule on them
 * would allow any program at all.
 */
const RUNS_ANYTHING = new Set([
  'java',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'source',
  '.',
  'fd',
  'vim',
  'vi',
  'nvim',
  'view',
  'ex',
  'ed',
  'emacs',
  'nano',
  'less',
  'more',
  ...Object.keys(WRAPPERS),
]);

/**
 * Programs where "this one, any arguments" is too much to offer at one click: they destroy, or send
 * out; the programs that send whatever they are given (ssh, scp, nc...) are shell/sendsData.ts's.
 */
const TOO_SHARP = new Set([
  'rm',
  'rmdir',
  'shred',
  'dd',
  'mkfs',
  'chmod',
  'chown',
  'chgrp',
  'kill',
  'killall',
  'pkill',
  'truncate',
  'mv',
  'cp',
  'curl',
  'wget',
]);

/** Programs whose first words pick what they do: a prefix needs at least one of them. */
const HAS_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'gh',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'pipx',
  'dotnet',
  'mvn',
  'gradle',
  'terraform',
  'helm',
  'brew',
  'apt',
  'apt-get',
  'systemctl',
  'aws',
  'gcloud',
  'az',
  'rustup',
  'conda',
  'composer',
  'bundle',
  'rake',
  'mix',
  'swift',
  'make',
]);

const SUBCOMMAND_WORD = /^[A-Za-z][A-Za-z0-9_:-]*$/;
const PROGRAM_WORD = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const MAX_SUBCOMMAND_WORDS = 2;

/** The words a prefix rule would keep, or why there is none. */
export function commandPrefix(command: SimpleCommand): { words: string[] } | { none: string } {
  const [program, ...args] = command.argv;
  if (program === undefined) return { none: 'it is empty' };
  if (command.wrappers.length > 0) return { none: `it runs through ${command.wrappers.join(', ')}` };
  if (!PROGRAM_WORD.test(program)) return { none: 'its program is given as a path' };
  const name = program.toLowerCase();
  if (RUNS_ANYTHING.has(name) || isInterpreter(name)) {
    return { none: `${program} runs whatever it is given` };
  }
  if (TOO_SHARP.has(name)) return { none: `${program} with any arguments can destroy or send out anything` };
  const sends = alwaysSends(name);
  if (sends) return { none: sends };
  const execOption = execOptionIn(command);
  if (execOption) return { none: execOption.why };
  const runner = runnerSubcommand(command.argv);
  if (runner) return { none: `${runner.words} runs whatever it is given` };
  // A runner's other subcommands too: `pdm *` would cover `pdm run rm -rf x`.
  const hasSubcommands = HAS_SUBCOMMANDS.has(name) || isRunner(name);
  const words: string[] = [program];
  for (const arg of args) {
    if (words.length > MAX_SUBCOMMAND_WORDS || !SUBCOMMAND_WORD.test(arg)) break;
    if (!hasSubcommands) break;
    words.push(arg);
  }
  if (hasSubcommands && words.length === 1) return { none: `${program} without a subcommand word could do anything` };
  return { words };
}

function offerForCommand(command: string, analysis: CommandAnalysis, exactOnly: string | undefined): AllowAlwaysOffer {
  if (analysis.unpinnable) return { refused: `the command cannot be pinned down (${analysis.unpinnable}), so no rule can cover it` };
  // A rule would let the line send out whatever its files, or what is piped into it, hold at any later time.
  const sender = analysis.commands.map(sendsData).find((why) => why !== undefined);
  if (sender) return { refused: `the line sends data out (${sender}); allow it once, each time it asks` };
  // A rule matches the line's words, but the line writes wherever its variable points each time it runs.
  const [runTime] = analysis.commands.flatMap(runTimeWrites);
  if (runTime) {
    const where = runTime.program ? `what ${runTime.shown} names, given to ${runTime.program}` : `a redirection to ${runTime.shown}`;
    return { refused: `the line writes to a place only known when it runs (${where}); allow it once, each time it asks` };
  }
  const text = command.trim();
  const [first] = analysis.commands;
  if (first === undefined || text === '') return { refused: 'the command is empty' };
  if (analysis.commands.length > 1) {
    // Only the whole line, which a rule holding shell operators matches as exact text and nothing else.
    const offer = checked(ruleFor('command', text));
    if ('rule' in offer && !readCommandPattern(offer.rule)?.wholeLine) {
      return { refused: 'the command line has several parts but no operator a rule could hold; allow it once' };
    }
    return offer;
  }
  if (!exactOnly) {
    const prefix = commandPrefix(first);
    if ('words' in prefix) return checked(ruleFor('command', `${prefix.words.join(' ')} *`));
  }
  const verbatim = readCommandPattern(ruleFor('command', text));
  if (verbatim?.exact) return checked(ruleFor('command', text));
  // An unquoted * in the command would read as "any words" in a rule: spell the argv with it quoted.
  if (first.wrappers.length > 0 || first.assignments.length > 0 || exactOnly) {
    return { refused: 'the command holds a shell wildcard (*), which a rule would read as "any arguments"; allow it once' };
  }
  return checked(ruleFor('command', showArgv(first.argv)));
}

function offerForPaths(access: 'read' | 'write', paths: Array<{ absolute: string; relative?: string }>, called?: string): AllowAlwaysOffer {
  // A write's rule reads as the request did (write_file(...) for write_file); edit_file(...) names the same writes.
  const tool = called !== undefined && toolTraits(called)?.rules === access ? called : ruleToolOf(access);
  if (paths.length === 0) return { refused: 'the call names no path' };
  if (paths.some((p) => p.relative === undefined)) {
    if (paths.length > 1) return { refused: 'the call touches several paths outside the workspace; allow it once' };
    return checked(`${tool}(/${escapeGlob((paths[0] as { absolute: string }).absolute)})`);
  }
  const relatives = paths.map((p) => p.relative as string);
  const folders = new Set(relatives.map((r) => path.posix.dirname(r)));
  if (folders.size === 1) {
    const [folder] = folders as Set<string>;
    if (folder !== '.') return checked(`${tool}(${escapeGlob(folder as string)}/**)`);
    if (relatives.length === 1) return checked(`${tool}(/${escapeGlob(relatives[0] as string)})`);
  }
  return { refused: 'the call touches files in several folders; allow it once, or write a rule in the settings' };
}

/** Every offer is parsed back before it is shown: a rule the engine cannot read is never offered. */
function checked(rule: string): AllowAlwaysOffer {
  try {
    parseRule(rule);
    return { rule };
  } catch (error) {
    if (!(error instanceof RuleSyntaxError)) throw error;
    return { refused: `no rule can be written for it (${error.problem})` };
  }
}

function readCommandPattern(rule: string): CommandPattern | undefined {
  try {
    const parsed = parseRule(rule);
    return parsed.target.kind === 'command' ? parsed.target.pattern : undefined;
  } catch {
    return undefined;
  }
}

export type AllowAlwaysCheck = { ok: true; rule: string } | { ok: false; reason: string };

/**
 * Checks a rule the person edited in the dialog against the rule that was offered: it must parse and
 * must not be broader (see the top of this file for what that means).
 */
export function validateAllowAlwaysRule(edited: string, offered: string): AllowAlwaysCheck {
  let rule: ParsedRule;
  try {
    rule = parseRule(edited);
  } catch (error) {
    if (error instanceof RuleSyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
  const offer = parseRule(offered);
  const refuse = (why: string): AllowAlwaysCheck => ({
    ok: false,
    reason: `${rule.text} is broader than the offered ${offer.text}: ${why}.`,
  });
  const accept: AllowAlwaysCheck = { ok: true, rule: rule.text };
  const o = offer.target;
  const e = rule.target;

  if (o.kind === 'command') {
    if (e.kind !== 'command') return refuse('it is not a run_command rule');
    if (!e.pattern || !o.pattern) return o.pattern ? refuse('it matches every command') : accept;
    const op = o.pattern;
    const ep = e.pattern;
    const last = op.tokens[op.tokens.length - 1];
    const isPrefix = !op.wholeLine && last?.kind === 'any' && op.tokens.slice(0, -1).every((t) => t.kind === 'literal');
    if (!isPrefix) return ep.text === op.text ? accept : refuse('only this exact command can be allowed always');
    if (ep.wholeLine) return refuse('a rule for one command cannot cover a command line with several parts');
    const words = op.tokens.slice(0, -1);
    for (let i = 0; i < words.length; i++) {
      const mine = ep.tokens[i];
      const theirs = words[i] as { kind: 'literal'; text: string };
      if (!mine || mine.kind !== 'literal' || mine.text !== theirs.text) {
        return refuse(`it must start with the words "${words.map((w) => (w as { text: string }).text).join(' ')}", each written out`);
      }
    }
    return accept;
  }

  if (o.kind === 'path') {
    if (e.kind !== 'path') return refuse('it is not a path rule');
    if (!familyCovers(o.family, e.family)) return refuse(`it governs ${familyName(e.family)}, not ${familyName(o.family)}`);
    if (!o.pattern) return accept;
    if (!e.pattern) return refuse('it matches every path');
    const op = o.pattern;
    const ep = e.pattern;
    if (ep.base !== op.base)
      return refuse(ep.base === 'anywhere' ? 'a name without a slash matches it in every folder' : 'it is anchored somewhere else');
    if (ep.glob.includes('..')) return refuse('it climbs out with ".."');
    if (op.glob.endsWith('/**')) {
      const folder = op.glob.slice(0, -3);
      return ep.glob === folder || ep.glob.startsWith(`${folder}/`) ? accept : refuse(`it reaches outside ${folder}/`);
    }
    return ep.glob === op.glob ? accept : refuse('only this exact path can be allowed always');
  }

  if (o.kind === 'domain') {
    if (e.kind !== 'domain') return refuse('it is not a fetch_url rule');
    if (!o.pattern) return accept;
    if (!e.pattern) return refuse('it matches every URL');
    if (e.pattern.subdomains !== o.pattern.subdomains || e.pattern.host !== o.pattern.host)
      return refuse('only this host can be allowed always');
    return accept;
  }

  return rule.text === offer.text ? accept : refuse('only this tool can be allowed always');
}

function familyCovers(offered: PathFamily, edited: PathFamily): boolean {
  if (offered === edited) return true;
  // A read rule covers every reading tool, so a rule for one of them is narrower.
  return offered === 'read' && toolsReadRulesCover().some((tool) => toolTraits(tool)?.rules === edited);
}

function familyName(family: PathFamily): string {
  return family === 'read' ? 'reads' : family === 'write' ? 'writes' : `${family} calls`;
}
