import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithMantine } from '../testing/render.tsx';
import { TruncatedText } from './TruncatedText.tsx';

const TITLE = 'Senior Vice President of Strategic Partnerships, Europe';

/** jsdom lays nothing out: the text is as wide as said here, its box as wide as the cell. */
function layOut(textWidth: number, boxWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(textWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(boxWidth);
}

/** As in a browser, an element is reported once when it starts being observed: then it is measured. */
class ReportingResizeObserver {
  readonly #callback: ResizeObserverCallback;
  constructor(callback: ResizeObserverCallback) {
    this.#callback = callback;
  }
  observe(target: Element) {
    setTimeout(() => this.#callback([{ target } as ResizeObserverEntry], this));
  }
  unobserve() {}
  disconnect() {}
}

describe('TruncatedText', () => {
  beforeAll(() => {
    vi.stubGlobal('ResizeObserver', ReportingResizeObserver);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('leaves a text that fits alone: no tab stop, no tooltip', async () => {
    layOut(120, 160);
    renderWithMantine(<TruncatedText text="CTO" />);
    const text = screen.getByText('CTO');
    await new Promise((measured) => setTimeout(measured));
    expect(text.getAttribute('tabindex')).toBeNull();
    fireEvent.mouseEnter(text);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows a cut text whole on hover and on keyboard focus, and hides it on Escape or when left', async () => {
    layOut(420, 160);
    renderWithMantine(<TruncatedText text={TITLE} />);
    const text = screen.getByText(TITLE);
    // Measured once the browser reports its box.
    await vi.waitFor(() => expect(text.getAttribute('tabindex')).toBe('0'));

    fireEvent.mouseEnter(text);
    expect((await screen.findByRole('tooltip')).textContent).toBe(TITLE);
    fireEvent.mouseLeave(text);
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());

    fireEvent.focus(text);
    expect((await screen.findByRole('tooltip')).textContent).toBe(TITLE);
    fireEvent.keyDown(text, { key: 'Escape' });
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('keeps a link a link, opened in a new tab, named as it reads', () => {
    layOut(420, 160);
    renderWithMantine(<TruncatedText text="Katherine Johnson" href="https://www.linkedin.com/in/katherine-johnson" />);
    const link = screen.getByRole('link', { name: 'Katherine Johnson' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // A link takes the keyboard focus anyway.
    expect(link.getAttribute('tabindex')).toBeNull();
  });
});
