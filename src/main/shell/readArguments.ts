import type { InvocationContext } from './classifyInvocation';
import { LOCAL, READS, UNKNOWN, type InvocationClass } from './invocationClass';
import { readOnlyProgram, type ArgumentRead, type ReadOnlyProgram, type Reading } from './readOnlyPrograms';
import type { Word } from './readWord';
import { scanOptions, type OptionSpec } from './scanOptions';

/**
 * Reads a command's words against its entry in the table of read-only programs (readOnlyPrograms.ts),
 * the way the program's getopt_long will: what it does with them (reads only, writes, runs another
 * program) and which of them name files it reads. The classifier and the read targets both take their
 * answer from here, so they cannot disagree. Undefined for a program that is not on the list.
 */
export function readArguments(name: string, args: readonly Word[], context: InvocationContext): Reading | undefined {
  const entry = readOnlyProgram(name);
  if (!entry) return undefined;
  if ('read' in entry) return entry.read(args, context);
  return readWithTable(name, entry, args);
}

/** What an option does, as bits: an option may have several roles (grep -f gives the pattern and reads a file). */
const ROLE = {
  reads: 1,
  readsList: 2,
  readsNamedInside: 4,
  writes: 8,
  runs: 16,
  followsLinks: 32,
  followsLinksUnless: 64,
  patternFrom: 128,
} as const;
const FILE_VALUE = ROLE.reads | ROLE.readsNamedInside;

interface Compiled {
  spec: OptionSpec;
  roles: ReadonlyMap<string, number>;
  /** Some option writes, runs, reads a file by its value or follows links: a word the scan cannot see could be one. */
  touchesFiles: boolean;
  writes: boolean;
  runs: boolean;
}

const compiledEntries = new WeakMap<ReadOnlyProgram, Compiled>();

function compile(entry: ReadOnlyProgram): Compiled {
  const known = compiledEntries.get(entry);
  if (known) return known;
  const names = (text: string | undefined): string[] => (text ? text.split(' ') : []);
  const roles = new Map<string, number>();
  for (const [role, bit] of Object.entries(ROLE)) {
    for (const name of names(entry[role as keyof typeof ROLE])) roles.set(name, (roles.get(name) ?? 0) | bit);
  }
  const compiled: Compiled = {
    spec: {
      shortFlags: entry.flags ?? '',
      shortWithValue: entry.withValue ?? '',
      shortOptionalValue: entry.optionalValue ?? '',
      longFlags: names(entry.long),
      longWithValue: names(entry.longWithValue),
      longOptionalValue: names(entry.longOptionalValue),
      longWithTwoValues: names(entry.longWithTwoValues),
      numericOption: entry.numeric === true,
    },
    roles,
    touchesFiles: Boolean(entry.reads || entry.readsList || entry.readsNamedInside || entry.writes || entry.runs || entry.followsLinks),
    writes: Boolean(entry.writes),
    runs: Boolean(entry.runs),
  };
  compiledEntries.set(entry, compiled);
  return compiled;
}

/** Stands for a part only known when it runs: no option letter or name is it. */
const UNSEEN = '\0';

