import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { Location } from 'react-router';
import { ErrorScreen } from './ErrorScreen.tsx';

type Props = { location: Location; children: ReactNode };
type State = { failed: boolean; location: Location };

/**
 * The routes' error element, as the data router's root `errorElement` was: an error thrown while
 * rendering a route shows the error screen, until the next navigation. (The app's routes are
 * declared, not a data router: its loaders and actions, unused here, were 18 kB of the first script.)
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, location: this.props.location };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { failed: false, location: props.location };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // As React Router reported what its error element caught.
    console.error('React Router caught the following error during render', error, info);
  }

  override render() {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
