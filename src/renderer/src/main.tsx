import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { keepPlaceInAddress } from './app/pagePlace';
import './app/theme.css';
import './app/layout.css';
import './app/panes.css';
import { getApi } from './lib/api';
import { connectStore } from './stores/connectStore';
import { createAppStore } from './stores/createAppStore';
import { StoreContext } from './stores/useApp';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const api = getApi();
const schedule = (callback: () => void) => {
  requestAnimationFrame(() => callback());
};
const store = createAppStore({ api, schedule, diffDebounceMs: 300 });
connectStore(store, api, schedule, api);
keepPlaceInAddress(store, window);
void store.getState().init();

createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
