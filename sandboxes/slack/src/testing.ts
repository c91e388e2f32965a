/**
 * Test helpers: the install screen driven over plain HTTP, as a browser would (GET the page, submit
 * its form with Allow or Cancel, read the redirect), so tests exercise the page itself.
 */
import type { RunningSlackSandbox } from './server.ts';

/** The hidden inputs of the install form, decoded from the page's HTML. */
export function consentFormFields(html: string): URLSearchParams {
  const form = new URLSearchParams();
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const decode = (value: string) =>
    value.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
  for (const tag of html.match(/<input[^>]*>/g) ?? []) {
    const name = attribute(tag, 'name');
    const value = attribute(tag, 'value');
    if (name && value !== undefined && attribute(tag, 'type') === 'hidden') form.append(name, decode(value));
  }
  return form;
}

/** The channels the install screen offers for the incoming webhook: `[{ id, label }]`. */
export function consentChannelOptions(html: string): { id: string; label: string }[] {
  return [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((match) => ({
    id: match[1] ?? '',
    label: match[2] ?? '',
  }));
}

/**
 * Opens `authorizeUrl` (the product's own, with its client, scopes, redirect URI and state), picks
 * `channel` (a name such as 'sales' or an id) and clicks Allow or Cancel; answers the redirect.
 */
export async function submitConsent(
  running: RunningSlackSandbox,
  authorizeUrl: string,
  options: { channel?: string; decision?: 'allow' | 'cancel' } = {},
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`install screen answered ${page.status}: ${html}`);
  const form = consentFormFields(html);
  const wanted = options.channel?.replace(/^#/, '');
  if (wanted) {
    const channel = running.state.listChannels().find((item) => item.name === wanted || item.id === wanted);
    if (!channel) throw new Error(`no channel ${options.channel} in the sandbox`);
    form.set('channel', channel.id);
  } else {
    const first = consentChannelOptions(html)[0];
    if (first) form.set('channel', first.id);
  }
  form.set('decision', options.decision ?? 'allow');
  const answer = await fetch(`${running.url}/oauth/v2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location)
    throw new Error(`install form answered ${answer.status}: ${await answer.text()}`);
  return new URL(location);
}
