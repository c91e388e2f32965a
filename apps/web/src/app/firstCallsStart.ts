import { startFirstCalls } from './firstCalls.ts';

// A module of its own, imported by main.tsx right after firstScreen.ts: its body runs before the rest of
// the app's first script is evaluated, while firstCalls.ts stays a module a test can import.
startFirstCalls(window.location);
