import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { TWorkflow } from '@warmpath/shared';
import { type Config, loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { DEMO_SIZES, type SeedReport, seedDemo } from './demo/seed-demo.ts';
import { createEventRecorder } from './events/record.ts';
import { explainLatestRun, recommendActions, type WorkspaceRunSummary } from './features/actions/engine.ts';
import {
  findDomainOwners,
  findUsersByEmail,
  insertUser,
  insertWorkspace,
  listWorkspaceIds,
  setOnboarding,
} from './features/users/users.repo.ts';
import { activate, createFromTemplate, dryRun, listAll, showWorkflow } from './features/workflows/operator.ts';
import { isWorkflowTemplate, WORKFLOW_TEMPLATES } from './features/workflows/templates.ts';
import { recomputeAll } from './graph/graph.service.ts';
import { upsertAccount } from './idp/accounts.ts';
import { mintAccessToken } from './idp/provider.ts';
import { startJobQueue } from './jobs/queue.ts';
import { emailDomain, isFreeEmailDomain } from './lib/free-email-domains.ts';
import { openRuntime, type Runtime } from './runtime.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands work on the same data as the server (DATA_DIR or DATABASE_URL), whether or not it runs.

  token --email <e> [--name <n>]   Print an access token for that user from the built-in identity
                                    provider, creating the sign-in account if needed.
  seed-demo --email <e> [--size small|medium|large]
                                    Fill that user's workspace with demo data: companies, people,
                                    colleagues, allies, accounts, evidence and the network built from
                                    it. An unknown e-mail gets a new workspace (named after its domain)
                                    with that user as admin, and a sign-in account. Default size small
                                    (300 companies, 3,000 prospects); medium has 100,000 prospects and
                                    1M edges, large 1M prospects and 10M edges. Running it again adds
                                    nothing twice.
  recompute [--email <e>] [--from-evidence]
                                    Recompute the relationship graph of that user's workspace, or of
                                    every workspace: rescore every edge and rebuild the network rows;
                                    with --from-evidence, rebuild the edges from raw evidence first.
  recommend [--email <e>] [--explain]
                                    Run today's recommended actions of that user (or of every
                                    workspace) now, as the daily schedule does, and print what each
                                    user got. A second run the same day adds nothing. With
                                    --explain (and --email), print the user's latest run instead:
                                    every candidate, kept or dropped, and why.
  workflows <list|show|create|activate|deactivate|dry-run> --email <e> [<id>] [--from-template <t>]
                                    The workflow agents of that user's workspace, which the provider
                                    writes (users only read them): list them, show one, create one
                                    from a template (inactive; its 'ideal customer profile' and 'my
                                    accounts' are that user's), activate or deactivate one, or print
                                    what it would push today and why, without pushing. Templates:
                                    ${Object.keys(WORKFLOW_TEMPLATES).join(', ')}.
  help                              Show this help.
