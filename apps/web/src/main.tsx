// First: it starts fetching the first page's screens before the rest of this script is evaluated.
import './app/firstScreen.ts';
// Second: the first page's calls start before the rest of this script is evaluated, too.
import './app/firstCallsStart.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
