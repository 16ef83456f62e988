// The window is a placeholder until the desktop app lands (issue 4); the core is usable from
// `tether run` today.
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Tether</h1>
      <p>The desktop app is not built yet. Use the command line: <code>tether run "your task"</code>.</p>
    </main>
  );
}
