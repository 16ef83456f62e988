import path from 'node:path';

/**
 * The "package registries" preset: the hosts a project's package managers install from, which the
 * person switches on per project in Settings → Sandbox (kept in Tether's data folder, never in the
 * repository). On, commands reach them through the proxy without a question; off (the default),
 * each asks the first time a command connects, as any host does. Each registry names its own tools,
 * so a network question can say whose registry a host is.
 */
export const PACKAGE_REGISTRIES: ReadonlyArray<{ ecosystem: string; name: string; domains: readonly string[]; tools: readonly string[] }> =
  [
    {
      ecosystem: 'npm, yarn, pnpm, bun',
      name: 'npm',
      domains: ['registry.npmjs.org', 'registry.yarnpkg.com', 'repo.yarnpkg.com'],
      tools: ['npm', 'npx', 'yarn', 'pnpm', 'bun', 'bunx', 'corepack'],
    },
    {
      ecosystem: 'PyPI (pip, uv, Poetry)',
      name: 'Python (PyPI)',
      domains: ['pypi.org', 'files.pythonhosted.org'],
      tools: ['pip', 'pip3', 'pipx', 'pipenv', 'poetry', 'uv', 'uvx', 'pdm', 'hatch', 'twine'],
    },
    { ecosystem: 'crates.io', name: 'Rust (crates.io)', domains: ['crates.io', 'index.crates.io', 'static.crates.io'], tools: ['cargo'] },
    { ecosystem: 'Go modules', name: 'Go module', domains: ['proxy.golang.org', 'sum.golang.org'], tools: ['go'] },
    { ecosystem: 'Maven Central', name: 'Maven Central', domains: ['repo.maven.apache.org', 'repo1.maven.org'], tools: ['mvn', 'mvnw'] },
    { ecosystem: 'Gradle', name: 'Gradle plugin', domains: ['plugins.gradle.org', 'services.gradle.org'], tools: ['gradle', 'gradlew'] },
    { ecosystem: 'RubyGems', name: 'RubyGems', domains: ['rubygems.org', 'index.rubygems.org'], tools: ['gem', 'bundle', 'bundler'] },
  ];

export const PACKAGE_REGISTRY_DOMAINS: readonly string[] = PACKAGE_REGISTRIES.flatMap((registry) => registry.domains);

/** Whether a host is one of the package registries above (a network question then says so). */
export function isPackageRegistry(host: string): boolean {
  return PACKAGE_REGISTRY_DOMAINS.includes(host.toLowerCase());
}

/**
 * The package registry a host is, in a network question's words: "its package registry" only when one
 * of the line's programs is that registry's own tool (pip reaching pypi.org); otherwise which registry
 * it is ("the npm package registry", for python reaching registry.npmjs.org). Undefined for other hosts.
 */
export function registryPhrase(host: string, programs: readonly string[]): string | undefined {
  const registry = PACKAGE_REGISTRIES.find((candidate) => candidate.domains.includes(host.toLowerCase()));
  if (!registry) return undefined;
  const own = programs.some((program) => registry.tools.includes(path.posix.basename(program)));
  return own ? 'its package registry' : `the ${registry.name} package registry`;
}
