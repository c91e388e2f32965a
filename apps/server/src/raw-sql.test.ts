// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the reviewed uses and planted lines quote source code, placeholders and all.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Values reach PostgreSQL as bound parameters (drizzle's sql`...${value}`, pg's $1), never as text of
// the statement. The server's code is read here for SQL text built from anything but a string
// literal: `sql.raw(...)` of a non-literal, and SQL written in an untagged template or a `+`. Each such
// place must be one of the reviewed uses below, where what goes in is a constant of the code (column
// names, aliases, numbers of our own) and never a value from a request or the database. A new use
// fails here until it is reviewed and added with its reason; a use that is gone must leave the list.
// COPY takes no parameters: its queries go through db/inline-sql.ts, which quotes each value whole.

const SRC = fileURLToPath(new URL('./', import.meta.url));

/** Text of a template or string that reads as a statement or a clause of one. */
const SQL_TEXT =
  /\b(select\b[\s\S]*\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|copy\s*\(|copy\s+\w+\s*[(]|copy\s+\w+\s+(from|to)\b|create\s+(temp|temporary|unlogged|table|index|database|role|schema|extension|function|view)\b|drop\s+(table|index|database|role|schema|view)\b|alter\s+(table|role|database)\b|analyze\b|vacuum\b|truncate\b|grant\b|set_config)/i;

/** What each reviewed use puts into a statement's text, and why that is only ever a constant. */
const REVIEWED: Record<string, { reason: string; uses: string[] }> = {
  'db/analyze.ts': {
    reason: 'table names our own code passes, each quoted by escapeIdentifier (ANALYZE and VACUUM take no parameters)',
    uses: ['template: tableList(client, names)', 'template: tableList(client, tables)'],
  },
  'db/embedded.ts': {
    reason: "the embedded cluster's database name, a constant (CREATE DATABASE takes no parameters)",
    uses: ['template: DATABASE'],
  },
  'demo/seed-demo.ts': {
    reason: 'sizes, salts, aliases and column names of the demo generator, none from input',
    uses: ['sql.raw: String(Math.trunc(value))', 'sql.raw: Number(value)', 'sql.raw: alias', 'sql.raw: column'],
  },
  'features/lists/imports/import-kinds.ts': {
    reason: "the staging table's columns: the import kind's constant column names",
    uses: [
      "template: spec.columns.map((column) => `${column} text`).join(', '), options.dropOnCommit ? ' on commit drop' : ''",
    ],
  },
  'features/lists/imports/imports.repo.ts': {
    reason:
      "COPY FROM STDIN's column list, and the staged rows' values to and from their array: the import kind's constant column names",
    uses: [
      'sql.raw: stagedValuesSql(KINDS[kind])',
      "template: spec.columns.join(', ')",
      'sql.raw: unstagedValuesSql(KINDS[kind])',
    ],
  },
  'features/lists/imports/merge.ts': {
    reason: 'staging table and key column names chosen by the merge steps (constants), and the staging DDL',
    uses: [
      "sql.raw: table, table === 'import_rows' ? ' where reason is null' : '', key, key",
      'sql.raw: stagingTableSql(KINDS[kind], { dropOnCommit: true })',
    ],
  },
  'features/network/export-csv.ts': {
    reason: 'the COPY wrapped around the query that db/inline-sql.ts wrote',
    uses: ['template: inlineSql(query)'],
  },
  'features/network/network-index/snapshot.ts': {
    reason: "the copy's constant column list, and the COPY wrapped around the query db/inline-sql.ts wrote",
    uses: ["sql.raw: TEXT_COLUMNS.map((column) => `${column}::text`).join(', ')", 'template: inlineSql(query)'],
  },
  'features/network/network.repo.ts': {
    reason: "a facet's column, from VALUE_COLUMNS keyed by the validated filter field",
    uses: ['sql.raw: column'],
  },
  'graph/engagement.ts': {
    reason: 'engagement codes and names: constants of packages/shared',
    uses: ['sql.raw: String(engagementCode(engagement))', 'sql.raw: engagement'],
  },
  'graph/graph.sql.ts': {
    reason: 'aliases and columns of the calling statement, participant cap and proximity bands: constants',
    uses: [
      'sql.raw: person',
      'sql.raw: client',
      'sql.raw: client',
      'sql.raw: companyId',
      'sql.raw: edge',
      'sql.raw: edge',
      'sql.raw: column',
      'sql.raw: String(MAX_PARTICIPANTS)',
      'sql.raw: String(band.min)',
      "sql.raw: as === 'name' ? `'${band.name}'` : String(band.min)",
    ],
  },
  'graph/job-changes.ts': {
    reason: 'a table alias of the calling statement',
    uses: ['sql.raw: alias'],
  },
  'graph/proximity.ts': {
    reason: 'a table alias and the edge columns the model reads: constants',
    uses: ['sql.raw: alias', 'sql.raw: alias, column'],
  },
  'graph/recompute.ts': {
    reason: "the network row's constant column lists, aliases, a time column and a bucket shift",
    uses: [
      'sql.raw: time',
      'sql.raw: String(RANK_BUCKET_SHIFT)',
      "sql.raw: ROW_COLUMNS.map((column) => `${a}.${column}`).join(', '), ROW_COLUMNS.map((column) => `${b}.${column}`).join(', ')",
      "sql.raw: ROW_COLUMNS.join(', ')",
      "sql.raw: ROW_COLUMNS.filter((column) => column !== 'prospect_id') .map((column) => `${column} = excluded.${column}`) .join(', ')",
      "sql.raw: SUMMED_COLUMNS.join(', ')",
      "sql.raw: SUMMED_COLUMNS.map((column) => `r.${column}`).join(', ')",
    ],
  },
  'graph/signals.ts': {
    reason: 'signal types, bits, temperature masks and ranks: constants of packages/shared; a table alias',
    uses: [
      'sql.raw: String(signalBit(type))',
      'sql.raw: type',
      'sql.raw: alias',
      'sql.raw: String(temperatureMask(temperature))',
      'sql.raw: String(rank)',
      'sql.raw: String(SIGNAL_TEMPERATURES.length)',
    ],
  },
  'jobs/queue.ts': {
    reason:
      "pg-boss's schema name (configuration) and our role's name in its DDL; pg-boss's own statements, cut at their $N with each value bound",
    uses: [
      'template: schema, APP_ROLE, schema, APP_ROLE, schema, APP_ROLE',
      'template: schema',
      'sql.raw: text.slice(last, match.index)',
      'sql.raw: text.slice(last)',
    ],
  },
};

const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();

const isStringLiteral = (node: ts.Node) => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);

/** The expressions a template interpolates, or the expression itself. */
function whatGoesIn(node: ts.Expression, source: ts.SourceFile): string {
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.map((span) => normalized(span.expression.getText(source))).join(', ');
  }
  return normalized(node.getText(source));
}

