import { useEffect, useRef, useState } from 'react';

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

/**
 * The same for a menu or popover that should be open as it mounts: its target takes the focus first,
 * then it opens, so that Mantine sees the target as the element to give the focus back to on closing
 * (it notes the focused element when `opened` changes, not when the menu mounts already open).
 */
export function useOpenedOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    ref.current?.focus();
    setOpened(true);
  }, []);
  return { ref, opened, setOpened };
}
