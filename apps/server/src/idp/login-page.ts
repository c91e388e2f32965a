import { escapeHtml } from '../lib/html.ts';

/**
 * The built-in provider's sign-in page. It stands in for Google and Microsoft in local mode, and says
 * so: nobody should mistake it for the real thing.
 */
export function loginPage(options: { action: string; error?: string; email?: string; name?: string }) {
  const error = options.error ? `<p role="alert" class="error">${escapeHtml(options.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in (local)</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f5f6fa; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); width: min(24rem, 90vw); }
  h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
  .note { color: #555; font-size: .9rem; margin: 0 0 1.25rem; }
  label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
  input { width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #bbb; border-radius: 6px; font-size: 1rem; }
  button { width: 100%; margin-top: .75rem; padding: .65rem; border-radius: 6px; border: 1px solid #333; background: #fff; font-size: 1rem; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #4263eb; outline-offset: 2px; }
  .error { color: #c92a2a; }
</style>
</head>
<body>
<main>
  <h1>Local sign-in</h1>
  <p class="note">This is the built-in identity provider of a local installation. No Google or Microsoft account is contacted: enter the e-mail and name you want to use.</p>
  ${error}
  <form method="post" action="${escapeHtml(options.action)}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(options.email ?? '')}" autofocus>
    <label for="name">Full name</label>
    <input id="name" name="name" type="text" autocomplete="name" value="${escapeHtml(options.name ?? '')}">
    <button type="submit" name="provider" value="google">Continue with Google</button>
    <button type="submit" name="provider" value="microsoft">Continue with Microsoft</button>
  </form>
</main>
</body>
</html>`;
}
