/**
 * A getopt_long-like reading of a program's arguments, so that rules look at options the way the
 * program will: `-uo out` holds -o, `--out=x` is --output for GNU tools, and after `--` nothing is
 * an option.
 */
export interface OptionSpec {
  /** Short option letters that take a value, attached (-n5) or in the next argument (-n 5). */
  shortWithValue?: string;
  /** Short option letters whose value is optional and can only be attached (-i{} in xargs). */
  shortOptionalValue?: string;
  /** Short option letters that take no value. */
  shortFlags?: string;
  /** Long options (without --) that take a value, as --name=value or --name value. */
  longWithValue?: readonly string[];
  /** Long options whose value is optional and can only be attached (--name=value). */
  longOptionalValue?: readonly string[];
  /** Long options that take no value. */
  longFlags?: readonly string[];
  /** Long options that take two values in the next two arguments (jq's --arg NAME VALUE): the second is the value. */
  longWithTwoValues?: readonly string[];
  /** Stop at the first operand (getopt's "+" mode, used by wrappers); otherwise options and operands mix. */
  stopAtFirstOperand?: boolean;
  /** Unknown options are kept as they are instead of failing the scan. */
  allowUnknown?: boolean;
  /** A lone `-N` (digits) is an option, as in `nice -10`, `head -5`. */
  numericOption?: boolean;
}

export interface ParsedOption {
  /** The letter of a short option, or the full name of a long one (a prefix given is completed). */
  name: string;
  /** The value it took, if any. */
  value?: string;
  /** Index of the argument this option came from. */
  index: number;
  /** Index of the argument its value came from, when that is another argument than the option's (-f FILE, --arg NAME VALUE). */
  valueIndex?: number;
}

export type OptionScan =
  | {
      ok: true;
      options: ParsedOption[];
      /** Operands in order, with the index of the argument each came from. */
      operands: { value: string; index: number }[];
      /** With stopAtFirstOperand: the index of the first operand (args.length when there is none). */
      firstOperand: number;
    }
  | { ok: false; reason: string };

/** Reads options from args (the program's arguments, without its name). */
export function scanOptions(args: readonly string[], spec: OptionSpec): OptionScan {
  const options: ParsedOption[] = [];
  const operands: { value: string; index: number }[] = [];
  const shortWithValue = spec.shortWithValue ?? '';
  const shortOptional = spec.shortOptionalValue ?? '';
  const shortFlags = spec.shortFlags ?? '';
  const long = longOptions(spec);
  let firstOperand = args.length;

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (spec.stopAtFirstOperand) {
        firstOperand = i + 1;
        break;
      }
      for (let j = i + 1; j < args.length; j++) operands.push({ value: args[j]!, index: j });
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const written = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      const name = completeLong(written, long);
      if (!name) {
        if (spec.allowUnknown) {
          options.push({ name: written, ...(eq >= 0 ? { value: arg.slice(eq + 1) } : {}), index: i });
          continue;
        }
        return { ok: false, reason: `unknown or ambiguous option --${written}` };
      }
      const kind = long.kinds.get(name);
      if (kind === 'two') {
        const value = args[i + 2];
        if (eq >= 0 || value === undefined) return { ok: false, reason: `option --${name} needs two values` };
        options.push({ name, value, index: i, valueIndex: i + 2 });
        i += 2;
      } else if (kind === 'value') {
        if (eq >= 0) options.push({ name, value: arg.slice(eq + 1), index: i });
        else {
          const value = args[i + 1];
          if (value === undefined) return { ok: false, reason: `option --${name} needs a value` };
          options.push({ name, value, index: i, valueIndex: i + 1 });
          i++;
        }
      } else if (kind === 'optional') {
        options.push({ name, ...(eq >= 0 ? { value: arg.slice(eq + 1) } : {}), index: i });
      } else {
        if (eq >= 0) return { ok: false, reason: `option --${name} takes no value` };
        options.push({ name, index: i });
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (spec.numericOption && /^-\d+$/.test(arg)) {
        options.push({ name: arg.slice(1), index: i });
        continue;
      }
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        if (shortWithValue.includes(letter)) {
          const attached = arg.slice(k + 1);
          if (attached) options.push({ name: letter, value: attached, index: i });
          else {
            const value = args[i + 1];
            if (value === undefined) return { ok: false, reason: `option -${letter} needs a value` };
            options.push({ name: letter, value, index: i, valueIndex: i + 1 });
            i++;
          }
          break;
        }
        if (shortOptional.includes(letter)) {
          const attached = arg.slice(k + 1);
          options.push({ name: letter, ...(attached ? { value: attached } : {}), index: i });
          break;
        }
        if (shortFlags.includes(letter) || spec.allowUnknown) {
          options.push({ name: letter, index: i });
          continue;
        }
        return { ok: false, reason: `unknown option -${letter}` };
      }
      continue;
    }
    if (spec.stopAtFirstOperand) {
      firstOperand = i;
      break;
    }
    operands.push({ value: arg, index: i });
  }
  if (spec.stopAtFirstOperand) {
    for (let j = firstOperand; j < args.length; j++) operands.push({ value: args[j]!, index: j });
  }
  return { ok: true, options, operands, firstOperand };
}

type LongKind = 'value' | 'optional' | 'flag' | 'two';

interface LongOptions {
  kinds: ReadonlyMap<string, LongKind>;
  names: readonly string[];
}

/** A spec's long options by name, worked out once per spec: the tables are read on every command. */
const longOptionsOf = new WeakMap<OptionSpec, LongOptions>();

function longOptions(spec: OptionSpec): LongOptions {
  const known = longOptionsOf.get(spec);
  if (known) return known;
  const kinds = new Map<string, LongKind>();
  for (const name of spec.longFlags ?? []) kinds.set(name, 'flag');
  for (const name of spec.longOptionalValue ?? []) kinds.set(name, 'optional');
  for (const name of spec.longWithValue ?? []) kinds.set(name, 'value');
  for (const name of spec.longWithTwoValues ?? []) kinds.set(name, 'two');
  const long = { kinds, names: [...kinds.keys()] };
  longOptionsOf.set(spec, long);
  return long;
}

/** The long option `written` names: itself, or the only one it is a prefix of (GNU abbreviations). */
function completeLong(written: string, long: LongOptions): string | null {
  if (long.kinds.has(written)) return written;
  if (written.length === 0) return null;
  let found: string | null = null;
  for (const name of long.names) {
    if (!name.startsWith(written)) continue;
    if (found !== null) return null;
    found = name;
  }
  return found;
}

/**
 * True when a long option as written (`--out`, `--output=x`) could be `--name`: the name itself or
 * an abbreviation of it. For deny lists, where a false alarm costs a question and a miss costs a file.
 */
export function couldBeLongOption(arg: string, name: string): boolean {
  if (!arg.startsWith('--') || arg === '--') return false;
  const written = arg.slice(2).split('=', 1)[0]!;
  return written.length >= 1 && name.startsWith(written);
}
