import type { SandboxNote } from '../../../../shared/sandbox';

/**
 * What the OS sandbox has to do with this request, said plainly: the command hit its fence and
 * allowing runs it again outside, once; or there is no sandbox here and allowing runs it unsandboxed.
 */
export function SandboxNotice({ note }: { note: SandboxNote }) {
  const hit = note.kind === 'fence_hit';
  return (
    <section className={`sandbox-notice sandbox-${note.kind}`} aria-label="Sandbox" data-testid="permission-sandbox" data-kind={note.kind}>
      <h3>{hit ? 'Blocked by the sandbox fence' : 'No sandbox available'}</h3>
      <p data-testid="permission-sandbox-reason">{hit ? `This command hit ${note.reason}.` : note.reason}</p>
      {hit && <p className="sandbox-question">Run it again outside the sandbox?</p>}
      <p className="sandbox-consequence">
        {hit
          ? 'Allowing runs it again outside the sandbox, once, with your full access to files and the network. It is never remembered as “always”.'
          : 'Allowing runs this command unsandboxed, with your full access to files and the network. Settings → Sandbox can refuse commands instead.'}
      </p>
    </section>
  );
}
