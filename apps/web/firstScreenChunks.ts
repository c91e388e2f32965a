import path from 'node:path';
import type { Plugin } from 'vite';
// By path, as vite.config.ts reads the shared package.
import { FIRST_PAGES_MANIFEST } from '../../packages/shared/src/constants.ts';
import { pageFrame } from './src/app/pageFrameHtml.ts';
import { PATHS } from './src/lib/paths.ts';

/**
 * The screens each page people open the app on shows first (src/app/screens.ts, firstScreensOf), in
 * the order their chunks take modules: one both pages need goes with the earlier (the sign-up), so
 * that page loads nothing of the other.
 */
type FirstScreen = {
  name: string;
  paths: readonly string[];
  files: readonly string[];
  /** The page's heading when it is the same for everyone: its HTML then draws the page's frame (one path). */
  frameTitle?: string;
};
const FIRST_SCREENS: readonly FirstScreen[] = [
  {
    name: 'sign-up-screen',
    paths: [PATHS.signUp.connect],
    files: ['src/features/onboarding/pages/ConnectPage.tsx'],
  },
  {
    name: 'network-screen',
    paths: [PATHS.network],
    files: ['src/app/AppLayout.tsx', 'src/features/network/pages/NetworkPage.tsx'],
    frameTitle: 'Network',
  },
  {
    name: 'actions-screen',
    paths: [PATHS.actions, PATHS.recommendedActions],
    files: ['src/features/actions/pages/ActionsLayout.tsx', 'src/features/actions/pages/RecommendedActionsPage.tsx'],
  },
];

type Origin = { source: string; name: string };
type Statement = { declares: string[]; references: Set<string>; keep: boolean };
/** What a module's top level declares, imports and exports; `name` '*' is a namespace. */
type ModuleShape = {
  statements: Statement[];
  imports: Map<string, Origin>;
  bareImports: string[];
  exports: Map<string, { local: string } | Origin>;
  starSources: string[];
};
type Node = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
const nameOf = (node: unknown) => {
  const { name, value } = (node ?? {}) as { name?: unknown; value?: unknown };
  return typeof name === 'string' ? name : typeof value === 'string' ? value : 'default';
};

/** `import.meta.env.DEV`, `false`, or one of them `&& ...`: a test the production build folds to false. */
function falseInProduction(test: unknown): boolean {
  if (!isNode(test)) return false;
  if (test.type === 'Literal') return test.value === false;
  if (test.type === 'LogicalExpression') return test.operator === '&&' && falseInProduction(test.left);
  const env = test.object;
  return (
    test.type === 'MemberExpression' &&
    nameOf(test.property) === 'DEV' &&
    isNode(env) &&
    nameOf(env.property) === 'env' &&
    isNode(env.object) &&
    env.object.type === 'MetaProperty'
  );
}

/**
 * Every identifier under a node, but in the branches the production build drops (development's
 * answer checks with zod): more than the names it really uses, never fewer.
 */
function identifiers(node: unknown, into: Set<string>) {
  if (Array.isArray(node)) for (const child of node) identifiers(child, into);
  else if (isNode(node)) {
    if (node.type === 'Identifier' || node.type === 'JSXIdentifier') into.add(nameOf(node));
    const dropped =
      (node.type === 'ConditionalExpression' || node.type === 'IfStatement') && falseInProduction(node.test)
        ? 'consequent'
        : node.type === 'LogicalExpression' && falseInProduction(node)
          ? 'right'
          : undefined;
    for (const [key, child] of Object.entries(node)) if (key !== 'type' && key !== dropped) identifiers(child, into);
  }
  return into;
}

