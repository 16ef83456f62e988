import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { derivePipConf } from './derivedPipConf';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function homeWith(relative: string, text: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-pip-'));
  made.push(home);
  fs.mkdirSync(path.dirname(path.join(home, relative)), { recursive: true });
  fs.writeFileSync(path.join(home, relative), text);
  return home;
}

describe('derivePipConf', () => {
  it('carries where pip finds packages, continued lines too, and drops credentials, proxies and the rest, counted not named', () => {
    const home = homeWith(
      '.config/pip/pip.conf',
      [
        '[global]',
        'find-links = /opt/wheels',
        'extra-index-url = file:///opt/pypi/simple',
        '    https://ada:hunter2@pypi.company.example/simple',
        '    file:///opt/pypi-more/simple',
        'index-url = https://me:SECRETtoken@pypi.example/simple',
        'proxy = http://ada:pw@proxy.example:3128',
        'client-cert = /home/ada/.pki/me.pem',
        '[install]',
        'trusted-host = pypi.company.example',
      ].join('\n'),
    );
    const folder = path.join(home, 'derived');
    const lit = derivePipConf(home, folder)!;
    expect(lit).toEqual({ source: path.join(folder, 'pip.conf'), dest: path.join(home, '.config/pip/pip.conf') });
    const text = fs.readFileSync(lit.source, 'utf8');
    for (const kept of [
      '[global]',
      'find-links = /opt/wheels',
      'extra-index-url = file:///opt/pypi/simple',
      '    file:///opt/pypi-more/simple',
      '[install]',
      'trusted-host = pypi.company.example',
    ])
      expect(text).toContain(kept);
    for (const secret of ['hunter2', 'SECRETtoken', 'proxy.example', 'me.pem', 'client-cert']) expect(text).not.toContain(secret);
    expect(text).toContain('# 2 lines left out: its value looks like a credential');
    expect(text).toContain('# 2 lines left out: not a setting sandboxed commands are given');
  });

  it('reads the older ~/.pip/pip.conf when there is no XDG one, and derives nothing when there is neither', () => {
    const home = homeWith('.pip/pip.conf', '[global]\ntimeout = 60\n');
    expect(derivePipConf(home, path.join(home, 'd'))?.dest).toBe(path.join(home, '.pip/pip.conf'));
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-pip-'));
    made.push(bare);
    expect(derivePipConf(bare, path.join(bare, 'd'))).toBeUndefined();
  });
});
