/** The sandbox's HTML pages: the install (consent) screen, its error page, the posted messages and an index. */
import type { Channel, PostedMessage } from './state.ts';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4ede4; color: #1d1c1d; margin: 0; }
  main { background: #fff; margin: 2rem auto; padding: 2rem; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); width: min(40rem, 92vw); box-sizing: border-box; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  .banner { background: #fff3bf; border: 1px solid #f0c000; border-radius: 8px; padding: .6rem .8rem; margin: 0 0 1.25rem; }
  label { font-weight: 600; display: block; margin: 0 0 .25rem; }
  select { width: 100%; padding: .55rem; border: 1px solid #767676; border-radius: 6px; font-size: 1rem; margin: 0 0 1rem; }
  ul.scopes { padding-left: 1.2rem; }
  ul.scopes code { color: #616061; font-size: .8rem; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; }
  button { padding: .6rem 1.2rem; border-radius: 6px; font-size: 1rem; cursor: pointer; border: 1px solid #007a5a; }
  button.primary { background: #007a5a; color: #fff; }
  button.secondary { background: #fff; color: #1d1c1d; border-color: #767676; }
  button:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid #1264a3; outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 600; }
  .muted { color: #616061; }
  article { border-top: 1px solid #ddd; padding: .75rem 0; }
  article header { display: flex; gap: .5rem; align-items: baseline; }
  .block { margin: .35rem 0; white-space: pre-wrap; }
  .block.header { font-weight: 700; }
  .block.context { color: #616061; font-size: .9rem; }
  code.meta { display: block; color: #616061; font-size: .8rem; margin-top: .35rem; word-break: break-all; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const SANDBOX_NOTE =
  '<p class="banner" role="note"><strong>Local sandbox.</strong> This is not Slack: it is the Slack sandbox of this local installation. No Slack workspace is contacted and nothing leaves this machine.</p>';

/** What Slack's install screen says for each scope. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'chat:write': 'Send messages as the app',
  'chat:write.public': "Send messages to channels the app isn't a member of",
  'channels:read': 'View basic information about public channels in the workspace',
  'channels:history': 'View messages and other content in public channels that the app has been added to',
  'groups:read': 'View basic information about private channels that the app has been added to',
  'groups:history': 'View messages and other content in private channels that the app has been added to',
  'incoming-webhook': 'Post messages to specific channels in Slack',
  'users:read': 'View people in the workspace',
  'users:read.email': 'View email addresses of people in the workspace',
  'team:read': 'View the name, email domain, and icon for the workspace',
  identify: 'View information about your identity',
};

export const KNOWN_SCOPES: readonly string[] = Object.keys(SCOPE_DESCRIPTIONS);

export function consentPage(options: {
  action: string;
  teamName: string;
  clientId: string;
  params: Record<string, string>;
  scopes: string[];
  userScopes: string[];
  /** The channels offered for the incoming webhook; absent when the app did not ask for one. */
  webhookChannels: Channel[] | null;
}): string {
  const hidden = Object.entries(options.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  const scopeItems = (scopes: string[]) =>
    scopes
      .map((scope) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)} <code>${escapeHtml(scope)}</code></li>`)
      .join('\n      ');
  const userPart =
    options.userScopes.length > 0
      ? `<h2>What it will be able to do on your behalf</h2>
    <ul class="scopes">
      ${scopeItems(options.userScopes)}
    </ul>`
      : '';
  const channelPart = options.webhookChannels
    ? `<label for="channel">Where should the app post?</label>
    <select id="channel" name="channel" required>
      ${options.webhookChannels
        .map(
          (channel, index) =>
            `<option value="${escapeHtml(channel.id)}"${index === 0 ? ' selected' : ''}>${channel.isPrivate ? '🔒 ' : '#'}${escapeHtml(channel.name)}</option>`,
        )
        .join('\n      ')}
    </select>`
    : '';
  return layout(
    `Install on ${options.teamName} (Slack sandbox)`,
    `<h1>The app <strong>${escapeHtml(options.clientId)}</strong> is requesting permission to access the <strong>${escapeHtml(options.teamName)}</strong> Slack workspace</h1>
  ${SANDBOX_NOTE}
  <form method="post" action="${escapeHtml(options.action)}">
    ${hidden}
    <h2>What will the app be able to view?</h2>
    <ul class="scopes">
      ${scopeItems(options.scopes)}
    </ul>
    ${userPart}
    ${channelPart}
    <div class="actions">
      <button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
      <button type="submit" name="decision" value="allow" class="primary">Allow</button>
    </div>
  </form>`,
  );
}

export function errorPage(message: string): string {
  return layout(
    'Slack sandbox: error',
    `<h1>Something went wrong when authorizing this app.</h1>
  ${SANDBOX_NOTE}
  <p role="alert" class="error">${escapeHtml(message)}</p>
  <p class="muted">Try going back and authorizing again. If problems persist, contact support for help.</p>`,
  );
}

/** The plain text of Block Kit blocks, as a reader of the channel would see it. */
export function blocksText(blocks: unknown[] | undefined): { type: string; text: string }[] {
  const out: { type: string; text: string }[] = [];
  const textOf = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string') {
      return (value as { text: string }).text;
    }
    return '';
  };
  for (const block of blocks ?? []) {
    if (typeof block !== 'object' || block === null) continue;
    const record = block as Record<string, unknown>;
    const type = typeof record.type === 'string' ? record.type : 'block';
    const parts = [textOf(record.text)];
    for (const key of ['fields', 'elements']) {
      const list = record[key];
      if (Array.isArray(list)) for (const item of list) parts.push(textOf(item));
    }
    const text = parts.filter(Boolean).join('\n');
    if (text) out.push({ type, text });
  }
  return out;
}

export function messagesPage(channels: { channel: Channel; messages: PostedMessage[] }[]): string {
  const sections = channels
    .map(({ channel, messages }) => {
      const items =
        messages.length === 0
          ? '<p class="muted">No messages.</p>'
          : messages
              .map((message) => {
                const when = new Date(Number(message.ts) * 1000).toISOString().replace('T', ' ').slice(0, 19);
                const blocks = blocksText(message.blocks)
                  .map((block) => `<div class="block ${escapeHtml(block.type)}">${escapeHtml(block.text)}</div>`)
                  .join('');
                const meta = message.metadata
                  ? `<code class="meta">${escapeHtml(message.metadata.event_type)} ${escapeHtml(JSON.stringify(message.metadata.event_payload))}</code>`
                  : '';
                return `<article>
        <header><strong>warmpath</strong> <span class="muted">${when} UTC · ts ${escapeHtml(message.ts)}</span></header>
        ${message.text ? `<div class="block text">${escapeHtml(message.text)}</div>` : ''}
        ${blocks}
        ${meta}
      </article>`;
              })
              .join('\n      ');
      return `<section aria-labelledby="channel-${escapeHtml(channel.id)}">
    <h2 id="channel-${escapeHtml(channel.id)}">${channel.isPrivate ? '🔒 ' : '#'}${escapeHtml(channel.name)}${channel.isArchived ? ' <span class="muted">(archived)</span>' : ''}</h2>
      ${items}
  </section>`;
    })
    .join('\n  ');
  return layout(
    'Slack sandbox: messages',
    `<h1>Messages posted to the Warmpath Sandbox Team</h1>
  ${SANDBOX_NOTE}
  <p class="muted">Newest first in each channel.</p>
  ${sections}`,
  );
}

export function indexPage(url: string): string {
  return layout(
    'Slack sandbox',
    `<h1>Slack sandbox</h1>
  ${SANDBOX_NOTE}
  <ul>
    <li><a href="${escapeHtml(url)}/messages">Messages posted</a></li>
    <li>Web API: <code>${escapeHtml(url)}/api/&lt;method&gt;</code> (give it to <code>new WebClient(token, { slackApiUrl })</code>)</li>
    <li>OAuth: <code>${escapeHtml(url)}/oauth/v2/authorize</code></li>
  </ul>`,
  );
}
