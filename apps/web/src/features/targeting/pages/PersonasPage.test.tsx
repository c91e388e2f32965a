import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { type TPersona, ZPersonaInput } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, member, renderApp } from '../../../testing/renderApp.tsx';

const persona: TPersona = {
  id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
  name: 'Sales leaders',
  jobDepartments: ['Sales'],
  seniorities: ['C-Level'],
  customJobTitles: [],
};

describe('Target Personas', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('enables Add Persona by the spec rule, creates the persona and says so', async () => {
    let personas: TPersona[] = [];
    const api = stubApi({
      'GET /users/query/get-personas': () => Response.json(personas),
      'POST /users/command/create-persona': ({ body }) => {
        personas = [{ ...ZPersonaInput.parse(body), id: persona.id }];
        return Response.json(personas[0], { status: 201 });
      },
    });
    await renderApp('/profile/personas', { signedIn: true, me: member });
    expect(await screen.findByText('No personas yet. Create your first one above.')).toBeDefined();
    const add = screen.getByRole('button', { name: 'Add Persona' });
    expect(add).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Sales leaders' } });
    expect(add).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sales' }));
    expect(add).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'C-Level' }));
    expect(add).toHaveProperty('disabled', false);
    fireEvent.click(add);
    expect(await screen.findByText('Persona Created!')).toBeDefined();
    expect(api.callsTo('POST /users/command/create-persona')[0]?.body).toEqual({
      name: 'Sales leaders',
      jobDepartments: ['Sales'],
      seniorities: ['C-Level'],
      customJobTitles: [],
    });
    expect(await screen.findByRole('button', { name: 'Delete persona Sales leaders' })).toBeDefined();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', '');
  });

  it('accepts a name with custom titles alone', async () => {
    stubApi({ 'GET /users/query/get-personas': Response.json([]) });
    await renderApp('/profile/personas', { signedIn: true, me: member });
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Revenue' } });
    const title = screen.getByLabelText('Custom job titles');
    fireEvent.change(title, { target: { value: 'CRO' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    expect(screen.getByRole('button', { name: 'Add Persona' })).toHaveProperty('disabled', false);
  });

  it('deletes a persona only once confirmed', async () => {
    let personas = [persona];
    const api = stubApi({
      'GET /users/query/get-personas': () => Response.json(personas),
      [`DELETE /users/command/delete-persona/${persona.id}`]: () => {
        personas = [];
        return noContent();
      },
    });
    await renderApp('/profile/personas', { signedIn: true, me: member });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete persona Sales leaders' }));
    expect(screen.getByRole('dialog', { name: 'Are you sure you want to delete this persona?' })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(`DELETE /users/command/delete-persona/${persona.id}`)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete persona Sales leaders' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('No personas yet. Create your first one above.')).toBeDefined();
    expect(api.callsTo(`DELETE /users/command/delete-persona/${persona.id}`)).toHaveLength(1);
  });

  it('says when the personas cannot be loaded', async () => {
    stubApi({
      'GET /users/query/get-personas': errorAnswer(500, 'INTERNAL', 'Personas unavailable'),
    });
    await renderApp('/profile/personas', { signedIn: true, me: member });
    expect((await screen.findByRole('alert')).textContent).toContain('Personas unavailable');
  });
});
