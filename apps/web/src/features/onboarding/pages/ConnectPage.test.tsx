import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, renderApp } from '../../../testing/renderApp.tsx';

describe('the first page', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  it('says what the product does, in a sentence and a picture of a warm path', async () => {
    stubApi({});
    await renderApp('/sign-up/connect', { signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Get started' })).toBeDefined();
    expect(screen.getByText(/already knows the people you want to sell to/)).toBeDefined();
    expect(screen.getByRole('img', { name: /A warm path: you ask Maya, your colleague/ })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Connect with Google' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft' })).toBeDefined();
  });

  it('signs a returning user in without starting a registration', async () => {
    stubApi({});
    const { userManager } = await renderApp('/sign-up/connect', { signedIn: false });
    const signIn = vi.spyOn(userManager, 'signinRedirect').mockResolvedValue(undefined);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(signIn).toHaveBeenCalledWith({ state: { returnTo: '/' } }));
    expect(window.localStorage.getItem('registrationProcess')).toBeNull();
  });

  it('starts the admin registration from Connect with Google', async () => {
    stubApi({});
    const { userManager } = await renderApp('/sign-up/connect', { signedIn: false });
    const signIn = vi.spyOn(userManager, 'signinRedirect').mockResolvedValue(undefined);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect with Google' }));
    await waitFor(() => expect(signIn).toHaveBeenCalledWith({ state: { returnTo: '/sign-up/create-details' } }));
    expect(JSON.parse(window.localStorage.getItem('registrationProcess') ?? 'null')).toEqual({
      process: 'admin-registration',
      target: '/sign-up/create-details',
    });
  });
});
