import { Anchor, Text, type TextProps } from '@mantine/core';
import { type CSSProperties, lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';

// Loaded the first time a cut text is hovered or focused, not with the page (issue 26).
const Tooltip = lazy(async () => ({ default: (await import('./floatingLayer.ts')).Tooltip }));

export type TruncatedTextProps = Omit<TextProps, 'truncate' | 'lineClamp' | 'children'> & {
  text: string;
  /** Lines the text may take before it is cut: 2 lets a name or a title wrap in a narrow column. */
  lines?: 1 | 2;
  /** The text is a link (opened in a new tab): a person's LinkedIn profile. */
  href?: string | null;
  /** A name that says more than the text, and starts with it (WCAG 2.5.3). */
  'aria-label'?: string;
  id?: string;
  style?: CSSProperties;
};

/** What to do when a watched element's box changes: one observer for every cut text on the page. */
const onResize = new WeakMap<Element, () => void>();
let resizes: ResizeObserver | undefined;

/**
 * Whether the element's text is cut: watched, as the table's columns change width with the window.
 * Measured only in the observer's callback, which runs once the browser has laid the page out
 * (and first when the element is observed): measuring in a React effect made the browser lay out the
 * whole table again after each batch of rows (issue 26: a fifth of the network page's blocking time).
 * Nothing shown depends on it, only the tab stop and tooltip.
 */
function useTruncated(ref: RefObject<HTMLElement | null>, text: string): boolean {
  const [truncated, setTruncated] = useState(false);
  // Per text: a new text in a box of the same size is not a resize, so the element is observed
  // afresh, which the observer reports (and this measures) once.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    resizes ??= new ResizeObserver((entries) => {
      for (const { target } of entries) onResize.get(target)?.();
    });
    // An empty text is never cut.
    const cut = () =>
      text !== '' && (element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight);
    onResize.set(element, () => setTruncated(cut()));
    resizes.observe(element);
    return () => {
      resizes?.unobserve(element);
      onResize.delete(element);
    };
  }, [ref, text]);
  return truncated;
}

/**
 * Text cut with an ellipsis in its cell, and whole on hover and on keyboard focus: only a cut text
 * takes a tab stop (a link has one anyway) and a tooltip, set up the first time it is wanted.
 */
export function TruncatedText({ text, href, lines = 1, style, ...textProps }: TruncatedTextProps) {
  const ref = useRef<HTMLElement>(null);
  const truncated = useTruncated(ref, text);
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const show = () => {
    if (!truncated) return;
    setMounted(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);
  const shared = {
    ...textProps,
    ...(lines === 1 ? { truncate: 'end' as const } : { lineClamp: lines }),
    onMouseEnter: show,
    onMouseLeave: hide,
    onFocus: show,
    onBlur: hide,
    // Dismissible without moving the pointer or the focus (WCAG 1.4.13).
    onKeyDown: (event: { key: string }) => {
      if (event.key === 'Escape') hide();
    },
    // One line is a block cut at its end; more are a clamped box (its own display), words broken
    // only when one alone is wider than the column.
    style: {
      minWidth: 0,
      ...(lines === 1 ? { display: 'block' } : { overflowWrap: 'anywhere' as const }),
      ...style,
    } satisfies CSSProperties,
  };
  return (
    <>
      {href ? (
        <Anchor
          ref={ref as RefObject<HTMLAnchorElement>}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          {...shared}
        >
          {text}
        </Anchor>
      ) : (
        <Text ref={ref as RefObject<HTMLParagraphElement>} tabIndex={truncated ? 0 : undefined} {...shared}>
          {text}
        </Text>
      )}
      {mounted ? (
        <Suspense fallback={null}>
          <Tooltip target={ref} label={text} opened={opened} withArrow multiline maw={360} position="top-start" />
        </Suspense>
      ) : null}
    </>
  );
}
