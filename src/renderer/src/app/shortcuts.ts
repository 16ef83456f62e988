import { reachKeys } from '../features/permission/requestGuard';

/** On a Mac the modifier is shown as ⌘; Ctrl and Cmd both work everywhere. */
const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
const mod = mac ? '⌘' : 'Ctrl';

export interface Shortcut {
  keys: string;
  does: string;
}

/** Every keyboard path of the window, as the ? sheet lists them, grouped by where they work. */
export const shortcutGroups: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      { keys: '?', does: 'this list (when not typing in a field)' },
      { keys: `${mod}+L`, does: 'the task box' },
      { keys: `${mod}+Shift+1 … 4`, does: 'the sidebar, the conversation, the changes, the terminal' },
      { keys: 'Alt+↑ / Alt+↓', does: 'the previous or next session' },
      { keys: `${mod}+B`, does: 'fold or show the sidebar' },
      { keys: `${mod}+Alt+B`, does: 'fold or show the plan and changes' },
      { keys: `${mod}+Alt+F`, does: 'review the changes full width, or go back to the conversation (also Esc in the review)' },
      { keys: 'Ctrl+`', does: 'show or hide the terminal' },
      { keys: `${mod}+,`, does: 'settings' },
      { keys: 'Tab / Shift+Tab', does: 'the next or previous control; never caught in the terminal or a diff' },
      { keys: 'Arrow keys on a pane’s edge', does: 'resize it (Shift: faster; double-click: default size)' },
    ],
  },
  {
    title: 'Permission requests',
    shortcuts: [
      {
        keys: `${reachKeys.first} or ${reachKeys.second}`,
        does: 'go to the request waiting (the oldest, in its session, if this one has none); again: back',
      },
      { keys: 'A or Enter', does: 'allow once' },
      { keys: 'Shift+A', does: 'allow always (when offered)' },
      { keys: 'D', does: 'deny' },
      { keys: 'E', does: 'edit the command or content before allowing' },
      { keys: 'N', does: 'the next request waiting, here or in another session' },
      { keys: 'Esc', does: 'back where you were; the request keeps waiting' },
    ],
  },
];
