import type { SandboxNote } from '../../../../shared/sandbox';

const titles: Record<SandboxNote['kind'], string> = {
  fence_hit: 'Blocked by the sandbox fence',
  unavailable: 'No sandbox available',
  network: 'A command wants to reach the network',
  outside_write: 'Writes outside the sandbox fence',
};

/**
 * What the OS sandbox has to do with this request, said plainly: the command hit its fence and
 * allowing runs it again outside, once; it writes outside the fence and allowing runs it outside,
 * once; there is no sandbox here and allowing runs it unsandboxed; or the running command is
 * connecting to a host its fence does not allow, and waits for the answer.
 */
export function SandboxNotice({ note }: { note: SandboxNote }) {
  return (
    <section className={`sandbox-notice sandbox-${note.kind}`} aria-label="Sandbox" data-testid="permission-sandbox" data-kind={note.kind}>
      <h3>{titles[note.kind]}</h3>
      {note.kind === 'network' ? (
        <>
          <p data-testid="permission-sandbox-reason">{note.reason}.</p>
          {note.host !== undefined && (
            <p className="sandbox-host">
              Host{' '}
              <span className="mono" data-testid="permission-network-host">
                {note.host}
              </span>
              , port{' '}
              <span className="mono" data-testid="permission-network-port">
                {note.port}
              </span>
            </p>
          )}
          <p className="sandbox-consequence">
            This project’s sandbox fence does not allow it. The command waits, its timeout stopped, until you answer: Allow once lets this
            command reach the host, Allow always also adds it to this project’s allowed domains (Settings → Sandbox), Deny refuses the
            connection.
          </p>
        </>
      ) : note.kind === 'fence_hit' ? (
        <>
          <p data-testid="permission-sandbox-reason">This command hit {note.reason}.</p>
          <p className="sandbox-question">Run it again outside the sandbox?</p>
          <p className="sandbox-consequence">
            Allowing runs it again outside the sandbox, once, with your full access to files and the network. It is never remembered as
            “always”.
          </p>
        </>
      ) : note.kind === 'outside_write' ? (
        <>
          <p data-testid="permission-sandbox-reason">{note.reason}</p>
          <p className="sandbox-consequence">
            Allowing runs this command outside the sandbox, once, with your full access to files and the network. It is never remembered as
            “always”.
          </p>
        </>
      ) : (
        <>
          <p data-testid="permission-sandbox-reason">{note.reason}</p>
          <p className="sandbox-consequence">
            Allowing runs this command unsandboxed, with your full access to files and the network. Settings → Sandbox can refuse commands
            instead.
          </p>
        </>
      )}
    </section>
  );
}
