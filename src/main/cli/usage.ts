import { DEFAULT_MAX_STEPS } from '../agent/maxSteps';

/**
 * What each command says to --help, kept apart from the commands themselves so that printing it
 * loads none of what they need (tether.ts imports a command only when it runs).
 */

export const runUsage = `Usage: tether run "<task>" [options]
       tether run --session <id> ["<message>"] [options]

Runs the agent headless until the model answers, maxSteps stops it, or it fails.
Every action that needs approval is denied, unless --unleashed is given for this run, or
--desk sends it to a person's desk and waits for their answer.

Options:
  --cwd <dir>          the workspace folder (default: the current folder)
  --model <name>       the model (env TETHER_MODEL)
  --base-url <url>     the server's base URL (env TETHER_BASE_URL; default OpenAI's, or
                       https://api.anthropic.com with --api anthropic)
  --api <api>          responses | chat | anthropic (env TETHER_API; default responses);
                       the key is TETHER_API_KEY, else OPENAI_API_KEY (ANTHROPIC_API_KEY for anthropic)
  --max-tokens <n>     the most tokens one response may have (env TETHER_MAX_TOKENS; Anthropic only)
  --max-steps <n>      model requests before it stops (default ${DEFAULT_MAX_STEPS})
  --session <id>       continue a session (its model and workspace stay as they were)
  --mode <mode>        ask (default) | auto-edit | auto | read-only
                       auto: edits and commands the sandbox holds run on their own; what
                       would leave the sandbox asks (and headless, is denied)
  --unleashed          allow every action that would ask, for this run only (deny rules and the
                       sandbox still hold: a command that hits the fence is refused, never re-run
                       outside, and a host the fence does not allow is refused)
  --no-sandbox         run commands with no OS sandbox, with your full access, for this run only
                       (warned about on stderr and kept on the session)
  --allow-host <host>  let commands reach this host through the sandbox's proxy, for this run only
                       (repeatable; registry.npmjs.org, *.example.com, 127.0.0.1:4873). Any other
                       host is refused, --unleashed included, and the model is told which
  --rules <file>       extra permission rules for this run: {"allow": [...], "ask": [...], "deny": [...]}
  --mcp-config <file>  MCP servers for this run, as Claude Desktop and Cursor write them: {"mcpServers": {...}}
  --desk <url>         report to a desk (tether serve --remote-runs) and send every request there:
                       ws://127.0.0.1:7717 (on the desk's machine, or through an SSH tunnel to it),
                       or wss://host:7717 with --desk-fingerprint. The runner's token is read from
                       TETHER_DESK_TOKEN only. Not with --unleashed.
  --desk-fingerprint <sha256>  the desk certificate's fingerprint, as the desk shows it (wss:// only)
  --desk-wait <time>   how long a request waits for the desk's answer before it is denied, the
                       command's timeout standing still meanwhile (default 10m; 90s, 1h...)
  --json               print one JSON event per line on stdout
  --data-dir <dir>     where sessions are kept (env TETHER_HOME)

Exit status: 0 answered, 2 stopped by maxSteps, 3 model or provider error, 130 interrupted, 1 usage error;
with --desk: 10 desk unreachable, 11 token unknown or missing, 12 token revoked, 13 certificate not the
pinned one (or not trusted), 14 protocol version differs, 15 the desk closed the run for good.`;

export const sessionsUsage = `Usage: tether sessions [--data-dir <dir>] [--json]
       tether sessions show <id> [--data-dir <dir>] [--json]

Lists the sessions, newest first, with their tokens and cost and the sums per project, or prints
one session's log. A model with no known price shows its cost as unknown (prices: settings.json
"models").`;

export const permissionsUsage = `Usage: tether permissions explain --tool <name> --args '<json>' [--rules <file>] [--mode <mode>] [--tainted] [--cwd <dir>] [--json]
       tether permissions explain --stdin [--cwd <dir>]
       tether permissions list [--data-dir <dir>] [--json]
       tether permissions revoke <id> [--data-dir <dir>]

explain  says what the permission engine decides for one tool call, and why, without running it.
         --stdin reads one JSON request per line ({"tool", "args", "rules", "mode", "tainted"}) and prints
         one result per line, in order. A rules file is {"allow": [...], "ask": [...], "deny": [...]}.
list     lists the rules remembered from "Allow always".
revoke   revokes one of them.`;

export const auditUsage = `Usage: tether audit [--since <date>] [--session <id>] [--json | --csv] [--data-dir <dir>]

Lists every permission decision, oldest first: what was asked or run, when, in which session and
project, and who decided (the person, a rule and where it came from, the managed policy, a hook,
unleashed mode, the headless default or --unleashed, a run option such as --no-sandbox). Questions
still waiting are listed as waiting.

Options:
  --since <date>       only decisions from then on: 2026-12-01, 2026-12-01T09:00, or back from now: 30m, 12h, 7d
  --session <id>       only this session's decisions
  --json               one JSON array of the decisions
  --csv                CSV with a header row (RFC 4180; a field a spreadsheet would run as a formula starts with ')
  --data-dir <dir>     where sessions are kept (env TETHER_HOME)`;

export const serveUsage = `Usage: tether serve [options]

Serves Tether's UI to a browser on this machine, at http://127.0.0.1:<port>/ with a fresh access
token in the address each run. Only 127.0.0.1 listens; from another machine, tunnel the same port
(ssh -L <port>:127.0.0.1:<port> <host>) and open the printed address there.

Options:
  --port <n>           the port (default: any free one)
  --remote-runs        accept remote runs (tether run --desk) here, on ws://127.0.0.1:7717
  --desk-host <addr>   where remote runs connect (with --remote-runs); any address but loopback
                       only with TLS: the desk makes its own certificate and prints its fingerprint
  --desk-port <n>      the port remote runs connect to (default 7717)
  --cwd <dir>          a folder to offer as a project (default: the current folder)
  --data-dir <dir>     where sessions are kept (env TETHER_HOME)

Prints the address on stdout; Ctrl+C (or SIGTERM) stops it.`;

export const deskUsage = `Usage: tether desk tokens create <name> [--data-dir <dir>]
       tether desk tokens revoke <name> [--data-dir <dir>]
       tether desk tokens list [--json] [--data-dir <dir>]

The tokens of runners that report to this desk (tether run --desk, TETHER_DESK_TOKEN). create prints
the new token once (only its hash is kept); revoke cuts that runner's runs off at once.`;
