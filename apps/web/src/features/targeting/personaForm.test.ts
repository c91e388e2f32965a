import { describe, expect, it } from 'vitest';
import { canAddPersona, EMPTY_PERSONA } from './personaForm.ts';

const named = { ...EMPTY_PERSONA, name: 'Sales leaders' };

describe('canAddPersona', () => {
  it('refuses an empty or blank name, whatever else is chosen', () => {
    expect(canAddPersona({ ...named, name: '', customJobTitles: ['CRO'] })).toBe(false);
    expect(canAddPersona({ ...named, name: '   ', jobDepartments: ['Sales'], seniorities: ['Manager'] })).toBe(false);
  });

  it('accepts a name with custom titles alone', () => {
    expect(canAddPersona({ ...named, customJobTitles: ['CRO'] })).toBe(true);
  });

  it('without custom titles, needs both departments and seniorities', () => {
    expect(canAddPersona(named)).toBe(false);
    expect(canAddPersona({ ...named, jobDepartments: ['Sales'] })).toBe(false);
    expect(canAddPersona({ ...named, seniorities: ['Manager'] })).toBe(false);
    expect(canAddPersona({ ...named, jobDepartments: ['Sales'], seniorities: ['Manager'] })).toBe(true);
  });
});
