/** The sandbox's HTML pages: the connect (consent) screen, its error page, the notes written and an index. */
import type { Portal } from './portal.ts';
import type { NoteView } from './state.ts';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f5f8fa; color: #33475b; margin: 0; }
  main { background: #fff; margin: 2rem auto; padding: 2rem; border-radius: 8px; box-shadow: 0 2px 12px rgba(0,0,0,.08); width: min(40rem, 92vw); box-sizing: border-box; }
  main.wide { width: min(60rem, 94vw); }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  .banner { background: #fff3bf; border: 1px solid #f0c000; border-radius: 8px; padding: .6rem .8rem; margin: 0 0 1.25rem; }
  label { font-weight: 600; display: block; margin: 0 0 .25rem; }
  input[type=email] { width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #7c98b6; border-radius: 6px; font-size: 1rem; margin: 0 0 1rem; }
  ul.scopes { padding-left: 1.2rem; }
  ul.scopes code { color: #516f90; font-size: .8rem; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; }
  button { padding: .6rem 1.2rem; border-radius: 6px; font-size: 1rem; cursor: pointer; border: 1px solid #ff7a59; }
  button.primary { background: #ff7a59; color: #fff; }
  button.secondary { background: #fff; color: #33475b; border-color: #7c98b6; }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #0091ae; outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 600; }
  .muted { color: #516f90; }
  article { border-top: 1px solid #dfe3eb; padding: .75rem 0; }
  article header { display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
  .body { margin: .35rem 0; white-space: pre-wrap; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #dfe3eb; }
`;

function layout(title: string, body: string, wide = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main${wide ? ' class="wide"' : ''}>
${body}
</main>
</body>
</html>`;
}

const SANDBOX_NOTE =
  '<p class="banner" role="note"><strong>Local sandbox.</strong> This is not HubSpot: it is the HubSpot sandbox of this local installation. No HubSpot account is contacted and nothing leaves this machine. The account you connect is generated from your e-mail domain: teammates of one company share it.</p>';

/**
 * The account name the page shows while the e-mail is typed; the same rule as `portalNameFor` (the
 * first label of the domain, in words), so the page names the portal the code will connect.
 */
const PORTAL_NAME_SCRIPT = `<script>
(() => {
  const input = document.getElementById('email');
  const output = document.getElementById('portal-name');
  const free = /^(gmail|googlemail|outlook|hotmail|live|yahoo|icloud|me|aol|proton|protonmail|gmx)\\.[a-z.]+$/;
  const show = () => {
    const [local, domain] = input.value.trim().toLowerCase().split('@');
    if (!domain || !domain.includes('.')) return;
    output.textContent = free.test(domain)
      ? local + "'s account"
      : domain.split('.')[0].split(/[-_]+/).filter(Boolean).map((part) => part[0].toUpperCase() + part.slice(1)).join(' ');
  };
  input.addEventListener('input', show);
  show();
})();
</script>`;

export function consentPage(options: {
  action: string;
  clientId: string;
  params: Record<string, string>;
  scopes: { scope: string; description: string }[];
  email: string;
  /** The account the e-mail connects, when the page knows the e-mail. */
  portal: Portal | null;
  error?: string;
}): string {
  const hidden = Object.entries(options.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  const scopes = options.scopes
    .map((item) => `<li>${escapeHtml(item.description)} <code>${escapeHtml(item.scope)}</code></li>`)
    .join('\n      ');
  const error = options.error ? `<p role="alert" class="error" id="email-error">${escapeHtml(options.error)}</p>` : '';
  const portal = options.portal
    ? `${escapeHtml(options.portal.name)} (Hub ID ${options.portal.hubId})`
    : 'the account of your e-mail domain';
  return layout(
    'Sign in to HubSpot (sandbox)',
    `<h1>Sign in to HubSpot</h1>
  ${SANDBOX_NOTE}
  <p>The app <strong>${escapeHtml(options.clientId)}</strong> wants to connect to your HubSpot account.</p>
  ${error}
  <form method="post" action="${escapeHtml(options.action)}">
    ${hidden}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(options.email)}"${options.error ? ' aria-invalid="true" aria-describedby="email-error"' : ''} autofocus>
    <p>Account to connect: <strong id="portal-name" aria-live="polite">${portal}</strong></p>
    <h2>The app will be able to</h2>
    <ul class="scopes">
      ${scopes}
    </ul>
    <div class="actions">
      <button type="submit" name="decision" value="cancel" class="secondary" formnovalidate>Cancel</button>
      <button type="submit" name="decision" value="allow" class="primary">Connect app</button>
    </div>
  </form>
  ${PORTAL_NAME_SCRIPT}`,
  );
}

export function errorPage(message: string): string {
  return layout(
    'HubSpot sandbox: error',
    `<h1>Couldn't complete the connection</h1>
  ${SANDBOX_NOTE}
  <p role="alert" class="error">${escapeHtml(message)}</p>
  <p class="muted">Go back to the app and try connecting again.</p>`,
  );
}

/** A note's HTML body as a reader sees it: paragraphs and line breaks kept, other tags dropped. */
export function noteText(body: string): string {
  return body
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

export function notesPage(portals: { portal: Portal; notes: NoteView[] }[]): string {
  const sections = portals
    .map(({ portal, notes }) => {
      const items =
        notes.length === 0
          ? '<p class="muted">No notes.</p>'
          : [...notes]
              .reverse()
              .map((note) => {
                const on = [
                  ...note.contacts.map((contact) => `contact ${escapeHtml(contact.email ?? contact.id)}`),
                  ...note.companies.map(
                    (company) => `company ${escapeHtml(company.domain ?? company.name ?? company.id)}`,
                  ),
                ].join(' · ');
                return `<article>
        <header><strong>Note ${escapeHtml(note.id)}</strong> <time class="muted" datetime="${escapeHtml(note.timestamp)}">${escapeHtml(note.timestamp.replace('T', ' ').slice(0, 19))} UTC</time> <span>${on || '<span class="muted">not associated</span>'}</span></header>
        <div class="body">${escapeHtml(noteText(note.body))}</div>
      </article>`;
              })
              .join('\n      ');
      return `<section aria-labelledby="portal-${portal.hubId}">
    <h2 id="portal-${portal.hubId}">${escapeHtml(portal.name)} <span class="muted">(Hub ID ${portal.hubId})</span></h2>
      ${items}
  </section>`;
    })
    .join('\n  ');
  return layout(
    'HubSpot sandbox: notes',
    `<h1>Notes written to HubSpot</h1>
  ${SANDBOX_NOTE}
  <p class="muted">Newest first in each account.</p>
  ${sections || '<p class="muted">No account has been connected yet.</p>'}`,
    true,
  );
}

export function indexPage(url: string, portals: Portal[]): string {
  const rows = portals
    .map(
      (portal) =>
        `<tr><td>${escapeHtml(portal.name)}</td><td>${portal.hubId}</td><td>${escapeHtml(portal.domain)}</td></tr>`,
    )
    .join('');
  return layout(
    'HubSpot sandbox',
    `<h1>HubSpot sandbox</h1>
  ${SANDBOX_NOTE}
  <ul>
    <li><a href="${escapeHtml(url)}/notes">Notes written</a></li>
    <li>API: <code>${escapeHtml(url)}</code> (give it to <code>new Client({ basePath })</code>)</li>
    <li>OAuth: <code>${escapeHtml(url)}/oauth/authorize</code></li>
  </ul>
  <h2>Accounts</h2>
  ${portals.length > 0 ? `<table><thead><tr><th scope="col">Name</th><th scope="col">Hub ID</th><th scope="col">Domain</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No account has been connected yet.</p>'}`,
    true,
  );
}
