// Vite's client types: `?worker` imports (Monaco's workers) and CSS side-effect imports.
/// <reference types="vite/client" />
