import { describe, expect, it } from 'vitest';
import { externalLinkTarget } from './externalLink';

describe('externalLinkTarget', () => {
  it('offers http and https links to the browser', () => {
    expect(externalLinkTarget('https://docs.example.com/a?b=1#c')?.href).toBe('https://docs.example.com/a?b=1#c');
    expect(externalLinkTarget('http://127.0.0.1:8080/')?.host).toBe('127.0.0.1:8080');
  });

  it('never offers other schemes, which could run programs or read files', () => {
    for (const href of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'vscode://x',
      'ms-settings:',
      'data:text/html,hi',
      'mailto:a@b.c',
    ]) {
      expect(externalLinkTarget(href), href).toBeNull();
    }
  });

  it('never offers a link with credentials, which can pass one host off as another', () => {
    expect(externalLinkTarget('https://github.com@evil.example/')).toBeNull();
    expect(externalLinkTarget('https://user:pass@example.com/')).toBeNull();
  });

  it('refuses what is not a URL at all', () => {
    expect(externalLinkTarget('not a url')).toBeNull();
    expect(externalLinkTarget(`https://example.com/${'a'.repeat(5000)}`)).toBeNull();
  });
});
