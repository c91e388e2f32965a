import { describe, expect, it } from 'vitest';
import { cleanDisplayName } from './display-name.ts';

describe('cleanDisplayName', () => {
  it.each([
    ['Almeida, Caio', 'Caio Almeida'],
    ['"Almeida, Caio"', 'Caio Almeida'],
    ["'Ada Lovelace'", 'Ada Lovelace'],
    ['Turing (6)', 'Turing'],
    ['"Alan Turing" (12)', 'Alan Turing'],
    ['Ada [2]', 'Ada'],
    ['JOHN SMITH', 'John Smith'],
    ["O'NEILL, MARY-ANNE", "Mary-Anne O'Neill"],
    ['Ada', 'Ada'],
    ['  Grace   Hopper ', 'Grace Hopper'],
    ['山田 太郎', '山田 太郎'],
    ['Иванов, Иван', 'Иван Иванов'],
    ['ИВАН ИВАНОВ', 'Иван Иванов'],
    ['IBM', 'IBM'],
    ['TURING', 'Turing'],
    ['Smith, John, Jr.', 'Smith, John, Jr.'],
    ['ada@example.com', null],
    ['"ada@example.com"', null],
    ['""', null],
    ['', null],
    [null, null],
  ])('%j → %j', (raw, expected) => {
    expect(cleanDisplayName(raw)).toBe(expected);
  });
});
