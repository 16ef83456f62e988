import type { z } from 'zod';
import { requests, type Handlers, type RequestFailure, type RequestName } from '../../shared/contract';
import { isRequestName, type Reply } from '../../shared/hostProtocol';

/**
 * The one place a UI request enters the core, whichever host carried it (Electron IPC, the
 * WebSocket of `tether serve`): the sender is checked, the name and the input are held to the
 * contract, the handler runs, and its answer is held to the contract too. Everything comes back as
 * a `Reply`, because neither IPC nor JSON keeps an error's class.
 */

export interface DispatcherOptions<Sender> {
  handlers: Handlers;
  /** Asked on every call, before anything else: is this the app's own UI? */
  isTrustedSender(sender: Sender): boolean;
  /** Where a handler bug or an unexpected failure is reported in full; the UI gets one line. */
  log?(message: string, error?: unknown): void;
}

export type Dispatch<Sender> = (sender: Sender, name: unknown, input: unknown) => Promise<Reply>;

export function createDispatcher<Sender>({ handlers, isTrustedSender, log = () => {} }: DispatcherOptions<Sender>): Dispatch<Sender> {
  return async (sender, name, input) => {
    if (!trusted(isTrustedSender, sender)) {
      return refuse('failed', `Refused the request ${quoted(name)}: it did not come from Tether's own window.`);
    }
    if (!isRequestName(name)) {
      return refuse('invalid_input', `There is no request ${quoted(name)}; the client and this Tether do not match. Reload the page.`);
    }
    const contract = requests[name];
    const parsed = contract.input.safeParse(input);
    if (!parsed.success) {
      return refuse('invalid_input', `${name}: ${describeIssues(parsed.error)}`);
    }

    let output: unknown;
    try {
      // The contract pairs each name with its handler and input type; TypeScript cannot follow
      // that pairing through a name known only at run time.
      const handler = handlers[name] as (input: unknown) => Promise<unknown>;
      output = await handler(parsed.data);
    } catch (error) {
      const failure = failureFrom(name, error);
      if (failure.code === 'failed') log(`${name} failed: ${failure.message}`, error);
      return { ok: false, error: failure };
    }

    const checked = (contract.output as z.ZodType).safeParse(output);
    if (!checked.success) {
      log(`${name} returned an answer the contract does not allow: ${describeIssues(checked.error)}`, output);
      return refuse('failed', `${name} produced a malformed answer (a bug in Tether); the details are in its log.`);
    }
    return { ok: true, output: checked.data };
  };
}

function trusted<Sender>(isTrustedSender: (sender: Sender) => boolean, sender: Sender): boolean {
  try {
    return isTrustedSender(sender) === true;
  } catch {
    // A check that cannot decide (a destroyed frame, say) must not let the call through.
    return false;
  }
}

function refuse(code: RequestFailure['code'], message: string): Reply {
  return { ok: false, error: { code, message } };
}

// The core's own errors say not_found/conflict/invalid_input when the person can act on them (the
// store says `invalid` for the same thing); everything else is a plain failure with its message.
function failureFrom(name: RequestName, error: unknown): RequestFailure {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const text = message.trim() === '' ? `${name} failed without saying why; the log of the Tether process has the details.` : message;
  if (code === 'not_found' || code === 'conflict' || code === 'invalid_input') return { code, message: text };
  if (code === 'invalid') return { code: 'invalid_input', message: text };
  return { code: 'failed', message: text };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function quoted(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name.slice(0, 80)) : `of type ${typeof name}`;
}
