import type { AppState } from '../stores/appState';
import type { AppStore } from '../stores/createAppStore';

/**
 * Where the person is in the app, kept in the page's address fragment (`#session=…&request=…`), so
 * a reload brings them back there, and so does the address of a restarted `tether serve` pasted into
 * the tab: that changes only the fragment, the page stays, and the place is written back after the
 * token is taken out. The fragment never reaches a server; ids are all it holds.
 */
export interface PagePlace {
  view: 'main' | 'settings' | 'history';
  /** The selected session. */
  session?: string;
  /** The project a new session is being written for. */
  draft?: string;
  /** The request the person opened in the selected session (from the inbox, or with Next). */
  request?: string;
}

const VIEWS: readonly PagePlace['view'][] = ['main', 'settings', 'history'];

export function placeOf(state: AppState): PagePlace {
  const session = state.selectedSessionId ?? undefined;
  const picked = session !== undefined ? state.pickedApprovals[session] : undefined;
  const request = picked !== undefined && state.inbox.some((entry) => entry.approvalId === picked) ? picked : undefined;
  return {
    view: state.view,
    ...(session !== undefined ? { session } : {}),
    ...(session === undefined && state.draftProjectId !== null ? { draft: state.draftProjectId } : {}),
    ...(request !== undefined ? { request } : {}),
  };
}

/** The fragment for a place, without its `#`; empty for the main view with nothing open. */
export function placeFragment(place: PagePlace): string {
  const params = new URLSearchParams();
  if (place.view !== 'main') params.set('view', place.view);
  if (place.session !== undefined) params.set('session', place.session);
  if (place.draft !== undefined) params.set('draft', place.draft);
  if (place.request !== undefined) params.set('request', place.request);
  return params.toString();
}

/** The place a fragment names, or null when it names none (an empty fragment, or one the app did not write). */
export function placeFromFragment(fragment: string): PagePlace | null {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const view = params.get('view');
  const place: PagePlace = { view: VIEWS.find((known) => known === view) ?? 'main' };
  for (const key of ['session', 'draft', 'request'] as const) {
    const value = params.get(key);
    if (value) place[key] = value;
  }
  return place.view === 'main' && Object.keys(place).length === 1 ? null : place;
}

/**
 * Goes to `place` once the store knows enough to: 'done' when it went there (or as near as what
 * still exists allows: a session deleted meanwhile, a request answered meanwhile), 'wait' while the
 * lists it needs are still loading.
 */
export function goToPlace(state: AppState, place: PagePlace): 'done' | 'wait' {
  const listed = state.sessionsStatus === 'ready' && state.projectsStatus === 'ready';
  if (!listed) return 'wait';
  if (place.request !== undefined && state.inboxStatus !== 'ready') return 'wait';
  const session = place.session !== undefined && state.sessions[place.session] ? place.session : undefined;
  const waiting =
    place.request !== undefined && state.inbox.find((entry) => entry.approvalId === place.request && entry.sessionId === session);
  if (session !== undefined && waiting) state.openApproval(waiting);
  else if (session !== undefined) state.selectSession(session);
  else if (place.draft !== undefined && state.projects.some((project) => project.id === place.draft)) state.startDraft(place.draft);
  if (place.view === 'settings') state.showSettings();
  else if (place.view === 'history') state.showHistory();
  return 'done';
}

/** The parts of the page `keepPlaceInAddress` uses; the window in the app. */
export interface PageAddressBar {
  readonly location: { readonly pathname: string; readonly search: string; readonly hash: string };
  readonly history: { readonly state: unknown; replaceState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Keeps the person's place in the page's address for the window's life: goes to the place the
 * address names once the lists have loaded (after a reload, or once a new token lets them load),
 * writes every change of place back, and follows a fragment the person changes (a pasted address:
 * the token was taken out by then, and a fragment that names no place keeps the place they are at).
 */
export function keepPlaceInAddress(store: AppStore, page: PageAddressBar): void {
  let pending = placeFromFragment(page.location.hash);

  function write(): void {
    const fragment = placeFragment(placeOf(store.getState()));
    if (page.location.hash.replace(/^#/, '') === fragment) return;
    const { pathname, search } = page.location;
    page.history.replaceState(page.history.state, '', `${pathname}${search}${fragment === '' ? '' : `#${fragment}`}`);
  }

  function settle(): void {
    // Until the place it names is reached, the address keeps naming it: a reload meanwhile still finds it.
    if (pending !== null) {
      if (goToPlace(store.getState(), pending) === 'wait') return;
      pending = null;
    }
    write();
  }

  // Going to a place changes the store; do it after the change that made it possible has been told to everyone.
  let queued = false;
  store.subscribe(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      settle();
    });
  });
  page.addEventListener('hashchange', () => {
    // A fragment that names no place (the pasted address, its token taken out) keeps the place the
    // page is at, or still means to reach (it was reloaded while its token no longer held).
    pending = placeFromFragment(page.location.hash) ?? pending;
    settle();
  });
  settle();
}
