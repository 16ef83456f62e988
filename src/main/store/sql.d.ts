// Migrations are plain .sql files imported with Vite's ?raw suffix, so they read as SQL and ship inside the bundle.
declare module '*.sql?raw' {
  const sql: string;
  export default sql;
}
