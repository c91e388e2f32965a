import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { mintAccessToken } from './idp/provider.ts';
import { openRuntime } from './runtime.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands work on the same data as the server (DATA_DIR or DATABASE_URL), whether or not it runs.

  token --email <e> [--name <n>]   Print an access token for that user from the built-in identity
                                    provider, creating the sign-in account if needed.
  help                              Show this help.
`;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig();
  if (command === 'token') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, name: { type: 'string' } } });
    if (!values.email) {
      log('token: --email is required');
      return 2;
    }
    if (!config.oidc.builtIn) {
      log('token: an external identity provider is configured (OIDC_ISSUER); ask it for tokens');
      return 2;
    }
    const runtime = await openRuntime(config, log);
    try {
      const token = await mintAccessToken(config, runtime.database.db, { email: values.email, name: values.name });
      process.stdout.write(`${token}\n`);
    } finally {
      await runtime.close();
    }
    return 0;
  }
  log(`Unknown command: ${command}\n`);
  process.stdout.write(HELP);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
