import { Anchor } from '@mantine/core';
import { MESSAGES } from '@warmpath/shared';
import { Link } from 'react-router';
import { MessageScreen } from '../components/MessageScreen.tsx';

/** The router's error element: unmatched routes and errors thrown while rendering a route, with a way home. */
export function ErrorScreen() {
  return (
    <MessageScreen message={MESSAGES.unexpectedError}>
      <Anchor component={Link} to="/">
        Back to home
      </Anchor>
    </MessageScreen>
  );
}
