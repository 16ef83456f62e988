import { spawn } from 'node:child_process';

/** How a search process ended. */
export interface SearchProcessOutcome {
  code: number | null;
  /** The start of what it printed on stderr (error messages). */
  stderr: string;
}

const MAX_STDERR = 64 * 1024;

/**
 * Runs a search program without a shell and hands each '\n'-terminated stdout record to
 * `onRecord` as it arrives (the buffer is only valid during the call). Aborting kills the program
 * at once and rejects with the signal's reason. Rejects with the spawn error (ENOENT, EACCES)
 * when the program cannot start.
 */
export function runSearchProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; signal: AbortSignal; onRecord(record: Buffer): void },
): Promise<SearchProcessOutcome> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let carry: Buffer | null = null;
    let stderr = '';
    let failure: unknown = null;
    const onAbort = () => {
      failure ??= options.signal.reason;
      child.kill('SIGKILL');
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      let data = chunk;
      if (carry) {
        data = Buffer.concat([carry, chunk]);
        carry = null;
      }
      let start = 0;
      try {
        for (let end = data.indexOf(10, start); end !== -1; end = data.indexOf(10, start)) {
          options.onRecord(data.subarray(start, end));
          start = end + 1;
        }
      } catch (error) {
        failure = error;
        child.kill('SIGKILL');
        return;
      }
      if (start < data.length) carry = Buffer.from(data.subarray(start));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      failure ??= error;
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      try {
        if (carry?.length) options.onRecord(carry);
      } catch (error) {
        return reject(error);
      }
      resolve({ code, stderr: stderr.slice(0, MAX_STDERR) });
    });
  });
}
