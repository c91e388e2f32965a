import { TOAST } from '@warmpath/shared';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { subscribeToToasts, toastsWanted } from '../lib/toasts.tsx';

const ToastContainer = lazy(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** Where toasts show: mounted, with the library's code, once the first one is asked for (lib/toasts.tsx). */
export function ToastHost() {
  const wanted = useSyncExternalStore(subscribeToToasts, toastsWanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer position={TOAST.position} theme={TOAST.theme} autoClose={TOAST.autoClose} />
    </Suspense>
  );
}
