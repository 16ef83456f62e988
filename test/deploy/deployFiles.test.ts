import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { DockerfileParser } from 'dockerfile-ast';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

// deploy/ is checked with the tools that read such files: Kubernetes' own schemas (kubernetes-models),
// SchemaStore's schema of GitHub Action metadata (vendored, see schemas/PROVENANCE.md) and a Dockerfile
// parser; and for what Tether needs of them: the sandbox working, secrets only from the environment.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('deploy/Containerfile', () => {
  const file = DockerfileParser.parse(read('deploy/Containerfile'));
  const instructions = file.getInstructions();
  const last = (keyword: string) => instructions.filter((instruction) => instruction.getKeyword() === keyword).at(-1);

  it('parses, builds in a stage of its own and runs tether run as a user that is not root', () => {
    expect(file.getFROMs().map((from) => from.getImageName())).toEqual(['${BASE}', '${BASE}']);
    expect(last('USER')?.getArgumentsContent()).toBe('10001');
    const entrypoint = file.getENTRYPOINTs().at(-1)!.getArgumentsContent() ?? '';
    expect(JSON.parse(entrypoint)).toEqual(['/usr/bin/tini', '--', 'node', '/opt/tether/bin/tether.js', 'run']);
  });

  it('installs what the sandbox needs in the image that runs, and no secret is baked in', () => {
    const finalStage = instructions.slice(instructions.indexOf(file.getFROMs()[1]!));
    const installs = finalStage.filter((instruction) => instruction.getKeyword() === 'RUN').map((run) => run.getArgumentsContent() ?? '');
    for (const tool of ['bubblewrap', 'socat', 'ripgrep', 'git', 'nodejs']) expect(installs.join(' ')).toMatch(new RegExp(`\\b${tool}\\b`));
    const environment = instructions.filter((instruction) => ['ENV', 'ARG'].includes(instruction.getKeyword()));
    for (const line of environment) expect(line.getArgumentsContent() ?? '').not.toMatch(/KEY|TOKEN|SECRET|PASSWORD/i);
  });
});

describe('deploy/kubernetes/tether-job.yaml', () => {
  const documents = parseAllDocuments(read('deploy/kubernetes/tether-job.yaml')).map(
    (document) => document.toJS() as Record<string, unknown>,
  );
  const job = new Job(documents.find((document) => document.kind === 'Job') as ConstructorParameters<typeof Job>[0]);
  const configMap = new ConfigMap(
    documents.find((document) => document.kind === 'ConfigMap') as ConstructorParameters<typeof ConfigMap>[0],
  );
  const pod = job.spec!.template.spec!;
  const agent = pod.containers.find((container) => container.name === 'tether')!;

  it('is a valid Job and ConfigMap by Kubernetes’ own schemas', () => {
    expect(() => job.validate()).not.toThrow();
    expect(() => configMap.validate()).not.toThrow();
    // The check itself can fail: a field of the wrong type is refused.
    expect(() =>
      new Job({ metadata: { name: 'bad' }, spec: { ...job.spec!, parallelism: 'three' as unknown as number } }).validate(),
    ).toThrow();
  });

  it('runs N agents at once, one task each, never retried by itself', () => {
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimit: 0 });
    expect(Object.keys(configMap.data ?? {}).sort()).toEqual(['task-0', 'task-1', 'task-2']);
    expect(agent.args?.join(' ')).toContain('/etc/tether/tasks/task-$JOB_COMPLETION_INDEX');
  });

  it('reports to a desk, with the desk token and the API key from Secrets and never on the command line', () => {
    const command = [...(agent.command ?? []), ...(agent.args ?? [])].join(' ');
    expect(command).toMatch(/--desk "\$DESK_URL" --desk-fingerprint "\$DESK_FINGERPRINT"/);
    expect(command).not.toMatch(/TOKEN|api-key|--desk-token/i);
    const fromSecret = (name: string) => agent.env?.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef;
    expect(fromSecret('TETHER_DESK_TOKEN')).toEqual({ name: 'tether-desk', key: 'token' });
    expect(fromSecret('TETHER_API_KEY')).toEqual({ name: 'tether-model', key: 'api-key' });
  });

  it('gives the pod what bubblewrap needs: its own user namespace, unmasked /proc, no seccomp or AppArmor refusal of unshare and mount', () => {
    expect(pod.hostUsers).toBe(false);
    expect(agent.securityContext?.procMount).toBe('Unmasked');
    expect(pod.securityContext?.seccompProfile?.type).toBe('Unconfined');
    expect(pod.securityContext?.appArmorProfile?.type).toBe('Unconfined');
    // And nothing more: no root, no privilege, no capabilities, no service account token.
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
    expect(agent.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(agent.securityContext?.privileged).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
  });
});

describe('deploy/github-action/action.yml', () => {
  const schema = JSON.parse(read('test/deploy/schemas/github-action.schema.json')) as object;
  const text = read('deploy/github-action/action.yml');
  const action = parse(text) as {
    inputs: Record<string, { required?: boolean; default?: string }>;
    runs: { using: string; steps: Array<{ run?: string; env?: Record<string, string>; id?: string }> };
  };

  it('is valid by SchemaStore’s schema of action metadata', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(action), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The check itself can fail: a runs section without steps is refused.
    expect(validate({ ...action, runs: { using: 'composite' } })).toBe(false);
  });

  it('takes a task, runs it against a desk when given one and denies otherwise, its secrets only in the environment', () => {
    expect(action.inputs.task?.required).toBe(true);
    expect(action.inputs['desk-url']?.default).toBe('');
    const run = action.runs.steps.find((step) => step.id === 'run')!;
    expect(run.env?.TETHER_DESK_TOKEN).toBe('${{ inputs.desk-token }}');
    expect(run.env?.TETHER_API_KEY).toBe('${{ inputs.api-key }}');
    // No input is pasted into a script (an injection); scripts read them from the environment.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toMatch(/\$\{\{\s*inputs\./);
    expect(run.run).toMatch(/--desk "\$TETHER_DESK_URL"/);
    expect(run.run).toMatch(/unset TETHER_DESK_TOKEN/);
    expect(text).not.toMatch(/--desk-token/);
  });

  it('is used on pull requests without handing a fork’s code the secrets', () => {
    const workflow = parse(read('deploy/github-action/example-workflow.yml')) as { on: Record<string, unknown> };
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
  });
});
