import './mantineStyles.ts';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { isTransientFailure, retryDelayMs } from '../lib/api.ts';
import { useRemovesPageFrame } from '../lib/pageFrame.ts';
import { AuthSetup } from './AuthSetup.tsx';
import { BackendStatusGate } from './BackendStatusGate.tsx';
import { AppRoutes } from './router.tsx';
import { ToastHost } from './ToastHost.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const MAX_RETRIES = 2;

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => isTransientFailure(error) && failureCount < MAX_RETRIES,
      retryDelay: retryDelayMs,
    },
  },
});

export function AppProviders() {
  useRemovesPageFrame();
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <BackendStatusGate>
          <AuthSetup>
            {/* Under the sign-in: mounted once it is ready, at the address it left (AuthSetup). */}
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </AuthSetup>
        </BackendStatusGate>
        <ToastHost />
      </QueryClientProvider>
    </MantineProvider>
  );
}
