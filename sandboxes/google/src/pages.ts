/** The sandbox's HTML pages: the consent screen, its error page, the sent-mail page and an index. */
import type { SentMailJson } from './sandbox.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f5f6fa; color: #1f2328; margin: 0; }
  main { background: #fff; margin: 2rem auto; padding: 2rem; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); width: min(40rem, 92vw); box-sizing: border-box; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  .banner { background: #fff3bf; border: 1px solid #f0c000; border-radius: 8px; padding: .6rem .8rem; margin: 0 0 1.25rem; }
  label { font-weight: 600; }
  input[type=email] { width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #767676; border-radius: 6px; font-size: 1rem; margin: .25rem 0 1rem; }
  fieldset { border: 1px solid #d0d7de; border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; }
  legend { font-weight: 600; padding: 0 .25rem; }
  .scope { display: flex; gap: .5rem; align-items: flex-start; margin: .4rem 0; }
  .scope code { display: block; color: #57606a; font-size: .8rem; word-break: break-all; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; }
  button { padding: .6rem 1.2rem; border-radius: 6px; font-size: 1rem; cursor: pointer; border: 1px solid #1a73e8; }
  button.primary { background: #1a73e8; color: #fff; }
  button.secondary { background: #fff; color: #1a73e8; }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 600; }
  .muted { color: #57606a; }
  article { border-top: 1px solid #d0d7de; padding: 1rem 0; }
  article h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: 0 0 .5rem; }
  dt { font-weight: 600; }
  dd { margin: 0; word-break: break-word; }
  pre { white-space: pre-wrap; background: #f6f8fa; padding: .75rem; border-radius: 6px; margin: 0; }
`;

function layout(title: string, body: string, wide = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${wide ? 'main { width: min(60rem, 94vw); }' : ''}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const SANDBOX_NOTE =
  '<p class="banner" role="note"><strong>Local sandbox.</strong> This is not Google: it is the Google sandbox built into this local installation. No Google account is contacted and nothing leaves this machine. The mailbox, calendar and contacts you will see are generated from the email address you enter.</p>';

export function consentPage(options: {
  action: string;
  params: Record<string, string>;
  scopes: { scope: string; description: string; required: boolean }[];
  email: string;
  error?: string;
}): string {
  const hidden = Object.entries(options.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  const scopes = options.scopes
    .map((item, index) => {
      const id = `scope-${index}`;
      const control = item.required
        ? `<input type="checkbox" id="${id}" checked disabled aria-describedby="${id}-code">`
        : `<input type="checkbox" id="${id}" name="granted_scope" value="${escapeHtml(item.scope)}" checked aria-describedby="${id}-code">`;
      return `<div class="scope">${control}<label for="${id}">${escapeHtml(item.description)}<code id="${id}-code">${escapeHtml(item.scope)}</code></label></div>`;
    })
    .join('\n      ');
  const error = options.error ? `<p role="alert" class="error" id="email-error">${escapeHtml(options.error)}</p>` : '';
  const client = options.params.client_id ?? '';
  return layout(
    'Sign in with Google (sandbox)',
    `<h1>Sign in with Google (sandbox)</h1>
  ${SANDBOX_NOTE}
  <p>The application <strong>${escapeHtml(client)}</strong> wants to access your Google Account.</p>
  ${error}
  <form method="post" action="${escapeHtml(options.action)}">
    ${hidden}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(options.email)}"${options.error ? ' aria-invalid="true" aria-describedby="email-error"' : ''} autofocus>
    <fieldset>
      <legend>This will allow the application to:</legend>
      ${scopes}
    </fieldset>
    <div class="actions">
      <button type="submit" name="decision" value="cancel" class="secondary" formnovalidate>Cancel</button>
      <button type="submit" name="decision" value="allow" class="primary">Allow</button>
    </div>
  </form>`,
  );
}

export function authErrorPage(error: string, message: string): string {
  return layout(
    'Access blocked: authorization error (sandbox)',
    `<h1>Access blocked: authorization error</h1>
  ${SANDBOX_NOTE}
  <p role="alert" class="error">Error 400: ${escapeHtml(error)}</p>
  <p>${escapeHtml(message)}</p>`,
  );
}

const list = (addresses: { name: string; email: string }[]) =>
  addresses.map((address) => (address.name ? `${address.name} <${address.email}>` : address.email)).join(', ');

export function sentMailPage(messages: SentMailJson[], to: string | undefined): string {
  const items = messages
    .map((mail) => {
      const rows = [
        ['From', list([mail.from])],
        ['To', list(mail.to)],
        ...(mail.cc.length > 0 ? [['Cc', list(mail.cc)]] : []),
        ...(mail.bcc.length > 0 ? [['Bcc', list(mail.bcc)]] : []),
        [
          'Sent',
          `<time datetime="${escapeHtml(mail.sentAt)}">${escapeHtml(new Date(mail.sentAt).toUTCString())}</time>`,
        ],
      ]
        .map(([term, value]) => `<dt>${term}</dt><dd>${term === 'Sent' ? value : escapeHtml(value ?? '')}</dd>`)
        .join('');
      return `<article aria-labelledby="mail-${escapeHtml(mail.id)}">
    <h2 id="mail-${escapeHtml(mail.id)}">${escapeHtml(mail.subject || '(no subject)')}</h2>
    <dl>${rows}</dl>
    <pre>${escapeHtml(mail.text)}</pre>
  </article>`;
    })
    .join('\n  ');
  const filter = to ? ` to ${escapeHtml(to)}` : '';
  const empty = `<p class="muted">No mail has been sent through the sandbox${filter} yet.</p>`;
  return layout(
    'Sent mail (Google sandbox)',
    `<h1>Sent mail${filter}</h1>
  <p class="banner" role="note"><strong>Local sandbox.</strong> Every message sent through the Google sandbox of this installation, newest first. Nothing was delivered outside this machine. Also as <a href="mail.json${to ? `?to=${encodeURIComponent(to)}` : ''}">JSON</a>.</p>
  <p>${messages.length} message${messages.length === 1 ? '' : 's'}.</p>
  ${messages.length > 0 ? items : empty}`,
    true,
  );
}

export function indexPage(endpoints: Record<string, string>, mailPath: string): string {
  const rows = Object.entries(endpoints)
    .map(([name, url]) => `<dt>${escapeHtml(name)}</dt><dd><code>${escapeHtml(url)}</code></dd>`)
    .join('');
  return layout(
    'Google sandbox',
    `<h1>Google sandbox</h1>
  ${SANDBOX_NOTE}
  <p>Configure the official clients with these URLs (see the module's documentation).</p>
  <dl>${rows}</dl>
  <p><a href="${escapeHtml(mailPath)}">Mail sent through the sandbox</a></p>`,
    true,
  );
}