function shapeOf(program: { body: Node[] }): ModuleShape {
  const shape: ModuleShape = {
    statements: [],
    imports: new Map(),
    bareImports: [],
    exports: new Map(),
    starSources: [],
  };
  const declare = (node: Node, keep = false) => {
    const declared = node.type === 'VariableDeclaration' ? [...identifiers(node.declarations, new Set())] : [];
    if (node.type !== 'VariableDeclaration') declared.push(nameOf(node.id));
    shape.statements.push({ declares: declared, references: identifiers(node, new Set()), keep });
    return node.type === 'VariableDeclaration'
      ? (node.declarations as { id: unknown }[]).flatMap(({ id }) => [...identifiers(id, new Set())])
      : [nameOf(node.id)];
  };
  for (const statement of program.body) {
    const source = isNode(statement.source) ? nameOf(statement.source) : undefined;
    const specifiers = (statement.specifiers as Node[] | undefined) ?? [];
    if (statement.type === 'ImportDeclaration' && source !== undefined) {
      if (statement.importKind === 'type') continue;
      if (specifiers.length === 0) shape.bareImports.push(source);
      for (const specifier of specifiers)
        shape.imports.set(nameOf(specifier.local), {
          source,
          name:
            specifier.type === 'ImportNamespaceSpecifier'
              ? '*'
              : specifier.type === 'ImportDefaultSpecifier'
                ? 'default'
                : nameOf(specifier.imported),
        });
    } else if (statement.type === 'ExportNamedDeclaration') {
      if (isNode(statement.declaration))
        for (const name of declare(statement.declaration)) shape.exports.set(name, { local: name });
      for (const specifier of specifiers)
        shape.exports.set(
          nameOf(specifier.exported),
          source === undefined ? { local: nameOf(specifier.local) } : { source, name: nameOf(specifier.local) },
        );
    } else if (statement.type === 'ExportAllDeclaration' && source !== undefined) {
      if (statement.exported) shape.exports.set(nameOf(statement.exported), { source, name: '*' });
      else shape.starSources.push(source);
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration as Node;
      if (isNode(declaration.id)) shape.exports.set('default', { local: declare(declaration)[0] ?? 'default' });
      else {
        shape.statements.push({
          declares: ['*default*'],
          references: identifiers(declaration, new Set()),
          keep: false,
        });
        shape.exports.set('default', { local: '*default*' });
      }
    } else if (['VariableDeclaration', 'FunctionDeclaration', 'ClassDeclaration'].includes(statement.type))
      declare(statement);
    // Anything else runs when the module is loaded (`Button.classes = classes;`): kept with it.
    else shape.statements.push({ declares: [], references: identifiers(statement, new Set()), keep: true });
  }
  return shape;
}

/**
 * One chunk per first page rather than the tens of small chunks the bundler makes from the modules
 * lazy screens share (50 scripts for /network): each is a request that a slow connection waits a
 * round trip for (six at a time over HTTP/1.1), and a preload link the first script adds before it
 * renders (issue 26). Once the module graph is built, what each first page's screens use is followed
 * name by name, top-level statement by statement, through the libraries' index files: following
 * every import instead would take all of Mantine (its index imports every component) and zod (the
 * shared package's index). The codeSplitting groups returned read the sets; a module of the first
 * script stays there, its group having priority.
 */
