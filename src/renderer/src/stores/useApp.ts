import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState } from './appState';
import type { AppStore } from './createAppStore';

/** The window's store; provided once in main.tsx. */
export const StoreContext = createContext<AppStore | null>(null);

/** Reads the store through a selector (wrap selectors that build new objects in useShallow). */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp was called outside <StoreContext.Provider>; render the app through main.tsx.');
  return store;
}
