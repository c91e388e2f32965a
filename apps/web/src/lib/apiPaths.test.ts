import { API_CONTRACTS } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { isAppCode, sourceFiles } from '../testing/sourceFiles.ts';

// Every source file of the web app but its tests and test helpers, as text.
const sources = Object.fromEntries(Object.entries(sourceFiles).filter(([path]) => isAppCode(path)));

/** The first two segments of each contract's path ('/contacts/query', '/health'): where API paths start. */
const API_PREFIXES = [
  ...new Set(API_CONTRACTS.map((contract) => contract.path.split('/').slice(0, 3).join('/'))),
].flatMap((prefix) => [prefix, `/api${prefix}`]);
/** The spec's style of API path, whatever its first segment: `/<domain>/query...` or `/<domain>/command...`. */
const SPEC_STYLE = /^(\/api)?\/[a-z-]+\/(query|command)(\/|$)/;

/** The string literals (and template literals' heads) of a source that name an API path. */
function apiPathsIn(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/['"`](\/[^'"`\s]*)/g)]
    .map((match) => match[1] ?? '')
    .filter((literal) => SPEC_STYLE.test(literal) || API_PREFIXES.some((prefix) => literal.startsWith(prefix)));
}

describe('the web app calls the API through its contracts', () => {
  it('names no API path of its own', () => {
    const named = Object.entries(sources).flatMap(([file, source]) =>
      apiPathsIn(source).map((path) => `${file}: ${path}`),
    );
    expect(named).toEqual([]);
  });

  it('would notice one, declared or not', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(
      apiPathsIn(`
        // '/users/query/me' in a comment is no call
        apiRequest({ path: '/users/query/me' });
        fetch(\`/api/accounts/command/delete/\${id}\`);
        const undeclared = "/widgets/query/all";
        navigate('/actions/recommended-actions');
      `),
    ).toEqual(['/users/query/me', expect.stringMatching(/^\/api\/accounts\/command\/delete\//), '/widgets/query/all']);
  });
});