export function firstScreenChunks() {
  const sets = new Map<string, Set<string>>(FIRST_SCREENS.map(({ name }) => [name, new Set<string>()]));
  const plugin: Plugin = {
    name: 'warmpath:first-screen-chunks',
    apply: 'build',
    async buildEnd() {
      const shapes = new Map<string, ModuleShape | null>();
      const shapeFor = (id: string) => {
        if (!shapes.has(id)) {
          const code = this.getModuleInfo(id)?.code;
          let shape: ModuleShape | null = null;
          // A module that is not JavaScript (a stylesheet) is the bundler's business, not followed.
          if (code && /\.[cm]?[jt]sx?$/.test(id)) shape = shapeOf(this.parse(code) as unknown as { body: Node[] });
          shapes.set(id, shape);
        }
        return shapes.get(id) ?? null;
      };
      const resolved = new Map<string, string | null>();
      const resolve = async (source: string, importer: string) => {
        const key = `${importer}\0${source}`;
        if (!resolved.has(key)) resolved.set(key, (await this.resolve(source, importer))?.id ?? null);
        return resolved.get(key) ?? null;
      };
      for (const { name, files } of FIRST_SCREENS) {
        const found = sets.get(name) ?? new Set<string>();
        const needed = new Map<string, { locals: Set<string>; exports: Set<string>; statements: Set<Statement> }>();
        const pending: { id: string; names: readonly string[] }[] = files.map((file) => {
          const id = path.resolve(import.meta.dirname, file);
          if (this.getModuleInfo(id) === null) this.error(`${file} is not in the build: update FIRST_SCREENS`);
          return { id, names: ['*'] };
        });
        while (pending.length > 0) {
          const request = pending.pop();
          const shape = request && shapeFor(request.id);
          if (!request || !shape) continue;
          const { id } = request;
          let state = needed.get(id);
          const firstVisit = state === undefined;
          state ??= { locals: new Set(), exports: new Set(), statements: new Set() };
          needed.set(id, state);
          const locals: string[] = [];
          const use = (statement: Statement) => {
            if (state.statements.has(statement)) return;
            state.statements.add(statement);
            found.add(id);
            locals.push(...statement.references);
          };
          if (firstVisit) {
            for (const statement of shape.statements) if (statement.keep) use(statement);
            for (const source of shape.bareImports) {
              const target = await resolve(source, id);
              if (target !== null) pending.push({ id: target, names: [] });
            }
          }
          const names = request.names.includes('*')
            ? [...shape.exports.keys(), ...(this.getModuleInfo(id)?.exports ?? [])]
            : request.names;
          if (request.names.includes('*')) for (const statement of shape.statements) use(statement);
          for (const exported of names) {
            if (state.exports.has(exported)) continue;
            state.exports.add(exported);
            const origin = shape.exports.get(exported);
            if (origin && 'local' in origin) locals.push(origin.local);
            else if (origin) {
              const target = await resolve(origin.source, id);
              if (target !== null) pending.push({ id: target, names: [origin.name] });
            } else
              for (const source of shape.starSources) {
                const target = await resolve(source, id);
                if (target !== null && (this.getModuleInfo(target)?.exports ?? [exported]).includes(exported))
                  pending.push({ id: target, names: [exported] });
              }
          }
          while (locals.length > 0) {
            const local = locals.pop();
            if (local === undefined || state.locals.has(local)) continue;
            state.locals.add(local);
            const origin = shape.imports.get(local);
            if (origin) {
              const target = await resolve(origin.source, id);
              if (target !== null) pending.push({ id: target, names: [origin.name] });
            }
            for (const statement of shape.statements) if (statement.declares.includes(local)) use(statement);
          }
        }
      }
    },
  };
  /**
   * Each first page's copy of index.html names its screens' chunks (`modulepreload`): the browser
   * fetches them with the app's first script instead of once that script runs, a round trip and the
   * script's evaluation later (issue 26: the largest paint of /network waited on them).
   */
  const pages: Plugin = {
    name: 'warmpath:first-pages',
    apply: 'build',
    // After Vite's own HTML plugin has put index.html in the bundle.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset' || typeof html.source !== 'string') {
        this.error('index.html is not in the bundle yet: the first pages need it');
        return;
      }
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
      const manifest: Record<string, string> = {};
      for (const { name, paths, frameTitle } of FIRST_SCREENS) {
        const chunk = chunks.find((candidate) => candidate.name === name && !candidate.isEntry);
        if (chunk === undefined) this.error(`no ${name} chunk in the build`);
        // The chunk and what it imports statically, but the entry (index.html loads it already).
        const files = new Set<string>();
        const pending = [chunk.fileName];
        while (pending.length > 0) {
          const fileName = pending.pop();
          const file = fileName === undefined ? undefined : bundle[fileName];
          if (file?.type !== 'chunk' || file.isEntry || files.has(file.fileName)) continue;
          files.add(file.fileName);
          pending.push(...file.imports);
        }
        const links = [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
        const [firstPath = '/'] = paths;
        const frame = frameTitle === undefined ? { head: '', body: '' } : pageFrame(firstPath, frameTitle);
        const fileName = `first-pages/${name}.html`;
        this.emitFile({
          type: 'asset',
          fileName,
          source: html.source
            .replace('</head>', `${links}${frame.head}</head>`)
            .replace('<div id="root"></div>', `<div id="root"></div>${frame.body}`),
        });
        for (const pagePath of paths) manifest[pagePath] = fileName;
      }
      this.emitFile({
        type: 'asset',
        fileName: FIRST_PAGES_MANIFEST,
        source: `${JSON.stringify(manifest, null, 2)}\n`,
      });
    },
  };
  const groups = FIRST_SCREENS.map(({ name }, index) => ({
    name,
    test: (id: string) => sets.get(name)?.has(id) === true,
    // The earlier page first; the caller's groups above these (the first script's) keep their modules.
    priority: FIRST_SCREENS.length - index,
  }));
  return { plugins: [plugin, pages], groups, count: FIRST_SCREENS.length };
}