/** The places in `text` that build SQL text from anything but a literal: `line: what goes in`. */
export function builtSql(text: string): { line: number; use: string }[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const found: { line: number; use: string }[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'raw' &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'sql'
    ) {
      const [argument] = node.arguments;
      if (argument && !isStringLiteral(argument))
        found.push({ line: at(node), use: `sql.raw: ${whatGoesIn(argument, source)}` });
    } else if (ts.isTemplateExpression(node) && !ts.isTaggedTemplateExpression(node.parent)) {
      const literal = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
      const insideRaw =
        ts.isCallExpression(node.parent) && /^sql\s*\.\s*raw$/.test(node.parent.expression.getText(source));
      if (SQL_TEXT.test(literal) && !insideRaw)
        found.push({ line: at(node), use: `template: ${whatGoesIn(node, source)}` });
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const sides = [node.left, node.right];
      const sqlSide = sides.find((side) => isStringLiteral(side) && SQL_TEXT.test((side as ts.StringLiteral).text));
      const other = sides.find((side) => side !== sqlSide);
      if (sqlSide && other && !isStringLiteral(other))
        found.push({ line: at(node), use: `concatenation: ${whatGoesIn(other, source)}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('SQL is never built from values', () => {
  it('finds SQL text built from non-literals only in the reviewed uses', () => {
    const files = serverFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const unreviewed: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const file of files) {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      const reviewed = new Set(REVIEWED[relative]?.uses ?? []);
      for (const { line, use } of builtSql(fs.readFileSync(file, 'utf8'))) {
        if (!reviewed.has(use)) unreviewed.push(`${relative}:${line}: ${use}`);
        seen.set(relative, (seen.get(relative) ?? new Set()).add(use));
      }
    }
    expect(unreviewed, 'bind these values, or review the use and add it to REVIEWED with why it is constant').toEqual(
      [],
    );
    const stale = Object.entries(REVIEWED).flatMap(([file, { uses }]) =>
      uses.filter((use) => !seen.get(file)?.has(use)).map((use) => `${file}: ${use}`),
    );
    expect(stale, 'reviewed uses no longer in the code: remove them from REVIEWED').toEqual([]);
  });

  it('tells SQL built from values from what only looks like it', () => {
    const planted = [
      'const a = sql.raw(name);',
      'const b = sql.raw(`${alias}.id`);',
      'await client.query(`select * from people where email = ${email}`);',
      "await client.query('delete from people where id = ' + id);",
      'const c = `copy (${query}) to stdout`;',
      "const d = `update users set first_name = '${first}'`;",
    ].join('\n');
    expect(builtSql(planted)).toEqual([
      { line: 1, use: 'sql.raw: name' },
      { line: 2, use: 'sql.raw: alias' },
      { line: 3, use: 'template: email' },
      { line: 4, use: 'concatenation: id' },
      { line: 5, use: 'template: query' },
      { line: 6, use: 'template: first' },
    ]);
    const innocent = [
      "const a = sql.raw('g.j');",
      'const b = sql.raw(`p.full_name`);',
      'const c = sql`select * from people where email = ${email}`;',
      "await client.query('select 1 from people where id = $1', [id]);",
      'const d = `Choose a file from ${place}`;',
      "const e = 'Selected ' + count;",
    ].join('\n');
    expect(builtSql(innocent)).toEqual([]);
  });
});
