/** Every source file of the web app, tests included, as text by its path from src/ ('features/network/api.ts'). */
export const sourceFiles: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true })).map(
    ([path, text]) => [path.slice(3), text],
  ),
);

/** The app's own code: no test, no test helper. */
export const isAppCode = (path: string) => !/\.test\.tsx?$/.test(path) && !path.startsWith('testing/');
