import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './dataDir';

describe('defaultDataDir', () => {
  it('uses $TETHER_HOME above everything else', () => {
    expect(defaultDataDir({ TETHER_HOME: '/srv/tether', XDG_DATA_HOME: '/xdg' }, 'linux', '/home/ann')).toBe('/srv/tether');
  });

  it('uses $XDG_DATA_HOME/tether when set to an absolute path', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/ann')).toBe('/xdg/tether');
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative/dir' }, 'linux', '/home/ann')).toBe('/home/ann/.local/share/tether');
  });

  it('falls back to ~/.local/share/tether on Linux', () => {
    expect(defaultDataDir({}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/tether');
    expect(defaultDataDir({ TETHER_HOME: '  ', XDG_DATA_HOME: '' }, 'linux', '/home/ann')).toBe('/home/ann/.local/share/tether');
  });

  it('uses Application Support on macOS', () => {
    expect(defaultDataDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/Tether');
  });
});
