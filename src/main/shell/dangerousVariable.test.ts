import { describe, expect, it } from 'vitest';
import { isDangerousVariable } from './dangerousVariable';

describe('isDangerousVariable', () => {
  it.each([
    'PATH',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'LD_AUDIT',
    'DYLD_INSERT_LIBRARIES',
    'NODE_OPTIONS',
    'NODE_PATH',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'PYTHONWARNINGS',
    'PERL5OPT',
    'PERL5LIB',
    'RUBYOPT',
    'GIT_SSH_COMMAND',
    'GIT_EXTERNAL_DIFF',
    'GIT_DIR',
    'GIT_CONFIG_GLOBAL',
    'BASH_ENV',
    'BASH_FUNC_ls%%',
    'ENV',
    'IFS',
    'PROMPT_COMMAND',
    'SHELLOPTS',
    'BASHOPTS',
    'PS4',
    'CDPATH',
    'HOME',
    'XDG_CONFIG_HOME',
    'EDITOR',
    'PAGER',
    'GIT_PAGER',
    'LESSOPEN',
    'npm_config_script_shell',
    'NPM_CONFIG_REGISTRY',
    'JAVA_TOOL_OPTIONS',
    'RUSTC_WRAPPER',
    'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER',
    'GCONV_PATH',
    'RIPGREP_CONFIG_PATH',
    'SSH_ASKPASS',
    'ZDOTDIR',
    // The environment form of the exec-options (shell/execOptions.ts).
    'RUSTFLAGS',
    'CFLAGS',
    'LDFLAGS',
    'MAKE',
    'PYTEST_ADDOPTS',
    'PYTEST_PLUGINS',
    'GOTOOLCHAIN',
    'CGO_LDFLAGS',
    'TF_CLI_CONFIG_FILE',
  ])('%s changes what runs', (name) => {
    expect(isDangerousVariable(name)).toBe(true);
  });

  it.each([
    'NODE_ENV',
    'CI',
    'LANG',
    'LC_ALL',
    'TZ',
    'DEBUG',
    'FOO',
    'PYTHONUNBUFFERED',
    'PYTHONDONTWRITEBYTECODE',
    'CARGO_TERM_COLOR',
    'RUST_LOG',
    'TERM',
  ])('%s does not', (name) => {
    expect(isDangerousVariable(name)).toBe(false);
  });
});
