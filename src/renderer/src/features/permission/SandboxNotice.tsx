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
          <DataGoes note={note} />
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
          <DataGoes note={note} />
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

/** Whether the request's safe answer (Deny: keep it in the fence) is its default: something would leave the machine. */
export function exposesData(note: SandboxNote | undefined): boolean {
  return Boolean(note?.secrets?.length || note?.sends?.length);
}

/**
 * Where data would go if the person allows it: a secret the fence kept from the command goes, in
 * what it prints, to the model and its provider; what the line sends goes to the hosts it names.
 */
function DataGoes({ note }: { note: SandboxNote }) {
  if (!exposesData(note)) return null;
  return (
    <div className="sandbox-exposure" data-testid="permission-sandbox-exposure">
      {note.secrets && note.secrets.length > 0 && (
        <p>
          Outside, it can read <span className="mono">{note.secrets.join(', ')}</span>, which the sandbox keeps from commands because it
          holds secrets. What the command prints goes back to the model: what that file holds would be sent to the model provider
          {note.provider ? (
            <>
              {' '}
              (<span className="mono">{note.provider}</span>)
            </>
          ) : null}
          , and whatever it copies it to stays readable.
        </p>
      )}
      {note.sends && note.sends.length > 0 && (
        <p>
          It sends data off this machine: <span className="mono">{note.sends.join('; ')}</span>.
        </p>
      )}
      <p className="sandbox-default">Deny is the default here (Enter): keep it in the sandbox unless you mean to share this.</p>
    </div>
  );
}
