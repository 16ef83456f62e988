import fs from 'node:fs';
import path from 'node:path';

/**
 * The package registries a project uses, guessed from the manifests and lockfiles at its root, so
 * the person can let commands reach them with one click.
 */
const REGISTRIES: ReadonlyArray<{ name: string; files: string[]; domains: string[]; tools: string[] }> = [
  {
    name: 'npm',
    files: ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock'],
    domains: ['registry.npmjs.org'],
    tools: ['npm', 'npx', 'yarn', 'pnpm', 'bun', 'bunx', 'corepack'],
  },
  {
    name: 'Python (PyPI)',
    files: ['requirements.txt', 'pyproject.toml', 'setup.py', 'setup.cfg', 'Pipfile', 'Pipfile.lock', 'poetry.lock', 'uv.lock'],
    domains: ['pypi.org', 'files.pythonhosted.org'],
    tools: ['pip', 'pip3', 'pipx', 'pipenv', 'poetry', 'uv', 'uvx', 'pdm', 'hatch', 'twine'],
  },
  {
    name: 'Rust (crates.io)',
    files: ['Cargo.toml', 'Cargo.lock'],
    domains: ['crates.io', 'index.crates.io', 'static.crates.io'],
    tools: ['cargo'],
  },
  { name: 'Go module', files: ['go.mod', 'go.sum'], domains: ['proxy.golang.org', 'sum.golang.org'], tools: ['go'] },
];

export function detectPackageRegistries(projectPath: string): string[] {
  const domains = new Set<string>();
  for (const registry of REGISTRIES) {
    if (registry.files.some((file) => fs.existsSync(path.join(projectPath, file))))
      for (const domain of registry.domains) domains.add(domain);
  }
  return [...domains];
}

/**
 * The package registry a host is, in a network question's words: "its package registry" only when one
 * of the line's programs is that registry's own tool (pip reaching pypi.org); otherwise which registry
 * it is ("the npm package registry", for python reaching registry.npmjs.org). Undefined for other hosts.
 */
export function registryPhrase(host: string, programs: readonly string[]): string | undefined {
  const registry = REGISTRIES.find((candidate) => candidate.domains.includes(host.toLowerCase()));
  if (!registry) return undefined;
  const own = programs.some((program) => registry.tools.includes(path.posix.basename(program)));
  return own ? 'its package registry' : `the ${registry.name} package registry`;
}