`;

/** A mistake in how a command was called: its message is printed, not a stack trace. */
class UsageError extends Error {}
/** Ours, or parseArgs' (an unknown option, a missing value). */
const isUsageError = (error: unknown): error is Error =>
  error instanceof UsageError ||
  (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'));

const log = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (value: number) => value.toLocaleString('en-US');

async function withRuntime<T>(config: Config, work: (runtime: Runtime) => Promise<T>) {
  const runtime = await openRuntime(config, log);
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

async function tokenCommand(config: Config, args: string[]) {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' } } });
  if (!values.email) throw new UsageError('token: --email is required');
  if (!config.oidc.builtIn) {
    throw new UsageError('token: an external identity provider is configured (OIDC_ISSUER); ask it for tokens');
  }
  const email = values.email;
  const token = await withRuntime(config, (runtime) =>
    mintAccessToken(config, runtime.database.db, { email, name: values.name }),
  );
  out(token);
  return 0;
}

/** "jane.doe@acme-demo.test" -> Jane Doe, and its workspace "Acme Demo". */
function namesOf(email: string) {
  const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const [first = 'Demo', ...rest] = email
    .slice(0, email.indexOf('@'))
    .split(/[._+-]+/)
    .filter(Boolean);
  const domain = emailDomain(email);
  return {
    firstName: capitalise(first),
    lastName: rest.map(capitalise).join(' '),
    workspaceName: domain.split('.')[0]?.split('-').map(capitalise).join(' ') || domain,
  };
}

/**
 * The user with this e-mail in any workspace, or a new workspace with them as its admin (onboarding
 * done) and, with the built-in identity provider, the account they sign in with.
 */
async function findOrCreateDemoUser(config: Config, database: Database, email: string) {
  const [found, ...others] = await findUsersByEmail(database, email);
  if (found) {
    if (others.length > 0)
      log(`seed-demo: ${email} is in ${others.length + 1} workspaces; filling ${found.workspaceId}`);
    return { workspaceId: found.workspaceId, userId: found.userId, created: false };
  }
  const domain = emailDomain(email);
  const domains = isFreeEmailDomain(domain) ? [] : [domain];
  if ((await findDomainOwners(database.db, domains)).length > 0) {
    throw new UsageError(`seed-demo: ${domain} belongs to another workspace; use an e-mail of one of its users`);
  }
  const { firstName, lastName, workspaceName } = namesOf(email);
  // Without the built-in provider the user signs in elsewhere; the subject only has to be unique.
  const subject = config.oidc.builtIn ? (await upsertAccount(database.db, email, '')).subject : `demo|${randomUUID()}`;
  const workspaceId = randomUUID();
  const userId = await database.inWorkspace(workspaceId, async (tx) => {
    await insertWorkspace(tx, { id: workspaceId, name: workspaceName, domains, allowDomainJoin: false });
    const id = await insertUser(tx, { workspaceId, idpSubject: subject, firstName, lastName, email, role: 'admin' });
    await setOnboarding(tx, workspaceId, id, { onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true });
    return id;
  });
  log(`seed-demo: created workspace "${workspaceName}" (${workspaceId}) for ${email}`);
  return { workspaceId, userId, created: true };
}

function printSeedReport(email: string, report: SeedReport) {
  const { created: c, totals } = report;
  out(`workspace: ${report.workspaceId}`);
  out(`user: ${email}`);
  out(`size: ${report.size}`);
  out(
    `created: ${fmt(c.companies)} companies, ${fmt(c.people)} people, ${fmt(c.members)} members, ${fmt(c.allies)} allies, ` +
      `${fmt(c.trackedClients)} tracked clients, ${fmt(c.accounts)} accounts (${fmt(c.accountAssignees)} assignees), ` +
      `${fmt(c.employments)} employments, ${fmt(c.websiteEvents)} website events, ${fmt(c.interactions)} interactions ` +
      `(${fmt(c.participants)} participants), ${fmt(c.linkedinConnections)} LinkedIn connections, ${fmt(c.edges)} edges`,
  );
  out(`edges: ${totals.edges}`);
  out(`network rows: ${totals.networkRows}`);
  out(
    `time: ${(report.ms / 1000).toFixed(1)} s (${Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')})`,
  );
}

async function seedDemoCommand(config: Config, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, size: { type: 'string', default: 'small' } },
  });
  const email = values.email?.trim().toLowerCase();
  if (!email?.includes('@')) throw new UsageError('seed-demo: --email is required');
  const size = DEMO_SIZES.find((name) => name === values.size);
  if (!size) throw new UsageError(`seed-demo: --size must be one of ${DEMO_SIZES.join(', ')}`);
  await withRuntime(config, async ({ database, databaseUrl }) => {
    const user = await findOrCreateDemoUser(config, database, email);
    // The agents' pushes leave through the outbox, as a server's do: jobs are queued, not worked here.
    const jobs = await startJobQueue(databaseUrl, log, { role: 'api' });
    try {
      const report = await seedDemo(database, {
        workspaceId: user.workspaceId,
        seedUserId: user.userId,
        size,
        log,
        events: { events: createEventRecorder(jobs), publicUrl: config.publicUrl },
      });
      printSeedReport(email, report);
    } finally {
      await jobs.stop();
    }
  });
  return 0;
}

async function recomputeCommand(config: Config, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, 'from-evidence': { type: 'boolean', default: false } },
  });
  const fromEvidence = values['from-evidence'];
  await withRuntime(config, async ({ database }) => {
    const workspaceIds = values.email
      ? [...new Set((await findUsersByEmail(database, values.email)).map((user) => user.workspaceId))]
      : await listWorkspaceIds(database);
    if (values.email && workspaceIds.length === 0) throw new UsageError(`recompute: no user ${values.email}`);
    for (const workspaceId of workspaceIds) {
      log(`recompute: workspace ${workspaceId}...`);
      const report = await recomputeAll(database, workspaceId, { fromEvidence });
      out(
        `workspace ${workspaceId}: ${fmt(report.people)} people, ${fmt(report.edges)} edges rebuilt, ` +
          `${fmt(report.rowsWritten)} rows written, ${fmt(report.rowsRemoved)} removed, ${(report.ms / 1000).toFixed(1)} s`,
      );
    }
  });
  return 0;
}

