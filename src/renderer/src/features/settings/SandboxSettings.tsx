import { useState, type FormEvent } from 'react';
import type { SandboxFence, SandboxView } from '../../../../shared/sandbox';
import { useApp } from '../../stores/useApp';
import { useSandboxView } from './useSandboxView';
import './sandbox.css';

type FenceKey = Exclude<keyof SandboxFence, 'packageRegistries'>;

const FIELDS: ReadonlyArray<{ key: FenceKey; label: string; hint: string }> = [
  { key: 'allowedDomains', label: 'Allowed domains', hint: 'registry.npmjs.org, *.github.com, api.example.com:443' },
  { key: 'allowWrite', label: 'Also writable', hint: 'folders outside the project, e.g. ~/shared/build-output' },
  { key: 'denyWrite', label: 'Also protected from writes', hint: 'paths in the project, e.g. deploy/' },
  { key: 'denyRead', label: 'Also unreadable', hint: 'more secrets, e.g. ~/.kube' },
  { key: 'litHome', label: 'Also lit in the home folder', hint: 'folders a tool needs to read, e.g. ~/.config/mytool' },
];

/**
 * The command sandbox: whether there is one here, what runs when there is not, and each project's
 * fence (the built-in part shown, the person's additions editable, one entry per line). Stored in
 * the data folder, never in the project, so a repository cannot widen its own fence.
 */
export function SandboxSettings() {
  const projects = useApp((state) => state.projects);
  const selectedProjectId = useApp(
    (state) => (state.selectedSessionId ? state.sessions[state.selectedSessionId]?.projectId : null) ?? state.draftProjectId,
  );
  const [chosen, setChosen] = useState<string | undefined>();
  const projectId = chosen ?? selectedProjectId ?? projects[0]?.id;
  const { view, error, saving, change } = useSandboxView(projectId);

  return (
    <section className="sandbox-settings" aria-labelledby="sandbox-title" data-testid="sandbox-settings">
      <h2 id="sandbox-title">Sandbox</h2>
      {view && <Availability view={view} saving={saving} onChoose={(unavailable) => void change({ unavailable })} />}
      {projects.length === 0 ? (
        <p className="faint">Open a project to see and edit its fence.</p>
      ) : (
        <label className="field">
          <span>Project</span>
          <select data-testid="sandbox-project" value={projectId ?? ''} onChange={(event) => setChosen(event.target.value)}>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name} — {project.path}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p className="error-text" role="alert" data-testid="sandbox-error">
          {error}
        </p>
      )}
      {view && projectId && (
        <FenceForm key={`${projectId}:${JSON.stringify(view.fence)}`} view={view} saving={saving} onSave={(fence) => change({ fence })} />
      )}
    </section>
  );
}

function Availability({
  view,
  saving,
  onChoose,
}: {
  view: SandboxView;
  saving: boolean;
  onChoose(choice: SandboxView['unavailable']): void;
}) {
  return (
    <>
      {view.available ? (
        <p className="sandbox-status" data-testid="sandbox-status" data-available="true">
          Every command the agent runs is sandboxed: it writes only inside its project, its session’s own /tmp and the project’s toolchain
          caches, cannot read the secrets below, and reaches the network only through a proxy, to the allowed domains.
        </p>
      ) : (
        <p className="sandbox-status sandbox-missing" role="alert" data-testid="sandbox-status" data-available="false">
          <strong>No sandbox is available here.</strong> {view.reason}
        </p>
      )}
      <label className="field">
        <span>When no sandbox is available</span>
        <select
          data-testid="sandbox-unavailable"
          value={view.unavailable}
          disabled={saving}
          onChange={(event) => onChoose(event.target.value as SandboxView['unavailable'])}
        >
          <option value="ask">Ask before every command, and run it unsandboxed if allowed</option>
          <option value="refuse">Refuse to run commands</option>
        </select>
      </label>
    </>
  );
}

