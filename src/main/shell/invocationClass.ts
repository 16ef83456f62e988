/**
 * What one program does with its arguments, judged from the program's name and arguments alone
 * (where it resolves, wrappers and redirections are the analysis's business):
 *   readOnly: on the built-in read-only list, with arguments that keep it reading only;
 *   local: known not to reach the network, nor to start other programs that could.
 *
 * Unknown programs are neither: anything the engine does not know may reach the network. So are
 * interpreters (node, python, bash ... run scripts that may do anything), package managers, build
 * tools and test runners (make, cargo, npm test, jest, vitest, pytest, eslint and prettier load
 * project code or configuration written in code). tsc counts as local: its configuration is JSON
 * and it runs no project code.
 */
export interface InvocationClass {
  readOnly: boolean;
  local: boolean;
}

export const READS: InvocationClass = { readOnly: true, local: true };
export const LOCAL: InvocationClass = { readOnly: false, local: true };
export const UNKNOWN: InvocationClass = { readOnly: false, local: false };
