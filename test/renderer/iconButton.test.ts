import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IconButton } from '../../src/renderer/src/ui/IconButton';

// The one icon button of the app (headers, rails, rows): it always has a name a screen reader says,
// is never a form's submit button, and a toggle says whether it is on.

const html = (props: Parameters<typeof IconButton>[0]) => renderToStaticMarkup(createElement(IconButton, props));

describe('IconButton', () => {
  it('names itself for a screen reader, and shows the same words as its tooltip unless given others', () => {
    const plain = html({ icon: 'gear', label: 'Settings' });
    expect(plain).toContain('aria-label="Settings"');
    expect(plain).toContain('title="Settings"');
    expect(plain).toContain('type="button"');
    expect(plain).toContain('class="ghost icon-button"');
    expect(plain).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html({ icon: 'gear', label: 'Settings', title: 'Settings (Ctrl+,)' })).toContain('title="Settings (Ctrl+,)"');
  });

  it('says whether a toggle is on, and is a plain button otherwise', () => {
    expect(html({ icon: 'fold', label: 'Fold unchanged lines', pressed: true })).toContain('aria-pressed="true"');
    expect(html({ icon: 'fold', label: 'Fold unchanged lines', pressed: false })).toContain('aria-pressed="false"');
    expect(html({ icon: 'refresh', label: 'Refresh' })).not.toContain('aria-pressed');
  });

  it('keeps its own classes beside a caller’s, and what follows the icon', () => {
    const rail = html({ icon: 'inbox', label: 'Open the oldest request (2 waiting)', className: 'rail-inbox', children: '2' });
    expect(rail).toContain('class="ghost icon-button rail-inbox"');
    expect(rail).toMatch(/<\/svg>2<\/button>$/);
  });

  it('cannot be written without a name (a type error), nor given a type or another aria-label', () => {
    // @ts-expect-error: label is required.
    expect(() => html({ icon: 'gear' })).not.toThrow();
    // @ts-expect-error: the button is never a form's submit button.
    html({ icon: 'gear', label: 'Settings', type: 'submit' });
    // @ts-expect-error: the name is `label`.
    html({ icon: 'gear', label: 'Settings', 'aria-label': 'Other' });
  });
});
