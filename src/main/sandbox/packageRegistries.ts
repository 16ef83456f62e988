import fs from 'node:fs';
import path from 'node:path';

/**
 * The package registries a project uses, guessed from the manifests and lockfiles at its root, so
 * the person can let commands reach them with one click.
 */
const REGISTRIES: ReadonlyArray<{ files: string[]; domains: string[] }> = [
  {
    files: ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock'],
    domains: ['registry.npmjs.org'],
  },
  {
    files: ['requirements.txt', 'pyproject.toml', 'setup.py', 'setup.cfg', 'Pipfile', 'Pipfile.lock', 'poetry.lock', 'uv.lock'],
    domains: ['pypi.org', 'files.pythonhosted.org'],
  },
  { files: ['Cargo.toml', 'Cargo.lock'], domains: ['crates.io', 'index.crates.io', 'static.crates.io'] },
  { files: ['go.mod', 'go.sum'], domains: ['proxy.golang.org', 'sum.golang.org'] },
];

export function detectPackageRegistries(projectPath: string): string[] {
  const domains = new Set<string>();
  for (const registry of REGISTRIES) {
    if (registry.files.some((file) => fs.existsSync(path.join(projectPath, file))))
      for (const domain of registry.domains) domains.add(domain);
  }
  return [...domains];
}

/** Whether a host is one of the package registries above (a network question then says so). */
export function isPackageRegistry(host: string): boolean {
  return REGISTRIES.some((registry) => registry.domains.includes(host.toLowerCase()));
}
