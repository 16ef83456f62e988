/**
 * The "package registries" preset: the hosts a project's package managers install from, which the
 * person switches on per project in Settings → Sandbox (kept in Tether's data folder, never in the
 * repository). On, commands reach them through the proxy without a question; off (the default),
 * each asks the first time a command connects, as any host does.
 */
export const PACKAGE_REGISTRIES: ReadonlyArray<{ ecosystem: string; domains: readonly string[] }> = [
  { ecosystem: 'npm, yarn, pnpm, bun', domains: ['registry.npmjs.org', 'registry.yarnpkg.com', 'repo.yarnpkg.com'] },
  { ecosystem: 'PyPI (pip, uv, Poetry)', domains: ['pypi.org', 'files.pythonhosted.org'] },
  { ecosystem: 'crates.io', domains: ['crates.io', 'index.crates.io', 'static.crates.io'] },
  { ecosystem: 'Go modules', domains: ['proxy.golang.org', 'sum.golang.org'] },
  { ecosystem: 'Maven Central', domains: ['repo.maven.apache.org', 'repo1.maven.org'] },
  { ecosystem: 'Gradle', domains: ['plugins.gradle.org', 'services.gradle.org'] },
  { ecosystem: 'RubyGems', domains: ['rubygems.org', 'index.rubygems.org'] },
];

export const PACKAGE_REGISTRY_DOMAINS: readonly string[] = PACKAGE_REGISTRIES.flatMap((registry) => registry.domains);

/** Whether a host is one of the package registries above (a network question then says so). */
export function isPackageRegistry(host: string): boolean {
  return PACKAGE_REGISTRY_DOMAINS.includes(host.toLowerCase());
}
