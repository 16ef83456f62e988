import { describe, expect, it } from 'vitest';
import { ruleFor } from '../../shared/toolCatalog';
import { AUTORUN_FILES } from '../workspace/autorunFiles';
import { HOME_CREDENTIAL_STORES } from '../workspace/secretPlaces';
import { DEFAULT_RULES } from './defaultRules';
import { parseRule } from './ruleSyntax';

// The built-in rules are written with the catalog's rule tools (ruleFor), not with names of their
// own: the same texts as ever, each read by the rule syntax as the family it protects.

describe('the built-in rules', () => {
  it('keep the texts a person has seen in the approval dialog and the settings', () => {
    const patterns = DEFAULT_RULES.map((rule) => rule.pattern);
    expect(patterns).toEqual(
      expect.arrayContaining([
        'read_file(.env)',
        'read_file(.env.!(example|sample|template|dist|defaults))',
        'edit_file(.git)',
        'edit_file(.tether)',
        `read_file(~/${HOME_CREDENTIAL_STORES[0]})`,
        `read_file(~/${HOME_CREDENTIAL_STORES[0]}/**)`,
        `edit_file(${AUTORUN_FILES[0]!.pattern})`,
      ]),
    );
    expect(patterns).toHaveLength(HOME_CREDENTIAL_STORES.length * 2 + 4 + AUTORUN_FILES.length);
  });

  it('are each read as a rule of the family it protects: secrets by every reading tool, the rest by every writing one', () => {
    const written = new Set(['.git', '.tether', ...AUTORUN_FILES.map((file) => file.pattern)]);
    for (const rule of DEFAULT_RULES) {
      const parsed = parseRule(rule.pattern);
      const family = written.has(parsed.specifier ?? '') ? 'write' : 'read';
      expect(parsed.target, rule.pattern).toMatchObject({ kind: 'path', family });
    }
  });
});

describe('ruleFor', () => {
  it('writes a rule the rule syntax reads back as its family, with the specifier as given', () => {
    expect(parseRule(ruleFor('command', 'npm test *'))).toMatchObject({ specifier: 'npm test *', target: { kind: 'command' } });
    expect(parseRule(ruleFor('read', 'src/**'))).toMatchObject({ specifier: 'src/**', target: { kind: 'path', family: 'read' } });
    expect(parseRule(ruleFor('write', '.git'))).toMatchObject({ target: { kind: 'path', family: 'write' } });
    expect(parseRule(ruleFor('list_files', 'src'))).toMatchObject({ target: { kind: 'path', family: 'list_files' } });
    expect(parseRule(ruleFor('domain', 'domain:example.com'))).toMatchObject({ target: { kind: 'domain' } });
  });
});
