/**
 * Where secrets live on a developer's machine: the credential stores under the home folder that no
 * command reads (the sandbox's read fence) and that no tool reads (the engine's built-in rules), and
 * the file names that hold a project's secrets at any depth of its workspace. One table, so the fence
 * and the engine never disagree about what a secret is.
 */

/** Under the home folder: folders and files of credentials, relative to it. */
export const HOME_CREDENTIAL_STORES: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.git-credentials',
  '.config/git/credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.docker/config.json',
  '.config/containers/auth.json',
  '.kube',
  '.config/gh',
  '.config/gcloud',
  '.azure',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d',
  '.vault-token',
];

/** File names (globs) that hold a project's secrets wherever they sit in the workspace. */
export const WORKSPACE_SECRET_FILES: readonly string[] = ['.env*'];
