import { useEffect, useRef } from 'react';

/**
 * For a control whose code loads on its first use (a click or Enter on it) and then replaces what was
 * drawn in its place meanwhile: the new element takes the keyboard focus the old one had, so that
 * nobody is thrown back to the top of the page (issue 26).
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
