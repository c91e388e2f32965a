import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithMantine } from '../testing/render.tsx';
import { addTag } from './addTag.ts';
import { TagInput } from './TagInput.tsx';

const limits = { max: 5, maxLength: 50 };

describe('addTag', () => {
  it('adds a trimmed tag', () => {
    expect(addTag([], '  acme.com ', limits)).toEqual(['acme.com']);
  });

  it('refuses an empty tag, a duplicate and a tag over the length limit', () => {
    const tags = ['acme.com'];
    expect(addTag(tags, '   ', limits)).toBe(tags);
    expect(addTag(tags, 'acme.com', limits)).toBe(tags);
    expect(addTag(tags, 'ACME.com', limits)).toBe(tags);
    expect(addTag(tags, 'a'.repeat(51), limits)).toBe(tags);
    expect(addTag(tags, 'a'.repeat(50), limits)).toEqual(['acme.com', 'a'.repeat(50)]);
  });

  it('refuses a tag beyond the maximum', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(addTag(five, 'f', limits)).toBe(five);
    expect(addTag(five, 'f', { ...limits, max: 10 })).toEqual([...five, 'f']);
  });
});

function Harness({ max, initial = [] }: { max?: number; initial?: string[] }) {
  const [tags, setTags] = useState<string[]>(initial);
  return <TagInput label="Domains" value={tags} onChange={setTags} max={max} />;
}

function typeAndEnter(input: HTMLElement, text: string) {
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('TagInput', () => {
  afterEach(cleanup);

  it('adds tags with Enter, ignoring empty and duplicate ones', () => {
    renderWithMantine(<Harness />);
    const input = screen.getByLabelText('Domains');
    typeAndEnter(input, ' acme.com ');
    typeAndEnter(input, '   ');
    typeAndEnter(input, 'acme.com');
    expect(screen.getAllByText('acme.com')).toHaveLength(1);
    expect(input).toHaveProperty('value', '');
  });

  it('disables the input at 5 tags by default and says so', () => {
    renderWithMantine(<Harness />);
    const input = screen.getByLabelText('Domains');
    for (const domain of ['a.com', 'b.com', 'c.com', 'd.com']) typeAndEnter(input, domain);
    expect(input).toHaveProperty('disabled', false);
    typeAndEnter(input, 'e.com');
    expect(input).toHaveProperty('disabled', true);
    expect(input.getAttribute('placeholder')).toBe('Max 5 tags');
  });

  it('takes its maximum from the max prop', () => {
    renderWithMantine(<Harness max={10} initial={['1.com', '2.com', '3.com', '4.com', '5.com']} />);
    const input = screen.getByLabelText('Domains');
    expect(input).toHaveProperty('disabled', false);
    for (const domain of ['6.com', '7.com', '8.com', '9.com', '10.com']) typeAndEnter(input, domain);
    expect(input).toHaveProperty('disabled', true);
    expect(input.getAttribute('placeholder')).toBe('Max 10 tags');
  });

  it('limits a tag to 50 characters', () => {
    renderWithMantine(<Harness />);
    expect(screen.getByLabelText('Domains').getAttribute('maxlength')).toBe('50');
  });

  it('removes a tag with its labelled button and enables the input again', () => {
    renderWithMantine(<Harness initial={['a.com', 'b.com', 'c.com', 'd.com', 'e.com']} />);
    const input = screen.getByLabelText('Domains');
    expect(input).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove c.com' }));
    expect(screen.queryByText('c.com')).toBeNull();
    expect(input).toHaveProperty('disabled', false);
  });
});