function printRecommendations(run: WorkspaceRunSummary) {
  for (const user of run.users) {
    const what =
      user.note ?? `${user.kept} kept, ${user.dropped} dropped, ${user.alreadyToday} already recommended today`;
    out(`workspace ${run.workspaceId} ${run.day} ${user.email}: ${what}`);
  }
}

async function recommendCommand(config: Config, args: string[]) {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, explain: { type: 'boolean', default: false } },
  });
  if (values.explain && !values.email) throw new UsageError('recommend: --explain needs --email');
  await withRuntime(config, async ({ database }) => {
    if (!values.email) {
      for (const workspaceId of await listWorkspaceIds(database)) {
        printRecommendations(await recommendActions(database, workspaceId));
      }
      return;
    }
    const users = await findUsersByEmail(database, values.email);
    if (users.length === 0) throw new UsageError(`recommend: no user ${values.email}`);
    for (const user of users) {
      if (!values.explain) {
        printRecommendations(await recommendActions(database, user.workspaceId, { userId: user.userId }));
        continue;
      }
      const log = await explainLatestRun(database, user.workspaceId, user.userId);
      if (log.length === 0) {
        out(`workspace ${user.workspaceId}: no run yet for ${values.email}`);
        continue;
      }
      out(`workspace ${user.workspaceId}: run of ${log[0]?.run_on} for ${values.email}`);
      for (const entry of log) {
        const who = [entry.prospect, entry.company && `(${entry.company})`].filter(Boolean).join(' ');
        out(`  ${entry.outcome.padEnd(7)} ${who}: ${entry.reason}`);
      }
    }
  });
  return 0;
}

async function workflowsCommand(config: Config, args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: 'string' }, 'from-template': { type: 'string' } },
  });
  const [action, id] = positionals;
  if (!values.email) throw new UsageError('workflows: --email is required');
  const needsId = action === 'show' || action === 'activate' || action === 'deactivate' || action === 'dry-run';
  if (needsId && !id) throw new UsageError(`workflows ${action}: the workflow's id is required`);
  const email = values.email;
  return withRuntime(config, async ({ database }) => {
    const [user] = await findUsersByEmail(database, email);
    if (!user) throw new UsageError(`workflows: no user ${email}`);
    const ws = user.workspaceId;
    const print = (workflow: TWorkflow) =>
      out(
        `${workflow.id}  ${workflow.active ? 'active  ' : 'inactive'}  ${workflow.name}: ${workflow.signals.join(', ')} -> ${workflow.engagements.join(', ')}`,
      );
    switch (action) {
      case 'list': {
        const workflows = await listAll(database, ws);
        if (workflows.length === 0) out(`workspace ${ws}: no workflow yet`);
        workflows.forEach(print);
        return 0;
      }
      case 'create': {
        const template = values['from-template'] ?? '';
        if (!isWorkflowTemplate(template))
          throw new UsageError(
            `workflows create: --from-template is one of ${Object.keys(WORKFLOW_TEMPLATES).join(', ')}`,
          );
        print(await createFromTemplate(database, ws, template, user.userId));
        return 0;
      }
      case 'show': {
        const workflow = await showWorkflow(database, ws, id ?? '');
        if (!workflow) throw new UsageError(`workflows show: no workflow ${id}`);
        out(JSON.stringify(workflow, null, 2));
        return 0;
      }
      case 'activate':
      case 'deactivate': {
        if (!(await activate(database, ws, id ?? '', action === 'activate')))
          throw new UsageError(`workflows ${action}: no workflow ${id}`);
        out(`${id} ${action}d`);
        return 0;
      }
      case 'dry-run': {
        const run = await dryRun(database, ws, id ?? '');
        if (!run) throw new UsageError(`workflows dry-run: no workflow ${id}`);
        out(
          `${run.workflow.name} (${run.workflow.active ? 'active' : 'inactive'}): ${run.lines.length} pushes today, from ${run.candidates} prospects holding its signals`,
        );
        for (const line of run.lines) out(`  ${line.prospect}, ${line.signal}: ${line.outcome}`);
        return 0;
      }
      default:
        throw new UsageError('workflows: list, show, create, activate, deactivate or dry-run');
    }
  });
}

const COMMANDS: Record<string, (config: Config, args: string[]) => Promise<number>> = {
  token: tokenCommand,
  'seed-demo': seedDemoCommand,
  recompute: recomputeCommand,
  recommend: recommendCommand,
  workflows: workflowsCommand,
};

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    log(`Unknown command: ${command}\n`);
    process.stdout.write(HELP);
    return 2;
  }
  try {
    return await run(loadConfig(), rest);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    log(error.message);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
