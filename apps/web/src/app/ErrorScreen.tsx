import { MESSAGES } from '@warmpath/shared';
import { MessageScreen } from '../components/MessageScreen.tsx';

/** The router's error element: unmatched routes and errors thrown while rendering a route. */
export function ErrorScreen() {
  return <MessageScreen message={MESSAGES.unexpectedError} />;
}