function readWithTable(name: string, entry: ReadOnlyProgram, args: readonly Word[]): Reading {
  if (entry.noOptions) return { class: READS, reads: entry.operands === 'files' ? args.map((word) => ({ word })) : [] };
  const program = compile(entry);
  const scan = scanOptions(
    args.map((word) => scanText(word, entry)),
    program.spec,
  );
  if (!scan.ok) {
    return {
      class: UNKNOWN,
      reads: [],
      why: `${name}: ${scan.reason.replace(UNSEEN, '…')}, which its entry in the table of read-only programs does not know`,
    };
  }
  let verdict = READS;
  let why: string | undefined;
  const reads: ArgumentRead[] = [];
  const options: { name: string; value?: string; word?: Word }[] | undefined = entry.judge ? [] : undefined;
  let patternGiven = false;
  let follows = false;
  let unfollows = false;
  for (const option of scan.options) {
    const roles = program.roles.get(option.name) ?? 0;
    if (roles === 0 && !options) continue;
    const word = option.valueIndex !== undefined ? args[option.valueIndex] : valueWord(args[option.index]!, option.value);
    options?.push({ name: option.name, ...(option.value !== undefined ? { value: option.value } : {}), ...(word ? { word } : {}) });
    if (roles & ROLE.runs) verdict = worse(verdict, UNKNOWN);
    if (roles & (ROLE.writes | ROLE.readsNamedInside)) verdict = worse(verdict, LOCAL);
    if (roles & ROLE.readsNamedInside) {
      const spelled = option.name.length === 1 ? `-${option.name}` : `--${option.name}`;
      why ??= `${name} ${spelled} reads files (or code) named inside ${word ? word.source : 'its operands'}, which the line does not show`;
    }
    if (word && roles & FILE_VALUE) reads.push({ word });
    if (word && roles & ROLE.readsList) for (const part of listWords(word)) reads.push({ word: part });
    if (roles & ROLE.patternFrom) patternGiven = true;
    if (roles & ROLE.followsLinks) follows = true;
    if (roles & ROLE.followsLinksUnless) unfollows = true;
  }
  if (follows && !unfollows) reads.push({ target: { shown: `the symlinks ${name} follows` } });

  // Words the scan read as operands or values but that may turn into options when they run.
  let mayBeOption: Set<Word> | undefined;
  if (program.touchesFiles && args.some((word) => word.kind !== 'literal')) {
    const values = new Set<number>();
    for (const option of scan.options) {
      if (option.valueIndex === undefined) continue;
      values.add(option.valueIndex);
      // jq's --arg NAME VALUE: the name is a value too.
      if (program.spec.longWithTwoValues?.includes(option.name)) values.add(option.valueIndex - 1);
    }
    for (const [i, word] of args.entries()) {
      if (word.kind === 'literal' && word.text === '--') break;
      if (word.kind === 'dynamic' && couldBeOption(word, values.has(i))) {
        verdict = worse(verdict, program.runs ? UNKNOWN : LOCAL);
        why ??= `${name}'s argument ${word.source} is only known when it runs, and could be an option that reads or writes a file or runs a program`;
      } else if (word.kind === 'pattern' && /^[*?[{]/.test(word.text)) {
        // A glob matches names as they are on disk; one that starts with a dash is read as an option.
        if (program.runs || program.writes) verdict = worse(verdict, program.runs ? UNKNOWN : LOCAL);
        else (mayBeOption ??= new Set()).add(word);
      }
    }
  }

  const operands: Word[] = [];
  for (const [k, operand] of scan.operands.entries()) {
    const word = args[operand.index]!;
    operands.push(word);
    const marked = mayBeOption?.delete(word) === true;
    if (entry.operands === 'files' || (entry.operands === 'pattern, then files' && (patternGiven || k > 0)) || marked) {
      reads.push(marked ? { word, mayBeOption: true } : { word });
    }
  }
  for (const word of mayBeOption ?? []) reads.push({ word, mayBeOption: true });

  const judged = options ? entry.judge?.({ options, operands }) : undefined;
  if (judged) {
    verdict = worse(verdict, judged.class);
    if (judged.reads) reads.push(...judged.reads);
    why ??= judged.why;
  }
  return why && !verdict.readOnly ? { class: verdict, reads, why } : { class: verdict, reads };
}

/** The text the option scan sees: a word only known when it runs keeps what is spelled out before its first expansion. */
function scanText(word: Word, entry: ReadOnlyProgram): string {
  if (entry.negativeNumbers && /^-\d/.test(word.text)) return '0';
  if (word.kind !== 'dynamic') return word.text;
  const lead = leadingLiteral(word.source);
  return lead.startsWith('-') ? `${lead}${UNSEEN}` : UNSEEN;
}

/**
 * What a word spells out before its first expansion, quotes removed (`"-f$x"` is `-f`, `src/$f` is
 * `src/`). A leading tilde is a home folder: never an option.
 */
function leadingLiteral(source: string): string {
  if (source.startsWith('~')) return '~';
  let lead = '';
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '$' || char === '`') return lead;
    if (quote === "'") {
      if (char === "'") quote = null;
      else lead += char;
    } else if (char === '"' && quote === '"') quote = null;
    else if ((char === '"' || char === "'") && quote === null) quote = char;
    else if (char === '\\') lead += source[++i] ?? '';
    else lead += char;
  }
  return lead;
}

/**
 * Whether a word only known when it runs could be an option the scan did not see: it may split into
 * several words, or nothing spelled out at its start keeps it from starting with a dash. A value the
 * scan gave to the option before it is that option's value, unless it splits.
 */
function couldBeOption(word: Word, isValue: boolean): boolean {
  if (word.splits) return true;
  // The scan read what a leading dash spells out (`--file="$x"` is --file with a value).
  return !isValue && leadingLiteral(word.source) === '';
}

/** The Word an option's attached value came from (`--file=x`, `-fx`), as the shell will give it. */
function valueWord(word: Word, value: string | undefined): Word | undefined {
  if (value === undefined) return undefined;
  if (word.kind === 'dynamic') return word;
  return { ...word, text: value, source: value };
}

/** A colon-separated list of files (file -m a:b), one word each. */
function listWords(word: Word): Word[] {
  if (word.kind === 'dynamic') return [word];
  return word.text.split(':').map((part) => ({ ...word, text: part, source: part }));
}

function worse(a: InvocationClass, b: InvocationClass): InvocationClass {
  if (!a.local || !b.local) return UNKNOWN;
  return a.readOnly && b.readOnly ? READS : LOCAL;
}
