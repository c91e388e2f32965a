import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';

// Mantine's tooltip (and the floating layer under it) is code the page needs only once something is
// hovered or focused: it loads then, not with the page (issue 26).
const Tooltip = lazy(async () => ({ default: (await import('./floatingLayer.ts')).Tooltip }));

export type DeferredTooltipProps = {
  label: ReactNode;
  /** The element the tooltip describes: shown on its hover or keyboard focus. */
  children: ReactNode;
};

/**
 * A tooltip set up on the first hover or focus of what it describes, not when the page renders: a
 * table with a tooltip on every avatar would otherwise set up a hundred floating elements it may
 * never show (a third of the network table's first render). The tooltip points at a wrapper around
 * the content, so the content itself is never re-created and keeps the keyboard focus.
 */
export function DeferredTooltip({ label, children }: DeferredTooltipProps) {
  const anchor = useRef<HTMLSpanElement>(null);
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const show = () => {
    setMounted(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper takes no input itself; it observes the hover and focus of the control inside it.
    <span
      ref={anchor}
      style={{ display: 'inline-flex' }}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      // Dismissible without moving the pointer or the focus (WCAG 1.4.13).
      onKeyDown={(event) => {
        if (event.key === 'Escape') hide();
      }}
    >
      {children}
      {mounted ? (
        <Suspense fallback={null}>
          <Tooltip target={anchor} label={label} opened={opened} withArrow />
        </Suspense>
      ) : null}
    </span>
  );
}