function FenceForm({ view, saving, onSave }: { view: SandboxView; saving: boolean; onSave(fence: SandboxFence): Promise<boolean> }) {
  const [drafts, setDrafts] = useState<Record<FenceKey, string>>(() => ({
    allowedDomains: view.fence.allowedDomains.join('\n'),
    allowWrite: view.fence.allowWrite.join('\n'),
    denyWrite: view.fence.denyWrite.join('\n'),
    denyRead: view.fence.denyRead.join('\n'),
    litHome: (view.fence.litHome ?? []).join('\n'),
  }));
  const [registries, setRegistries] = useState(view.fence.packageRegistries);
  const fence: SandboxFence = {
    allowedDomains: lines(drafts.allowedDomains),
    allowWrite: lines(drafts.allowWrite),
    denyWrite: lines(drafts.denyWrite),
    denyRead: lines(drafts.denyRead),
    packageRegistries: registries,
    litHome: lines(drafts.litHome),
  };
  const dirty =
    registries !== view.fence.packageRegistries ||
    FIELDS.some(({ key }) => lines(drafts[key]).join('\n') !== (view.fence[key] ?? []).join('\n'));

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (dirty && !saving) void onSave(fence);
  }

  return (
    <form className="sandbox-fence" onSubmit={handleSubmit} data-testid="sandbox-fence">
      <div className="sandbox-builtin" data-testid="sandbox-builtin">
        <h3>Always</h3>
        <FenceList label="Writable" items={view.builtIn.allowWrite} testId="sandbox-builtin-write" />
        <div className="fence-list">
          <span className="fence-label">Also writable</span>
          <ul data-testid="sandbox-builtin-places">
            <li>
              <span className="mono">/tmp</span> <span className="faint">— each session’s own folder, never the real /tmp</span>
            </li>
            {view.builtIn.caches && (
              <li>
                <span className="mono">{view.builtIn.caches}</span>{' '}
                <span className="faint">— this project’s toolchain caches (npm, pip, cargo, …)</span>
              </li>
            )}
          </ul>
        </div>
        <FenceList label="Never writable" items={view.builtIn.denyWrite} testId="sandbox-builtin-deny-write" />
        <FenceList label="Never readable" items={view.builtIn.denyRead} testId="sandbox-builtin-deny-read" />
        {view.builtIn.litHome && (
          <details className="fence-list" data-testid="sandbox-builtin-lit-home">
            <summary className="fence-label">
              Home folder: dark, but for the toolchains ({view.builtIn.litHome.length} places, read-only)
            </summary>
            <ul>
              {view.builtIn.litHome.map((entry) => (
                <li key={entry.path}>
                  <span className="mono">{entry.path}</span> <span className="faint">— {entry.why}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
        <p className="faint">Network: none, unless a domain is allowed below.</p>
      </div>
      <h3>This project adds</h3>
      <label className="field sandbox-preset">
        <span>
          <input
            type="checkbox"
            data-testid="sandbox-registries"
            checked={registries}
            disabled={saving}
            onChange={(event) => setRegistries(event.target.checked)}
          />{' '}
          Package registries
        </span>
        <span className="faint" data-testid="sandbox-registries-hosts">
          {(view.registries ?? []).map((registry) => registry.ecosystem).join(' · ')}: installs reach them without a question
        </span>
      </label>
      {FIELDS.map(({ key, label, hint }) => (
        <label className="field" key={key}>
          <span>{label}</span>
          <textarea
            rows={Math.max(2, lines(drafts[key]).length + 1)}
            className="mono"
            data-testid={`sandbox-${key}`}
            placeholder={hint}
            value={drafts[key]}
            onChange={(event) => setDrafts({ ...drafts, [key]: event.target.value })}
          />
        </label>
      ))}
      <div className="settings-actions field-row">
        <button type="submit" className="primary" data-testid="sandbox-save" disabled={!dirty || saving}>
          {saving ? 'Saving…' : 'Save fence'}
        </button>
      </div>
    </form>
  );
}

function FenceList({ label, items, testId }: { label: string; items: string[]; testId: string }) {
  return (
    <div className="fence-list">
      <span className="fence-label">{label}</span>
      <ul data-testid={testId}>
        {items.map((item) => (
          <li key={item} className="mono">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

function lines(text: string): string[] {
  return [
    ...new Set(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}
