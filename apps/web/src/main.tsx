// First: it starts fetching the first page's screens before the rest of this script is evaluated.
import './app/firstScreen.ts';
// Second: the first page's calls start before the rest of this script is evaluated, too.
import './app/firstCallsStart.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// A background render, which yields to the browser every few milliseconds: the first page's frame is
// painted already (firstScreen.ts), and drawn in one task the providers held the main thread for
// about 40 ms (four times that on Lighthouse's phone).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
});
